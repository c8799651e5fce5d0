#!/usr/bin/env bash
# Forward proxy (fetcher --proxy, --proxy-auth-file; fetcher/http/proxy_config.h):
# a crawl of a small testweb with one https host, every fetcher request sent
# through a real tinyproxy on loopback that wants BasicAuth. Checks: the
# crawl ends with no failed URL and https pages fetched (CONNECT, then TLS
# in the tunnel); every request testweb served came from the proxy's own
# outgoing address (tinyproxy's Bind), none straight from a fetcher;
# tinyproxy logged CONNECT tunnels and absolute-form GETs; and the
# credentials appear in no log file.
source "$(dirname "$0")/lib.sh"

command -v tinyproxy > /dev/null || { echo "SKIP: tinyproxy missing (deploy/install-deps.sh --test)"; exit 77; }

# Host 4 of 9 is https-only with a self-signed certificate (testweb "https").
web=(--seed 7 --hosts 9 --pages 60 --preset clean --enable https)
start_testweb "${web[@]}"

# The proxy: loopback, a free port, BasicAuth with a fresh password, its
# outgoing connections from 127.0.0.2 (fetchers connect from 127.0.0.1).
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
user=crawler
pass=$(python3 -c 'import secrets; print(secrets.token_hex(12))')
basic=$(printf '%s:%s' "$user" "$pass" | base64)
printf '%s:%s\n' "$user" "$pass" > "$WORK/proxy-auth"
chmod 600 "$WORK/proxy-auth"
cat > "$WORK/tinyproxy.conf" <<EOF
Port $port
Listen 127.0.0.1
Bind 127.0.0.2
Timeout 30
LogFile "$WORK/proxy/tinyproxy.log"
LogLevel Connect
MaxClients 200
Allow 127.0.0.1
BasicAuth $user $pass
EOF
mkdir -p "$WORK/proxy"
tinyproxy -d -c "$WORK/tinyproxy.conf" > "$WORK/proxy/tinyproxy.out" 2>&1 &
_bg_pids+=($!)
for i in $(seq 1 50); do
  code=$(curl -s -o /dev/null -w '%{http_code}' -x "http://127.0.0.1:$port" http://127.0.0.1:1/ || true)
  [ "$code" = 407 ] && break
  kill -0 "${_bg_pids[-1]}" 2> /dev/null || fail "tinyproxy exited: $(cat "$WORK/proxy/tinyproxy.out")"
  sleep 0.1
done
[ "$code" = 407 ] || fail "tinyproxy does not ask for credentials on port $port (got '$code')"

start_cluster 1 2 "--proxy http://127.0.0.1:$port --proxy-auth-file $WORK/proxy-auth"
grep -q "http via proxy 127.0.0.1:$port (with credentials), https via proxy 127.0.0.1:$port" \
  "$WORK"/cluster/fetcher0.log || fail "fetcher0 does not log its proxy"
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --accept-self-signed
state=$(wait_crawl_over 120)
[ "$state" = done ] || fail "crawl ended as $state"
"$BIN/crawlctl" log > "$WORK/crawl.log"
sleep 0.5  # access log lines are written as answers finish

python3 - "$WORK/crawl.log" "$WORK/access.log" "$WORK/proxy/tinyproxy.log" <<'PY'
import sys
log = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
failed = [f for f in log if int(f[1]) < 0]
assert not failed, failed[:5]
urls = [f[3] for f in log]
https = [u for u in urls if u.startswith("https://")]
http = [u for u in urls if u.startswith("http://")]
print(f"fetched {len(urls)}: {len(http)} http, {len(https)} https")
assert http and https, "both http and https pages must have been fetched"
# Every request testweb answered came from the proxy's outgoing address.
access = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if l.strip()]
direct = [a for a in access if not a[5].startswith("127.0.0.2:")]
print(f"testweb served {len(access)} requests, {len(direct)} not from the proxy")
assert len(access) >= len(urls), (len(access), len(urls))
assert not direct, direct[:5]
proxy_log = open(sys.argv[3]).read()
connects = proxy_log.count("): CONNECT ")
gets = proxy_log.count("): GET http://")
print(f"tinyproxy: {connects} CONNECT tunnels, {gets} absolute-form GETs")
assert connects > 0 and gets >= len(http), (connects, gets)
PY

# The credentials (password, or its Basic form) are in no log, status or
# command file: only in the auth file and the proxy's own configuration.
leaks=$(grep -rlF -e "$pass" -e "$basic" "$WORK" | grep -v -e "^$WORK/proxy-auth$" -e "^$WORK/tinyproxy.conf$" || true)
[ -z "$leaks" ] || fail "proxy credentials found in: $leaks"
echo "ok: crawl through tinyproxy complete, credentials in no log"
