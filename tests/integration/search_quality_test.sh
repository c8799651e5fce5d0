#!/usr/bin/env bash
# Search quality on real pages (docs/DESIGN.md §8): a private nginx on a loopback
# address serves the Python documentation (python3-doc's HTML), the local
# cluster crawls it, and for 100 fetched HTML pages chosen at random (fixed
# seed; pages whose title another page shares are left out: their title names
# no single page) the query made of the page's title words must return that page in
# the top 3 for at least 90 of them. Prints the figure and the misses.
# Skips (exit 77) when nginx or python3-doc is missing or nginx cannot run.
source "$(dirname "$0")/lib.sh"

DOCROOT=/usr/share/doc/python3-doc/html
[ -f "$DOCROOT/index.html" ] || { echo "SKIP: python3-doc is not installed ($DOCROOT/index.html missing)"; exit 77; }

# nginx: one process, in the foreground, everything under $WORK.
addr=127.71.0.1
serve_docroot "$addr" "$DOCROOT" docs.python.test index.html
curl -sf -o /dev/null "http://$addr:$port/index.html" || fail "nginx does not answer on $addr:$port"

# The fetchers reach docs.python.test through the hosts file.
base="http://docs.python.test/"
echo "$addr:$port docs.python.test" > "$WORK/hosts"
start_cluster 2 2
# On a loaded machine the first RPCs may time out: wait until the name
# server answers (a connection that never opened changed nothing).
for i in $(seq 1 60); do "$BIN/crawlctl" servers > /dev/null 2>&1 && break; sleep 1; done
echo "${base}index.html" > "$WORK/seeds.txt"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --include-hosts docs.python.test >/dev/null
state=$(wait_crawl_over 200)
[ "$state" = done ] || fail "crawl ended as $state"
"$BIN/crawlctl" log > "$WORK/crawl.log"
echo "crawl log: $(wc -l < "$WORK/crawl.log") fetches"

q() { python3 "$(dirname "$0")/search_quality.py" "$@"; }
q pick "$WORK/crawl.log" "$base" "$DOCROOT" 100 20261122 > "$WORK/picks.jsonl"
q check "$WORK/picks.jsonl" "$base" "$DOCROOT" 3 "$BIN/crawlctl" 90 | tee "$WORK/quality.txt" ||
  fail "fewer than 90 of 100 known items in the top 3: $(tail -1 "$WORK/quality.txt")"
