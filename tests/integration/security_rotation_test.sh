#!/usr/bin/env bash
# Certificate rotation without a restart: mid-crawl the cluster
# moves to a new CA, the way docs/OPERATIONS.md tells an operator to: trust
# both CAs, put new certificates, keys and CRL in place, send SIGHUP, then
# drop the old CA. The crawl finishes with every page fetched; afterwards the
# old admin certificate is refused and the new one works. Then a revoked
# certificate is refused as soon as the CRL file changes.
source "$(dirname "$0")/lib.sh"

web=(--seed 12 --hosts 4 --pages 400)
start_testweb "${web[@]}"
start_cluster 2 2
tls=$WORK/cluster/tls
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/testweb" export "${web[@]}" --out "$WORK/reachable.tsv"
reachable=$(grep -c . "$WORK/reachable.tsv")
schedule_size=40
# Polite enough that the crawl takes a while: the rotation happens mid-crawl.
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --min-host-delay-ms 120 \
  --schedule-size $schedule_size > /dev/null

deadline=$((SECONDS + $(scaled 60)))
until [ "$(status_field pages_fetched)" -ge $((reachable / 8)) ]; do
  [ $SECONDS -lt $deadline ] || fail "the crawl did not start"
  sleep 0.2
done
cp "$tls/admin-crawlctl.crt" "$WORK/old-admin.crt"
cp "$tls/admin-crawlctl.key" "$WORK/old-admin.key"
cp "$tls/ca.crt" "$WORK/old-ca.crt"
"$SRC/deploy/certs.sh" cluster --dir "$WORK/new" --queueservers 2 --fetchers 2 > /dev/null

put() {  # put SRC DEST: replace DEST atomically
  cp "$1" "$(dirname "$2")/.rotate.tmp" && mv -f "$(dirname "$2")/.rotate.tmp" "$2"
}
hup_all() {
  local f
  for f in "$WORK"/cluster/*.pid; do kill -HUP "$(cat "$f")" 2>/dev/null || true; done
}
refresh() { sleep 3; }  # certificate files are re-read every 2 s

cat "$WORK/old-ca.crt" "$WORK/new/ca.crt" > "$WORK/bundle.crt"
put "$WORK/bundle.crt" "$tls/ca.crt"
hup_all
refresh
for name in nameserver-ns queueserver-qs0 queueserver-qs1 fetcher-fetcher0 fetcher-fetcher1 admin-crawlctl reader-reader; do
  put "$WORK/new/$name.key" "$tls/$name.key"
  put "$WORK/new/$name.crt" "$tls/$name.crt"
done
put "$WORK/new/crl.pem" "$tls/crl.pem"
hup_all
refresh
put "$WORK/new/ca.crt" "$tls/ca.crt"
hup_all
refresh
pages_at_rotation=$(status_field pages_fetched)
echo "rotated to a new CA at $pages_at_rotation of $reachable pages"
[ "$pages_at_rotation" -lt "$reachable" ] || echo "warning: the crawl was over before the rotation ended"

state=$(wait_crawl_over 240)
[ "$state" = done ] || fail "crawl ended as $state after the rotation"
"$BIN/crawlctl" log > "$WORK/crawl.log"
python3 "$(dirname "$0")/check_nothing_lost.py" "$WORK/crawl.log" "$WORK/reachable.tsv" \
  $((2 * 4 * schedule_size)) "a CA rotation mid-crawl"
for f in "$WORK"/cluster/*.pid; do
  kill -0 "$(cat "$f")" || fail "$(basename "$f" .pid) died during the rotation"
done

old=$(rpc_probe "$NAMESERVER" crawl.v1.NameServer/ListCrawls --tls-ca "$tls/ca.crt" \
  --tls-cert "$WORK/old-admin.crt" --tls-key "$WORK/old-admin.key")
[ "${old%% *}" = UNAVAILABLE ] || fail "the old admin certificate was not refused: $old"
if env -u CRAWL_TOKEN_FILE CRAWL_TLS_CERT="$WORK/old-admin.crt" CRAWL_TLS_KEY="$WORK/old-admin.key" \
     "$BIN/crawlctl" status > /dev/null 2>&1; then
  fail "crawlctl with the old certificate was let in"
fi
env -u CRAWL_TOKEN_FILE "$BIN/crawlctl" status > /dev/null || fail "the new admin certificate does not work"
echo "ok: old certificate refused, new one works"

# Revocation: the reader certificate works, is revoked, and is refused.
reader=(--tls-ca "$tls/ca.crt" --tls-cert "$tls/reader-reader.crt" --tls-key "$tls/reader-reader.key")
got=$(rpc_probe "$NAMESERVER" crawl.v1.NameServer/ListCrawls "${reader[@]}")
[ "${got%% *}" = OK ] || fail "the reader certificate does not work: $got"
"$SRC/deploy/certs.sh" revoke --dir "$WORK/new" --name reader-reader > /dev/null
put "$WORK/new/crl.pem" "$tls/crl.pem"
got=$(rpc_probe "$NAMESERVER" crawl.v1.NameServer/ListCrawls "${reader[@]}")
[ "${got%% *}" = UNAVAILABLE ] || fail "the revoked reader certificate was not refused: $got"
env -u CRAWL_TOKEN_FILE "$BIN/crawlctl" status > /dev/null || fail "revoking the reader locked out the admin"
echo "ok: revoked certificate refused"
