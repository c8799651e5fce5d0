#!/usr/bin/env bash
# A continuous crawl left running (run by hand, not in
# CI): one changing testweb universe (real clock, --change-mean-interval M)
# crawled by a local cluster (1 queue server, 1 fetcher) with
# `crawlctl start --recrawl --revisit-policy P`, sampled every --every
# seconds for --seconds: pages fetched, revisits entered, index documents
# compacted, and each process's resident memory (VmRSS) and the queue
# server's data directory on disk. Memory and disk should level off once
# every page has been fetched, while the fetches go on.
#
#   tests/bench/recrawl_soak.sh [--seconds 3600] [--every 60] [--hosts 20] [--pages 2000]
#       [--change-mean-interval 120] [--policy optimal] [--interval 60] [--bounds 10:600] [--out DIR]
# Prints one TSV line per sample:
#   seconds  pages_fetched  revisits  compacted  ns_rss_kb  qs_rss_kb  fetcher_rss_kb  qs_disk_kb
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="${CRAWL_BIN:-$root/build/bin}"
seconds=3600 every=60 hosts=20 pages=2000 mean=120 policy=optimal interval=60 bounds=10:600 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --every) every=$2; shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    --pages) pages=$2; shift 2 ;;
    --change-mean-interval) mean=$2; shift 2 ;;
    --policy) policy=$2; shift 2 ;;
    --interval) interval=$2; shift 2 ;;
    --bounds) bounds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
work=${out:-$(mktemp -d /tmp/recrawl-soak.XXXXXX)}
mkdir -p "$work"
testweb_pid=""
cleanup() {
  [ -f "$work/cluster/cluster.env" ] && "$root/deploy/local-cluster.sh" down --dir "$work/cluster" > /dev/null 2>&1 || true
  [ -n "$testweb_pid" ] && kill "$testweb_pid" 2> /dev/null || true
}
trap cleanup EXIT

web=(--seed 4 --hosts "$hosts" --pages "$pages" --preset clean --change-mean-interval "$mean")
"$bin/testweb" serve "${web[@]}" --bind-base "${TW_BIND_BASE:-127.24.0.0}" --hosts-file "$work/hosts" \
  > "$work/testweb.log" 2>&1 &
testweb_pid=$!
for _ in $(seq 1 300); do [ -s "$work/hosts" ] && break; sleep 0.1; done
[ -s "$work/hosts" ] || { cat "$work/testweb.log" >&2; exit 1; }
"$root/deploy/local-cluster.sh" up --dir "$work/cluster" --queueservers 1 --fetchers 1 \
  --hosts-file "$work/hosts" --allow-private > "$work/cluster.log" 2>&1
. "$work/cluster/cluster.env"
export CRAWL_NAMESERVER=$NAMESERVER
"$bin/testweb" seeds "${web[@]}" > "$work/seeds.txt"
"$bin/crawlctl" start --seeds "$work/seeds.txt" --allow-private --recrawl --revisit-policy "$policy" \
  --revisit-interval "$interval" --revisit-bounds "$bounds" > /dev/null

rss() { awk '/^VmRSS:/ {print $2}' "/proc/$(cat "$work/cluster/$1.pid")/status" 2> /dev/null || echo 0; }
field() { python3 -c "import json,sys; print(json.load(sys.stdin).get(sys.argv[1], 0))" "$1"; }
# A gauge of the queue server's /metrics.
metric() {
  curl -fsS --noproxy '*' "http://127.0.0.1:$(cat "$work/cluster/queueserver0.http-port")/metrics" 2> /dev/null |
    awk -v m="$1" '$1 == m || index($1, m "{") == 1 {s += $2} END {printf "%d", s}'
}
printf 'seconds\tpages_fetched\trevisits\tcompacted\tns_rss_kb\tqs_rss_kb\tfetcher_rss_kb\tqs_disk_kb\n'
start=$SECONDS
while :; do
  status=$("$bin/crawlctl" status --json 2> /dev/null || echo '{}')
  printf '%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' $((SECONDS - start)) "$(echo "$status" | field pages_fetched)" \
    "$(echo "$status" | field revisits_entered)" "$(metric crawl_queueserver_index_documents_compacted)" \
    "$(rss nameserver)" "$(rss queueserver0)" "$(rss fetcher0)" "$(du -sk "$work/cluster/queueserver0" | cut -f1)"
  [ $((SECONDS - start)) -lt "$seconds" ] || break
  sleep "$every"
done
"$bin/crawlctl" stop > /dev/null || true
