#!/usr/bin/env bash
# Near-duplicates end to end (docs/ARCHITECTURE.md "Near-duplicates"): a
# static web with planted near-duplicates (tests/integration/neardup_web.py:
# copies with another date line, another host's menu and footer, mirrors,
# two-word edits; and distinct pages sharing a long boilerplate block) is
# served by nginx and crawled by a local cluster of 2 queue servers and a
# fetcher at the default distance (3 bits). The crawl's clusters must match
# the truth (neardup_check.py: pairwise precision >= 0.95, recall >= 0.85 (0.88
# measured, 0.92 for the same rule replayed in fetch order: probes of one
# batch race);
# it also prints the table for k = 0..3 from the logged simhashes),
# `crawlctl near-duplicates` must list the planted clusters, and a search for
# a copied article's title must show it once with "similar pages".
# Skips (exit 77) when nginx is missing or cannot run here.
source "$(dirname "$0")/lib.sh"

addr=127.74.0.1
mkdir -p "$WORK/web/$addr"
echo ok > "$WORK/web/$addr/index.html"
serve_docroot "$addr" "$WORK/web/\$host" "_" index.html
python3 "$SRC/tests/integration/neardup_web.py" --docroot "$WORK/web" --addr "$addr" --port "$port" \
  --hosts-file "$WORK/hosts" --seeds "$WORK/seeds.txt" --truth "$WORK/truth.tsv"

start_cluster 2 1
for i in $(seq 1 60); do "$BIN/crawlctl" servers > /dev/null 2>&1 && break; sleep 1; done
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private > /dev/null
state=$(wait_crawl_over 300)
[ "$state" = done ] || fail "crawl ended as $state, expected done"

"$BIN/crawlctl" log --format jsonl > "$WORK/crawl.jsonl"
python3 "$SRC/tests/integration/neardup_check.py" "$WORK/truth.tsv" "$WORK/crawl.jsonl" --table \
  --min-precision 0.95 --min-recall 0.85

# The clusters the queue servers count, added up by the name server.
"$BIN/crawlctl" near-duplicates --json --limit 100 > "$WORK/clusters.json"
"$BIN/crawlctl" near-duplicates --limit 3
python3 - "$WORK/clusters.json" "$WORK/truth.tsv" <<'PY'
import collections, json, sys
clusters = json.load(open(sys.argv[1]))
family = {}
for line in open(sys.argv[2]):
    url, fam, _ = line.rstrip("\n").split("\t")
    family[url] = fam
assert not clusters["errors"], clusters["errors"]
planted = collections.Counter(family.values())
planted = {f: n for f, n in planted.items() if n > 1}
got = clusters["clusters"]
assert len(got) >= 0.9 * len(planted), f"{len(got)} clusters listed, {len(planted)} planted"
for c in got:
    fam = family.get(c["url"])
    assert fam is not None, f"cluster led by a page that is no article: {c['url']}"
    assert all(family.get(u) == fam for u in c["sample_urls"]), f"cluster mixes families: {c}"
    assert 2 <= c["pages"] <= planted.get(fam, 1), f"cluster of {c['pages']} pages for family {fam}: {c}"
print(f"ok: {len(got)} clusters listed of {len(planted)} planted, largest {got[0]['pages']} pages")
PY

# Search: an article with copies (article 3 has two) answers once, with them folded in.
title=$(python3 -c 'import re,sys; print(re.search(r"<title>(.*?)</title>", open(sys.argv[1]).read()).group(1))' \
  "$WORK/web/www.nd3.test/articles/3.html")
"$BIN/crawlctl" search "\"$title\"" --json > "$WORK/search.json"
"$BIN/crawlctl" search "\"$title\""
python3 - "$WORK/search.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
results = r["results"]
assert len(results) == 1, f"{len(results)} results, expected 1: {[x['url'] for x in results]}"
assert results[0]["similar_pages"] >= 1, results[0]
print(f"ok: one result, {results[0]['similar_pages']} similar pages: {results[0]['url']}")
PY
"$BIN/crawlctl" search "\"$title\"" | grep -q "similar page" || fail "crawlctl search does not say similar pages"
echo "ok: near-duplicates clustered, listed and folded in search"
