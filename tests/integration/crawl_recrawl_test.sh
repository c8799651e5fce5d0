#!/usr/bin/env bash
# A continuous crawl with real processes on a changing
# testweb: `crawlctl start --recrawl --revisit-policy adaptive` keeps the
# crawl running after the frontier empties, fetched pages come back when due
# with their validators, testweb answers 304 to the unchanged ones, and the
# crawl log marks those fetches as revisits (its ninth field).
source "$(dirname "$0")/lib.sh"

web=(--seed 3 --hosts 3 --pages 24 --change-mean-interval 30)
start_testweb "${web[@]}"
start_cluster 1 1
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --recrawl --revisit-policy adaptive \
  --revisit-interval 2 --revisit-bounds 2:20 > /dev/null

# Until some page was fetched again and found not modified.
deadline=$((SECONDS + $(scaled 90)))
until grep -q $'\tnot-modified$' "$WORK/log.tsv" 2> /dev/null; do
  [ $SECONDS -lt $deadline ] || fail "no revisit answered 304 in $(scaled 90) s: $(tail -n 5 "$WORK/log.tsv" 2>&1)"
  sleep 1
  "$BIN/crawlctl" log > "$WORK/log.tsv" 2> /dev/null || true
done
[ "$(status_field state)" = running ] || fail "the recrawl crawl ended: $(status_json)"
awk -F'\t' '$4 == 304' "$WORK/access.log" | grep -q . || fail "testweb answered no 304: the fetcher sent no validators"
fetches=$(awk -F'\t' '$4 !~ /robots.txt$/' "$WORK/log.tsv" | wc -l)
urls=$(awk -F'\t' '$4 !~ /robots.txt$/ {print $4}' "$WORK/log.tsv" | sort -u | wc -l)
[ "$fetches" -gt "$urls" ] || fail "no page was fetched twice ($fetches fetches of $urls URLs)"
# The queue server counts the revisits (QueueServerStats 325-329) and crawlctl shows them.
[ "$(status_field revisits_entered)" -gt 0 ] || fail "no revisit counted: $(cat "$WORK/.status-field.json")"
"$BIN/crawlctl" status | grep -q "recrawl (adaptive): due in memory" || fail "crawlctl status has no recrawl line"
echo "recrawl: $fetches fetches of $urls URLs, $(grep -c $'\tnot-modified$' "$WORK/log.tsv") not modified"
"$BIN/crawlctl" stop > /dev/null
