#!/usr/bin/env bash
# Documents, feeds, directives and near-duplicates, end to end: a private
# nginx serves the documents test web (tests/integration/documents_site.py:
# real PDFs, Office Open XML, OpenDocument, EPUB and RTF files made by
# Debian's tools (tests/data/documents/web/), RSS and Atom feeds whose items are
# the only links to their pages, pages served with X-Robots-Tag headers,
# copies naming a canonical page in HTML and in a Link header, an article
# mirrored on four hosts with its own date line and menu on each, a meta
# refresh and hreflang alternates). The local cluster (2 queue servers, so
# the mirrors' fingerprints meet across servers) crawls it with default
# settings; documents_check.py then checks every document found by a phrase
# of its body in the top 3, feed-only pages fetched and found by their
# item's title, noindex pages fetched but never listed, nofollow honoured,
# canonical copies and mirrors shown as one result.
# Output in $CRAWL_TEST_OUTPUT/crawl_documents (default BIN/../test-output/...).
# Skips (exit 77) when nginx or python3-doc is missing.
source "$(dirname "$0")/lib.sh"

OUT=${CRAWL_TEST_OUTPUT:-$(dirname "$BIN")/test-output}/crawl_documents
rm -rf "$OUT" && mkdir -p "$OUT"

rc=0
python3 "$SRC/tests/integration/documents_site.py" "$WORK/docs" > "$WORK/site.log" 2>&1 || rc=$?
if [ "$rc" -eq 2 ]; then
  echo "SKIP: $(tail -1 "$WORK/site.log") (deploy/install-deps.sh installs it)"
  exit 77
fi
[ "$rc" -eq 0 ] || fail "documents_site.py failed: $(cat "$WORK/site.log")"
echo "site: $(cat "$WORK/site.log")"
cp "$WORK/docs/truth.json" "$OUT/"

addr=127.75.0.1
mkdir -p "$WORK/docs/site/$addr" && echo ok > "$WORK/docs/site/$addr/probe.html"
serve_docroot "$addr" "$WORK/docs/site/\$host" documents.test probe.html "" "$WORK/docs/server.conf"
curl -sfI -H "Host: docs.documents.test" "http://$addr:$port/noindex/page-1.html" | tr -d '\r' |
  grep -qi '^x-robots-tag: noindex$' || fail "nginx does not send the X-Robots-Tag header"

python3 - "$WORK/docs/truth.json" > "$WORK/hosts-list" <<'PY'
import json, sys, urllib.parse
t = json.load(open(sys.argv[1]))
hosts = {"docs.documents.test"} | {urllib.parse.urlsplit(u).hostname for u in t["near_duplicates"]["urls"]}
print("\n".join(sorted(hosts)))
PY
sed "s|^|$addr:$port |" "$WORK/hosts-list" > "$WORK/hosts"
"$SRC/deploy/local-cluster.sh" up --dir "$WORK/cluster" --queueservers 2 --fetchers 1 \
  --hosts-file "$WORK/hosts" --allow-private > "$WORK/cluster-up.log" 2>&1 ||
  fail "local-cluster.sh up failed: $(tail -5 "$WORK/cluster-up.log")"
. "$WORK/cluster/cluster.env"
export CRAWL_NAMESERVER=$NAMESERVER
for i in $(seq 1 60); do "$BIN/crawlctl" servers > /dev/null 2>&1 && break; sleep 1; done

t0=$SECONDS
"$BIN/crawlctl" start --seeds "$WORK/docs/seeds.txt" --allow-private --include-hosts '*.documents.test' \
  > "$WORK/start.log" || fail "crawlctl start failed"
state=$(wait_crawl_over 150)
[ "$state" = done ] || fail "crawl ended as $state"
"$BIN/crawlctl" log --format jsonl > "$WORK/crawl.jsonl"
echo "crawl over in $((SECONDS - t0)) s: $(wc -l < "$WORK/crawl.jsonl") fetches"
cp "$WORK/crawl.jsonl" "$OUT/"
"$BIN/crawlctl" near-duplicates > "$OUT/near-duplicates.txt" 2>&1 || fail "crawlctl near-duplicates failed"

python3 "$SRC/tests/integration/documents_check.py" "$WORK/docs/truth.json" "$WORK/crawl.jsonl" "$BIN/crawlctl" \
  "$OUT" || fail "documents, feeds or directives missed (list above; $OUT/documents.txt)"
echo "ok: every document read and found, feeds followed, directives honoured, copies shown once"
