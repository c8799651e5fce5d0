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
