#!/usr/bin/env bash
# Instructions one side of the per-page pipeline executes on a corpus, for
# A/B comparisons that this shared machine's noise does not blur (run by
# hand). It has no hardware counters (`perf stat -e instructions` says "not
# supported"), so valgrind's callgrind counts them: ingest_bench
# (tests/bench/ingest_bench.cc) runs under it with collection switched on
# only inside the fetcher's ProcessFetch (side "fetcher": text, links, mini
# index of each page) or the queue server's CrawlShard::SubmitResults (side
# "queue": frontier, crawl log, search index, commit). The count is exact
# for a given binary and input; time under callgrind is ~50x native, so
# give it a few hundred pages.
#
#   tests/bench/instructions.sh [--side fetcher|queue] [--top N] FILE_LIST BIN_DIR...
#
# Prints one line per BIN_DIR (a directory holding ingest_bench): the
# instructions in the side, and with --top N the N functions with the most.
set -euo pipefail
side=fetcher top=0
while [ $# -gt 0 ]; do
  case "$1" in
    --side) side=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "instructions.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || { echo "usage: instructions.sh [--side fetcher|queue] [--top N] FILE_LIST BIN_DIR..." >&2; exit 2; }
case "$side" in
  fetcher) collect='crawl::fetcher::ProcessFetch*' ;;
  queue) collect='crawl::queueserver::CrawlShard::SubmitResults*' ;;
  *) echo "instructions.sh: --side is fetcher or queue, not $side" >&2; exit 2 ;;
esac
command -v valgrind > /dev/null || { echo "instructions.sh: valgrind missing (deploy/install-deps.sh --bench)" >&2; exit 1; }
list=$1; shift
[ -r "$list" ] || { echo "instructions.sh: cannot read the file list $list" >&2; exit 1; }
out=$(mktemp /tmp/instructions.XXXXXX)
trap 'rm -f "$out" "$out.log"' EXIT
for dir in "$@"; do
  [ -x "$dir/ingest_bench" ] || { echo "instructions.sh: $dir/ingest_bench missing" >&2; exit 1; }
  if ! valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="$collect" \
    "$dir/ingest_bench" "$list" > "$out.log" 2>&1; then
    echo "instructions.sh: ingest_bench failed under valgrind for $dir:" >&2
    tail -n 5 "$out.log" >&2
    exit 1
  fi
  total=$(callgrind_annotate "$out" | awk '/PROGRAM TOTALS/ && !done {gsub(",", "", $1); print $1; done = 1}')
  echo "$dir $side instructions $total"
  [ "$top" -eq 0 ] || callgrind_annotate "$out" | grep -E '^ *[0-9,]+ +\(' | grep -v 'PROGRAM TOTALS' | awk -v n="$top" 'NR <= n' | cut -c1-160
done
