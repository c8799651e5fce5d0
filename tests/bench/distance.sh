#!/usr/bin/env bash
# What distance between fetchers and queue servers costs (run by hand, never
# in CI): the same testweb crawl (tests/bench/crawl_throughput.sh, crawler
# only) with each queue server reached through the tests' TCP relay
# (tests/faults/fault_proxy.h, launched by deploy/local-cluster.sh when
# CRAWL_CLUSTER_QS_DELAY_MS is set), which holds every chunk RTT/2 ms in each
# direction: every call a fetcher (or the name server) makes to a queue
# server takes RTT ms more, as from another data centre. testweb stays on
# loopback (the fetchers are near the web, far from their queue servers).
# The round trips run in turn, --repeat times, so a noisy machine spreads
# over all of them alike; prints each run's pages/s and wall time and the
# median pages/s per round trip against 0 ms.
#
#   tests/bench/distance.sh [--rtts 0,10,50] [--repeat N] [--queueservers Q]
#       [--fetchers F] [--pages N] [--hosts H] [--fetcher-args "ARGS"] [--out DIR]
# Defaults: 0,10,50 ms; 3 repeats; 2 queue servers and 2 fetchers on 20,000
# pages of 200 hosts (so links cross between owners). CPU ms/page in the
# runs' throughput.tsv includes the relays' CPU.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rtts="0,10,50" repeat=3 queueservers=2 fetchers=2 pages=20000 hosts=200 out="" fetcher_args=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rtts) rtts=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --queueservers) queueservers=$2; shift 2 ;;
    --fetchers) fetchers=$2; shift 2 ;;
    --pages) pages=$2; shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    --fetcher-args) fetcher_args=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "distance: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for n in "$repeat" "$queueservers" "$fetchers" "$pages" "$hosts"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "distance: '$n' is not a positive number" >&2; exit 2; }
done
for r in ${rtts//,/ }; do
  [[ "$r" =~ ^[0-9]+$ ]] || { echo "distance: round trip '$r' is not a number of ms" >&2; exit 2; }
done
[ -n "$out" ] || out=$(mktemp -d /tmp/distance.XXXXXX)
mkdir -p "$out"; out=$(cd "$out" && pwd)
summary="$out/distance.tsv"
printf 'rtt_ms\trun\tpages\twall_s\tpages_per_s\tnote\n' > "$summary"
echo "distance: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg);" \
  "${queueservers} queue servers, ${fetchers} fetchers, $pages pages on $hosts hosts" >&2
for run in $(seq 1 "$repeat"); do
  for r in ${rtts//,/ }; do
    dir="$out/rtt$r-run$run"
    delay=()
    [ "$r" = 0 ] || delay=(env CRAWL_CLUSTER_QS_DELAY_MS=$((r / 2)))
    "${delay[@]}" "$root/tests/bench/crawl_throughput.sh" --sites testweb --tools crawler \
      --queueservers "$queueservers" --fetchers "$fetchers" --testweb-pages "$pages" --testweb-hosts "$hosts" \
      --fetcher-args "$fetcher_args" --out "$dir" > "$dir.log" 2>&1 ||
      { echo "distance: the run at $r ms failed; see $dir.log" >&2; exit 1; }
    awk -F'\t' -v r="$r" -v run="$run" 'NR > 1 && $2 ~ /^crawler/ {print r "\t" run "\t" $4 "\t" $5 "\t" $6 "\t" $10}' \
      "$dir/throughput.tsv" | tee -a "$summary" >&2
  done
done
echo "distance: load after $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 - "$summary" <<'PY'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])][1:]
by = {}
for r in rows:
    by.setdefault(int(r[0]), []).append(float(r[4]))
base = statistics.median(by[min(by)])
print("rtt_ms\truns\tmedian pages/s\tvs %d ms" % min(by))
for rtt in sorted(by):
    m = statistics.median(by[rtt])
    print(f"{rtt}\t{len(by[rtt])}\t{m:.0f}\t{m / base:.2f}x")
PY
