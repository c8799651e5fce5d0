#!/usr/bin/env bash
# Site-focused crawling (docs/DESIGN.md §5.4), run by hand: which
# order spends a per-host page budget best inside one site?
#
# Sites: python3-doc's and postgresql-doc-15's HTML served by a private
# nginx on loopback (127.0.8.1), and two hosts of a clean testweb universe.
# For each site and a page budget of 10%, 25% and 50% of its pages, one crawl
# per order (one site per crawl, --include-hosts keeps it there, so
# --max-pages is the per-host budget) on a local cluster of one queue server
# and one fetcher. Each crawl is scored by tests/bench/structure_eval.py
# against the site's own link graph (parsed from the HTML files; testweb's
# 'export --out' for testweb hosts):
#   PR   the share of the site's internal PageRank held by the pages fetched;
#   D2   the share of the site's pages at link depth <= 2 that were fetched.
# With one host per crawl, bfs (one FIFO) is exactly FIFO-within-host:
# the host's pages in discovery order.
#
#   tests/bench/structure_eval.sh [--orders "structure bfs host_budget"] [--budgets "10 25 50"]
#                                 [--sites "python postgres testweb"] [--load-take N] [--testweb-seed S]
# (testweb seed 4: both hosts have folder trees three levels deep; with seed
# 3 one host is flat and the other one level deep.)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="${CRAWL_BIN:-$root/build/bin}"
helper="$root/tests/bench/structure_eval.py"
orders="structure bfs host_budget" budgets="10 25 50" sites="python postgres testweb" load_take="" testweb_seed=4
while [ $# -gt 0 ]; do
  case "$1" in
    --orders) orders=$2; shift 2 ;;
    --budgets) budgets=$2; shift 2 ;;
    --sites) sites=$2; shift 2 ;;
    --load-take) load_take=$2; shift 2 ;;
    --testweb-seed) testweb_seed=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
py_root=/usr/share/doc/python3-doc/html
pg_root=/usr/share/doc/postgresql-doc-15/html
ip=127.0.8.1
if ! command -v nginx > /dev/null && [ ! -x /usr/sbin/nginx ]; then
  echo "installing nginx" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx-light > /dev/null || apt-get install -y -q nginx > /dev/null
fi
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
for d in "$py_root" "$pg_root"; do
  [ -d "$d" ] || { echo "missing $d: apt-get install python3-doc postgresql-doc-15" >&2; exit 2; }
done

work=$(mktemp -d /tmp/structure-eval.XXXXXX)
nginx_pid="" testweb_pid=""
cleanup() {
  "$root/deploy/local-cluster.sh" down --dir "$work/cluster" > /dev/null 2>&1 || true
  [ -z "$testweb_pid" ] || kill "$testweb_pid" 2>/dev/null || true
  [ -z "$nginx_pid" ] || kill "$nginx_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.8.1", 0)); print(s.getsockname()[1])'; }
py_port=$(free_port)
pg_port=$(free_port)
mkdir -p "$work/nginx"
cat > "$work/nginx/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 512; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path $work/nginx/body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;
  server { listen $ip:$py_port; root $py_root; }
  server { listen $ip:$pg_port; root $pg_root; }
}
EOF
"$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" &
nginx_pid=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://$ip:$py_port/index.html" && break; sleep 0.1; done

web=(--seed "$testweb_seed" --hosts 2 --pages 2400 --preset clean)
"$bin/testweb" serve "${web[@]}" --hosts-file "$work/hosts" > "$work/testweb.log" 2>&1 &
testweb_pid=$!
until [ -s "$work/hosts" ]; do sleep 0.1; done
CRAWL_BIN=$bin "$root/deploy/local-cluster.sh" up --dir "$work/cluster" --queueservers 1 --fetchers 1 \
  --hosts-file "$work/hosts" --allow-private > /dev/null
. "$work/cluster/cluster.env"
export CRAWL_NAMESERVER=$NAMESERVER

# Site list: name, seed URL, host, graph file.
declare -a site_rows=()
for s in $sites; do
  case "$s" in
    python)
      python3 "$helper" html-graph "$py_root" "http://$ip:$py_port" "$work/python.tsv"
      site_rows+=("python3-doc http://$ip:$py_port/index.html $ip $work/python.tsv") ;;
    postgres)
      python3 "$helper" html-graph "$pg_root" "http://$ip:$pg_port" "$work/postgres.tsv"
      site_rows+=("postgresql-doc-15 http://$ip:$pg_port/index.html $ip $work/postgres.tsv") ;;
    testweb)
      "$bin/testweb" export "${web[@]}" --out "$work/testweb.tsv"
      for seed in $("$bin/testweb" seeds "${web[@]}" | head -n 2); do
        host=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.urlsplit(sys.argv[1]).hostname)' "$seed")
        python3 "$helper" host-graph "$work/testweb.tsv" "$host" "$work/$host.tsv"
        site_rows+=("testweb:$host $seed $host $work/$host.tsv")
      done ;;
    *) echo "unknown site $s" >&2; exit 2 ;;
  esac
done

# The crawl's state; "unknown" when the name server did not answer in time
# (the machine is shared: a poll may time out).
state() {
  "$bin/crawlctl" status --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])' \
    2>/dev/null || echo unknown
}
echo "machine: $(nproc) cpus, $(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo), $(uname -sr)"
echo "load_take: ${load_take:-10 (default)}"
printf '%-30s %6s %6s %-12s %7s %7s %8s %6s\n' site pages budget order PR D2 fetched secs
for row in "${site_rows[@]}"; do
  set -- $row
  name=$1 seed=$2 host=$3 graph=$4
  echo "$seed" > "$work/seeds.txt"
  n=$(python3 "$helper" count "$graph" "$seed")
  for pct in $budgets; do
    budget=$(((n * pct + 99) / 100))
    for order in $orders; do
      extra=()
      [ -z "$load_take" ] || [ "$order" != structure ] || extra=(--load-take "$load_take")
      t0=$SECONDS
      for attempt in 1 2 3 4 5; do
        "$bin/crawlctl" start --seeds "$work/seeds.txt" --allow-private --order "$order" --max-pages "$budget" \
          --include-hosts "$host" "${extra[@]}" > /dev/null && break
        [ "$attempt" -lt 5 ] || { echo "crawlctl start failed" >&2; exit 1; }
        sleep 1
      done
      while :; do
        st=$(state)
        [ "$st" = running ] || [ "$st" = unknown ] || break
        sleep 0.3
      done
      until "$bin/crawlctl" log > "$work/crawl.log" 2>/dev/null; do sleep 1; done
      read -r pages pr d2 fetched <<< "$(python3 "$helper" score "$graph" "$seed" "$work/crawl.log")"
      printf '%-30s %6s %5s%% %-12s %7s %7s %8s %6s\n' "$name" "$pages" "$pct" "$order" "$pr" "$d2" "$fetched" \
        $((SECONDS - t0))
    done
  done
done
