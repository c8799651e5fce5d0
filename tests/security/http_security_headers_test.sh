#!/usr/bin/env bash
# Clickjacking, MIME sniffing, referrer leaks and injected script: every
# page of the name server's HTTP server (status page, console, sign-in,
# errors, metrics) carries Content-Security-Policy, X-Frame-Options: DENY,
# X-Content-Type-Options: nosniff and Referrer-Policy; the pages with inline
# script or style admit exactly theirs by hash, never 'unsafe-inline'.
source "$(dirname "$0")/../integration/lib.sh"
source "$(dirname "$0")/http_lib.sh"

write_tokens "$WORK/tokens"
start_nameserver ns --admin-tokens "$WORK/tokens"
base="http://127.0.0.1:$PORT"
auth=(-H "Authorization: Bearer $ADMIN_TOKEN")
check_headers() {  # check_headers WHAT
  local csp
  csp=$(header Content-Security-Policy)
  [[ "$csp" == "default-src 'none'"* ]] || fail "$1: CSP '$csp'"
  [[ "$csp" == *"frame-ancestors 'none'"* ]] || fail "$1: CSP allows framing: '$csp'"
  [[ "$csp" != *"unsafe-inline"* ]] || fail "$1: CSP allows inline code: '$csp'"
  expect "$1 X-Frame-Options" DENY "$(header X-Frame-Options)"
  expect "$1 X-Content-Type-Options" nosniff "$(header X-Content-Type-Options)"
  expect "$1 Referrer-Policy" same-origin "$(header Referrer-Policy)"
}
for p in /status /status.json / /console /console/search /console/crawl?id=99 /console/nope /login /nothing /metrics; do
  c=$(code "${auth[@]}" "$base$p")
  check_headers "GET $p ($c)"
done
code "$base/console" > /dev/null && check_headers "sign-in page"
code "$base/status" > /dev/null && check_headers "status page without a token (off loopback it asks)"
code -X POST "${auth[@]}" "$base/console/stop" > /dev/null && check_headers "refused POST"

# The status page's inline script and style are admitted by hash.
code "${auth[@]}" "$base/status" > /dev/null
csp=$(header Content-Security-Policy)
[ "$(grep -o "'sha256-[A-Za-z0-9+/=]*'" <<< "$csp" | wc -l)" -eq 2 ] || fail "status page CSP names no hashes: $csp"
python3 - "$WORK/b" "$csp" <<'PY' || fail "the status page's CSP does not admit its own script and style"
import base64, hashlib, re, sys
page, csp = open(sys.argv[1]).read(), sys.argv[2]
for tag in ("script", "style"):
    text = re.search(r"<%s>(.*?)</%s>" % (tag, tag), page, re.S).group(1)
    h = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    assert "'sha256-%s'" % h in csp, (tag, h)
PY
echo "ok: security headers on every page; inline code admitted only by hash"
