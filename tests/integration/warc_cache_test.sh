#!/usr/bin/env bash
# Page caches as WARC/1.1 (docs/ARCHITECTURE.md "Index and search"): a crawl
# started with --cache-pages leaves .warc.gz files under each queue server's
# data directory; warcio (npm, an independent reader, pinned in
# tests/warc/package-lock.json and installed here) reads every record back:
# WARC/1.1, a response record for every page fetched, each with a request
# record pointing at it, and payload digests that match the payload warcio
# read. `crawlctl cache URL` prints the same bytes.
source "$(dirname "$0")/lib.sh"

command -v node >/dev/null && command -v npm >/dev/null || { echo "SKIP: node and npm are needed for warcio"; exit 77; }
mkdir -p "$WORK/warc"
cp "$SRC/tests/warc/package.json" "$SRC/tests/warc/package-lock.json" "$SRC/tests/warc/read_warc.mjs" "$WORK/warc/"
(cd "$WORK/warc" && npm ci --no-audit --no-fund --loglevel=error > "$WORK/npm.log" 2>&1) ||
  fail "npm ci of warcio failed: $(tail -5 "$WORK/npm.log")"

web=(--seed 3 --hosts 4 --pages 60)
start_testweb "${web[@]}"
start_cluster 2 1
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --cache-pages >/dev/null
state=$(wait_crawl_over 240)
[ "$state" = done ] || fail "crawl ended as $state"
"$BIN/crawlctl" log > "$WORK/crawl.log"

files=$(find "$WORK/cluster" -name '*.warc.gz' | sort)
[ -n "$files" ] || fail "no WARC files were written"
echo "WARC files: $(echo "$files" | wc -l)"
node "$WORK/warc/read_warc.mjs" $files > "$WORK/records.jsonl" || fail "warcio could not read the WARC files"

python3 - "$WORK/records.jsonl" "$WORK/crawl.log" <<'PY' || fail "WARC records do not match the crawl"
import json, sys
records = [json.loads(l) for l in open(sys.argv[1])]
fetched = set()
for line in open(sys.argv[2]):
    f = line.rstrip('\n').split('\t')
    status, url = int(f[1]), f[3]
    if status > 0 and not url.endswith('/robots.txt'):
        fetched.add(url)
responses = {r['id']: r for r in records if r['type'] == 'response'}
requests = [r for r in records if r['type'] == 'request']
bad = [r for r in records if r['version'] != 'WARC/1.1']
assert not bad, f'not WARC/1.1: {bad[:1]}'
assert any(r['type'] == 'warcinfo' for r in records), 'no warcinfo record'
for r in responses.values():
    assert r['payload_digest'] == r['computed_payload_digest'], f'payload digest mismatch: {r}'
    assert r['block_digest'] and r['block_digest'].startswith('sha1:'), f'no block digest: {r}'
    assert r['status'] and r['status'] > 0, f'no HTTP status: {r}'
linked = {r['concurrent_to'] for r in requests}
assert linked == set(responses), 'every response needs its request record'
uris = {r['uri'] for r in responses.values()}
assert uris == fetched, f'pages fetched but not cached: {sorted(fetched - uris)[:5]}; cached but not fetched: {sorted(uris - fetched)[:5]}'
print(f'{len(responses)} response and {len(requests)} request records; {len(fetched)} pages fetched; digests match')
PY

# crawlctl cache prints the cached bytes (compare with what warcio read).
url=$(python3 -c 'import json,sys; print(next(json.loads(l)["uri"] for l in open(sys.argv[1]) if json.loads(l)["type"]=="response" and json.loads(l)["status"]==200))' "$WORK/records.jsonl")
"$BIN/crawlctl" cache "$url" > "$WORK/cached.html"
python3 - "$WORK/records.jsonl" "$url" "$WORK/cached.html" <<'PY' || fail "crawlctl cache does not print the cached page"
import base64, hashlib, json, sys
digest = 'sha1:' + base64.b32encode(hashlib.sha1(open(sys.argv[3], 'rb').read()).digest()).decode()
want = [json.loads(l)['payload_digest'] for l in open(sys.argv[1]) if json.loads(l)['uri'] == sys.argv[2] and json.loads(l)['type'] == 'response']
sys.exit(0 if digest in want else 1)
PY
"$BIN/crawlctl" cache --info "$url" | grep -q "^status 200" || fail "crawlctl cache --info shows no status"
if "$BIN/crawlctl" cache "http://nowhere.test/never" 2>/dev/null; then fail "an uncached URL printed something"; fi
echo "crawlctl cache prints the archived page of $url"
