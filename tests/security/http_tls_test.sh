#!/usr/bin/env bash
# The status page and console over HTTPS (--http-tls-cert/--http-tls-key):
# pages and /healthz answer over TLS, plain HTTP on the same port gets no
# page, and the session cookie a sign-in sets is Secure, so a browser never
# sends it over plain HTTP.
source "$(dirname "$0")/../integration/lib.sh"
source "$(dirname "$0")/http_lib.sh"

command -v openssl > /dev/null || { echo "SKIP: openssl is not installed"; exit 77; }
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
  -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -keyout "$WORK/http.key" -out "$WORK/http.crt" \
  > "$WORK/openssl.log" 2>&1 || fail "openssl: $(cat "$WORK/openssl.log")"
write_tokens "$WORK/tokens"
start_nameserver ns --admin-tokens "$WORK/tokens" --http-tls-cert "$WORK/http.crt" --http-tls-key "$WORK/http.key"
base="https://127.0.0.1:$PORT"
tls=(--cacert "$WORK/http.crt")

expect "healthz over TLS" 200 "$(code "${tls[@]}" "$base/healthz")"
expect "status.json over TLS" 200 "$(code "${tls[@]}" -H "Authorization: Bearer $ADMIN_TOKEN" "$base/status.json")"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/b" || fail "status.json over TLS is not JSON"
expect "status page over TLS" 200 "$(code "${tls[@]}" -H "Authorization: Bearer $ADMIN_TOKEN" "$base/status")"
expect "localhost name over TLS" 200 "$(code "${tls[@]}" "https://localhost:$PORT/healthz")"
plain=$(curl -sS --noproxy '*' -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/healthz" 2>/dev/null || true)
[ "$plain" != 200 ] || fail "plain HTTP answered on the HTTPS port"

expect "GET /login" 200 "$(code "${tls[@]}" "$base/login")"
csrf=$(header Set-Cookie | sed -n 's/^crawl_login=\([0-9a-f]*\);.*/\1/p')
header Set-Cookie | grep -q '; Secure' || fail "login CSRF cookie not Secure over TLS"
expect "sign-in over TLS" 303 "$(code "${tls[@]}" -H "Origin: $base" -b "crawl_login=$csrf" \
  --data "token=$ADMIN_TOKEN&login_csrf=$csrf" "$base/login")"
grep -i '^set-cookie: crawl_token=' "$WORK/h" | grep -q '; Secure' || fail "session cookie not Secure over TLS"
expect "console with the cookie over TLS" 200 "$(code "${tls[@]}" -b "crawl_token=$ADMIN_TOKEN" "$base/console")"
echo "ok: HTTPS pages, Secure cookies, no plain HTTP"
