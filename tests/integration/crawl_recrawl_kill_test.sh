#!/usr/bin/env bash
# kill -9 of the queue server during a continuous crawl with real
# processes on a changing testweb: it comes back from its RocksDB store and
#  - loses no due URL: every page fetched before the kill is fetched again
#    after the restart;
#  - duplicates no revisit: in a window after the restart no page is fetched
#    more often than its fixed revisit interval allows (plus one for a lease
#    in flight at the kill);
# and the page cache's WARC files, revisit records included (304s as
# server-not-modified), read cleanly with warcio, an independent reader.
source "$(dirname "$0")/lib.sh"

command -v node > /dev/null && command -v npm > /dev/null || { echo "SKIP: node and npm are needed for warcio"; exit 77; }
mkdir -p "$WORK/warc"
cp "$SRC/tests/warc/package.json" "$SRC/tests/warc/package-lock.json" "$SRC/tests/warc/read_warc.mjs" "$WORK/warc/"
(cd "$WORK/warc" && npm ci --no-audit --no-fund --loglevel=error > "$WORK/npm.log" 2>&1) ||
  fail "npm ci of warcio failed: $(tail -5 "$WORK/npm.log")"

interval=4
web=(--seed 7 --hosts 3 --pages 30 --change-mean-interval 60 --disable robots-5xx,robots-unreachable,robots-rules)
start_testweb "${web[@]}"
start_cluster 1 1
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --cache-pages --recrawl --revisit-policy fixed \
  --revisit-interval $interval --lease-seconds 10 > /dev/null

now() { date -u +%Y-%m-%dT%H:%M:%S.%6NZ; }
# pages AFTER [BEFORE]: "HOST PATH" of each page GET logged in (AFTER, BEFORE).
pages() {
  awk -F'\t' -v a="$1" -v b="${2:-9}" '$1 > a && $1 < b && $3 != "/robots.txt" && $2 != "-" {print $2, $3}' \
    "$WORK/access.log"
}
revisits() { [ "$(pages 0 | sort | uniq -d | wc -l)" -ge 5 ]; }
deadline=$((SECONDS + $(scaled 120)))
until revisits; do
  [ $SECONDS -lt $deadline ] || fail "fewer than 5 pages were fetched twice in $(scaled 120) s"
  sleep 0.5
done

killed_at=$(now)
pages 0 | sort -u > "$WORK/before.txt"
pid=$(cat "$WORK/cluster/queueserver0.pid")
loads=$(grep -c "loaded from the store" "$WORK/cluster/queueserver0.log" || true)
kill -KILL "$pid"
sleep 0.5
"$SRC/deploy/local-cluster.sh" restart --dir "$WORK/cluster"
[ "$(grep -c "loaded from the store" "$WORK/cluster/queueserver0.log")" -gt "$loads" ] ||
  fail "the queue server did not load its state from the store"
restarted_at=$(now)
echo "killed the queue server at $killed_at with $(wc -l < "$WORK/before.txt") pages fetched; restarted at $restarted_at"

# No due URL lost: every page fetched before the kill comes back.
missing() { comm -23 "$WORK/before.txt" <(pages "$restarted_at" | sort -u); }
deadline=$((SECONDS + $(scaled 120)))
until [ -z "$(missing)" ]; do
  [ $SECONDS -lt $deadline ] || fail "$(missing | wc -l) pages fetched before the kill were not fetched again after it: $(missing | head -3)"
  sleep 1
done
window_from=$(now)
sleep $((interval * 4))
window_to=$(now)
# No revisit duplicated: at most 4 / interval-spaced visits in the window, +1 for a lease in flight.
python3 - "$WORK/access.log" "$window_from" "$window_to" "$interval" <<'PY' || fail "a page was revisited more often than its interval"
import collections, datetime, sys
log, start, end, interval = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
parse = lambda t: datetime.datetime.strptime(t, '%Y-%m-%dT%H:%M:%S.%fZ')
span = (parse(end) - parse(start)).total_seconds()
visits = collections.Counter()
for line in open(log):
    f = line.rstrip('\n').split('\t')
    if len(f) >= 4 and start < f[0] < end and f[2] != '/robots.txt' and f[1] != '-':
        visits[(f[1], f[2])] += 1
assert visits, 'no page was fetched in the window: the crawl stopped revisiting'
allowed = int(span / interval) + 2
worst = visits.most_common(1)[0]
print(f'{len(visits)} pages revisited in {span:.1f} s; the most visits of one page {worst[1]} (allowed {allowed})')
sys.exit(0 if worst[1] <= allowed else 1)
PY
[ "$(status_field state)" = running ] || fail "the recrawl crawl ended: $(status_json)"
"$BIN/crawlctl" stop > /dev/null

# The WARC files read cleanly, and the 304s are server-not-modified revisits.
files=$(find "$WORK/cluster" -name '*.warc.gz' | sort)
[ -n "$files" ] || fail "no WARC files were written"
node "$WORK/warc/read_warc.mjs" $files > "$WORK/records.jsonl" || fail "warcio could not read the WARC files"
not_modified=$(awk -F'\t' '$4 == 304' "$WORK/access.log" | wc -l)
python3 - "$WORK/records.jsonl" "$not_modified" <<'PY' || fail "the WARC revisit records are not as WARC 1.1 says"
import json, sys
records = [json.loads(l) for l in open(sys.argv[1])]
revisits = [r for r in records if r['type'] == 'revisit']
responses = {r['uri'] for r in records if r['type'] == 'response'}
assert all(r['version'] == 'WARC/1.1' for r in records), 'a record is not WARC/1.1'
profiles = {'http://netpreserve.org/warc/1.1/revisit/server-not-modified',
            'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest'}
for r in revisits:
    assert r['profile'] in profiles, f'revisit without a WARC 1.1 profile: {r}'
    assert r['refers_to_uri'] == r['uri'], f'revisit refers to another URI: {r}'
    assert r['uri'] in responses, f'revisit of a page never archived: {r}'
not_modified = [r for r in revisits if r['profile'].endswith('server-not-modified')]
assert int(sys.argv[2]) == 0 or not_modified, f'testweb answered {sys.argv[2]} 304s but no server-not-modified record'
assert all(r['status'] == 304 for r in not_modified), 'a server-not-modified revisit without its 304'
print(f'{len(records)} WARC records, {len(revisits)} revisits ({len(not_modified)} server-not-modified) read by warcio')
PY
