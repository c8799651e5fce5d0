#!/usr/bin/env bash
# Mutual TLS, roles and tokens on a real cluster. A secure local cluster (local-cluster.sh's
# default: mutual TLS, roles from certificates, admin tokens) crawls a
# testweb universe to completion, exactly as an insecure one does (the same
# pages, each once). Against both live servers, a client without a
# certificate, with one from another CA, with an expired one and with the
# wrong role is refused with the right code, and a forged fetcher (valid
# TLS, reader role) plants nothing: the crawl's numbers and log are the same
# before and after. crawlctl with no token, a wrong token, a reader token on
# `stop`, and the admin token; a token added to the file works after SIGHUP.
# A non-loopback listen address without TLS or --insecure stops a server
# with a one-line message.
source "$(dirname "$0")/lib.sh"

# --- servers refuse to listen off loopback in plain text -------------------
for server in nameserver queueserver; do
  extra=()
  [ $server = queueserver ] && extra=(--nameserver 127.0.0.1:1)
  if "$BIN/$server" --listen 0.0.0.0:0 "${extra[@]}" > "$WORK/refuse.out" 2>&1; then
    fail "$server listened on 0.0.0.0 without TLS"
  fi
  [ "$(wc -l < "$WORK/refuse.out")" -eq 1 ] || fail "$server: not one line: $(cat "$WORK/refuse.out")"
  grep -q -- "--tls-cert" "$WORK/refuse.out" && grep -q -- "--insecure" "$WORK/refuse.out" ||
    fail "$server: message does not name the flags: $(cat "$WORK/refuse.out")"
done
echo "ok: plain-text servers refuse a non-loopback address"

web=(--seed 11 --hosts 6 --pages 600)
start_testweb "${web[@]}"
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/testweb" export "${web[@]}" --out "$WORK/reachable.tsv"

# --- the secure cluster crawls everything ----------------------------------
start_cluster 2 2
tls=$WORK/cluster/tls
[ -n "${CRAWL_TLS_CA:-}" ] && [ -n "${CRAWL_TLS_CERT:-}" ] && [ -n "${CRAWL_TOKEN_FILE:-}" ] ||
  fail "cluster.env does not carry the TLS and token variables"
grep -q -- "--tls-ca" "$WORK/cluster/fetcher0.cmd" || fail "the fetcher runs without TLS"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private > /dev/null
state=$(wait_crawl_over 180)
[ "$state" = done ] || fail "secure crawl ended as $state"
"$BIN/crawlctl" log > "$WORK/secure.log"
python3 "$(dirname "$0")/check_nothing_lost.py" "$WORK/secure.log" "$WORK/reachable.tsv" 0 "a secure crawl"

# --- credentials for the refusal matrix -------------------------------------
"$SRC/deploy/certs.sh" cluster --dir "$WORK/other-ca" --queueservers 1 --fetchers 1 > /dev/null
"$SRC/deploy/certs.sh" issue --dir "$tls" --role fetcher --id old --expired > /dev/null
qs_address=$("$BIN/crawlctl" servers --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["servers"][0]["address"])')
status_json "$WORK/before.json"
crawl_id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["crawl_id"])' "$WORK/before.json")

creds() {  # creds NAME: the rpc_probe flags of a credential set
  case "$1" in
    none) echo "--tls-ca $tls/ca.crt" ;;
    other-ca) echo "--tls-ca $tls/ca.crt --tls-cert $WORK/other-ca/fetcher-fetcher0.crt --tls-key $WORK/other-ca/fetcher-fetcher0.key" ;;
    expired) echo "--tls-ca $tls/ca.crt --tls-cert $tls/fetcher-old.crt --tls-key $tls/fetcher-old.key" ;;
    reader) echo "--tls-ca $tls/ca.crt --tls-cert $tls/reader-reader.crt --tls-key $tls/reader-reader.key" ;;
    fetcher) echo "--tls-ca $tls/ca.crt --tls-cert $tls/fetcher-fetcher0.crt --tls-key $tls/fetcher-fetcher0.key" ;;
    plain) echo "" ;;
  esac
}
expect() {  # expect CODE ADDRESS PEER_ROLE METHOD CREDS
  local want=$1 address=$2 role=$3 method=$4 who=$5 got
  # shellcheck disable=SC2046
  got=$(rpc_probe "$address" "$method" --peer-role "$role" --crawl-id "$crawl_id" $(creds "$who"))
  [ "${got%% *}" = "$want" ] || fail "$who on $method at $address: expected $want, got: $got"
  echo "ok: $who -> $method: $got"
}
for method in crawl.v1.NameServer/StopCrawl crawl.v1.NameServer/StartCrawl crawl.v1.NameServer/SetCrawlParams; do
  expect UNAUTHENTICATED "$NAMESERVER" nameserver $method none
  expect UNAVAILABLE "$NAMESERVER" nameserver $method other-ca
  expect UNAVAILABLE "$NAMESERVER" nameserver $method expired
  expect UNAVAILABLE "$NAMESERVER" nameserver $method plain
  expect PERMISSION_DENIED "$NAMESERVER" nameserver $method reader
  expect PERMISSION_DENIED "$NAMESERVER" nameserver $method fetcher
done
for method in crawl.v1.QueueServer/SubmitResults crawl.v1.QueueServer/AddUrls crawl.v1.QueueServer/InjectSeeds \
              crawl.v1.QueueServer/EndCrawl; do
  expect UNAVAILABLE "$qs_address" queueserver $method none  # the handshake requires a certificate
  expect UNAVAILABLE "$qs_address" queueserver $method other-ca
  expect UNAVAILABLE "$qs_address" queueserver $method expired
  expect UNAVAILABLE "$qs_address" queueserver $method plain
  expect PERMISSION_DENIED "$qs_address" queueserver $method reader
done
expect PERMISSION_DENIED "$qs_address" queueserver crawl.v1.QueueServer/EndCrawl fetcher
expect PERMISSION_DENIED "$NAMESERVER" nameserver crawl.v1.NameServer/Heartbeat reader

# Limits at the door: a malformed or an oversized request from an admin is
# refused before any handler runs (gRPC's codes: INTERNAL for a body that
# does not parse, RESOURCE_EXHAUSTED past the server's receive limit).
admin=(--tls-ca "$tls/ca.crt" --tls-cert "$tls/admin-crawlctl.crt" --tls-key "$tls/admin-crawlctl.key")
printf '\xff\xff\xff\xff\x0f\x12' > "$WORK/garbage.bin"
got=$(rpc_probe "$NAMESERVER" crawl.v1.NameServer/StartCrawl "${admin[@]}" --raw "$WORK/garbage.bin")
[ "${got%% *}" = INTERNAL ] || [ "${got%% *}" = INVALID_ARGUMENT ] || fail "malformed StartCrawl: $got"
head -c $((65 * 1024 * 1024)) /dev/zero > "$WORK/big.bin"
got=$(rpc_probe "$NAMESERVER" crawl.v1.NameServer/StartCrawl "${admin[@]}" --raw "$WORK/big.bin")
[ "${got%% *}" = RESOURCE_EXHAUSTED ] || fail "a 65 MiB StartCrawl was not refused at the door: $got"
rm -f "$WORK/big.bin"
echo "ok: malformed and oversized requests refused"

status_json "$WORK/after.json"
python3 - "$WORK/before.json" "$WORK/after.json" <<'PY'
import json, sys
before, after = (json.load(open(p)) for p in sys.argv[1:3])
for key in ("state", "pages_fetched", "urls_seen", "frontier_size", "fetch_attempts"):
    if key in before:
        assert before[key] == after[key], f"{key} changed: {before[key]} -> {after[key]}"
print("ok: refused calls changed nothing")
PY
"$BIN/crawlctl" log > "$WORK/after.log"
cmp -s "$WORK/secure.log" "$WORK/after.log" || fail "the crawl log changed after refused calls"
! grep -q planted.test "$WORK/after.log" || fail "a forged URL reached the crawl log"
"$BIN/crawlctl" search planted > "$WORK/search.out" 2>&1 || true
! grep -q planted.test "$WORK/search.out" || fail "a forged URL reached the index"

# --- crawlctl and tokens -----------------------------------------------------
people() {  # people TOKEN_FILE ARGS...: crawlctl with the CA and a token only
  local file=$1; shift
  env -u CRAWL_TLS_CERT -u CRAWL_TLS_KEY -u CRAWL_TOKEN CRAWL_TOKEN_FILE="$file" "$BIN/crawlctl" "$@"
}
if env -u CRAWL_TLS_CERT -u CRAWL_TLS_KEY -u CRAWL_TOKEN_FILE "$BIN/crawlctl" status > "$WORK/out" 2>&1; then
  fail "crawlctl without certificate or token was let in"
fi
grep -q "not authenticated" "$WORK/out" || fail "no token: $(cat "$WORK/out")"
echo "wrong-token" > "$WORK/wrong.token"
if people "$WORK/wrong.token" status > "$WORK/out" 2>&1; then fail "a wrong token was let in"; fi
grep -q "not authenticated" "$WORK/out" || fail "wrong token: $(cat "$WORK/out")"
people "$tls/reader.token" status > /dev/null || fail "the reader token cannot read the status"
if people "$tls/reader.token" stop > "$WORK/out" 2>&1; then fail "a reader stopped the crawl"; fi
grep -q "permission denied" "$WORK/out" && grep -q "admin" "$WORK/out" || fail "reader stop: $(cat "$WORK/out")"
people "$tls/admin.token" status > /dev/null || fail "the admin token cannot read the status"
people "$tls/admin.token" stop > /dev/null 2>&1 || true  # nothing to stop: the crawl is done
! grep -q "$(cat "$tls/admin.token")" "$WORK"/cluster/*.log || fail "a token appears in a log"
# A token added to the file is taken after SIGHUP.
echo "new-token-1" > "$WORK/new.token"
if people "$WORK/new.token" status > /dev/null 2>&1; then fail "an unknown token was let in"; fi
echo "reader $(printf %s new-token-1 | sha256sum | cut -d' ' -f1) newcomer" >> "$tls/admin-tokens"
kill -HUP "$(cat "$WORK/cluster/nameserver.pid")"
ok=0
for _ in $(seq 1 50); do
  if people "$WORK/new.token" status > /dev/null 2>&1; then ok=1; break; fi
  sleep 0.1
done
[ $ok = 1 ] || fail "the token added to the file was not taken after SIGHUP"
echo "ok: crawlctl tokens (none, wrong, reader on stop, admin, reloaded)"

# --- the insecure cluster crawls the same pages ------------------------------
"$SRC/deploy/local-cluster.sh" down --dir "$WORK/cluster" > /dev/null
"$SRC/deploy/local-cluster.sh" up --insecure --dir "$WORK/plain" --queueservers 2 --fetchers 2 \
  --hosts-file "$WORK/hosts" --allow-private > /dev/null
_plain_down() { "$SRC/deploy/local-cluster.sh" down --dir "$WORK/plain" > /dev/null 2>&1 || true; }
test_cleanup() { _plain_down; }
unset CRAWL_TLS_CA CRAWL_TLS_CERT CRAWL_TLS_KEY CRAWL_TOKEN_FILE
. "$WORK/plain/cluster.env"
export CRAWL_NAMESERVER=$NAMESERVER
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private > /dev/null
state=$(wait_crawl_over 180)
[ "$state" = done ] || fail "insecure crawl ended as $state"
"$BIN/crawlctl" log > "$WORK/plain.log"
python3 "$(dirname "$0")/check_nothing_lost.py" "$WORK/plain.log" "$WORK/reachable.tsv" 0 "an insecure crawl"
diff <(cut -f4 "$WORK/secure.log" | sort) <(cut -f4 "$WORK/plain.log" | sort) > /dev/null ||
  fail "the secure and the insecure crawl fetched different URLs"
echo "ok: secure and insecure crawls fetched the same $(grep -c . "$WORK/plain.log") URLs"
