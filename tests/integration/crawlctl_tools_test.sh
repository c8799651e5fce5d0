#!/usr/bin/env bash
# crawlctl's local tools: robots (exit 0 allowed / 1 disallowed / 2 error),
# url (canonical form or an error) and cld.
source "$(dirname "$0")/lib.sh"

expect() {  # expect WANT_OUTPUT WANT_EXIT COMMAND...
  local want=$1 want_rc=$2; shift 2
  set +e
  local got; got=$("$@" 2>/dev/null)
  local rc=$?
  set -e
  [ "$got" = "$want" ] && [ $rc -eq "$want_rc" ] || fail "$* -> '$got' (exit $rc), want '$want' (exit $want_rc)"
  echo "ok: ${*:2} -> $got"
}

printf 'User-agent: *\nDisallow: /private/\nAllow: /private/ok$\n\nUser-agent: FooBot\nDisallow: /\n' > "$WORK/robots.txt"
expect allowed 0 "$BIN/crawlctl" robots "$WORK/robots.txt" crawlbot http://a.test/public
expect disallowed 1 "$BIN/crawlctl" robots "$WORK/robots.txt" crawlbot http://a.test/private/x
expect allowed 0 "$BIN/crawlctl" robots "$WORK/robots.txt" crawlbot http://a.test/private/ok
expect disallowed 1 "$BIN/crawlctl" robots "$WORK/robots.txt" crawlbot http://a.test/private/ok2
expect disallowed 1 "$BIN/crawlctl" robots "$WORK/robots.txt" FooBot http://a.test/public
expect "" 2 "$BIN/crawlctl" robots "$WORK/missing.txt" crawlbot http://a.test/

expect "http://a.test/d" 0 "$BIN/crawlctl" url --base "http://a.test/b/c" "../d#frag"
expect "http://example.test/a%20b" 0 "$BIN/crawlctl" url "HTTP://Example.TEST:80/./a b"
expect "" 1 "$BIN/crawlctl" url "ftp://a.test/"
expect "" 1 "$BIN/crawlctl" url "/relative"
expect "http://a.test/p?id=1" 0 "$BIN/crawlctl" url "http://a.test/p?utm_source=x&id=1&fbclid=2"
expect "http://a.test/p?utm_source=x&id=1" 0 "$BIN/crawlctl" url --keep-tracking-params "http://a.test/p?utm_source=x&id=1"
expect "http://a.test/p?utm_source=x" 0 "$BIN/crawlctl" url --tracking-params "id,ref*" "http://a.test/p?utm_source=x&id=1&referrer=2"
expect "" 2 "$BIN/crawlctl" url --tracking-params "*" "http://a.test/"

expect "bbc.co.uk" 0 "$BIN/crawlctl" cld www.bbc.co.uk
expect "y.co.uk" 0 "$BIN/crawlctl" cld --rule simple www.y.co.uk
expect "" 1 "$BIN/crawlctl" cld --rule nope a.test

# crawlctl page: the fetcher's processors on a local file, as JSON.
page_json() {  # page_json PYTHON_EXPR ARGS...: prints the expression evaluated on the JSON output
  local expr=$1; shift
  "$BIN/crawlctl" page "$@" | PYTHONIOENCODING=utf-8 python3 -c "
import json, sys
d = json.load(sys.stdin); r = d['record']; v = ($expr)
print(*v) if isinstance(v, tuple) else print(v)"
}
cat > "$WORK/page.html" <<'HTML'
<!DOCTYPE html><html lang="en"><head><title>Crawler &amp; index</title>
<meta name="robots" content="noarchive"></head><body>
<h1>Crawling the web</h1><p>A web crawler fetches pages and follows the links it finds on them.</p>
<a href="/about">About this crawler</a> <a rel="nofollow" href="/secret">s</a>
<img src="logo.png" alt="Project logo"><a href="mailto:x@a.test">mail</a>
</body></html>
HTML
expect "Crawler & index" 0 page_json "r['title']" --url http://a.test/dir/ "$WORK/page.html"
expect "en html" 0 page_json "r['language'], r['language_source']" --url http://a.test/dir/ "$WORK/page.html"
expect "True False" 0 page_json "r['noarchive'], r['noindex']" --url http://a.test/dir/ "$WORK/page.html"
expect "http://a.test/about http://a.test/dir/logo.png" 0 \
  page_json "' '.join(l['url'] for l in d['links'])" --url http://a.test/dir/ "$WORK/page.html"
expect "About this crawler 0 2" 0 \
  page_json "d['links'][0]['anchor_text'], d['links'][0]['link_rank'], d['links'][0]['links_on_page']" \
  --url http://a.test/dir/ "$WORK/page.html"
expect "A web crawler fetches pages and follows the links it finds on them." 0 \
  page_json "[s['text'] for s in r['description'] if s['weight'] == 1][0]" --url http://a.test/dir/ "$WORK/page.html"
expect "english 1" 0 \
  page_json "r['mini_index']['stem_language'], [t['title_count'] for t in r['mini_index']['terms'] if t['term'] == 'crawler'][0]" \
  --url http://a.test/dir/ "$WORK/page.html"
# Latin-1 bytes: a charset given on the command line is used.
printf '<title>Caf\xe9</title>' > "$WORK/latin1.html"
expect "Café windows-1252" 0 page_json "r['title'], r['charset']" --url http://a.test/ --charset iso-8859-1 "$WORK/latin1.html"
expect "Caf� 1" 0 page_json "r['title'], r['invalid_bytes']" --url http://a.test/ --charset utf-8 "$WORK/latin1.html"
# A gzip-compressed sitemap and robots.txt Sitemap lines.
printf '<?xml version="1.0"?><urlset><url><loc>http://a.test/1</loc></url><url><loc>http://a.test/2</loc></url></urlset>' \
  | gzip -c > "$WORK/sitemap.xml.gz"
expect "http://a.test/1:0:True http://a.test/2:1:True" 0 \
  page_json "' '.join('%s:%d:%s' % (l['url'], l['link_rank'], l['from_sitemap']) for l in d['links'])" \
  --url http://a.test/sitemap.xml.gz "$WORK/sitemap.xml.gz"
printf 'User-agent: *\nDisallow: /x\nSitemap: http://a.test/map.xml\n' > "$WORK/robots_sitemap.txt"
expect "robots http://a.test/map.xml" 0 \
  page_json "d['kind'], d['links'][0]['url']" --url http://a.test/robots.txt "$WORK/robots_sitemap.txt"
expect "Release notes" 0 page_json "r['title']" --url http://a.test/n.txt --mime text/plain <(printf 'Release notes\n\nText.\n')
expect "" 1 "$BIN/crawlctl" page --url "not a url" "$WORK/page.html"
expect "" 1 "$BIN/crawlctl" page --url http://a.test/ "$WORK/missing.html"
