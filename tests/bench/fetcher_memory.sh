#!/usr/bin/env bash
# Fetcher memory with hundreds of fetches in flight (the target: a
# fetcher with 500 fetches in flight stays under 300 MB RSS). Run by hand.
#
# A testweb universe with the "slow" misbehaviour on (hosts with index
# i % 8 == 5 wait 1 s before the first byte and trickle the body over 1.5 s)
# and many hosts; every host's root is a seed, so the first schedules hold
# thousands of hosts and the slow ones pile up in flight. One name server,
# one queue server and ONE fetcher started here with --max-in-flight N.
# The fetcher logs a "fetcher status" line every 200 ms (requests in
# flight); this script samples its RSS (/proc/PID/status VmRSS) every
# 100 ms and prints the peak RSS, the peak in flight and the RSS at that
# moment.
#
#   tests/bench/fetcher_memory.sh [--hosts H] [--max-in-flight N] [--seconds S] [--page-kb K]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="${CRAWL_BIN:-$root/build/bin}"
hosts=6000 max_in_flight=500 seconds=40 page_kb=16 seed=7
while [ $# -gt 0 ]; do
  case "$1" in
    --hosts) hosts=$2; shift 2 ;;
    --max-in-flight) max_in_flight=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --page-kb) page_kb=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
for b in testweb nameserver queueserver fetcher crawlctl; do
  [ -x "$bin/$b" ] || { echo "$bin/$b not found: build first" >&2; exit 1; }
done
work=$(mktemp -d /tmp/fetcher-mem.XXXXXX)
testweb_pid="" fetcher_pid=""
cleanup() {
  [ -z "$fetcher_pid" ] || kill "$fetcher_pid" 2>/dev/null || true
  "$root/deploy/local-cluster.sh" down --dir "$work/cluster" >/dev/null 2>&1 || true
  [ -z "$testweb_pid" ] || kill "$testweb_pid" 2>/dev/null || true
  [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

pages=$((hosts * 3))
web=(--seed "$seed" --hosts "$hosts" --pages "$pages" --page-kb "$page_kb" --preset clean --enable slow)
"$bin/testweb" serve "${web[@]}" --hosts-file "$work/hosts" --threads 2 > "$work/testweb.log" 2>&1 &
testweb_pid=$!
for _ in $(seq 1 600); do [ -s "$work/hosts" ] && break; sleep 0.1; done
[ -s "$work/hosts" ] || { echo "testweb did not start: $(tail -3 "$work/testweb.log")" >&2; exit 1; }

# The cluster starts the one fetcher: it issues the fetcher's certificate
# (the cluster runs with mutual TLS) and logs it to cluster/fetcher0.log.
# One lane (--schedules 1): the status line is the first lane's, so with
# several lanes it would show only that lane's share of the fetches.
CRAWL_BIN=$bin "$root/deploy/local-cluster.sh" up --dir "$work/cluster" --queueservers 1 --fetchers 1 \
  --hosts-file "$work/hosts" --allow-private \
  --fetcher-args "--max-in-flight $max_in_flight --schedules 1 --status-ms 200" > /dev/null
. "$work/cluster/cluster.env"
fetcher_pid=$(cat "$work/cluster/fetcher0.pid")
ln -s "$work/cluster/fetcher0.log" "$work/fetcher.log"

# Seeds: every host's root (the hosts file lists one host per line).
awk '!/^#/ && NF >= 2 {print "http://" $2 "/"}' "$work/hosts" > "$work/seeds.txt"
"$bin/crawlctl" --nameserver "$NAMESERVER" start --seeds "$work/seeds.txt" --allow-private > /dev/null

peak_rss=0
end=$(( $(date +%s) + seconds ))
while [ "$(date +%s)" -lt "$end" ]; do
  rss=$(awk '/VmRSS/{print $2}' "/proc/$fetcher_pid/status" 2>/dev/null || echo 0)
  inflight=$(grep -o 'in_flight=[0-9]*' "$work/fetcher.log" 2>/dev/null | tail -1 | cut -d= -f2 || true)
  echo "$(date +%s.%N) ${rss:-0} ${inflight:-0}" >> "$work/samples"
  [ "${rss:-0}" -gt "$peak_rss" ] && peak_rss=$rss
  sleep 0.1
done
kill -0 "$fetcher_pid" 2>/dev/null || { echo "fetcher died: $(tail -5 "$work/fetcher.log")" >&2; exit 1; }
hwm=$(awk '/VmHWM/{print $2}' "/proc/$fetcher_pid/status")
max_in=$(grep -o ' in_flight=[0-9]*' "$work/fetcher.log" | cut -d= -f2 | sort -n | tail -1)
fetches=$(grep -o 'fetches=[0-9]*' "$work/fetcher.log" | tail -1 | cut -d= -f2)
# RSS when in flight was at its highest (samples: time rss in_flight).
rss_at_peak=$(sort -k3,3n -k2,2n "$work/samples" | tail -1 | awk '{print $2}')
samples_at_max=$(awk -v m="$max_in_flight" '$3 >= m * 0.9' "$work/samples" | wc -l)

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
echo "universe: $hosts hosts ($((hosts / 8)) slow), $pages pages, page-kb $page_kb; fetcher --max-in-flight $max_in_flight, ${seconds} s"
echo "fetches completed: ${fetches:-0}"
echo "peak requests in flight (status log, 200 ms): ${max_in:-0}; samples with >= 90% of max: $samples_at_max"
echo "fetcher RSS at the highest in-flight sample: $((rss_at_peak / 1024)) MiB"
echo "fetcher peak RSS: sampled $((peak_rss / 1024)) MiB, VmHWM $((hwm / 1024)) MiB"
