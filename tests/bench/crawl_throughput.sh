#!/usr/bin/env bash
# End-to-end crawl throughput against real peers (run by
# hand or from run_all.sh, never in CI). On each site, in the same run:
#   - our local cluster (1 name server, Q queue servers, F fetchers; indexing
#     on, politeness kept: robots, one connection per host), wall time from
#     `crawlctl start` to done, CPU = user+sys of every crawler process read
#     from /proc/PID/stat before and after, peak RSS = VmHWM of each;
#   - GNU wget2 --recursive (robots on, same host only; 1 and 8 threads),
#     writing to a tmpfs;
#   - crawlee's CheerioCrawler (npm crawlee@3, tests/bench/peers/
#     cheerio_crawl.js) with the same concurrency as wget2's threads (1, 8);
#   - Scrapy (Debian's python3-scrapy 2.8 under /usr/bin/python3, tests/bench/
#     peers/scrapy_crawl.py): robots obeyed, one request at a time per host,
#     no delay, 256 requests in all (a peer that crawls many hosts).
#   Peers' CPU and peak RSS come from GNU time (wait4 rusage).
# Sites: python3-doc, postgresql-doc-15, rust-doc, libboost1.81-doc served by
# nginx on loopback (installed if missing), and `testweb`: a testweb universe
# (preset bench, no politeness delay) whose host names the peers resolve
# through an /etc/hosts bind-mounted in a private mount namespace.
# Pages found = distinct URLs answered 200/206 with an HTML body (wget2: .html
# files written; crawlee, scrapy: HTML pages handed to their handlers).
#
#   tests/bench/crawl_throughput.sh [--sites LIST] [--tools LIST] [--queueservers Q]
#       [--fetchers F] [--testweb-pages N] [--testweb-hosts H] [--testweb-ips N] [--unscoped] [--timeout S] [--out DIR]
#       [--fetcher-args "ARGS"] [--queueserver-args "ARGS"] [--crawl-args "ARGS"] [--crawlee-timeout S] [--scrapy-timeout S]
# crawlee is slow (7-35 CPU ms per page): its runs stop after --crawlee-timeout
# seconds (default 150), scrapy's after --scrapy-timeout (default 600); its
# pages/s is then that of a partial crawl and the row says "cut by timeout".
# --unscoped starts the crawl without --include-hosts, so it gets an unscoped
# crawl's defaults (adaptive pacing, the per-address gap; testweb's universe
# links nowhere else). --testweb-ips N puts the testweb hosts on N addresses (shared hosting, a
# CDN; 0: one per host). Addresses: testweb on ${TW_BIND_BASE:-127.21.0.0}+i port 80, nginx on
# ${NGINX_ADDR_PREFIX:-127.22.0}.i:8080 (set them to run two at once).
# LIST is comma-separated; tools: crawler (mutual TLS, local-cluster.sh's
# default), crawler-insecure (the same cluster in plain text: TLS's cost is
# the difference), wget2-1, wget2-8, crawlee-1, crawlee-8, scrapy.
# --crawl-args (crawlctl start flags) defaults to following every link of a
# page (--max-links-per-page 20000 --max-links-after-prune 20000), as the
# peers do: the crawler's default keeps 50 links per page after pruning
# (docs/DESIGN.md §6), which on rust-doc finds 3,626 of its 21,633 pages (and 5000
# still cut rust-doc's module indexes, 7,300-9,750 links each); and to reading
# pages up to 10 MB (--page-range 10000000), as the peers read whole pages:
# the default range of 1 MB cut those indexes (1.1-3.2 MB) too. With both,
# the crawler finds rust-doc's 21,633 pages, as wget2 does. A
# crawl scoped by --include-hosts does so by default (no
# pruning, 100,000 links, 10 MB pages); the flags stay for comparable runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="${CRAWL_BIN:-$root/build/bin}"
sites="python3-doc,postgresql-doc-15,rust-doc,libboost1.81-doc,testweb"
tools="crawler,wget2-1,wget2-8,crawlee-1,crawlee-8"
crawl_args="--max-links-per-page 20000 --max-links-after-prune 20000 --page-range 10000000" fetcher_args="" queueserver_args=""
crawlee_timeout=150 scrapy_timeout=600
queueservers=1 fetchers=1 tw_pages=20000 tw_hosts=20 tw_ips=0 unscoped=0 timeout=900 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --sites) sites=$2; shift 2 ;;
    --tools) tools=$2; shift 2 ;;
    --queueservers) queueservers=$2; shift 2 ;;
    --fetchers) fetchers=$2; shift 2 ;;
    --testweb-pages) tw_pages=$2; shift 2 ;;
    --testweb-hosts) tw_hosts=$2; shift 2 ;;
    --testweb-ips) tw_ips=$2; shift 2 ;;
    --unscoped) unscoped=1; shift ;;
    --timeout) timeout=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --crawl-args) crawl_args=$2; shift 2 ;;
    --crawlee-timeout) crawlee_timeout=$2; shift 2 ;;
    --scrapy-timeout) scrapy_timeout=$2; shift 2 ;;
    --fetcher-args) fetcher_args=$2; shift 2 ;;
    --queueserver-args) queueserver_args=$2; shift 2 ;;
    -h|--help) sed -n '2,43p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "crawl_throughput: unknown option $1" >&2; exit 2 ;;
  esac
done
die() { echo "crawl_throughput: $*" >&2; exit 1; }
for b in testweb crawlctl nameserver queueserver fetcher; do
  [ -x "$bin/$b" ] || die "$bin/$b missing; build first"
done
[ -n "$out" ] || out=$(mktemp -d /tmp/crawl-throughput.XXXXXX)
mkdir -p "$out"; out=$(cd "$out" && pwd)

# --- dependencies (installed only when missing) ---
need_pkgs=()
command -v wget2 > /dev/null || need_pkgs+=(wget2)
command -v nginx > /dev/null || [ -x /usr/sbin/nginx ] || need_pkgs+=(nginx)
[ -x /usr/bin/time ] || need_pkgs+=(time)
command -v node > /dev/null || need_pkgs+=(nodejs npm)
# Debian's Scrapy is for the system python3 (python3 on PATH may be pyenv's).
[[ "$tools" != *scrapy* ]] || /usr/bin/python3 -c 'import scrapy' 2> /dev/null || need_pkgs+=(python3-scrapy)
for p in python3-doc postgresql-doc-15 rust-doc libboost1.81-doc; do
  [[ ",$sites," == *",$p,"* ]] || continue
  dpkg -s "$p" > /dev/null 2>&1 || need_pkgs+=("$p")
done
if [ ${#need_pkgs[@]} -gt 0 ]; then
  echo "crawl_throughput: installing ${need_pkgs[*]}" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need_pkgs[@]}" > /dev/null
fi
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
work=$(mktemp -d /tmp/crawl-throughput-work.XXXXXX)
crawlee_dir="${CRAWLEE_DIR:-$work/crawlee}"
if [[ "$tools" == *crawlee* ]] && [ ! -d "$crawlee_dir/node_modules/crawlee" ]; then
  mkdir -p "$crawlee_dir"
  (cd "$crawlee_dir" && npm init -y > /dev/null && npm install --no-audit --no-fund crawlee@3 > npm.log 2>&1) \
    || die "npm install crawlee@3 failed: $(tail -n 5 "$crawlee_dir/npm.log")"
fi
shm=$(mktemp -d /dev/shm/crawl-throughput.XXXXXX)
nginx_pid="" testweb_pid=""
cleanup() {
  [ ! -f "$work/cluster/cluster.env" ] || "$root/deploy/local-cluster.sh" down --dir "$work/cluster" > /dev/null 2>&1 || true
  [ -z "$nginx_pid" ] || kill "$nginx_pid" 2>/dev/null || true
  if [ -n "$testweb_pid" ]; then kill "$testweb_pid" 2>/dev/null || true; wait "$testweb_pid" 2>/dev/null || true; fi
  rm -rf "$work" "$shm"
}
trap cleanup EXIT

# --- the sites ---
declare -A site_root site_start
site_root[python3-doc]=/usr/share/doc/python3-doc/html
site_root[postgresql-doc-15]=/usr/share/doc/postgresql-doc-15/html
site_root[rust-doc]=/usr/share/doc/rust-doc/html
site_root[libboost1.81-doc]=/usr/share/doc/libboost1.81-doc/doc/html
i=0 servers=""
for s in ${sites//,/ }; do
  [ "$s" = testweb ] && continue
  [ -n "${site_root[$s]:-}" ] || die "unknown site $s"
  i=$((i + 1))
  addr="${NGINX_ADDR_PREFIX:-127.22.0}.$i:8080"
  site_start[$s]="http://$addr/index.html"
  servers+="server { listen $addr; root $(readlink -f "${site_root[$s]}"); access_log off; }"$'\n'
done
if [ -n "$servers" ]; then
  mkdir -p "$work/nginx"
  cat > "$work/nginx/nginx.conf" <<EOF
daemon off; worker_processes 1; pid $work/nginx/nginx.pid; error_log $work/nginx/error.log;
events { worker_connections 1024; }
http { include /etc/nginx/mime.types; default_type application/octet-stream; sendfile on;
  keepalive_requests 100000; client_body_temp_path $work/nginx; proxy_temp_path $work/nginx;
  fastcgi_temp_path $work/nginx; uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
$servers}
EOF
  "$nginx_bin" -c "$work/nginx/nginx.conf" -p "$work/nginx" > "$work/nginx/out.log" 2>&1 &
  nginx_pid=$!
  sleep 0.5
  kill -0 "$nginx_pid" 2>/dev/null || die "nginx did not start: $(cat "$work/nginx/out.log" "$work/nginx/error.log" 2>/dev/null)"
fi
tw=(--seed 3 --hosts "$tw_hosts" --pages "$tw_pages" --preset bench)
if [[ ",$sites," == *",testweb,"* ]]; then
  # Port 80 on 127.21.0.x, so that the peers reach http://www.siteN.test/ through /etc/hosts.
  "$bin/testweb" serve "${tw[@]}" --ips "$tw_ips" --port 80 --bind-base "${TW_BIND_BASE:-127.21.0.0}" --threads 1 --hosts-file "$work/tw-hosts" \
    > "$work/testweb.log" 2>&1 &
  testweb_pid=$!
  for _ in $(seq 1 300); do [ -s "$work/tw-hosts" ] && break; sleep 0.1; done
  [ -s "$work/tw-hosts" ] || die "testweb did not start: $(cat "$work/testweb.log")"
  { cat /etc/hosts; awk '{split($1, a, ":"); print a[1], $2}' "$work/tw-hosts"; } > "$work/etc-hosts"
  "$bin/testweb" seeds "${tw[@]}" | head -n 1 > "$work/tw-seed"
  site_start[testweb]=$(cat "$work/tw-seed")
  tw_reachable=$("$bin/testweb" export "${tw[@]}" --truth - | awk -F'\t' '$2 != "disallowed"' | wc -l)
fi

hz=$(getconf CLK_TCK)
results="$out/throughput.tsv"
[ -s "$results" ] || printf 'site\ttool\tpages\tall_fetched\twall_s\tpages_per_s\tcpu_s\tcpu_ms_per_page\tpeak_rss_mb\tnote\n' > "$results"
record() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >> "$results"; echo "crawl_throughput: $*" >&2; }

cluster_ticks() {
  local total=0 f pid
  for f in "$work"/cluster/*.pid; do
    pid=$(cat "$f"); [ -r "/proc/$pid/stat" ] || continue
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
  done
  echo "$total"
}
cluster_rss_mb() {  # sum of VmHWM over the cluster's processes, MB
  local f pid kb=0 v
  for f in "$work"/cluster/*.pid; do
    pid=$(cat "$f"); v=$(awk '/VmHWM/{print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    kb=$((kb + ${v:-0}))
  done
  echo $((kb / 1024))
}

run_crawler() {  # run_crawler SITE START [insecure]
  local site=$1 start=$2 hosts_arg=() scope security=() label=crawler
  if [ "${3:-}" = insecure ]; then security=(--insecure); label=crawler-insecure; fi
  # Same host only, like the peers (testweb: every host of the universe).
  scope=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.urlsplit(sys.argv[1]).hostname)' "$start")
  if [ "$site" = testweb ]; then hosts_arg=(--hosts-file "$work/tw-hosts"); scope='*.test'; fi
  rm -rf "$work/cluster"
  CRAWL_BIN=$bin "$root/deploy/local-cluster.sh" up --dir "$work/cluster" --queueservers "$queueservers" \
    --fetchers "$fetchers" "${hosts_arg[@]}" --allow-private --fetcher-args "$fetcher_args" \
    --queueserver-args "$queueserver_args" "${security[@]}" > /dev/null
  unset CRAWL_TLS_CA CRAWL_TLS_CERT CRAWL_TLS_KEY CRAWL_TOKEN_FILE
  . "$work/cluster/cluster.env"
  export CRAWL_NAMESERVER=$NAMESERVER
  echo "$start" > "$work/seeds.txt"
  local k0 k1 t0 t1 state="running" rss
  k0=$(cluster_ticks); t0=$(date +%s.%N)
  local scope_args=(--include-hosts "$scope")
  [ "$unscoped" = 1 ] && scope_args=()
  "$bin/crawlctl" start --seeds "$work/seeds.txt" --allow-private "${scope_args[@]}" $crawl_args > /dev/null
  # crawlctl wait asks every 50 ms in one process (a status process every
  # 0.2 s cost the crawler up to 0.3 s of wall time it did not use).
  state=$({ "$bin/crawlctl" wait --timeout "$timeout" --interval-ms 50 --json 2> /dev/null || true; } |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])' 2> /dev/null || true)
  [ -n "$state" ] || state=timeout
  t1=$(date +%s.%N); k1=$(cluster_ticks); rss=$(cluster_rss_mb)
  # CPU and peak RSS by role (whole process lives: start-up is small next
  # to the crawl).
  local role_cpu="" role_rss="" f
  for f in "$work"/cluster/*.pid; do
    role_cpu+="$(basename "$f" .pid)=$(awk '{print $14 + $15}' "/proc/$(cat "$f")/stat" 2>/dev/null || echo 0) "
    role_rss+="$(basename "$f" .pid)=$(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$(cat "$f")/status" 2>/dev/null || echo 0) "
  done
  echo -e "$site\t${queueservers}q${fetchers}f\t$hz\t$role_cpu" >> "$out/role_cpu_ticks.tsv"
  echo -e "$site\t${queueservers}q${fetchers}f\t$role_rss" >> "$out/role_peak_rss_mb.tsv"
  local try
  for try in 1 2 3 4 5; do  # a call can pass its deadline on a loaded machine
    "$bin/crawlctl" log > "$work/crawl.log" && break
    [ "$try" = 5 ] && die "crawlctl log failed 5 times"
    sleep 5
  done
  # Storage and traffic per URL and per page (docs/SCALING.md): the queue
  # servers' data directories (RocksDB SSTs + WAL + index) against the
  # crawl's counters.
  "$bin/crawlctl" status --json > "$work/status.json" 2> /dev/null || true
  python3 - "$work/status.json" "$site" "${queueservers}q${fetchers}f" "$(du -sb "$work"/cluster/queueserver* | awk '{s += $1} END {print s}')" \
    "$out/storage.tsv" <<'PY' || true
import json, os, sys
status, site, tool, store_bytes, path = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
d = json.load(open(status))
new = not os.path.exists(path)
with open(path, "a") as f:
    if new:
        f.write("site\tcluster\turls_seen\tpages_fetched\tbytes_fetched\tqueue_store_bytes\tstore_bytes_per_url\tstore_bytes_per_page\tfetched_bytes_per_page\n")
    u, p, b = d.get("urls_seen", 0), d.get("pages_fetched", 0), d.get("bytes_fetched", 0)
    f.write(f"{site}\t{tool}\t{u}\t{p}\t{b}\t{store_bytes}\t{store_bytes / max(u, 1):.0f}\t{store_bytes / max(p, 1):.0f}\t{b / max(p, 1):.0f}\n")
PY
  cp "$work/crawl.log" "$out/crawl-$site-$label-${queueservers}q${fetchers}f.log"
  # The processes' own logs, for where the wall time went (schedules, ships).
  mkdir -p "$out/logs-$site-$label-${queueservers}q${fetchers}f"
  cp "$work"/cluster/*.log "$out/logs-$site-$label-${queueservers}q${fetchers}f/" 2> /dev/null || true
  local counts
  counts=$(python3 - "$work/crawl.log" <<'PY'
import sys, re
ok, allf = set(), set()
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if len(f) < 6 or re.search(r"^https?://[^/]+/robots\.txt$", f[3]):
        continue
    allf.add(f[3])
    if f[1] in ("200", "206") and f[5].startswith("text/html"):
        ok.add(f[3])
print(len(ok), len(allf))
PY
)
  local pages all
  read -r pages all <<< "$counts"
  python3 - "$site" "$label-${queueservers}q${fetchers}f" "$pages" "$all" "$t0" "$t1" "$k0" "$k1" "$hz" "$rss" "$state" >> "$results" <<'PY'
import sys
site, tool, pages, allf, t0, t1, k0, k1, hz, rss, state = sys.argv[1:]
pages, allf, wall, cpu = int(pages), int(allf), float(t1) - float(t0), (int(k1) - int(k0)) / int(hz)
print(f"{site}\t{tool}\t{pages}\t{allf}\t{wall:.2f}\t{allf / wall:.0f}\t{cpu:.2f}\t{cpu * 1000 / max(allf, 1):.3f}\t{rss}\t{'' if state == 'done' else state}")
PY
  tail -n 1 "$results" >&2
  "$root/deploy/local-cluster.sh" down --dir "$work/cluster" > /dev/null 2>&1 || true
  rm -rf "$work/cluster"
}

timed() {  # timed NAME LIMIT_S CMD...: runs CMD under GNU time, bounded; writes $work/NAME.time and .rc
  local name=$1 limit=$2 rc=0; shift 2
  /usr/bin/time -f '%e %U %S %M' -o "$work/$name.time" timeout -s INT "$limit" "$@" \
    > "$work/$name.out" 2> "$work/$name.err" || rc=$?
  echo "$rc" > "$work/$name.rc"
}
cut_note() { [ "$(cat "$work/$1.rc" 2> /dev/null)" != 124 ] || echo "cut by timeout ($2 s)"; }
ns_prefix() {  # ns_prefix SITE: sets ns=(...) to run a command with our /etc/hosts (testweb names) in a private mount namespace
  ns=()
  [ "$1" != testweb ] || ns=(unshare -m sh -c 'mount --bind "$0" /etc/hosts && exec "$@"' "$work/etc-hosts")
}
record_peer() {  # record_peer SITE TOOL PAGES ALL NOTE (reads $work/TOOL.time)
  local t; t=$(tail -n 1 "$work/$2.time" 2>/dev/null || echo "0 0 0 0")
  python3 - "$@" $t >> "$results" <<'PY'
import sys
site, tool, pages, allf, note, wall, user, sys_, rss = sys.argv[1:]
pages, allf, wall, cpu = int(pages), int(allf), float(wall), float(user) + float(sys_)
print(f"{site}\t{tool}\t{pages}\t{allf}\t{wall:.2f}\t{allf / max(wall, 1e-9):.0f}\t{cpu:.2f}\t{cpu * 1000 / max(allf, 1):.3f}\t{int(rss) // 1024}\t{note}")
PY
  tail -n 1 "$results" >&2
}

run_wget2() {  # run_wget2 SITE START THREADS
  local site=$1 start=$2 n=$3 dir="$shm/wget2" span=()
  rm -rf "$dir"; mkdir -p "$dir"
  [ "$site" = testweb ] && span=(--span-hosts --domains=test)
  ns_prefix "$site"
  timed "wget2-$n" "$timeout" "${ns[@]}" wget2 --recursive --level=inf --robots=on "${span[@]}" --max-threads="$n" \
    --no-verbose --tries=1 --timeout=10 --directory-prefix="$dir" "$start"
  local html all
  html=$(find "$dir" -type f \( -name '*.html' -o -name '*.htm' \) | wc -l)
  all=$(find "$dir" -type f | wc -l)
  record_peer "$site" "wget2-$n" "$html" "$all" "$(cut_note "wget2-$n" "$timeout")"
  rm -rf "$dir"
}

run_crawlee() {  # run_crawlee SITE START CONCURRENCY
  local site=$1 start=$2 n=$3 suffix=""
  [ "$site" = testweb ] && suffix=test
  ns_prefix "$site"
  timed "crawlee-$n" "$crawlee_timeout" "${ns[@]}" env NODE_PATH="$crawlee_dir/node_modules" CRAWLEE_STORAGE_DIR="$shm/crawlee" \
    node "$root/tests/bench/peers/cheerio_crawl.js" "$start" "$n" $suffix
  local pages
  pages=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])["pages"])' \
    "$work/crawlee-$n.out" 2>/dev/null || echo 0)
  record_peer "$site" "crawlee-$n" "$pages" "$pages" "$(cut_note "crawlee-$n" "$crawlee_timeout")"
  rm -rf "$shm/crawlee"
}

run_scrapy() {  # run_scrapy SITE START
  local site=$1 start=$2 suffix=""
  [ "$site" = testweb ] && suffix=test
  ns_prefix "$site"
  timed scrapy "$scrapy_timeout" "${ns[@]}" /usr/bin/python3 "$root/tests/bench/peers/scrapy_crawl.py" "$start" 256 $suffix
  local counts
  counts=$(python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).read().strip().splitlines()[-1]); print(d["pages"], d["all"])' \
    "$work/scrapy.out" 2>/dev/null || echo "0 0")
  cp "$work/scrapy.out" "$out/scrapy-$site.json" 2> /dev/null || true
  record_peer "$site" scrapy $counts "$(cut_note scrapy "$scrapy_timeout")"
}

echo "crawl_throughput: machine $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for site in ${sites//,/ }; do
  start=${site_start[$site]}
  for tool in ${tools//,/ }; do
    echo "crawl_throughput: $site $tool (load $(cut -d' ' -f1 /proc/loadavg))" >&2
    case "$tool" in
      crawler) run_crawler "$site" "$start" ;;
      crawler-insecure) run_crawler "$site" "$start" insecure ;;
      wget2-*) run_wget2 "$site" "$start" "${tool#wget2-}" ;;
      crawlee-*) run_crawlee "$site" "$start" "${tool#crawlee-}" ;;
      scrapy) run_scrapy "$site" "$start" ;;
      *) die "unknown tool $tool" ;;
    esac
  done
  [ "$site" != testweb ] || echo "crawl_throughput: testweb universe: $tw_reachable reachable URLs" >&2
done
echo "crawl_throughput: results in $results" >&2
column -t -s $'\t' "$results"
