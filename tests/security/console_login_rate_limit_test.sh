#!/usr/bin/env bash
# Guessing tokens: wrong tokens at /login are rate limited (a token bucket
# per client address and one for everyone): after five failures the client
# gets 429 with Retry-After, even for the right token, instead of thousands
# of guesses a second.
source "$(dirname "$0")/../integration/lib.sh"
source "$(dirname "$0")/http_lib.sh"

write_tokens "$WORK/tokens"
start_nameserver ns --admin-tokens "$WORK/tokens"
csrf=0123456789abcdef0123456789abcdef
try() {
  code -H "Content-Type: application/x-www-form-urlencoded" -b "crawl_login=$csrf" \
    --data "token=$1&login_csrf=$csrf" "http://127.0.0.1:$PORT/login"
}
for i in 1 2 3 4 5; do expect "guess $i" 401 "$(try "guess-$i")"; done
expect "guess 6" 429 "$(try guess-6)"
retry=$(header Retry-After)
[[ "$retry" =~ ^[0-9]+$ ]] && [ "$retry" -gt 0 ] || fail "429 without a Retry-After: '$retry'"
expect "the right token while limited" 429 "$(try "$ADMIN_TOKEN")"
# Bearer use of a valid token is unaffected (no guessing through /login).
expect "bearer while limited" 200 \
  "$(code -H "Authorization: Bearer $ADMIN_TOKEN" "http://127.0.0.1:$PORT/console")"
echo "ok: wrong tokens limited after 5 (Retry-After $retry s)"
