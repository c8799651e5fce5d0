#!/usr/bin/env bash
# HTTP/2 against HTTP/1.1 on one site over one connection
# (run by hand, never in CI). One nginx serves a documentation site on
# loopback over TLS twice: port 8443 with `http2` (ALPN picks h2) and port
# 8444 without (ALPN picks http/1.1). In the same run:
#   - our cluster (1 name server, 1 queue server, 1 fetcher; robots and one
#     connection per host kept) crawling the site over h2 (--h2-streams N
#     for each N in --streams) and over HTTP/1.1, wall time from `crawlctl
#     start` to done;
#   - GNU wget2 --recursive over h2 (its default, --http2) with 1 thread and
#     with its default 5, and over HTTP/1.1 (--no-http2) with 1 thread.
# Pages/s = distinct non-robots URLs answered 200/206 (ours) or files written (wget2)
# per second of wall time; "connections" = distinct nginx connection
# numbers in that run's access log (the politeness unit). CPU ms/page is
# user+sys of the tool's processes (our cluster's from /proc between start
# and done, wget2's from GNU time) and, apart, nginx's worker;
# least_wall_s = (tool + nginx CPU) / cores, the wall time the machine
# could not beat for that much work however well it overlapped.
# --repeat N runs the whole list N times, in turn.
#
# --rtt-ms R puts a network's round trip between every tool and nginx: a
# relay (build/bin/fault_proxy --latency-ms, tests/faults/fault_proxy.h)
# holds each byte R/2 ms (rounded down) in each direction, on ports 9443 -> 8443 and 9444 -> 8444
# (on loopback a round trip is tens of microseconds, which hides what
# requests in flight on one connection buy).
#
#   tests/bench/h2_throughput.sh [--site DIR] [--streams LIST] [--rtt-ms R] [--repeat N] [--timeout S] [--out DIR]
# Address: ${H2_ADDR:-127.23.0.1}, ports 8443 and 8444.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="${CRAWL_BIN:-$root/build/bin}"
site=/usr/share/doc/libboost1.81-doc/doc/html streams="4,16" timeout=600 out="" rtt_ms=0 repeat=1
while [ $# -gt 0 ]; do
  case "$1" in
    --site) site=$2; shift 2 ;;
    --streams) streams=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --rtt-ms) rtt_ms=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "h2_throughput: unknown option $1" >&2; exit 2 ;;
  esac
done
die() { echo "h2_throughput: $*" >&2; exit 1; }
for b in crawlctl nameserver queueserver fetcher; do [ -x "$bin/$b" ] || die "$bin/$b missing; build first"; done
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || die "--repeat wants a positive count, not '$repeat'"
for c in wget2 openssl; do command -v "$c" > /dev/null || die "$c missing (deploy/install-deps.sh --test)"; done
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx_bin" ] || die "nginx missing (deploy/install-deps.sh --test)"
[ -d "$site" ] || die "no site at $site"
[ -n "$out" ] || out=$(mktemp -d /tmp/h2-throughput.XXXXXX)
mkdir -p "$out"; out=$(cd "$out" && pwd)
addr=${H2_ADDR:-127.23.0.1}
work=$(mktemp -d /tmp/h2-throughput-work.XXXXXX)
shm=$(mktemp -d /dev/shm/h2-throughput.XXXXXX)
nginx_pid="" proxy_pids=""
cleanup() {
  [ -z "$proxy_pids" ] || kill $proxy_pids 2> /dev/null || true
  [ ! -f "$work/cluster/cluster.env" ] || "$root/deploy/local-cluster.sh" down --dir "$work/cluster" > /dev/null 2>&1 || true
  [ -z "$nginx_pid" ] || kill "$nginx_pid" 2> /dev/null || true
  rm -rf "$work" "$shm"
}
trap cleanup EXIT

mkdir -p "$work/nginx"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj "/CN=$addr" \
  -keyout "$work/nginx/key.pem" -out "$work/nginx/cert.pem" 2> /dev/null
root_dir=$(readlink -f "$site")
tls="ssl_certificate $work/nginx/cert.pem; ssl_certificate_key $work/nginx/key.pem; root $root_dir;"
cat > "$work/nginx/nginx.conf" <<EOF
daemon off; worker_processes 1; pid $work/nginx/nginx.pid; error_log $work/nginx/error.log;
events { worker_connections 1024; }
http { include /etc/nginx/mime.types; default_type application/octet-stream; sendfile on;
  keepalive_requests 1000000; log_format conn '\$connection \$server_protocol \$status';
  client_body_temp_path $work/nginx; proxy_temp_path $work/nginx;
  fastcgi_temp_path $work/nginx; uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
  server { listen $addr:8443 ssl http2; $tls access_log $work/nginx/access.log conn; }
  server { listen $addr:8444 ssl; $tls access_log $work/nginx/access.log conn; }
}
EOF
"$nginx_bin" -c "$work/nginx/nginx.conf" -p "$work/nginx" > "$work/nginx/out.log" 2>&1 &
nginx_pid=$!
for _ in $(seq 1 50); do curl -skf -o /dev/null "https://$addr:8444/index.html" && break; sleep 0.1; done
curl -skf -o /dev/null "https://$addr:8444/index.html" || die "nginx did not start: $(cat "$work/nginx/error.log")"

# h2_port and h1_port: where the tools connect (nginx, or the delay relays).
h2_port=8443 h1_port=8444
if [ "$rtt_ms" != 0 ]; then
  [ -x "$bin/fault_proxy" ] || die "$bin/fault_proxy missing; build first"
  for pair in 9443:8443 9444:8444; do
    "$bin/fault_proxy" --listen "$addr:${pair%:*}" --upstream "$addr:${pair#*:}" --latency-ms "$((rtt_ms / 2))" \
      > "$work/proxy-${pair%:*}.log" 2>&1 &
    proxy_pids="$proxy_pids $!"
  done
  h2_port=9443 h1_port=9444
  for _ in $(seq 1 50); do curl -skf -o /dev/null "https://$addr:$h1_port/index.html" && break; sleep 0.1; done
  curl -skf -o /dev/null "https://$addr:$h1_port/index.html" || die "delay relay did not start: $(cat "$work"/proxy-*.log)"
fi

results="$out/h2_throughput.tsv"
printf 'tool\tprotocol\tpages\twall_s\tpages_per_s\tcpu_ms_per_page\tnginx_cpu_ms_per_page\tleast_wall_s\tconnections\tnote\n' > "$results"
hz=$(getconf CLK_TCK) cores=$(nproc)
log_mark() { wc -l < "$work/nginx/access.log" 2> /dev/null || echo 0; }
log_summary() {  # log_summary FROM_LINE: "CONNECTIONS PROTOCOLS" of the access log lines after FROM_LINE
  tail -n +"$(($1 + 1))" "$work/nginx/access.log" |
    awk '{c[$1] = 1; p[$2] = 1} END {n = 0; for (k in c) n++; s = ""; for (k in p) s = s (s ? "," : "") k; print n, s}'
}
ticks_of() {  # ticks_of PID...: user+sys clock ticks of the living ones
  local total=0 pid
  for pid in "$@"; do
    [ -r "/proc/$pid/stat" ] || continue
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
  done
  echo "$total"
}
nginx_ticks() { ticks_of "$nginx_pid" $(pgrep -P "$nginx_pid" || true); }
cluster_ticks() { ticks_of $(cat "$work"/cluster/*.pid 2> /dev/null); }
record() {  # record TOOL PAGES T0 T1 MARK TOOL_CPU_S NGINX_CPU_S NOTE
  local summary; summary=$(log_summary "$5")
  python3 -c '
import sys
tool, pages, t0, t1, summary, cpu, nginx_cpu, cores, note = sys.argv[1:]
conns, protocols = (summary.split() + ["-"])[:2]
pages, wall, cpu, nginx_cpu = int(pages), float(t1) - float(t0), float(cpu), float(nginx_cpu)
per_page = lambda s: f"{s * 1000 / max(pages, 1):.3f}"
print(f"{tool}\t{protocols}\t{pages}\t{wall:.2f}\t{pages / wall:.0f}\t{per_page(cpu)}\t{per_page(nginx_cpu)}\t"
      f"{(cpu + nginx_cpu) / int(cores):.2f}\t{conns}\t{note}")
' "$1" "$2" "$3" "$4" "$summary" "$6" "$7" "$cores" "$8" >> "$results"
  tail -n 1 "$results" >&2
}
ticks_s() { python3 -c "import sys; print((int(sys.argv[2]) - int(sys.argv[1])) / int(sys.argv[3]))" "$1" "$2" "$hz"; }

run_crawler() {  # run_crawler LABEL PORT STREAMS
  local label=$1 port=$2 n=$3 state=running t0 t1 mark pages
  rm -rf "$work/cluster"
  CRAWL_BIN=$bin "$root/deploy/local-cluster.sh" up --dir "$work/cluster" --queueservers 1 --fetchers 1 \
    --allow-private --fetcher-args "--h2-streams $n" > /dev/null
  unset CRAWL_TLS_CA CRAWL_TLS_CERT CRAWL_TLS_KEY CRAWL_TOKEN_FILE
  . "$work/cluster/cluster.env"
  export CRAWL_NAMESERVER=$NAMESERVER
  echo "https://$addr:$port/index.html" > "$work/seeds.txt"
  local k0 k1 n0 n1
  mark=$(log_mark); k0=$(cluster_ticks); n0=$(nginx_ticks); t0=$(date +%s.%N)
  "$bin/crawlctl" start --seeds "$work/seeds.txt" --allow-private --accept-self-signed --include-hosts "$addr" \
    --max-links-per-page 20000 --max-links-after-prune 20000 --page-range 10000000 > /dev/null
  # crawlctl wait asks every 50 ms in one process (a status process every
  # 0.2 s cost the crawler up to 0.3 s of wall time it did not use).
  state=$({ "$bin/crawlctl" wait --timeout "$timeout" --interval-ms 50 --json 2> /dev/null || true; } |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])' 2> /dev/null || true)
  [ -n "$state" ] || state=timeout
  t1=$(date +%s.%N); k1=$(cluster_ticks); n1=$(nginx_ticks)
  "$bin/crawlctl" log > "$work/crawl.log"
  pages=$(awk -F'\t' '$4 !~ /\/robots\.txt$/ && ($2 == 200 || $2 == 206) {u[$4] = 1} END {n = 0; for (k in u) n++; print n}' "$work/crawl.log")
  record "$label" "$pages" "$t0" "$t1" "$mark" "$(ticks_s "$k0" "$k1")" "$(ticks_s "$n0" "$n1")" \
    "$([ "$state" = done ] || echo "$state")"
  "$root/deploy/local-cluster.sh" down --dir "$work/cluster" > /dev/null 2>&1 || true
}

run_wget2() {  # run_wget2 LABEL PORT THREADS HTTP2_FLAG
  local label=$1 port=$2 n=$3 flag=$4 dir="$shm/wget2" t0 t1 mark rc=0 pages n0 n1 user sys_
  rm -rf "$dir"; mkdir -p "$dir"
  mark=$(log_mark); n0=$(nginx_ticks); t0=$(date +%s.%N)
  /usr/bin/time -f '%U %S' -o "$work/wget2.time" timeout -s INT "$timeout" wget2 --recursive --level=inf --robots=on "$flag" --max-threads="$n" \
    --no-check-certificate --no-verbose --tries=1 --timeout=10 --directory-prefix="$dir" \
    "https://$addr:$port/index.html" > "$work/wget2.out" 2>&1 || rc=$?
  t1=$(date +%s.%N); n1=$(nginx_ticks)
  pages=$(find "$dir" -type f | wc -l)
  read -r user sys_ < <(tail -n 1 "$work/wget2.time")
  record "$label" "$pages" "$t0" "$t1" "$mark" "$(python3 -c "print($user + $sys_)")" "$(ticks_s "$n0" "$n1")" \
    "$([ "$rc" != 124 ] || echo "cut by timeout")"
  rm -rf "$dir"
}

echo "h2_throughput: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')," \
  "load $(cut -d' ' -f1-3 /proc/loadavg); site $site; added round trip ${rtt_ms} ms" >&2
for _ in $(seq 1 "$repeat"); do
  for n in ${streams//,/ }; do run_crawler "crawler h2 --h2-streams $n" "$h2_port" "$n"; done
  run_crawler "crawler http/1.1" "$h1_port" 4
  run_wget2 "wget2 --http2 1 thread" "$h2_port" 1 --http2
  run_wget2 "wget2 --http2 5 threads" "$h2_port" 5 --http2
  run_wget2 "wget2 --no-http2 1 thread" "$h1_port" 1 --no-http2
done
echo "h2_throughput: load after $(cut -d' ' -f1-3 /proc/loadavg); results in $results" >&2
column -t -s $'\t' "$results"
