#!/usr/bin/env bash
# Login CSRF and sign-out: another site's form must not sign a browser in
# (with the attacker's token, so the victim's actions land in the attacker's
# session), a sign-in needs the login CSRF value of our own form, only valid
# tokens become cookies (with HttpOnly, SameSite=Strict, Max-Age), and
# POST /logout clears the cookie only for a form of that session.
source "$(dirname "$0")/../integration/lib.sh"
source "$(dirname "$0")/http_lib.sh"

write_tokens "$WORK/tokens"
start_nameserver ns --admin-tokens "$WORK/tokens"
base="http://127.0.0.1:$PORT"
form=(-H "Content-Type: application/x-www-form-urlencoded")

# Our own form: GET /login sets the login CSRF cookie and puts the value in the form.
expect "GET /login" 200 "$(code "$base/login?next=/console")"
csrf=$(header Set-Cookie | sed -n 's/^crawl_login=\([0-9a-f]*\);.*/\1/p')
[ ${#csrf} -eq 32 ] || fail "no login CSRF cookie: $(header Set-Cookie)"
grep -q "name=\"login_csrf\" value=\"$csrf\"" "$WORK/b" || fail "the form does not carry the CSRF value"
header Set-Cookie | grep -q 'SameSite=Strict' || fail "login CSRF cookie without SameSite=Strict"

no_session() { ! grep -qi '^set-cookie: crawl_token=[^;]' "$WORK/h"; }

# The attack: a form on evil.example posts the attacker's (valid) token.
# The browser sends Origin: http://evil.example and, SameSite, no cookie.
expect "cross-site sign-in" 403 "$(code "${form[@]}" -H "Origin: http://evil.example" \
  --data "token=$ADMIN_TOKEN&login_csrf=$csrf" "$base/login")"
no_session || fail "a cross-site sign-in set a session cookie"
# Even with the cookie (a browser that sent it anyway), the Origin decides.
expect "cross-site sign-in with the cookie" 403 "$(code "${form[@]}" -H "Origin: http://evil.example" \
  -b "crawl_login=$csrf" --data "token=$ADMIN_TOKEN&login_csrf=$csrf" "$base/login")"
expect "cross-site Referer" 403 "$(code "${form[@]}" -H "Referer: http://evil.example/x" \
  -b "crawl_login=$csrf" --data "token=$ADMIN_TOKEN&login_csrf=$csrf" "$base/login")"
# Without the CSRF value, or with one that is not the cookie's.
expect "sign-in without CSRF" 403 "$(code "${form[@]}" --data "token=$ADMIN_TOKEN" "$base/login")"
no_session || fail "a sign-in without CSRF set a session cookie"
expect "sign-in with a foreign CSRF value" 403 "$(code "${form[@]}" -b "crawl_login=$csrf" \
  --data "token=$ADMIN_TOKEN&login_csrf=0123456789abcdef0123456789abcdef" "$base/login")"
# A wrong token never becomes a cookie.
expect "wrong token" 401 "$(code "${form[@]}" -H "Origin: $base" -b "crawl_login=$csrf" \
  --data "token=not-a-token&login_csrf=$csrf" "$base/login")"
no_session || fail "a wrong token became a cookie"

# The real sign-in, from our own page.
expect "sign-in" 303 "$(code "${form[@]}" -H "Origin: $base" -b "crawl_login=$csrf" \
  --data "token=$ADMIN_TOKEN&login_csrf=$csrf&next=%2Fconsole" "$base/login")"
cookie=$(grep -i '^set-cookie: crawl_token=' "$WORK/h" | tr -d '\r')
for attr in HttpOnly SameSite=Strict Path=/ Max-Age=; do
  grep -q "$attr" <<< "$cookie" || fail "session cookie lacks $attr: $cookie"
done
expect "console with the cookie" 200 "$(code -b "crawl_token=$ADMIN_TOKEN" "$base/console")"
logout=$(grep -o 'action="/logout"><input type="hidden" name="csrf" value="[0-9a-f]*"' "$WORK/b" | sed 's/.*value="//;s/"$//')
[ ${#logout} -eq 64 ] || fail "no sign-out form on the console"

# Sign-out: forged (no token, wrong token, other site) is refused.
expect "logout without CSRF" 403 "$(code "${form[@]}" -b "crawl_token=$ADMIN_TOKEN" --data "" "$base/logout")"
expect "logout with a wrong CSRF" 403 "$(code "${form[@]}" -b "crawl_token=$ADMIN_TOKEN" \
  --data "csrf=$(printf '0%.0s' $(seq 64))" "$base/logout")"
expect "cross-site logout" 403 "$(code "${form[@]}" -H "Origin: http://evil.example" -b "crawl_token=$ADMIN_TOKEN" \
  --data "csrf=$logout" "$base/logout")"
expect "logout by GET" 405 "$(code -b "crawl_token=$ADMIN_TOKEN" "$base/logout")"
expect "logout" 303 "$(code "${form[@]}" -H "Origin: $base" -b "crawl_token=$ADMIN_TOKEN" \
  --data "csrf=$logout" "$base/logout")"
grep -qi '^set-cookie: crawl_token=;.*Max-Age=0' "$WORK/h" || fail "logout did not clear the cookie: $(cat "$WORK/h")"

# Loopback without tokens: no token is needed, so none becomes a cookie.
start_nameserver open
expect "console without tokens on loopback" 200 "$(code "http://127.0.0.1:$PORT/console")"
expect "any token on loopback" 401 "$(code "${form[@]}" -b "crawl_login=$csrf" \
  --data "token=anything&login_csrf=$csrf" "http://127.0.0.1:$PORT/login")"
no_session || fail "loopback turned an unknown token into a cookie"
echo "ok: cross-site and CSRF-less sign-ins refused; cookie attributes; logout clears the cookie"
