#!/usr/bin/env bash
# What mutual TLS costs: the same testweb crawl by
# the same local cluster with TLS (local-cluster.sh's default) and in plain
# text (--insecure), ROUNDS pairs back to back, the order alternating so
# drifting load falls on both. Prints each run and the medians of pages/s and
# CPU ms per page (user+sys of every crawler process, per URL fetched), and
# the ratio TLS / plain. Run by hand (never in CI); reported in
# docs/BENCHMARKS.md.
#
#   tests/bench/tls_overhead.sh [--rounds N] [--testweb-pages N] [--testweb-hosts H]
#                               [--queueservers Q] [--fetchers F] [--out DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=5 pages=10000 hosts=20 queueservers=1 fetchers=1 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --testweb-pages) pages=$2; shift 2 ;;
    --testweb-hosts) hosts=$2; shift 2 ;;
    --queueservers) queueservers=$2; shift 2 ;;
    --fetchers) fetchers=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "tls_overhead: unknown option $1" >&2; exit 2 ;;
  esac
done
out=${out:-$(mktemp -d /tmp/tls-overhead.XXXXXX)}
mkdir -p "$out"
for i in $(seq 1 "$rounds"); do
  order=crawler,crawler-insecure
  [ $((i % 2)) = 0 ] && order=crawler-insecure,crawler
  "$root/tests/bench/crawl_throughput.sh" --sites testweb --tools "$order" --testweb-pages "$pages" \
    --testweb-hosts "$hosts" --queueservers "$queueservers" --fetchers "$fetchers" --out "$out/round$i" > /dev/null
done
python3 - "$out" "$rounds" <<'PY'
import csv, glob, os, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
runs = {"crawler": [], "crawler-insecure": []}
for path in sorted(glob.glob(os.path.join(out, "round*", "throughput.tsv"))):
    for row in csv.DictReader(open(path), delimiter="\t"):
        mode = row["tool"].rsplit("-", 1)[0]
        if mode in runs and not row["note"]:
            runs[mode].append((float(row["pages_per_s"]), float(row["cpu_ms_per_page"]), int(row["all_fetched"])))
for mode, rows in runs.items():
    for r in rows:
        print(f"{mode}\t{r[0]:.0f} pages/s\t{r[1]:.3f} CPU ms/page\t{r[2]} URLs")
if not all(runs.values()):
    sys.exit("tls_overhead: a mode has no finished run")
med = {m: (statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows)) for m, rows in runs.items()}
tls, plain = med["crawler"], med["crawler-insecure"]
print(f"median TLS:   {tls[0]:.0f} pages/s, {tls[1]:.3f} CPU ms/page ({len(runs['crawler'])} runs)")
print(f"median plain: {plain[0]:.0f} pages/s, {plain[1]:.3f} CPU ms/page ({len(runs['crawler-insecure'])} runs)")
print(f"TLS / plain:  pages/s x{tls[0] / plain[0]:.3f}, CPU per page x{tls[1] / plain[1]:.3f}")
PY
echo "tls_overhead: machine $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg); runs in $out"
