#!/usr/bin/env bash
# Runs the field benchmarks (against real peers; run by hand, never in CI) and writes
# their tables into docs/BENCHMARKS.md (between the "run_all" markers) and
# their plots under docs/img/, stamped with the machine and the date:
#   1. tests/bench/order_quality.sh   (crawl-order quality, misbehaving and spam presets)
#   2. tests/bench/crawl_throughput.sh (us against wget2 and crawlee)
#   3. crawl_throughput on testweb with 4 queue servers and 4 fetchers
#      (the scaling check of docs/SCALING.md)
# Every crawl is bounded (--timeout per crawl; the whole run by --budget-min).
#
#   tests/bench/run_all.sh [--quick] [--oq-pages N] [--oq-hosts H] [--budget-min M] [--out DIR]
#   tests/bench/run_all.sh --report-only --out DIR   # rewrite the docs from DIR
# --quick: small universes (a few minutes), to check the scripts.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
oq_pages=155000 oq_hosts=2000 budget_min=180 out="" quick=0 report_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; shift ;;
    --oq-pages) oq_pages=$2; shift 2 ;;
    --oq-hosts) oq_hosts=$2; shift 2 ;;
    --budget-min) budget_min=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --report-only) report_only=1; shift ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run_all: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || out=$(mktemp -d /tmp/bench-all.XXXXXX)
mkdir -p "$out"; out=$(cd "$out" && pwd)
b="$root/tests/bench"
if [ "$quick" = 1 ]; then
  oq=(--pages 5000 --hosts 100 --timeout 300)
  ct=(--sites postgresql-doc-15,testweb --testweb-pages 2000 --testweb-hosts 4 --timeout 300)
  sc=(--sites testweb --tools crawler --testweb-pages 2000 --testweb-hosts 4 --timeout 300)
else
  # The arguments of the runs docs/BENCHMARKS.md reports ("Where the
  # targets stand"): crawls of the documentation sites take seconds, so a
  # 120 s limit only cuts a stuck crawl; crawlee is cut at 60 s.
  oq=(--pages "$oq_pages" --hosts "$oq_hosts" --timeout 900)
  ct=(--testweb-pages 10000 --testweb-hosts 20 --timeout 120 --crawlee-timeout 60)
  sc=(--sites testweb --tools crawler --testweb-pages 10000 --testweb-hosts 20 --timeout 240)
fi
if [ "$report_only" = 0 ]; then
  total=$((budget_min * 60))
  machine_load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "$machine_load_before" > "$out/load_before"
  timeout "$total" "$b/order_quality.sh" "${oq[@]}" --out "$out/order_quality" || echo "run_all: order_quality failed or timed out" >&2
  timeout "$total" "$b/crawl_throughput.sh" "${ct[@]}" --out "$out/throughput" || echo "run_all: crawl_throughput failed or timed out" >&2
  timeout "$total" "$b/crawl_throughput.sh" "${sc[@]}" --queueservers 4 --fetchers 4 --out "$out/scaling" \
    || echo "run_all: scaling check failed or timed out" >&2
  cut -d' ' -f1-3 /proc/loadavg > "$out/load_after"
fi
python3 "$b/bench_report.py" --results "$out" --docs "$root/docs"
