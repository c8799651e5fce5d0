#!/usr/bin/env bash
# Crawl-order quality and spam resistance (importance early, little
# spam; run by hand or from run_all.sh, never in CI). For each preset
# (--presets, default misbehaving and spam: testweb's link-spam structures,
# tests/testweb/universe.h "Link spam") and each crawl order (bfs, opic,
# host_budget, structure when this build accepts it) a fresh local cluster
# crawls a fresh universe up to a page budget; then, from `crawlctl log` and
# testweb's ground truth (`testweb export --truth`), per preset and order
# (tests/bench/order_quality.py computes them):
#   - the quality PageRank captured after 10% of the reachable pages: the
#     truth's PageRank with spam, farm and trap pages counted as 0 (link
#     spam gathers PageRank by design), the rest summing to 1; and its ratio
#     to bfs and to the omniscient order;
#   - the share of the first 25% of fetches wasted on each spam structure:
#     spam CLDs (kind spam), a farm on one CLD (kind farm), traps (URLs past
#     the truth's cuts classified by path and host name).
# The omniscient order (always fetch the discovered page of highest quality
# PageRank; discovery follows the crawlable graph of `testweb export --out`)
# is the upper bound. "Reachable pages" are the truth's URLs a polite crawler
# can fetch (every KIND but disallowed).
# --uncapped: no page budget; each crawl runs until its frontier is exhausted
# or --timeout, and the table adds the spam+farm+trap share of all fetches
# and of the last quarter (a crawl must end by itself or
# settle under 10%).
#
#   tests/bench/order_quality.sh [--pages N] [--hosts H] [--seed S] [--budget-pct P]
#       [--presets LIST] [--orders LIST] [--uncapped] [--queueservers Q] [--fetchers F]
#       [--schedule-size N] [--timeout S] [--out DIR]
#       [--fetcher-args "ARGS"]   # extra fetcher flags, e.g. "--schedules 1"
#       [--start-args "ARGS"]     # extra `crawlctl start` flags, e.g. "--tier-rule beast"
#       [--bind-base A.B.0.0]     # testweb's address block (testweb serve --bind-base)
#   --orders takes ORDER or ORDER:FILTERS (a scoring chain, '+' between
#   filters), e.g. "bfs host_budget:link-kind opic:opic+depth"; its results
#   are named ORDER-FILTERS (opic-opic-depth).
#
# --schedule-size (default 50): an order can only choose among what is
# queued, and a fetcher leases a whole schedule at once (up to --schedules
# lanes of them), fetched host-parallel: with the crawl's default 5,000 URLs
# per schedule, 2 fetchers x 4 lanes lease 40,000 URLs at a time, nearly the
# whole frontier of a 100,000-page web, and every order degenerates to
# "whatever was discovered". order_sim (docs/BENCHMARKS.md) measured the
# window's effect: opic's lead over bfs at 10% is 1.03x at 250 URLs per
# schedule, 1.10x at 50, 1.12x at 10. 50 keeps the leased window (400 URLs)
# under 5% of the 10% point of an 80,000-page web, the ratio a production
# crawl's 5,000-URL schedules have to a frontier of millions.
#
# Writes DIR/table.md (the table), DIR/PRESET/curves.tsv,
# DIR/PRESET/order_quality.png (gnuplot, installed if missing) and the raw
# logs under DIR/PRESET/. Every crawl is bounded by --timeout seconds; a
# crawl cut by the timeout is reported as such.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="${CRAWL_BIN:-$root/build/bin}"
helper="$root/tests/bench/order_quality.py"
pages=155000 hosts=2000 seed=9 budget_pct=55 orders="bfs opic host_budget structure" presets="misbehaving spam"
fetcher_args="" start_args="" bind_base="" queueservers=2 fetchers=2 schedule_size=50 timeout=1800 out="" uncapped=0
while [ $# -gt 0 ]; do
  case "$1" in
    --pages) pages=$2; shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --budget-pct) budget_pct=$2; shift 2 ;;
    --presets) presets=${2//,/ }; shift 2 ;;
    --orders) orders=${2//,/ }; shift 2 ;;
    --uncapped) uncapped=1; shift ;;
    --queueservers) queueservers=$2; shift 2 ;;
    --fetchers) fetchers=$2; shift 2 ;;
    --schedule-size) schedule_size=$2; shift 2 ;;
    --fetcher-args) fetcher_args=$2; shift 2 ;;
    --start-args) start_args=$2; shift 2 ;;
    --bind-base) bind_base=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,46p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "order_quality: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for b in testweb crawlctl nameserver queueserver fetcher; do
  [ -x "$bin/$b" ] || { echo "order_quality: $bin/$b missing; build first" >&2; exit 1; }
done
[ -n "$presets" ] && [ -n "$orders" ] || { echo "order_quality: --presets and --orders need a name" >&2; exit 2; }
if ! command -v gnuplot > /dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q gnuplot-nox > /dev/null || echo "order_quality: no gnuplot, no plot" >&2
fi
[ -n "$out" ] || out=$(mktemp -d /tmp/order-quality.XXXXXX)
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d /tmp/order-quality-work.XXXXXX)
testweb_pid=""
cleanup() {
  [ ! -f "$work/cluster/cluster.env" ] || "$root/deploy/local-cluster.sh" down --dir "$work/cluster" > /dev/null 2>&1 || true
  if [ -n "$testweb_pid" ]; then kill "$testweb_pid" 2>/dev/null || true; wait "$testweb_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

start_web() {
  "$bin/testweb" serve "${web[@]}" ${bind_base:+--bind-base "$bind_base"} --hosts-file "$work/hosts" > "$work/testweb.log" 2>&1 &
  testweb_pid=$!
  local i
  for i in $(seq 1 600); do
    [ -s "$work/hosts" ] && return 0
    kill -0 "$testweb_pid" 2>/dev/null || { echo "testweb exited: $(cat "$work/testweb.log")" >&2; exit 1; }
    sleep 0.1
  done
  echo "testweb did not start" >&2; exit 1
}
stop_all() {
  "$root/deploy/local-cluster.sh" down --dir "$work/cluster" > /dev/null 2>&1 || true
  rm -rf "$work/cluster"
  kill "$testweb_pid" 2>/dev/null || true; wait "$testweb_pid" 2>/dev/null || true; testweb_pid=""
  rm -f "$work/hosts"
}
state_of() {  # "STATE PAGES"; a status call can time out on a loaded machine: then "running ?"
  "$bin/crawlctl" status --json 2> /dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["state"], d.get("pages_fetched", 0))' 2> /dev/null \
    || echo "running ?"
}

# The results' name of an --orders entry: ORDER:A+B is ORDER-A-B.
order_name() { printf '%s' "$1" | tr ':+' '--'; }

# One crawl of --orders entry $1 into $dir/NAME.log (order_name); a line in
# $dir/runs.tsv. Returns 1 when the build has no such order.
crawl_one() {
  local order=${1%%:*} name chain=() state fetched try
  name=$(order_name "$1")
  [[ $1 == *:* ]] && chain=(--scoring-filters "$(printf '%s' "${1#*:}" | tr + ,)")
  start_web
  CRAWL_BIN=$bin "$root/deploy/local-cluster.sh" up --dir "$work/cluster" --queueservers "$queueservers" \
    --fetchers "$fetchers" --hosts-file "$work/hosts" --allow-private --fetcher-args "$fetcher_args" > /dev/null
  . "$work/cluster/cluster.env"
  export CRAWL_NAMESERVER=$NAMESERVER
  local budget_flag=(--max-pages "$budget") extra=()
  read -r -a extra <<< "$start_args"
  [ "$uncapped" = 1 ] && budget_flag=()
  if ! "$bin/crawlctl" start --seeds "$dir/seeds.txt" --allow-private --accept-self-signed --order "$order" \
       "${chain[@]}" "${extra[@]}" "${budget_flag[@]}" --schedule-size "$schedule_size" > "$work/start.log" 2>&1; then
    if grep -q -i "order" "$work/start.log"; then
      echo "$preset/$order: not available in this build" | tee -a "$out/unavailable.txt"
      stop_all; return 1
    fi
    cat "$work/start.log" >&2; exit 1
  fi
  local t0 t1 ending=timeout
  t0=$(date +%s.%N)
  while :; do
    read -r state fetched < <(state_of)
    [ "$state" = running ] || { ending=$state; break; }
    if python3 -c "import sys,time; sys.exit(0 if time.time() - $t0 > $timeout else 1)"; then break; fi
    sleep 1
  done
  t1=$(date +%s.%N)
  # The log is gathered from every queue server; on a loaded machine a call
  # can pass its deadline: try again.
  for try in 1 2 3 4 5; do
    "$bin/crawlctl" log > "$dir/$name.log" && break
    [ "$try" = 5 ] && { echo "order_quality: crawlctl log failed 5 times" >&2; exit 1; }
    sleep 5
  done
  local n wall
  n=$(grep -c -v '/robots.txt' "$dir/$name.log" || true)
  wall=$(python3 -c "print(f'{$t1 - $t0:.0f}')")
  printf '%s\t%s\t%s\t%s\n' "$name" "$ending" "$n" "$wall" >> "$dir/runs.tsv"
  echo "order_quality: $preset/$name ended $ending after $wall s, $n page fetches" >&2
  stop_all
}

plot_preset() {  # $1 preset, then the orders run
  local preset=$1 plot i=0 o; shift
  command -v gnuplot > /dev/null || return 0
  plot="set terminal pngcairo size 900,600 noenhanced; set output '$out/$preset/order_quality.png';"
  plot+="set title 'Quality PageRank captured vs pages crawled (testweb $preset, $hosts hosts)';"
  plot+="set xlabel 'fraction of reachable pages fetched'; set ylabel 'PageRank captured'; set key bottom right; set grid;"
  plot+="set xrange [0:0.55]; plot "
  for o in "$@" omniscient; do
    [ $i -eq 0 ] || plot+=", "
    plot+="'$out/$preset/curves.tsv' index $i using 1:2 with lines lw 2 title '$o'"
    i=$((i + 1))
  done
  # pngcairo needs gnuplot-qt/x11 on some systems; fall back to the png terminal.
  gnuplot -e "$plot" 2> /dev/null || gnuplot -e "${plot/pngcairo/png}" \
    || echo "order_quality: gnuplot failed for $preset" >&2
}

specs=()
for preset in $presets; do
  dir="$out/$preset"
  mkdir -p "$dir"
  web=(--seed "$seed" --hosts "$hosts" --pages "$pages" --preset "$preset")
  echo "order_quality: universe ${web[*]}; ground truth ..." >&2
  "$bin/testweb" export "${web[@]}" --truth "$dir/truth.tsv" --out "$dir/graph.tsv"
  "$bin/testweb" seeds "${web[@]}" > "$dir/seeds.txt"
  reachable=$(awk -F'\t' '$2 != "disallowed"' "$dir/truth.tsv" | wc -l)
  budget=$((reachable * budget_pct / 100))
  echo "order_quality: $preset: $reachable reachable pages; budget $budget pages per order" >&2
  python3 "$helper" omniscient "$dir/truth.tsv" "$dir/graph.tsv" "$dir/seeds.txt" "$budget" > "$dir/omniscient.fetched"
  : > "$dir/runs.tsv"
  ran=()
  for order in $orders; do
    crawl_one "$order" && ran+=("$(order_name "$order")")
  done
  [ ${#ran[@]} -gt 0 ] || continue
  specs+=("$preset:$(IFS=,; echo "${ran[*]}")")
done
[ ${#specs[@]} -gt 0 ] || { echo "order_quality: no crawl ran" >&2; exit 1; }
report_flags=()
[ "$uncapped" = 1 ] && report_flags=(--uncapped)
python3 "$helper" report "$out" "${report_flags[@]}" "${specs[@]}"
for spec in "${specs[@]}"; do
  IFS=, read -r -a spec_orders <<< "${spec#*:}"
  plot_preset "${spec%%:*}" "${spec_orders[@]}"
done
echo "order_quality: results in $out" >&2
