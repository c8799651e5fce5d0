#!/usr/bin/env bash
# Search over a crawled testweb universe (docs/DESIGN.md §7 and §8): after
# the crawl, `crawlctl search --json` answers with pages that hold every
# query word, a phrase query only with pages holding the phrase, site:
# restricts the host, `|` widens; small index partitions (5 documents) make
# closed and active partitions both answer. Then one queue server is killed
# with SIGKILL and restarted: the same queries give the same results.
source "$(dirname "$0")/lib.sh"

web=(--seed 11 --hosts 6 --pages 150)
start_testweb "${web[@]}"
start_cluster 2 2
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --index-partition-docs 5 >/dev/null
state=$(wait_crawl_over 240)
[ "$state" = done ] || fail "crawl ended as $state"
check() { python3 "$(dirname "$0")/search_check.py" "$WORK/hosts" "$@"; }
search() { "$BIN/crawlctl" search --json --limit 20 "$@"; }

# Query words taken from a crawled page: its title's topic word and two
# adjacent body words.
seed=$(head -1 "$WORK/seeds.txt")
words=($(check page "$seed"))
[ ${#words[@]} -gt 20 ] || fail "seed page has too few words: ${words[*]}"
topic=${words[0]}
echo "topic word: $topic"

search "$topic" > "$WORK/topic.json"
check terms "$WORK/topic.json" "$topic"
docs=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["documents"])' "$WORK/topic.json")
[ "$docs" -gt 0 ] || fail "the index holds no documents"
echo "index documents after the crawl: $docs"
# Two words: conjunctive.
second=""
for w in "${words[@]:2}"; do
  [ ${#w} -ge 5 ] && [ "$w" != "$topic" ] && { second=$w; break; }
done
[ -n "$second" ] || fail "no second query word"
search "$topic $second" > "$WORK/two.json"
check terms "$WORK/two.json" "$topic" "$second"

# A phrase: two adjacent words of the body (long enough to be content words).
phrase=""
for i in $(seq 5 $((${#words[@]} - 2))); do
  a=${words[$i]}; b=${words[$((i + 1))]}
  if [ ${#a} -ge 5 ] && [ ${#b} -ge 5 ] && [ "$a" != "$b" ]; then phrase="$a $b"; break; fi
done
[ -n "$phrase" ] || fail "no phrase found on the seed page"
search "\"$phrase\"" > "$WORK/phrase.json"
check phrase "$WORK/phrase.json" $phrase
python3 - "$WORK/phrase.json" "$seed" <<'PY' || fail "the phrase's own page is not among the results"
import json, sys
urls = [r['url'] for r in json.load(open(sys.argv[1]))['results']]
sys.exit(0 if sys.argv[2] in urls or len(urls) == 20 else 1)
PY

# site: restricts the host.
host=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.urlsplit(sys.argv[1]).hostname)' "$seed")
search "$topic site:$host" > "$WORK/site.json"
check site "$WORK/site.json" "$host"
check terms "$WORK/site.json" "$topic"

# OR: at least as many results as either side.
search "$topic | $second" > "$WORK/or.json"
python3 - "$WORK/topic.json" "$WORK/or.json" <<'PY' || fail "OR gave fewer results than one of its sides"
import json, sys
a = len(json.load(open(sys.argv[1]))['results']); o = len(json.load(open(sys.argv[2]))['results'])
sys.exit(0 if o >= a else 1)
PY

# Text and --explain output.
"$BIN/crawlctl" search --explain "$topic" > "$WORK/explain.txt"
grep -q "= doc rank" "$WORK/explain.txt" || fail "--explain shows no score parts"
# A bad query is an error, not an empty answer.
if "$BIN/crawlctl" search 'site:' 2> "$WORK/bad.err"; then fail "empty query accepted"; fi

# The index survives kill -9 of a queue server.
for f in topic two phrase site; do
  python3 -c 'import json,sys; print(json.dumps([r["url"] for r in json.load(open(sys.argv[1]))["results"]]))' \
    "$WORK/$f.json" > "$WORK/$f.before"
done
old_pid=$(cat "$WORK/cluster/queueserver0.pid")
kill -KILL "$old_pid"
sleep 0.3
"$SRC/deploy/local-cluster.sh" restart --dir "$WORK/cluster"
[ "$(cat "$WORK/cluster/queueserver0.pid")" != "$old_pid" ] || fail "queueserver0 was not restarted"
ok=0
for attempt in $(seq 1 50); do
  search "$topic" > "$WORK/topic.json" 2>/dev/null || { sleep 0.2; continue; }
  search "$topic $second" > "$WORK/two.json"
  search "\"$phrase\"" > "$WORK/phrase.json"
  search "$topic site:$host" > "$WORK/site.json"
  ok=1
  for f in topic two phrase site; do
    python3 -c 'import json,sys; print(json.dumps([r["url"] for r in json.load(open(sys.argv[1]))["results"]]))' \
      "$WORK/$f.json" > "$WORK/$f.after"
    cmp -s "$WORK/$f.before" "$WORK/$f.after" || ok=0
  done
  [ "$ok" = 1 ] && [ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["errors"]))' "$WORK/topic.json")" = 0 ] && break
  ok=0
  sleep 0.2
done
if [ "$ok" != 1 ]; then
  for f in topic two phrase site; do diff "$WORK/$f.before" "$WORK/$f.after" >&2 || true; done
  fail "search results changed across a kill -9 of queueserver0"
fi
echo "search results identical after kill -9 and restart of queueserver0"
