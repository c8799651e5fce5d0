#!/usr/bin/env bash
# The crawl log at scale (run by hand, never in CI): a
# local cluster (1 name server, 2 queue servers, no fetcher, --insecure),
# one crawl started and stopped, then each queue server's log filled with
# RECORDS/2 synthetic records through its own store code (log_fill_bench,
# the queue servers down meanwhile; timestamps interleave across the two),
# the cluster restarted, and `crawlctl log --crawl ID > file` timed. The
# name server's peak RSS is its VmHWM after the export; the output is
# checked: RECORDS lines, in time order. A filtered export (4xx of the
# hosts host1*) is timed after it.
#
#   tests/bench/log_export.sh [--records 1000000] [--dir DIR] [--keep]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="${CRAWL_BIN:-$root/build/bin}"
records=1000000 dir="" keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --records) records=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$dir" ] || dir=$(mktemp -d /tmp/log_export.XXXXXX)
cluster="$dir/cluster"
cleanup() {
  "$root/deploy/local-cluster.sh" down --dir "$cluster" > /dev/null 2>&1 || true
  [ "$keep" = 1 ] || rm -rf "$dir"
}
trap cleanup EXIT

"$root/deploy/local-cluster.sh" up --dir "$cluster" --queueservers 2 --fetchers 0 --insecure --bin "$bin" > /dev/null
. "$cluster/cluster.env"
export CRAWL_NAMESERVER=$NAMESERVER
for h in $(seq 1 32); do echo "http://h$h.example.test/"; done > "$dir/seeds.txt"  # seeds on both servers
"$bin/crawlctl" start --seeds "$dir/seeds.txt" > /dev/null
crawl=$("$bin/crawlctl" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["crawl_id"])')
"$bin/crawlctl" stop > /dev/null
"$root/deploy/local-cluster.sh" down --dir "$cluster" > /dev/null

half=$((records / 2))
for i in 0 1; do
  "$bin/log_fill_bench" --data-dir "$cluster/queueserver$i/queue-store" --crawl "$crawl" --records "$half" \
    --start-us $((1764000000000000 + i)) --step-us 2
done
"$root/deploy/local-cluster.sh" restart --dir "$cluster" --timeout 300 > /dev/null
. "$cluster/cluster.env"
export CRAWL_NAMESERVER=$NAMESERVER
ns_pid=$(cat "$cluster/nameserver.pid")
hwm_before=$(awk '/VmHWM/ {print $2}' "/proc/$ns_pid/status")

start=$(date +%s.%N)
"$bin/crawlctl" log --crawl "$crawl" > "$dir/log.tsv"
end=$(date +%s.%N)
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$ns_pid/status")
lines=$(wc -l < "$dir/log.tsv")
sorted=yes
LC_ALL=C sort -c -s -k1,1 "$dir/log.tsv" 2> /dev/null || sorted=no
fstart=$(date +%s.%N)
"$bin/crawlctl" log --crawl "$crawl" --status 4xx --host 'host1*.example.test' > "$dir/filtered.tsv"
fend=$(date +%s.%N)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
echo "machine: $cpu, $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo)"
echo "records: $lines of $((half * 2)) (time order: $sorted)"
echo "export: $(echo "$end - $start" | bc) s  ($(du -h "$dir/log.tsv" | cut -f1) of TSV)"
echo "filtered (--status 4xx --host 'host1*.example.test'): $(wc -l < "$dir/filtered.tsv") records in $(echo "$fend - $fstart" | bc) s"
echo "name server peak RSS (VmHWM): ${hwm_before} kB before the export, ${hwm} kB after"
[ "$lines" = $((half * 2)) ] || { echo "FAIL: wrong line count" >&2; exit 1; }
