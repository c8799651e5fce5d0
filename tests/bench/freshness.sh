#!/usr/bin/env bash
# Freshness per revisit policy (run by hand, not in CI).
# One testweb universe that changes (--change-mean-interval M, logical
# clock) and, at the same time, one local cluster per policy (1 queue
# server, 1 fetcher, its own name server) crawling it continuously
# (`crawlctl start --recrawl --revisit-policy P`) for S seconds. The fetch
# rate is the same for every policy: each cluster fetches every host at
# most once per --delay-ms (`--min-host-delay-ms`), so at most
# hosts*1000/delay pages/s, and every policy is given the revisit interval
# that rate allows for the universe (pages/rate), so each wants at least
# the cap; the measured fetches/s are printed beside the figures.
# The script moves testweb's logical clock one tick (t += 1) per wall
# second and writes down when; a fetch is answered with the page at the
# tick it was served in. At the end the clock stops at T, each crawl's log
# is read and, per URL the crawl holds (its latest fetch answered
# 200/304/404/410), the version it holds (the page's state at the tick of
# that fetch, from `testweb export --at tick --versions`) is compared with
# the truth at T (`testweb export --at T --versions`).
#   fresh share   = URLs whose held (status, version) equals the truth at T
#                   / URLs the crawl holds
#   no change     = fetches marked not-modified or unchanged / page fetches
#                   after the first of each URL (revisits)
#
#   tests/bench/freshness.sh [--policies "fixed expires adaptive optimal"] [--seconds 600]
#       [--hosts 6] [--pages 300] [--change-mean-interval 40] [--delay-ms 600]
#       [--bounds MIN:MAX] [--seed 1] [--out DIR] [--crawl-args "--recrawl-share 100"]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="${CRAWL_BIN:-$root/build/bin}"
policies="fixed expires adaptive optimal" seconds=600 hosts=6 pages=300 mean=40 delay_ms=600
bounds="" seed=1 out="" crawl_args=""
while [ $# -gt 0 ]; do
  case "$1" in
    --policies) policies=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    --pages) pages=$2; shift 2 ;;
    --change-mean-interval) mean=$2; shift 2 ;;
    --delay-ms) delay_ms=$2; shift 2 ;;
    --bounds) bounds=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --crawl-args) crawl_args=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
work=${out:-$(mktemp -d /tmp/freshness.XXXXXX)}
mkdir -p "$work"
pids=()
cleanup() {
  for d in "$work"/cluster-*; do
    [ -f "$d/cluster.env" ] && "$root/deploy/local-cluster.sh" down --dir "$d" > /dev/null 2>&1 || true
  done
  for p in "${pids[@]}"; do kill "$p" 2> /dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2> /dev/null || true; done
}
trap cleanup EXIT

web=(--seed "$seed" --hosts "$hosts" --pages "$pages" --preset clean --change-mean-interval "$mean")
# The interval the cap allows: every page once per pages / (hosts / delay) s.
interval=$(python3 -c "import sys; print(max(1, round($pages * $delay_ms / 1000 / $hosts)))")
[ -n "$bounds" ] || bounds="$(( (interval + 9) / 10 )):$((interval * 20))"
"$bin/testweb" serve "${web[@]}" --clock logical --bind-base "${TW_BIND_BASE:-127.23.0.0}" \
  --hosts-file "$work/hosts" > "$work/testweb.log" 2>&1 &
pids+=($!)
until [ -s "$work/hosts" ]; do
  kill -0 "${pids[0]}" 2> /dev/null || { cat "$work/testweb.log" >&2; exit 1; }
  sleep 0.1
done
"$bin/testweb" seeds "${web[@]}" > "$work/seeds.txt"
clock_host=$(head -n 1 "$work/hosts" | cut -d' ' -f1)
set_clock() { curl -sf -X POST "http://$clock_host/_testweb/clock?t=$1" > /dev/null; }
set_clock 0
: > "$work/ticks.tsv"
echo -e "$(date +%s%6N)\t0" >> "$work/ticks.tsv"

for p in $policies; do
  "$root/deploy/local-cluster.sh" up --dir "$work/cluster-$p" --queueservers 1 --fetchers 1 \
    --hosts-file "$work/hosts" --allow-private > "$work/cluster-$p.log" 2>&1
done
for p in $policies; do
  (
    . "$work/cluster-$p/cluster.env"
    export CRAWL_NAMESERVER=$NAMESERVER
    "$bin/crawlctl" start --seeds "$work/seeds.txt" --allow-private --recrawl --revisit-policy "$p" \
      --revisit-interval "$interval" --revisit-bounds "$bounds" --min-host-delay-ms "$delay_ms" $crawl_args > /dev/null
  )
done
start=$(date +%s)
# One tick per second; the line is written after the clock moved, so a
# fetch logged after it saw the new tick (a fetch in flight across the
# move may be counted one tick early: one in `seconds` at most per URL).
for t in $(seq 1 "$seconds"); do
  sleep $((start + t - $(date +%s))) 2> /dev/null || true
  set_clock "$t"
  echo -e "$(date +%s%6N)\t$t" >> "$work/ticks.tsv"
done
end_wall=$(date +%s%6N)
for p in $policies; do
  (
    . "$work/cluster-$p/cluster.env"
    export CRAWL_NAMESERVER=$NAMESERVER
    "$bin/crawlctl" log > "$work/log-$p.tsv"
    "$bin/crawlctl" stop > /dev/null || true
  )
done
"$bin/testweb" export "${web[@]}" --at "$seconds" --versions "$work/truth.tsv" 2> /dev/null

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "universe: ${web[*]}; $seconds s (ticks) per policy, all policies at once"
echo "cap: $hosts hosts x one fetch per $delay_ms ms; revisit interval $interval s, bounds $bounds; $crawl_args"
python3 "$root/tests/bench/freshness_score.py" --bin "$bin" --work "$work" --end-wall-us "$end_wall" \
  --seconds "$seconds" --policies "$policies" -- "${web[@]}"
