#!/usr/bin/env bash
# The web in every language, end to end: a private nginx serves a small web
# of real text in 15 languages (tests/integration/multilingual_site.py builds
# it from Debian's translated documentation: the Debian Reference, FAQ,
# installation guide and Polish manual pages), every page in UTF-8 and in the
# legacy encodings its script uses on the web (Shift_JIS, EUC-JP,
# ISO-2022-JP, GBK, GB18030, Big5, EUC-KR, KOI8-R, windows-125x,
# ISO-8859-x), labelled in the HTTP header, in a <meta> tag or not at all,
# some titles written with named character references, half the pages with
# <html lang>. The local cluster crawls it; multilingual_check.py then
# compares, per language, what the crawl read (title, language, charset:
# the crawl log) and what search shows (known item by title and by a clause
# of the body in the top 3, titles and snippets without mojibake, and the
# console's search page in headless Chromium) with the ground truth, prints
# a table and fails when any language is under 90% on any count.
# Copies of a page in different encodings have one text, so one text hash:
# the index may keep and show any of them, and a search counts a hit on any.
# Output (table, misses, console screenshots and DOMs) in
# $CRAWL_TEST_OUTPUT/crawl_multilingual (default BIN/../test-output/...).
# Skips (exit 77) when nginx or the documentation packages are missing.
source "$(dirname "$0")/lib.sh"

OUT=${CRAWL_TEST_OUTPUT:-$(dirname "$BIN")/test-output}/crawl_multilingual
rm -rf "$OUT" && mkdir -p "$OUT"

rc=0
python3 "$SRC/tests/integration/multilingual_site.py" "$WORK/ml" 10 > "$WORK/site.log" 2>&1 || rc=$?
if [ "$rc" -eq 2 ]; then
  echo "SKIP: $(tail -1 "$WORK/site.log") (deploy/install-deps.sh installs the documentation packages)"
  exit 77
fi
[ "$rc" -eq 0 ] || fail "multilingual_site.py failed: $(cat "$WORK/site.log")"
echo "site: $(cat "$WORK/site.log")"
cp "$WORK/ml/truth.json" "$OUT/"

# One nginx for every host: the root is the host's directory, and the
# copies labelled in the header get their directory's charset (nginx only
# adds the name to Content-Type: it converts nothing without a charset_map).
addr=127.74.0.1
mkdir -p "$WORK/ml/site/$addr" && echo ok > "$WORK/ml/site/$addr/probe.html"
{
  echo "charset off;"
  cat "$WORK/ml/nginx-charsets.conf"
} > "$WORK/ml/server.conf"
serve_docroot "$addr" "$WORK/ml/site/\$host" multilingual.test probe.html "" "$WORK/ml/server.conf"
# The labels are what the test says they are: a header-labelled copy gets
# its charset in Content-Type, bytes untouched; a meta-labelled one none.
sjis=("$WORK"/ml/site/ja.multilingual.test/shift_jis/header/*.html)
sjis_meta=("$WORK"/ml/site/ja.multilingual.test/shift_jis/meta/*.html)
curl -sfI -H "Host: ja.multilingual.test" "http://$addr:$port/shift_jis/header/$(basename "${sjis[0]}")" \
  > "$WORK/head-header.txt" || fail "nginx does not serve the shift_jis copies"
curl -sfI -H "Host: ja.multilingual.test" "http://$addr:$port/shift_jis/meta/$(basename "${sjis_meta[0]}")" \
  > "$WORK/head-meta.txt" || fail "nginx does not serve the shift_jis copies"
curl -sf -H "Host: ja.multilingual.test" "http://$addr:$port/shift_jis/header/$(basename "${sjis[0]}")" |
  cmp -s - "${sjis[0]}" || fail "nginx changes the bytes of ${sjis[0]}"
tr -d '\r' < "$WORK/head-header.txt" | grep -qi '^content-type: text/html; charset=shift_jis$' ||
  fail "nginx does not label the header copies: $(cat "$WORK/head-header.txt")"
tr -d '\r' < "$WORK/head-meta.txt" | grep -qi '^content-type: text/html$' ||
  fail "nginx labels the meta copies: $(cat "$WORK/head-meta.txt")"

sed "s|^http://\([^/]*\)/.*|$addr:$port \1|" "$WORK/ml/seeds.txt" > "$WORK/hosts"
# Insecure (no tokens): the console on loopback then needs no sign-in, and
# headless Chromium can load its search page directly.
"$SRC/deploy/local-cluster.sh" up --dir "$WORK/cluster" --queueservers 2 --fetchers 2 \
  --hosts-file "$WORK/hosts" --allow-private --insecure > "$WORK/cluster-up.log" 2>&1 ||
  fail "local-cluster.sh up failed: $(tail -5 "$WORK/cluster-up.log")"
. "$WORK/cluster/cluster.env"
export CRAWL_NAMESERVER=$NAMESERVER
for i in $(seq 1 60); do "$BIN/crawlctl" servers > /dev/null 2>&1 && break; sleep 1; done

t0=$SECONDS
"$BIN/crawlctl" start --seeds "$WORK/ml/seeds.txt" --allow-private --include-hosts '*.multilingual.test' \
  > "$WORK/start.log" || fail "crawlctl start failed"
state=$(wait_crawl_over 150)
[ "$state" = done ] || fail "crawl ended as $state"
"$BIN/crawlctl" log --format jsonl > "$WORK/crawl.jsonl"
echo "crawl over in $((SECONDS - t0)) s: $(wc -l < "$WORK/crawl.jsonl") fetches"
cp "$WORK/crawl.jsonl" "$OUT/"

console=()
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$browser" ]; then
  id=$("$BIN/crawlctl" search --json --limit 1 debian | python3 -c 'import json,sys; print(json.load(sys.stdin)["crawl_id"])')
  http=$(tr -d '[:space:]' < "$WORK/cluster/nameserver.http-port")
  console=("http://127.0.0.1:$http/console/search?crawl=$id" "$browser")
else
  echo "note: chromium is not installed: the console is not checked"
fi
python3 "$SRC/tests/integration/multilingual_check.py" "$WORK/ml/truth.json" "$WORK/crawl.jsonl" "$BIN/crawlctl" \
  "$OUT" "${console[@]}" || fail "some languages are under 90% (table above; misses in $OUT/misses.txt)"
echo "ok: every language read, identified and found (screenshots in $OUT)"
