#!/usr/bin/env bash
# Memory before authentication. gRPC's sync server reads a unary call's whole
# request before any handler runs, so a role check inside the handler came
# after the server had buffered up to its receive limit: four 240 MiB
# SubmitResults from a client without a certificate took a queue server
# from 549 to 3,195 MiB, two 64 MiB calls a name server from 41 to 497 MiB.
# Now a queue server's handshake requires a certificate, and both servers
# refuse a call from its metadata (common/security/call_gate.h) before its
# message is read. This test replays the attack on an idle secure cluster
# (no certificate; a wrong token; an authenticated caller without the role)
# and requires every server's peak RSS to stay within 100 MiB of idle, then
# crawls to completion while the attack runs again.
source "$(dirname "$0")/../integration/lib.sh"

LIMIT_MIB=$(( 100 + ${CRAWL_TEST_RSS_SLACK_MIB:-0} ))
web=(--seed 17 --hosts 4 --pages 400)
start_testweb "${web[@]}"
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/testweb" export "${web[@]}" --out "$WORK/reachable.tsv"
start_cluster 1 1
tls=$WORK/cluster/tls
qs_address=$("$BIN/crawlctl" servers --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["servers"][0]["address"])')
ns_pid=$(cat "$WORK/cluster/nameserver.pid")
qs_pid=$(cat "$WORK"/cluster/queueserver0.pid)

head -c $((240 * 1024 * 1024)) /dev/zero > "$WORK/240m.bin"
head -c $((63 * 1024 * 1024)) /dev/zero > "$WORK/63m.bin"
echo "wrong-token" > "$WORK/wrong.token"
no_cert=(--tls-ca "$tls/ca.crt")
reader=(--tls-ca "$tls/ca.crt" --tls-cert "$tls/reader-reader.crt" --tls-key "$tls/reader-reader.key")

# attack: the calls of the report, all at once; each probe's answer in
# $WORK/attack-N.out as "CODE message".
attack() {
  local n=0 pids=()
  for i in 1 2 3 4; do
    "$BIN/rpc_probe" "$qs_address" crawl.v1.QueueServer/SubmitResults --peer-role queueserver "${no_cert[@]}" \
      --raw "$WORK/240m.bin" > "$WORK/attack-qs-none-$i.out" 2>&1 &
    pids+=($!)
  done
  "$BIN/rpc_probe" "$qs_address" crawl.v1.QueueServer/SubmitResults --peer-role queueserver "${reader[@]}" \
    --raw "$WORK/240m.bin" > "$WORK/attack-qs-reader.out" 2>&1 &
  pids+=($!)
  for i in 1 2; do
    "$BIN/rpc_probe" "$NAMESERVER" crawl.v1.NameServer/StartCrawl "${no_cert[@]}" \
      --raw "$WORK/63m.bin" > "$WORK/attack-ns-none-$i.out" 2>&1 &
    pids+=($!)
  done
  "$BIN/rpc_probe" "$NAMESERVER" crawl.v1.NameServer/StartCrawl "${no_cert[@]}" --token "$(cat "$WORK/wrong.token")" \
    --raw "$WORK/63m.bin" > "$WORK/attack-ns-token.out" 2>&1 &
  pids+=($!)
  "$BIN/rpc_probe" "$NAMESERVER" crawl.v1.NameServer/StartCrawl "${reader[@]}" \
    --raw "$WORK/63m.bin" > "$WORK/attack-ns-reader.out" 2>&1 &
  pids+=($!)
  for p in "${pids[@]}"; do wait "$p" || fail "an attacking rpc_probe failed: $(cat "$WORK"/attack-*.out)"; done
}

expect_code() {  # expect_code FILE CODE
  local got
  got=$(cat "$1")
  [ "${got%% *}" = "$2" ] || fail "$(basename "$1" .out): expected $2, got: $got"
}

kib() { awk "/^$2:/ { print \$2 }" "/proc/$1/status"; }
ns_idle=$(kib "$ns_pid" VmRSS)
qs_idle=$(kib "$qs_pid" VmRSS)
attack
for i in 1 2 3 4; do expect_code "$WORK/attack-qs-none-$i.out" UNAVAILABLE; done
expect_code "$WORK/attack-qs-reader.out" PERMISSION_DENIED
for i in 1 2; do expect_code "$WORK/attack-ns-none-$i.out" UNAUTHENTICATED; done
expect_code "$WORK/attack-ns-token.out" UNAUTHENTICATED
expect_code "$WORK/attack-ns-reader.out" PERMISSION_DENIED
ns_peak=$(kib "$ns_pid" VmHWM)
qs_peak=$(kib "$qs_pid" VmHWM)
echo "name server: idle $((ns_idle / 1024)) MiB, peak $((ns_peak / 1024)) MiB;" \
     "queue server: idle $((qs_idle / 1024)) MiB, peak $((qs_peak / 1024)) MiB (limit: idle + $LIMIT_MIB MiB)"
[ $(( (ns_peak - ns_idle) / 1024 )) -le "$LIMIT_MIB" ] || fail "the name server grew by more than $LIMIT_MIB MiB"
[ $(( (qs_peak - qs_idle) / 1024 )) -le "$LIMIT_MIB" ] || fail "the queue server grew by more than $LIMIT_MIB MiB"
echo "ok: refused before reading, memory bounded"

# The crawl is unharmed by the same attack running beside it.
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private > /dev/null
attack
state=$(wait_crawl_over 180)
[ "$state" = done ] || fail "the crawl under attack ended as $state"
"$BIN/crawlctl" log > "$WORK/crawl.log"
python3 "$SRC/tests/integration/check_nothing_lost.py" "$WORK/crawl.log" "$WORK/reachable.tsv" 0 "a crawl under attack"
for f in "$WORK"/cluster/*.pid; do
  kill -0 "$(cat "$f")" 2>/dev/null || fail "$(basename "$f" .pid) died under attack"
done
echo "ok: the crawl under attack finished with nothing lost"
