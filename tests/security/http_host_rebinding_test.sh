#!/usr/bin/env bash
# DNS rebinding: a page on evil.example, whose name the attacker then points
# at 127.0.0.1, makes the victim's browser ask our HTTP server with
# "Host: evil.example:PORT". Every endpoint but /healthz must refuse a Host
# it was not told about (421, naming --http-host), with and without admin
# tokens, and answer loopback names, the listen address and --http-host.
source "$(dirname "$0")/../integration/lib.sh"
source "$(dirname "$0")/http_lib.sh"

paths=(/status /status.json / /console /console/search /metrics /login /nothing)

# Without tokens on loopback (everything open to loopback callers).
start_nameserver open
for p in "${paths[@]}"; do
  expect "evil Host on $p" 421 "$(code -H "Host: evil.example:$PORT" "http://127.0.0.1:$PORT$p")"
  grep -q -- --http-host "$WORK/b" || fail "the refusal of $p does not name --http-host"
done
expect "evil Host POST /console/stop" 421 \
  "$(code -H "Host: evil.example:$PORT" -d crawl_id=1 "http://127.0.0.1:$PORT/console/stop")"
expect "evil Host on /healthz (exempt: it tells nothing)" 200 \
  "$(code -H "Host: evil.example:$PORT" "http://127.0.0.1:$PORT/healthz")"
for host in "127.0.0.1:$PORT" "localhost:$PORT" "LocalHost" "127.0.0.2:$PORT" "[::1]:$PORT"; do
  expect "Host $host on /status.json" 200 "$(code -H "Host: $host" "http://127.0.0.1:$PORT/status.json")"
done
expect "Host of a rebinding name under localhost" 421 \
  "$(code -H "Host: localhost.evil.example:$PORT" "http://127.0.0.1:$PORT/status.json")"

# With tokens and --http-host: a valid token does not make a foreign Host good.
write_tokens "$WORK/tokens"
start_nameserver tokens --admin-tokens "$WORK/tokens" --http-host crawl.example --http-host 10.9.8.7
auth=(-H "Authorization: Bearer $ADMIN_TOKEN")
for p in /status.json /status /console /metrics; do
  expect "evil Host with a token on $p" 421 "$(code "${auth[@]}" -H "Host: evil.example" "http://127.0.0.1:$PORT$p")"
done
expect "--http-host name" 200 "$(code "${auth[@]}" -H "Host: crawl.example:$PORT" "http://127.0.0.1:$PORT/status.json")"
expect "--http-host address" 200 "$(code -H "Host: 10.9.8.7:$PORT" "http://127.0.0.1:$PORT/metrics")"

# A wildcard listen: the machine's names are unknown, only loopback and
# --http-host pass (Prometheus scraping by service name needs the flag).
HTTP_LISTEN=0.0.0.0:0 start_nameserver wild --admin-tokens "$WORK/tokens" --http-host nameserver
expect "wildcard address as Host" 421 "$(code -H "Host: 0.0.0.0:$PORT" "http://127.0.0.1:$PORT/metrics")"
expect "unnamed machine name" 421 "$(code -H "Host: $(hostname):$PORT" "http://127.0.0.1:$PORT/metrics")"
expect "service name given by --http-host" 200 "$(code -H "Host: nameserver:$PORT" "http://127.0.0.1:$PORT/metrics")"
expect "wildcard: /status.json of evil Host" 421 \
  "$(code "${auth[@]}" -H "Host: evil.example" "http://127.0.0.1:$PORT/status.json")"
echo "ok: foreign Host names refused on every endpoint but /healthz"
