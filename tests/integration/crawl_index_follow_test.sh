#!/usr/bin/env bash
# The index follows the web with real processes: a
# continuous crawl of testweb's change model under its logical clock indexes
# every page at t = 0; then the clock jumps to T, where one crawled page has
# a new version and another is gone (404/410). Once their revisits are in,
# `crawlctl search` finds the changed page by a word only its new version
# has and no longer by a word only its old version had, and the gone page
# (after two 404/410 in a row) by none of its words.
source "$(dirname "$0")/lib.sh"

web=(--seed 5 --hosts 3 --pages 40 --change-mean-interval 1000)
T=3000
"$BIN/testweb" export "${web[@]}" --at 0 --versions "$WORK/v0.tsv"
"$BIN/testweb" export "${web[@]}" --at $T --versions "$WORK/vT.tsv"
start_testweb "${web[@]}" --clock logical
start_cluster 1 1
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --recrawl --revisit-policy fixed \
  --revisit-interval 2 > /dev/null
check() { python3 "$(dirname "$0")/search_check.py" "$WORK/hosts" "$@"; }

# found URL WORD: whether a page result (not a link-only one) of WORD,
# searched on the URL's host, is URL; lost URL WORD: whether no result is.
hits() {
  local host
  host=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.urlsplit(sys.argv[1]).hostname)' "$1")
  "$BIN/crawlctl" search --json --limit 100 "$2 site:$host" 2> /dev/null |
    python3 -c 'import json, sys; print("\n".join(r["url"] + ("\tlink" if r["link_only"] else "") for r in json.load(sys.stdin)["results"]))' 2> /dev/null ||
    true
}
found() { hits "$1" "$2" | grep -qxF "$1"; }
lost() { ! hits "$1" "$2" | grep -qF "$1"; }

# Candidates: pages alive at 0 and at T with another version, and pages
# alive at 0 and gone at T, outside robots-disallowed paths.
python3 - "$WORK/v0.tsv" "$WORK/vT.tsv" > "$WORK/candidates.txt" <<'PY'
import sys
rows = [{l.split('\t')[0]: l.split('\t') for l in open(p)} for p in sys.argv[1:3]]
a, b = rows
for u in a:
    if a[u][1] != '200' or '/private/' in u:
        continue
    if b[u][1] == '200' and a[u][2] != b[u][2]:
        print('changed', u)
    elif b[u][1] in ('404', '410'):
        print('gone', u)
PY
grep -q '^changed' "$WORK/candidates.txt" || fail "no page changes between 0 and $T: $(cat "$WORK/candidates.txt")"
grep -q '^gone' "$WORK/candidates.txt" || fail "no page dies between 0 and $T: $(cat "$WORK/candidates.txt")"

# Every candidate crawled and indexed at t = 0 (then a revisit of it
# follows every 2 s).
deadline=$((SECONDS + $(scaled 120)))
while read -r kind url; do
  words=($(check page "$url"))
  word=""
  for w in "${words[@]}"; do [ ${#w} -ge 6 ] && { word=$w; break; }; done
  [ -n "$word" ] || fail "no word of six letters on $url"
  until found "$url" "$word"; do
    [ $SECONDS -lt $deadline ] || fail "$url not found by '$word' in $(scaled 120) s"
    sleep 1
  done
  printf '%s\t%s\t%s\n' "$kind" "$url" "${words[*]}" >> "$WORK/old.txt"
done < "$WORK/candidates.txt"
echo "indexed at t=0: $(wc -l < "$WORK/old.txt") candidates"

# The web moves on (any host takes the clock).
addr=$(head -1 "$WORK/hosts" | cut -d' ' -f1)
python3 -c 'import http.client, sys; ip, port = sys.argv[1].rsplit(":", 1); c = http.client.HTTPConnection(ip, int(port), timeout=10); c.request("POST", "/_testweb/clock?t=" + sys.argv[2]); r = c.getresponse(); sys.exit(0 if r.status < 300 else 1)' \
  "$addr" $T || fail "testweb did not take the clock"

# The changed pages: a word only the new version has, one only the old had
# (compared on five letters, as the queue server stems).
python3 - "$WORK/old.txt" "$WORK/hosts" "$(dirname "$0")/search_check.py" > "$WORK/changed.txt" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location('sc', sys.argv[3])
sc = importlib.util.module_from_spec(spec); spec.loader.exec_module(sc)
hosts = sc.load_hosts(sys.argv[2])
for line in open(sys.argv[1]):
    kind, url, old = line.rstrip('\n').split('\t')
    if kind != 'changed':
        continue
    old = old.split()
    new = sc.fetch_words(hosts, url)
    only = lambda a, b: [w for w in a if len(w) >= 6 and w.isalpha() and not any(x[:5] == w[:5] for x in b)]
    o, n = only(old, new), only(new, old)
    if o and n:
        print(url, n[0], o[0])
PY
[ -s "$WORK/changed.txt" ] || fail "no changed page has words of its own in both versions"
read -r gone_url gone_words < <(awk -F'\t' '$1 == "gone" {print $2, $3}' "$WORK/old.txt" | head -1)
gone_word=""
for w in $gone_words; do [ ${#w} -ge 6 ] && { gone_word=$w; break; }; done

# Until the revisits are indexed (a deadline; without the feature the old
# words keep answering and this fails).
read -r url new_word old_word < "$WORK/changed.txt"
echo "changed: $url (new '$new_word', old '$old_word'); gone: $gone_url ('$gone_word')"
deadline=$((SECONDS + $(scaled 120)))
until found "$url" "$new_word" && lost "$gone_url" "$gone_word" && ! found "$url" "$old_word"; do
  [ $SECONDS -lt $deadline ] || fail "after $(scaled 120) s: new word found: $(found "$url" "$new_word" && echo yes || echo no), old word found: $(found "$url" "$old_word" && echo yes || echo no), gone page found: $(lost "$gone_url" "$gone_word" && echo no || echo yes)"
  sleep 1
done
"$BIN/crawlctl" log > "$WORK/log.tsv"
gone_fetches=$(awk -F'\t' -v u="$gone_url" '$4 == u && ($2 == 404 || $2 == 410)' "$WORK/log.tsv" | wc -l)
[ "$gone_fetches" -ge 2 ] || fail "the gone page left search after $gone_fetches 404/410 fetches"
"$BIN/crawlctl" stop > /dev/null
echo "index follows: $url replaced, $gone_url removed after $gone_fetches 404/410"
