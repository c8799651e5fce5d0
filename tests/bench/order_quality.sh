#!/usr/bin/env bash
# Crawl-order quality on testweb's misbehaving preset (issue 9 item 1; run by
# hand or from run_all.sh, never in CI). For each crawl order (bfs, opic,
# host_budget, structure when this build accepts it) a fresh local cluster
# crawls a fresh `misbehaving` universe up to a page budget; then, from
# `crawlctl log` and testweb's ground truth (`testweb export --truth`):
#   - the cumulative PageRank captured after k pages (`testweb
#     pagerank-captured`), at 5, 10, 25 and 50% of the reachable pages;
#   - the share of fetches spent on farm, trap and duplicate pages (ground
#     truth KIND; trap URLs past the truth's cut-off count as trap) up to 25%
#     of the reachable pages and over the whole crawl.
# The omniscient order (always fetch the discovered page of highest true
# PageRank; discovery follows the crawlable graph of `testweb export --out`)
# is the upper bound. "Reachable pages" are the truth's URLs a polite crawler
# can fetch (every KIND but disallowed).
#
#   tests/bench/order_quality.sh [--pages N] [--hosts H] [--seed S] [--budget-pct P]
#       [--orders LIST] [--queueservers Q] [--fetchers F] [--schedule-size N] [--timeout S] [--out DIR]
#       [--fetcher-args "ARGS"]   # extra fetcher flags, e.g. "--schedules 1"
#       [--bind-base A.B.0.0]     # testweb's address block (testweb serve --bind-base)
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
# Writes DIR/table.md (the table), DIR/curves.tsv, DIR/order_quality.png
# (gnuplot, installed if missing) and the raw logs. Every crawl is bounded by
# --timeout seconds; a crawl cut by the timeout is reported as such.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="${CRAWL_BIN:-$root/build/bin}"
pages=155000 hosts=2000 seed=9 budget_pct=55 orders="bfs opic host_budget structure"
fetcher_args="" bind_base="" queueservers=2 fetchers=2 schedule_size=50 timeout=1800 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --pages) pages=$2; shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --budget-pct) budget_pct=$2; shift 2 ;;
    --orders) orders=${2//,/ }; shift 2 ;;
    --queueservers) queueservers=$2; shift 2 ;;
    --fetchers) fetchers=$2; shift 2 ;;
    --schedule-size) schedule_size=$2; shift 2 ;;
    --fetcher-args) fetcher_args=$2; shift 2 ;;
    --bind-base) bind_base=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "order_quality: unknown option $1" >&2; exit 2 ;;
  esac
done
for b in testweb crawlctl nameserver queueserver fetcher; do
  [ -x "$bin/$b" ] || { echo "order_quality: $bin/$b missing; build first" >&2; exit 1; }
done
if ! command -v gnuplot > /dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q gnuplot-nox > /dev/null
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

web=(--seed "$seed" --hosts "$hosts" --pages "$pages" --preset misbehaving)
echo "order_quality: universe ${web[*]}; ground truth ..." >&2
"$bin/testweb" export "${web[@]}" --truth "$out/truth.tsv" --out "$out/graph.tsv"
"$bin/testweb" seeds "${web[@]}" > "$out/seeds.txt"
reachable=$(awk -F'\t' '$2 != "disallowed"' "$out/truth.tsv" | wc -l)
budget=$((reachable * budget_pct / 100))
echo "order_quality: $reachable reachable pages; budget $budget pages per order" >&2

# The omniscient order: a priority frontier on true PageRank over the graph.
python3 - "$out/truth.tsv" "$out/graph.tsv" "$out/seeds.txt" "$budget" > "$out/omniscient.fetched" <<'PY'
import heapq, sys
truth, graph, seeds, budget = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rank = {}
for line in open(truth):
    f = line.rstrip("\n").split("\t")
    if len(f) == 4 and f[1] != "disallowed":
        rank[f[0]] = float(f[3])
out = {}
for line in open(graph):
    f = line.rstrip("\n").split("\t")
    out[f[0]] = f[1:]
heap, seen = [], set()
def discover(u):
    if u in rank and u not in seen:
        seen.add(u)
        heapq.heappush(heap, (-rank[u], u))
for s in open(seeds):
    discover(s.strip())
n = 0
w = sys.stdout.write
while heap and n < budget:
    _, u = heapq.heappop(heap)
    w(u + "\n")
    n += 1
    for v in out.get(u, ()):
        discover(v)
PY

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

ran=()
: > "$out/runs.tsv"
for order in $orders; do
  start_web
  CRAWL_BIN=$bin "$root/deploy/local-cluster.sh" up --dir "$work/cluster" --queueservers "$queueservers" \
    --fetchers "$fetchers" --hosts-file "$work/hosts" --allow-private --fetcher-args "$fetcher_args" > /dev/null
  . "$work/cluster/cluster.env"
  export CRAWL_NAMESERVER=$NAMESERVER
  if ! "$bin/crawlctl" start --seeds "$out/seeds.txt" --allow-private --accept-self-signed --order "$order" \
       --max-pages "$budget" --schedule-size "$schedule_size" > "$work/start.log" 2>&1; then
    if grep -q -i "order" "$work/start.log"; then
      echo "$order: not available in this build" | tee -a "$out/unavailable.txt"
      stop_all; continue
    fi
    cat "$work/start.log" >&2; exit 1
  fi
  t0=$(date +%s.%N); ending=timeout
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
    "$bin/crawlctl" log > "$out/$order.log" && break
    [ "$try" = 5 ] && { echo "order_quality: crawlctl log failed 5 times" >&2; exit 1; }
    sleep 5
  done
  n=$(grep -c -v '/robots.txt' "$out/$order.log" || true)
  wall=$(python3 -c "print(f'{$t1 - $t0:.0f}')")
  printf '%s\t%s\t%s\t%s\n' "$order" "$ending" "$n" "$wall" >> "$out/runs.tsv"
  echo "order_quality: $order ended $ending after $wall s, $n page fetches" >&2
  ran+=("$order")
  stop_all
done

for o in "${ran[@]}" omniscient; do
  f="$out/$o.log"; [ "$o" = omniscient ] && f="$out/omniscient.fetched"
  "$bin/testweb" pagerank-captured --truth "$out/truth.tsv" --fetched "$f" > "$out/$o.captured"
done

python3 - "$out" "$reachable" "${ran[@]}" <<'PY'
import re, sys
out, reachable, orders = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
kind = {}
for line in open(f"{out}/truth.tsv"):
    f = line.rstrip("\n").split("\t")
    kind[f[0]] = f[1]
trap_path = re.compile(r"^https?://[^/]+/(calendar|deep)/")
def classify(url):
    k = kind.get(url)
    if k is None:
        return "trap" if trap_path.match(url) else "unknown"
    return k
def curve(name):
    pts = {}
    for line in open(f"{out}/{name}.captured"):
        k, c = line.split()
        pts[int(k)] = float(c)
    return pts
def fetches(name):
    if name == "omniscient":
        return [l.strip() for l in open(f"{out}/omniscient.fetched") if l.strip()]
    urls = []
    for line in open(f"{out}/{name}.log"):
        f = line.rstrip("\n").split("\t")
        url = next((x for x in f if x.startswith(("http://", "https://"))), None)
        if url and not re.match(r"^https?://[^/]+/robots\.txt$", url):
            urls.append(url)
    return urls
runs = {l.split("\t")[0]: l.rstrip("\n").split("\t") for l in open(f"{out}/runs.tsv")}
pcts = [5, 10, 25, 50]
ks = [reachable * p // 100 for p in pcts]
names = orders + ["omniscient"]
curves = {n: curve(n) for n in names}
at = {n: [curves[n].get(k) for k in ks] for n in names}
def fmt(v): return "-" if v is None else f"{v:.3f}"
lines = []
lines.append(f"Reachable pages: {reachable:,}. PageRank captured after k pages (sum of the true PageRank of the distinct pages fetched; the whole web sums to 1):")
lines.append("")
lines.append("| order | " + " | ".join(f"{p}% ({k:,})" for p, k in zip(pcts, ks)) + " | vs bfs at 10% | vs omniscient at 10% | farm+trap share at 25% | farm / trap / duplicate share of all fetches | fetches | crawl ended |")
lines.append("|---|" + "---|" * (len(pcts) + 6))
for n in names:
    urls = fetches(n)
    head = urls[:ks[2]]
    def share(us, kinds):
        return sum(1 for u in us if classify(u) in kinds) / max(len(us), 1)
    b10 = at.get("bfs", [None] * 4)[1]
    o10 = at["omniscient"][1]
    v = at[n][1]
    rb = "-" if (b10 is None or v is None or b10 == 0) else f"{v / b10:.2f}x"
    ro = "-" if (o10 is None or v is None or o10 == 0) else f"{v / o10:.2f}x"
    ft = share(head, {"farm", "trap"})
    allf = f"{share(urls, {'farm'}):.1%} / {share(urls, {'trap'}):.1%} / {share(urls, {'duplicate'}):.1%}"
    ended = "-" if n == "omniscient" else f"{runs[n][1]} ({runs[n][3]} s)"
    lines.append(f"| {n} | " + " | ".join(fmt(x) for x in at[n]) + f" | {rb} | {ro} | {ft:.1%} | {allf} | {len(urls):,} | {ended} |")
open(f"{out}/table.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
# Curves for gnuplot: fraction of reachable pages crawled vs PageRank captured.
with open(f"{out}/curves.tsv", "w") as f:
    for n in names:
        f.write(f"# {n}\n")
        for k in sorted(curves[n]):
            if k % max(reachable // 400, 1) == 0:
                f.write(f"{k / reachable:.5f}\t{curves[n][k]:.6f}\n")
        f.write("\n\n")
PY

plot="set terminal pngcairo size 900,600 noenhanced; set output '$out/order_quality.png';"
plot+="set title 'PageRank captured vs pages crawled (testweb misbehaving, $reachable reachable pages, $hosts hosts)';"
plot+="set xlabel 'fraction of reachable pages fetched'; set ylabel 'PageRank captured'; set key bottom right; set grid;"
plot+="set xrange [0:0.55]; plot "
i=0
for o in "${ran[@]}" omniscient; do
  [ $i -eq 0 ] || plot+=", "
  plot+="'$out/curves.tsv' index $i using 1:2 with lines lw 2 title '$o'"
  i=$((i + 1))
done
if gnuplot -e "$plot" 2> "$work/gnuplot.err"; then
  echo "order_quality: plot $out/order_quality.png" >&2
else
  # pngcairo needs gnuplot-qt/x11 on some systems; fall back to the png terminal.
  gnuplot -e "${plot/pngcairo/png}" || echo "order_quality: gnuplot failed: $(cat "$work/gnuplot.err")" >&2
fi
echo "order_quality: results in $out" >&2
