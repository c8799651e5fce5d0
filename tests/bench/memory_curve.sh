#!/usr/bin/env bash
# Memory of every process over a long crawl (memory must stay bounded): a sustained
# crawl of a large testweb universe on the local cluster, with the resident
# memory (VmRSS) of the name server, each queue server, each fetcher and
# testweb sampled every few seconds. Run by hand; prints a summary table
# (RSS of each process at 10%, 25%, 50%, 75% and 100% of the pages) and
# writes the samples as CSV (and a PNG curve when gnuplot is installed).
#
#   tests/bench/memory_curve.sh [--pages N] [--hosts H] [--queueservers Q]
#       [--fetchers F] [--every S] [--max-minutes M] [--out DIR]
#
# Defaults: 1,000,000 pages on 10,000 hosts (clean preset, 4 KiB pages, no
# crawl delay), 2 queue servers, 2 fetchers, a sample every 5 s, at most
# 150 minutes. The crawl's page budget is the universe's size, so it ends
# when every reachable page is fetched (or at the time limit, reported).
# "Bounded" is judged on the curve: after the start-up ramp, a process whose
# RSS keeps rising in proportion to pages crawled grows with the crawl; the
# summary prints each process's growth per 100,000 pages over the last half.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="${CRAWL_BIN:-$root/build/bin}"
pages=1000000 hosts=10000 queueservers=2 fetchers=2 every=5 max_minutes=150 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --pages) pages=$2; shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    --queueservers) queueservers=$2; shift 2 ;;
    --fetchers) fetchers=$2; shift 2 ;;
    --every) every=$2; shift 2 ;;
    --max-minutes) max_minutes=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "memory_curve: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for n in "$pages" "$hosts" "$queueservers" "$fetchers" "$every" "$max_minutes"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "memory_curve: '$n' is not a positive number" >&2; exit 2; }
done
for b in testweb nameserver queueserver fetcher crawlctl; do
  [ -x "$bin/$b" ] || { echo "memory_curve: $bin/$b not found: build first" >&2; exit 1; }
done
work=$(mktemp -d /tmp/memory-curve.XXXXXX)
out=${out:-$work/out}
mkdir -p "$out"
testweb_pid=""
cleanup() {
  "$root/deploy/local-cluster.sh" down --dir "$work/cluster" > /dev/null 2>&1 || true
  [ -z "$testweb_pid" ] || kill "$testweb_pid" 2> /dev/null || true
  # Keep the samples; the cluster's data directories are large.
  [ -n "${KEEP:-}" ] || rm -rf "$work/cluster"
}
trap cleanup EXIT

# --ips 250: 10,000 listening sockets would be fine, but fewer addresses keep
# testweb small; per-IP politeness is not used by this crawl.
"$bin/testweb" serve --seed 11 --hosts "$hosts" --pages "$pages" --preset clean --ips 250 \
  --threads 2 --hosts-file "$work/hosts" > "$work/testweb.log" 2>&1 &
testweb_pid=$!
for _ in $(seq 1 600); do [ -s "$work/hosts" ] && break; sleep 0.1; done
[ -s "$work/hosts" ] || { echo "memory_curve: testweb did not start: $(tail -3 "$work/testweb.log")" >&2; exit 1; }

CRAWL_BIN=$bin "$root/deploy/local-cluster.sh" up --dir "$work/cluster" --queueservers "$queueservers" \
  --fetchers "$fetchers" --hosts-file "$work/hosts" --allow-private > /dev/null
. "$work/cluster/cluster.env"
# The first 100 hosts' roots (awk stops itself: `| head` would kill it with
# SIGPIPE on a large hosts file, and pipefail would end the script).
awk '!/^#/ && NF >= 2 { print "http://" $2 "/"; if (++n == 100) exit }' "$work/hosts" > "$work/seeds.txt"
"$bin/crawlctl" --nameserver "$NAMESERVER" start --seeds "$work/seeds.txt" --allow-private \
  --max-pages "$pages" > /dev/null

# Processes to sample: NAME PID (cluster pid files, then testweb).
procs=()
for f in "$work"/cluster/*.pid; do procs+=("$(basename "$f" .pid)" "$(cat "$f")"); done
procs+=(testweb "$testweb_pid")
header="seconds,pages"
for ((k = 0; k < ${#procs[@]}; k += 2)); do header+=",${procs[k]}_rss_kib"; done
echo "$header" > "$out/samples.csv"

pages_fetched() {
  "$bin/crawlctl" --nameserver "$NAMESERVER" status --json 2> /dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin).get("pages_fetched", 0))' 2> /dev/null || echo -1
}
crawl_state() {
  "$bin/crawlctl" --nameserver "$NAMESERVER" status --json 2> /dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])' 2> /dev/null || echo unknown
}

start=$SECONDS deadline=$((SECONDS + max_minutes * 60)) state=running
while [ $SECONDS -lt $deadline ]; do
  line="$((SECONDS - start)),$(pages_fetched)"
  for ((k = 0; k < ${#procs[@]}; k += 2)); do
    rss=$(awk '/^VmRSS/{print $2}' "/proc/${procs[k + 1]}/status" 2> /dev/null || true)
    [ -n "$rss" ] || { echo "memory_curve: ${procs[k]} (pid ${procs[k + 1]}) is gone" >&2; exit 1; }
    line+=",$rss"
  done
  echo "$line" >> "$out/samples.csv"
  state=$(crawl_state)
  # "unknown": the status call failed or timed out (a loaded machine); ask
  # again at the next sample.
  [ "$state" = running ] || [ "$state" = unknown ] || break
  sleep "$every"
done
elapsed=$((SECONDS - start))

# Peak RSS (VmHWM) of every process at the end.
hwm="process,peak_rss_mib"
for ((k = 0; k < ${#procs[@]}; k += 2)); do
  v=$(awk '/^VmHWM/{print $2}' "/proc/${procs[k + 1]}/status" 2> /dev/null || echo 0)
  hwm+=$'\n'"${procs[k]},$((v / 1024))"
done
echo "$hwm" > "$out/peak.csv"

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo); load average at end $(cut -d' ' -f1-3 /proc/loadavg)"
echo "universe: $pages pages on $hosts hosts (clean preset); $queueservers queue servers, $fetchers fetchers; crawl state '$state' after ${elapsed} s"
python3 - "$out/samples.csv" "$out/peak.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
rows = [r for r in rows if int(r["pages"]) >= 0]
names = [k[:-8] for k in rows[0] if k.endswith("_rss_kib")]
total = int(rows[-1]["pages"])
print(f"pages fetched: {total}, samples: {len(rows)}")
def at(frac):
    want = total * frac
    for r in rows:
        if int(r["pages"]) >= want:
            return r
    return rows[-1]
marks = [0.10, 0.25, 0.50, 0.75, 1.00]
print("| process | " + " | ".join(f"RSS at {int(m*100)}% (MiB)" for m in marks) + " | growth per 100k pages, last half (MiB) | peak (MiB) |")
print("|---|" + "---|" * (len(marks) + 2))
peaks = {r["process"]: r["peak_rss_mib"] for r in csv.DictReader(open(sys.argv[2]))}
for n in names:
    vals = [int(at(m)[n + "_rss_kib"]) / 1024 for m in marks]
    mid, end = at(0.5), rows[-1]
    dp = int(end["pages"]) - int(mid["pages"])
    growth = (int(end[n + "_rss_kib"]) - int(mid[n + "_rss_kib"])) / 1024 / dp * 1e5 if dp > 0 else 0.0
    print(f"| {n} | " + " | ".join(f"{v:.0f}" for v in vals) + f" | {growth:+.1f} | {peaks.get(n, '?')} |")
EOF
if command -v gnuplot > /dev/null; then
  cols=$(head -1 "$out/samples.csv" | tr ',' '\n' | wc -l)
  gnuplot <<EOF
set terminal pngcairo size 900,500
set output "$out/memory_curve.png"
set datafile separator ","
set key autotitle columnhead left top noenhanced
set xrange [0:*]
set xlabel "pages fetched"
set ylabel "RSS (MiB)"
set title "RSS of every process over a $pages-page crawl"
# A sample whose status call failed has pages -1: left out, not drawn at 0.
plot for [c=3:$cols] "$out/samples.csv" using (\$2 < 0 ? NaN : \$2):(column(c)/1024) with lines
EOF
  echo "plot: $out/memory_curve.png"
fi
echo "samples: $out/samples.csv"
