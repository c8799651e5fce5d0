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
#       [--restart-each] [--check]
#
# Defaults: 1,000,000 pages on 10,000 hosts (clean preset, 4 KiB pages, no
# crawl delay), 2 queue servers, 2 fetchers, a sample every 5 s, at most
# 150 minutes. The crawl's page budget is the universe's size, so it ends
# when every reachable page is fetched (or at the time limit, reported).
# "Bounded" is judged on the curve: after the start-up ramp, a process whose
# RSS keeps rising in proportion to pages crawled grows with the crawl; the
# summary prints each process's growth per 100,000 pages over the last half.
# It also prints pages/s over each tenth of the run and the disk each queue
# server holds per page, at the end and after a full compaction (RocksDB's
# `ldb compact` on every column family, when rocksdb-tools is installed).
#
# --restart-each (the soak, tests/bench/soak.sh): every process is killed
# (SIGKILL) once, one after another at evenly spread shares of the pages, and
# started again (`local-cluster.sh restart`); restarts.csv holds when, and
# the seconds from the kill until the process answered /healthz again.
# --check: once the crawl is over, the invariants of the fault tests: every
# reachable page fetched, none more than twice and at most the leases open
# at the kills twice (check_nothing_lost.py), the frontier empty and sampled
# pages found in the index (check_index_consistent.py), and no politeness
# violation in testweb's access log (testweb check-politeness).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="${CRAWL_BIN:-$root/build/bin}"
pages=1000000 hosts=10000 queueservers=2 fetchers=2 every=5 max_minutes=150 out="" restart_each=0 check=0
while [ $# -gt 0 ]; do
  case "$1" in
    --pages) pages=$2; shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    --queueservers) queueservers=$2; shift 2 ;;
    --fetchers) fetchers=$2; shift 2 ;;
    --every) every=$2; shift 2 ;;
    --max-minutes) max_minutes=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --restart-each) restart_each=1; shift ;;
    --check) check=1; shift ;;
    -h|--help) sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
web=(--seed 11 --hosts "$hosts" --pages "$pages" --preset clean)
access_log=()
[ "$check" = 0 ] || access_log=(--access-log "$work/access.log")
"$bin/testweb" serve "${web[@]}" --ips 250 --threads 2 --hosts-file "$work/hosts" "${access_log[@]}" \
  > "$work/testweb.log" 2>&1 &
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

# Processes to sample, by name: the cluster's (a restart changes a pid, so
# each sample reads the pid file), then testweb.
names=()
for f in "$work"/cluster/*.pid; do names+=("$(basename "$f" .pid)"); done
pid_of() { if [ "$1" = testweb ]; then echo "$testweb_pid"; else cat "$work/cluster/$1.pid" 2> /dev/null || true; fi; }
header="seconds,pages"
for n in "${names[@]}" testweb; do header+=",${n}_rss_kib"; done
echo "$header" > "$out/samples.csv"
echo "process,at_pages,seconds_to_healthz" > "$out/restarts.csv"
# restart_next: the next process of `names` to kill (--restart-each), when
# the pages pass its share: process i at (i+1)/(n+1) of the universe.
restart_next=0
[ "$restart_each" = 1 ] || restart_next=${#names[@]}
restart_due() { [ "$restart_next" -lt ${#names[@]} ] && [ "$1" -ge $((pages * (restart_next + 1) / (${#names[@]} + 1))) ]; }
kill_and_restart() {
  local name=${names[restart_next]} pid t0
  pid=$(pid_of "$name")
  t0=$(date +%s.%N)
  kill -KILL "$pid" 2> /dev/null || true
  while kill -0 "$pid" 2> /dev/null; do sleep 0.05; done
  CRAWL_BIN=$bin "$root/deploy/local-cluster.sh" restart --dir "$work/cluster" --timeout 900 > /dev/null ||
    { echo "memory_curve: $name did not come back" >&2; exit 1; }
  . "$work/cluster/cluster.env"
  echo "$name,$1,$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$t0" "$(date +%s.%N)")" \
    >> "$out/restarts.csv"
  restart_next=$((restart_next + 1))
}

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
  fetched=$(pages_fetched)
  line="$((SECONDS - start)),$fetched"
  for n in "${names[@]}" testweb; do
    rss=$(awk '/^VmRSS/{print $2}' "/proc/$(pid_of "$n")/status" 2> /dev/null || true)
    [ -n "$rss" ] || { echo "memory_curve: $n (pid $(pid_of "$n")) is gone" >&2; exit 1; }
    line+=",$rss"
  done
  echo "$line" >> "$out/samples.csv"
  if restart_due "$fetched"; then kill_and_restart "$fetched"; continue; fi
  state=$(crawl_state)
  # "unknown": the status call failed or timed out (a loaded machine); ask
  # again at the next sample.
  [ "$state" = running ] || [ "$state" = unknown ] || break
  sleep "$every"
done
elapsed=$((SECONDS - start))

# Peak RSS (VmHWM) of every process at the end (since its last start).
hwm="process,peak_rss_mib"
for n in "${names[@]}" testweb; do
  v=$(awk '/^VmHWM/{print $2}' "/proc/$(pid_of "$n")/status" 2> /dev/null || echo 0)
  hwm+=$'\n'"$n,$((v / 1024))"
done
echo "$hwm" > "$out/peak.csv"

if [ "$check" = 1 ]; then
  export CRAWL_BIN=$bin CRAWL_NAMESERVER=$NAMESERVER
  "$bin/crawlctl" log > "$work/crawl.log"
  "$bin/testweb" export "${web[@]}" --out "$work/reachable.tsv"
  # Each kill may cost the leases open then: 4 schedules of 5,000 URLs per fetcher.
  python3 "$root/tests/integration/check_nothing_lost.py" "$work/crawl.log" "$work/reachable.tsv" \
    "$((${#names[@]} * fetchers * 4 * 5000))" "the crawl" | tee "$out/checks.txt"
  "$bin/crawlctl" status --json > "$work/final-status.json"
  python3 "$root/tests/integration/check_index_consistent.py" "$work/crawl.log" "$work/hosts" \
    "$work/final-status.json" 40 "the crawl" | tee -a "$out/checks.txt"
  sleep 1  # access log lines are written as answers finish
  "$bin/testweb" check-politeness "$work/access.log" "${web[@]}" --json > "$out/politeness.json"
  python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["violations"]; print("politeness violations:", v); sys.exit(v != 0)' \
    "$out/politeness.json" | tee -a "$out/checks.txt"
fi

# Disk per page: each queue server's directory at the end, then stopped and
# every RocksDB column family compacted (ldb, when installed).
final_pages=$(awk -F, 'NR > 1 && $2 >= 0 { p = $2 } END { print p + 0 }' "$out/samples.csv")
disk_at_end=$(du -sb "$work"/cluster/queueserver*/ | awk '{ s += $1 } END { printf "%.0f\n", s }')
du -sb "$work"/cluster/queueserver*/* "$work"/cluster/queueserver*/*/* > "$out/disk_detail.txt" 2> /dev/null || true
"$root/deploy/local-cluster.sh" down --dir "$work/cluster" > /dev/null 2>&1 || true
disk_compacted=""
if command -v ldb > /dev/null; then
  while read -r db; do
    db=$(dirname "$db")
    ldb --db="$db" list_column_families 2> /dev/null | sed -n 's/^Column families in [^:]*: *{\(.*\)}$/\1/p' |
      tr ',' '\n' | sed 's/^ *//; s/ *$//' | while read -r cf; do
        [ -z "$cf" ] || ldb --db="$db" --column_family="$cf" compact > /dev/null 2>&1 || true
      done
  done < <(find "$work"/cluster/queueserver*/ -name CURRENT)
  disk_compacted=$(du -sb "$work"/cluster/queueserver*/ | awk '{ s += $1 } END { printf "%.0f\n", s }')
fi
echo "disk,bytes,bytes_per_page" > "$out/disk.csv"
echo "at_end,$disk_at_end,$((disk_at_end / (final_pages > 0 ? final_pages : 1)))" >> "$out/disk.csv"
[ -z "$disk_compacted" ] || echo "compacted,$disk_compacted,$((disk_compacted / (final_pages > 0 ? final_pages : 1)))" >> "$out/disk.csv"

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo); load average at end $(cut -d' ' -f1-3 /proc/loadavg)"
echo "universe: $pages pages on $hosts hosts (clean preset); $queueservers queue servers, $fetchers fetchers; crawl state '$state' after ${elapsed} s"
python3 - "$out/samples.csv" "$out/peak.csv" "$out/restarts.csv" "$out/disk.csv" <<'EOF'
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
print("| process | " + " | ".join(f"RSS at {int(m*100)}% (MiB)" for m in marks) + " | growth per 100k pages, last half (MiB) | peak sampled (MiB) | VmHWM at end (MiB) |")
print("|---|" + "---|" * (len(marks) + 3))
peaks = {r["process"]: r["peak_rss_mib"] for r in csv.DictReader(open(sys.argv[2]))}
for n in names:
    vals = [int(at(m)[n + "_rss_kib"]) / 1024 for m in marks]
    mid, end = at(0.5), rows[-1]
    dp = int(end["pages"]) - int(mid["pages"])
    growth = (int(end[n + "_rss_kib"]) - int(mid[n + "_rss_kib"])) / 1024 / dp * 1e5 if dp > 0 else 0.0
    top = max(int(r[n + "_rss_kib"]) for r in rows) / 1024
    print(f"| {n} | " + " | ".join(f"{v:.0f}" for v in vals) + f" | {growth:+.1f} | {top:.0f} | {peaks.get(n, '?')} |")
# pages/s over each tenth of the run (IRLbot sustained 1,789 on one server).
span = int(rows[-1]["seconds"]) - int(rows[0]["seconds"])
if span > 0:
    cuts, k, rates = [span * i / 10 for i in range(11)], 0, []
    for i in range(10):
        lo = max((r for r in rows if int(r["seconds"]) <= cuts[i]), key=lambda r: int(r["seconds"]), default=rows[0])
        hi = max((r for r in rows if int(r["seconds"]) <= cuts[i + 1]), key=lambda r: int(r["seconds"]), default=rows[-1])
        dt = int(hi["seconds"]) - int(lo["seconds"])
        rates.append((int(hi["pages"]) - int(lo["pages"])) / dt if dt > 0 else 0.0)
    print(f"pages/s over the run: {total / span:.0f}; by tenth: " + ", ".join(f"{r:.0f}" for r in rates))
restarts = list(csv.DictReader(open(sys.argv[3])))
for r in restarts:
    print(f"restart: {r['process']} killed at {int(r['at_pages']):,} pages, answered /healthz {r['seconds_to_healthz']} s later")
for r in csv.DictReader(open(sys.argv[4])):
    print(f"disk {r['disk']}: {int(r['bytes']) / 2**20:.0f} MiB over the queue servers, {r['bytes_per_page']} bytes per page")
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
