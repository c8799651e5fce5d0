#!/usr/bin/env bash
# testweb's own speed (run by hand, not in CI): starts `testweb serve` on a
# large universe (default 1,000,000 pages on 10,000 hosts, preset bench:
# 20 KiB median pages), reports its start-up time and resident memory, then
# pins it to ONE core (taskset) and loads it with testweb_load (keep-alive
# GETs of real pages on C connections, the client pinned to another core).
# Prints requests/s, MB/s, the server's RSS, and its CPU time under load
# (user + sys from /proc/PID/stat) with the requests per CPU-second it
# implies: on a shared machine, the figure that says what one core buys.
#
#   tests/bench/testweb_rate.sh [--pages N] [--hosts H] [--preset P] [--connections C]
#                               [--seconds S] [--server-cpu 0] [--client-cpu 1] [--ips N]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="${CRAWL_BIN:-$root/build/bin}"
pages=1000000 hosts=10000 preset=bench connections=64 seconds=10 seed=1 server_cpu=0 client_cpu=1 ips=0
while [ $# -gt 0 ]; do
  case "$1" in
    --pages) pages=$2; shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    --preset) preset=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --server-cpu) server_cpu=$2; shift 2 ;;
    --client-cpu) client_cpu=$2; shift 2 ;;
    --ips) ips=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d /tmp/testweb-rate.XXXXXX)
server_pid=""
cleanup() {
  [ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true
  [ -z "$server_pid" ] || wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

web=(--seed "$seed" --hosts "$hosts" --pages "$pages" --preset "$preset")
t0=$(date +%s.%N)
taskset -c "$server_cpu" "$bin/testweb" serve "${web[@]}" --ips "$ips" --hosts-file "$work/hosts" \
  > "$work/testweb.log" 2>&1 &
server_pid=$!
until [ -s "$work/hosts" ]; do
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/testweb.log" >&2; exit 1; }
  sleep 0.02
done
t1=$(date +%s.%N)
rss_idle=$(awk '/VmRSS/{print $2}' "/proc/$server_pid/status")
fds=$(ls "/proc/$server_pid/fd" | wc -l)
ticks0=$(awk '{print $14 + $15}' "/proc/$server_pid/stat")
taskset -c "$client_cpu" "$bin/testweb_load" --hosts-file "$work/hosts" "${web[@]}" \
  --connections "$connections" --seconds "$seconds" | tee "$work/load.txt"
ticks1=$(awk '{print $14 + $15}' "/proc/$server_pid/stat")
rss_peak=$(awk '/VmHWM/{print $2}' "/proc/$server_pid/status")
hz=$(getconf CLK_TCK)
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "universe: $pages pages on $hosts hosts, preset $preset; $fds open descriptors (one listener per address)"
requests=$(sed -n 's/^requests \([0-9]*\) .*/\1/p' "$work/load.txt")
python3 - "$t0" "$t1" "$rss_idle" "$rss_peak" "$ticks0" "$ticks1" "$hz" "$seconds" "$requests" <<'PY'
import sys
t0, t1 = float(sys.argv[1]), float(sys.argv[2])
rss_idle, rss_peak = int(sys.argv[3]), int(sys.argv[4])
k0, k1, hz, secs = int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]), float(sys.argv[8])
print(f"server start-up (universe + listeners + hosts file): {t1 - t0:.2f} s")
print(f"server RSS: {rss_idle / 1024:.1f} MiB idle, {rss_peak / 1024:.1f} MiB peak")
cpu = (k1 - k0) / hz
requests = int(sys.argv[9])
print(f"server CPU under load: {cpu:.2f} s in {secs:.0f} s ({cpu / secs * 100:.0f}% of its one core)")
# On a shared machine the wall-clock rate says as much about the neighbours
# as about testweb; CPU time per request is what one core of its own buys.
if cpu > 0:
    print(f"server CPU per request: {cpu * 1e6 / requests:.1f} us = {requests / cpu:,.0f} requests per CPU-second")
PY
