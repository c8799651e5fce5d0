#!/usr/bin/env bash
# End-to-end crawl throughput on a testweb universe (run by hand, not in CI):
# a local cluster (1 name server, Q queue servers, F fetchers) crawls the
# whole universe; prints pages/s, CPU microseconds per page (user+sys of every
# crawler process, from /proc/PID/stat) and peak RSS of each process.
#
#   tests/bench/crawl_throughput.sh [--pages N] [--hosts H] [--queueservers Q] [--fetchers F] [--page-kb K]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="${CRAWL_BIN:-$root/build/bin}"
pages=100000 hosts=200 queueservers=2 fetchers=2 page_kb=4 seed=42
while [ $# -gt 0 ]; do
  case "$1" in
    --pages) pages=$2; shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    --queueservers) queueservers=$2; shift 2 ;;
    --fetchers) fetchers=$2; shift 2 ;;
    --page-kb) page_kb=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d /tmp/crawl-bench.XXXXXX)
testweb_pid=""
cleanup() {
  "$root/deploy/local-cluster.sh" down --dir "$work/cluster" >/dev/null 2>&1 || true
  [ -z "$testweb_pid" ] || kill "$testweb_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

web=(--seed "$seed" --hosts "$hosts" --pages "$pages" --page-kb "$page_kb")
"$bin/testweb" serve "${web[@]}" --hosts-file "$work/hosts" > "$work/testweb.log" 2>&1 &
testweb_pid=$!
until [ -s "$work/hosts" ]; do sleep 0.1; done
CRAWL_BIN=$bin "$root/deploy/local-cluster.sh" up --dir "$work/cluster" --queueservers "$queueservers" \
  --fetchers "$fetchers" --hosts-file "$work/hosts" > /dev/null
. "$work/cluster/cluster.env"
"$bin/testweb" seeds "${web[@]}" > "$work/seeds.txt"

ticks() {  # total utime+stime (clock ticks) of the cluster's processes
  local total=0 f pid
  for f in "$work"/cluster/*.pid; do
    pid=$(cat "$f")
    [ -r "/proc/$pid/stat" ] || continue
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
  done
  echo "$total"
}
peak_rss() {  # NAME=VmHWM per process
  local f pid
  for f in "$work"/cluster/*.pid; do
    pid=$(cat "$f")
    printf '%s=%s ' "$(basename "$f" .pid)" "$(awk '/VmHWM/{print $2 $3}' "/proc/$pid/status" 2>/dev/null)"
  done
}

t0_ticks=$(ticks)
t0=$(date +%s.%N)
"$bin/crawlctl" --nameserver "$NAMESERVER" start --seeds "$work/seeds.txt" --allow-private > /dev/null
while [ "$("$bin/crawlctl" --nameserver "$NAMESERVER" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])')" = running ]; do
  sleep 0.2
done
t1=$(date +%s.%N)
t1_ticks=$(ticks)
rss=$(peak_rss)
status=$("$bin/crawlctl" --nameserver "$NAMESERVER" status --json)
fetched=$(echo "$status" | python3 -c 'import json,sys; print(json.load(sys.stdin)["pages_fetched"])')
hz=$(getconf CLK_TCK)
python3 - "$fetched" "$t0" "$t1" "$t0_ticks" "$t1_ticks" "$hz" <<PY
import sys
pages, t0, t1, k0, k1, hz = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
wall = t1 - t0
cpu = (k1 - k0) / hz
print(f"machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -r)")
print(f"universe: {pages} pages fetched of $pages, $hosts hosts, page-kb $page_kb; cluster: $queueservers queue servers, $fetchers fetchers")
print(f"wall {wall:.2f} s (polling granularity 0.2 s), {pages / wall:,.0f} pages/s")
print(f"crawler CPU {cpu:.2f} s = {cpu * 1e6 / max(pages, 1):,.0f} us per page (name server + queue servers + fetchers; testweb excluded)")
print("peak RSS: $rss")
PY
