#!/usr/bin/env bash
# deploy/certs.sh makes what a secure cluster needs, checked with openssl
# itself: every certificate chains to the cluster CA and names its role in a
# crawl://role/ROLE/ID URI SAN; an --expired one is refused as expired; a
# revoked one is in the CRL (renewed before it runs out); admin-tokens
# holds the tokens' SHA-256; a second run keeps everything. Then deploy/local-cluster.sh: `up` fails naming a
# fetcher that dies at start-up (and leaves nothing running), and a secure
# `up` writes a cluster.env that is all crawlctl needs, whose TLS flags
# survive `restart`.
source "$(dirname "$0")/lib.sh"

command -v openssl > /dev/null || { echo "skipped: openssl not installed"; exit 77; }
certs="$SRC/deploy/certs.sh"
tls="$WORK/tls"

"$certs" cluster --dir "$tls" --queueservers 2 --fetchers 2 > "$WORK/certs.out"

# --- the CA
openssl x509 -in "$tls/ca.crt" -noout -ext basicConstraints,keyUsage > "$WORK/ca.ext"
grep -q "CA:TRUE" "$WORK/ca.ext" || fail "CA is not CA:TRUE: $(cat "$WORK/ca.ext")"
grep -q "Certificate Sign, CRL Sign" "$WORK/ca.ext" || fail "CA key usage: $(cat "$WORK/ca.ext")"
[ "$(stat -c %a "$tls/ca.key")" = 600 ] || fail "ca.key mode $(stat -c %a "$tls/ca.key")"
echo "ok: CA (CA:TRUE, keyCertSign, cRLSign, key mode 600)"

# --- every certificate: chain, role SAN, usages, its key
pubkey_of_cert() { openssl x509 -in "$1" -noout -pubkey; }
pubkey_of_key() { openssl pkey -in "$1" -pubout; }
check_cert() {  # check_cert NAME ROLE ID
  local crt="$tls/$1.crt" key="$tls/$1.key"
  openssl verify -CAfile "$tls/ca.crt" -purpose sslserver "$crt" > /dev/null || fail "$1: not a server certificate of the CA"
  openssl verify -CAfile "$tls/ca.crt" -purpose sslclient "$crt" > /dev/null || fail "$1: not a client certificate of the CA"
  openssl verify -CAfile "$tls/ca.crt" -crl_check -CRLfile "$tls/crl.pem" "$crt" > /dev/null || fail "$1: refused with the CRL"
  openssl x509 -in "$crt" -noout -ext subjectAltName,basicConstraints,extendedKeyUsage > "$WORK/ext"
  grep -q "URI:crawl://role/$2/$3\(,\|$\)" "$WORK/ext" || fail "$1: no URI SAN crawl://role/$2/$3: $(cat "$WORK/ext")"
  [ "$(grep -o 'URI:' "$WORK/ext" | wc -l)" = 1 ] || fail "$1: more than one URI SAN: $(cat "$WORK/ext")"
  grep -q "CA:FALSE" "$WORK/ext" || fail "$1: not CA:FALSE"
  grep -q "TLS Web Server Authentication, TLS Web Client Authentication" "$WORK/ext" || fail "$1: extended key usage: $(cat "$WORK/ext")"
  openssl x509 -in "$crt" -noout -text | grep -q "ASN1 OID: prime256v1" || fail "$1: not an EC P-256 key"
  [ "$(pubkey_of_cert "$crt")" = "$(pubkey_of_key "$key")" ] || fail "$1: key does not match the certificate"
  [ "$(stat -c %a "$key")" = 600 ] || fail "$1.key mode $(stat -c %a "$key")"
}
check_cert nameserver-ns nameserver ns
check_cert queueserver-qs0 queueserver qs0
check_cert queueserver-qs1 queueserver qs1
check_cert fetcher-fetcher0 fetcher fetcher0
check_cert fetcher-fetcher1 fetcher fetcher1
check_cert admin-crawlctl admin crawlctl
check_cert reader-reader reader reader
if [ -e "$tls/queueserver-qs2.crt" ] || [ -e "$tls/fetcher-fetcher2.crt" ]; then fail "more certificates than asked for"; fi
echo "ok: 7 certificates chain to the CA, each with its role's URI SAN, serverAuth+clientAuth, CA:FALSE, P-256"

# --- the CRL: signed by the CA, empty
openssl crl -in "$tls/crl.pem" -CAfile "$tls/ca.crt" -noout 2>&1 | grep -q "verify OK" || fail "crl.pem not signed by the CA"
! openssl crl -in "$tls/crl.pem" -noout -text | grep -q "Serial Number" || fail "a new cluster's CRL is not empty"
echo "ok: empty CRL signed by the CA"

# --- tokens: admin-tokens has "ROLE sha256(token) NAME"
for pair in admin:admin reader:reader; do
  role=${pair%%:*} name=${pair#*:}
  [ "$(stat -c %a "$tls/$name.token")" = 600 ] || fail "$name.token mode $(stat -c %a "$tls/$name.token")"
  tok=$(tr -d '[:space:]' < "$tls/$name.token")
  [[ "$tok" =~ ^[0-9a-f]{64}$ ]] || fail "$name.token is not 32 random bytes in hex: $tok"
  hash=$(printf '%s' "$tok" | sha256sum | cut -d' ' -f1)
  grep -qx "$role $hash $name" "$tls/admin-tokens" || fail "admin-tokens has no '$role $hash $name': $(cat "$tls/admin-tokens")"
done
[ "$(grep -cv '^#' "$tls/admin-tokens")" = 2 ] || fail "admin-tokens: $(cat "$tls/admin-tokens")"
echo "ok: admin.token and reader.token hashed into admin-tokens"

# --- idempotent: a second run changes nothing
fingerprint() { (cd "$tls" && sha256sum ca.crt ca.key ./*-*.crt ./*-*.key ./*.token admin-tokens crl.pem); }
fingerprint > "$WORK/before"
"$certs" cluster --dir "$tls" --queueservers 2 --fetchers 2 > "$WORK/certs2.out"
fingerprint > "$WORK/after"
diff "$WORK/before" "$WORK/after" > /dev/null || fail "a second cluster run changed files: $(diff "$WORK/before" "$WORK/after")"
"$certs" ca --dir "$tls" > /dev/null
cmp -s <(grep ca.crt "$WORK/before") <(cd "$tls" && sha256sum ca.crt) || fail "certs.sh ca replaced the CA"
echo "ok: re-running cluster and ca keeps the CA, certificates and tokens"

# --- growing the cluster issues only the new certificates
"$certs" cluster --dir "$tls" --queueservers 3 --fetchers 2 > /dev/null
check_cert queueserver-qs2 queueserver qs2
(cd "$tls" && sha256sum --quiet -c "$WORK/before") || fail "adding a queue server changed existing files"
echo "ok: --queueservers 3 adds queueserver-qs2 only"

# --- an expired certificate
"$certs" issue --dir "$tls" --role fetcher --id old --expired > /dev/null
if openssl verify -CAfile "$tls/ca.crt" "$tls/fetcher-old.crt" > "$WORK/verify.out" 2>&1; then
  fail "an --expired certificate verifies"
fi
grep -q "certificate has expired" "$WORK/verify.out" || fail "expired certificate refused for another reason: $(cat "$WORK/verify.out")"
echo "ok: --expired gives a certificate openssl refuses as expired"

# --- --days and --out
"$certs" issue --dir "$tls" --role reader --id alice --days 2 --out alice > /dev/null
check_cert alice reader alice
openssl x509 -in "$tls/alice.crt" -noout -checkend $((3 * 86400)) > /dev/null && fail "--days 2 certificate valid in 3 days"
echo "ok: --days and --out"

# --- revocation: the serial lands in the CRL; the others still pass
serial=$(openssl x509 -in "$tls/fetcher-fetcher1.crt" -noout -serial | cut -d= -f2)
cp "$tls/fetcher-fetcher1.crt" "$WORK/revoked.crt"
"$certs" revoke --dir "$tls" --name fetcher-fetcher1 > /dev/null
openssl crl -in "$tls/crl.pem" -noout -text | grep -q "Serial Number: $serial" || fail "serial $serial not in the CRL"
if openssl verify -CAfile "$tls/ca.crt" -crl_check -CRLfile "$tls/crl.pem" "$WORK/revoked.crt" > "$WORK/verify.out" 2>&1; then
  fail "a revoked certificate verifies against the CRL"
fi
grep -q "certificate revoked" "$WORK/verify.out" || fail "revoked certificate refused for another reason: $(cat "$WORK/verify.out")"
check_cert fetcher-fetcher0 fetcher fetcher0
"$certs" revoke --dir "$tls" --name fetcher-fetcher1 > /dev/null  # twice: no error
echo "ok: revoke puts serial $serial in the CRL; the other certificates still pass"
# cluster issues a fresh certificate for the revoked one, keeping the rest
"$certs" cluster --dir "$tls" --queueservers 3 --fetchers 2 > /dev/null
check_cert fetcher-fetcher1 fetcher fetcher1
[ "$(openssl x509 -in "$tls/fetcher-fetcher1.crt" -noout -serial | cut -d= -f2)" != "$serial" ] || fail "revoked certificate kept"
cmp -s <(grep ca.crt "$WORK/before") <(cd "$tls" && sha256sum ca.crt) || fail "the CA changed"
# revoke by serial (a rotated certificate no longer has a file of its own)
old_serial=$(openssl x509 -in "$tls/alice.crt" -noout -serial | cut -d= -f2)
"$certs" issue --dir "$tls" --role reader --id alice --out alice > /dev/null   # rotation
"$certs" revoke --dir "$tls" --serial "$old_serial" > /dev/null
openssl crl -in "$tls/crl.pem" -noout -text | grep -q "Serial Number: $old_serial" || fail "--serial: not in the CRL"
openssl verify -CAfile "$tls/ca.crt" -crl_check -CRLfile "$tls/crl.pem" "$tls/alice.crt" > /dev/null || fail "rotated certificate refused"
echo "ok: cluster re-issues a revoked certificate; revoke --serial revokes a rotated one"

# --- another CA's certificate does not chain to ours
"$certs" cluster --dir "$WORK/other" --queueservers 1 --fetchers 0 > /dev/null
if openssl verify -CAfile "$tls/ca.crt" "$WORK/other/fetcher-fetcher0.crt" > /dev/null 2>&1 ||
   openssl verify -CAfile "$tls/ca.crt" "$WORK/other/admin-crawlctl.crt" > /dev/null 2>&1; then
  fail "a certificate of another CA verifies"
fi
[ "$(openssl x509 -in "$tls/ca.crt" -noout -subject)" != "$(openssl x509 -in "$WORK/other/ca.crt" -noout -subject)" ] ||
  fail "two CAs with the same subject"
echo "ok: another CA's certificates are refused"

# --- a token of one's own; replacing a name's token drops its old hash
printf 'chosen-token\n' | "$certs" token --dir "$tls" --role admin --name admin --value - > /dev/null
[ "$(cat "$tls/admin.token")" = chosen-token ] || fail "admin.token: $(cat "$tls/admin.token")"
grep -qx "admin $(printf chosen-token | sha256sum | cut -d' ' -f1) admin" "$tls/admin-tokens" || fail "chosen token not hashed"
[ "$(awk '$3 == "admin"' "$tls/admin-tokens" | wc -l)" = 1 ] || fail "old admin hash kept: $(cat "$tls/admin-tokens")"
grep -q " reader$" "$tls/admin-tokens" || fail "reader token lost"
echo "ok: token --value replaces the admin token and its hash"

# --- a CRL running out is renewed by cluster (an expired CRL refuses every peer)
"$certs" crl --dir "$tls" --days 5 > /dev/null
"$certs" cluster --dir "$tls" --queueservers 3 --fetchers 2 > /dev/null
openssl crl -in "$tls/crl.pem" -noout -nextupdate > "$WORK/next"
next=$(date -u -d "$(cut -d= -f2 "$WORK/next")" +%s)
[ "$next" -gt $(($(date -u +%s) + 20 * 86400)) ] || fail "cluster kept a CRL that runs out soon: $(cat "$WORK/next")"
openssl crl -in "$tls/crl.pem" -noout -text | grep -q "Serial Number: $serial" || fail "renewed CRL lost a revoked serial"
echo "ok: cluster renews a CRL that runs out within 10 days, keeping its revocations"

# --- bad arguments: exit 2 and a certs: line, nothing written
expect_usage() {  # expect_usage DESCRIPTION ARGS...
  local what=$1 rc=0; shift
  "$certs" "$@" > "$WORK/out" 2> "$WORK/err" || rc=$?
  [ "$rc" = 2 ] || fail "$what: exit $rc, not 2"
  grep -q "^certs: " "$WORK/err" || fail "$what: no certs: message: $(cat "$WORK/err")"
}
expect_usage "no subcommand"
expect_usage "unknown subcommand" frobnicate --dir "$tls"
expect_usage "no --dir" issue --role fetcher --id x
expect_usage "unknown role" issue --dir "$tls" --role king --id x
expect_usage "bad id" issue --dir "$tls" --role fetcher --id "a/b"
expect_usage "token for a process role" token --dir "$tls" --role fetcher --name x
expect_usage "option of another subcommand" crl --dir "$tls" --role admin
expect_usage "zero queue servers" cluster --dir "$tls" --queueservers 0
rc=0; "$certs" issue --dir "$WORK/none" --role fetcher --id x 2> "$WORK/err" || rc=$?
if [ "$rc" != 1 ] || ! grep -q "no CA" "$WORK/err" || [ -e "$WORK/none" ]; then
  fail "issue without a CA: exit $rc, $(cat "$WORK/err")"
fi
"$certs" --help | grep -q "certs.sh cluster" || fail "--help"
leftover=$(find "$tls" -maxdepth 1 -name '.*.*.*' ! -name .certs.lock)
[ -z "$leftover" ] || fail "temporary files left behind: $leftover"
echo "ok: bad arguments exit 2 with a certs: message"

# --- local-cluster.sh: start-up that tells the truth
for b in nameserver queueserver fetcher crawlctl; do
  [ -x "$BIN/$b" ] || fail "$BIN/$b not built"
done
no_process_left() {  # no_process_left DIR: no process of that cluster runs
  local f
  for f in "$1"/*.cmd; do
    [ -e "$f" ] || continue
    ! pgrep -f -- "--http-port-file $1/$(basename "$f" .cmd).http-port" > /dev/null || fail "$(basename "$f" .cmd) of $1 still runs"
  done
}
for mode in insecure secure; do
  args=(); [ "$mode" = secure ] || args=(--insecure)
  rc=0
  "$SRC/deploy/local-cluster.sh" up --dir "$WORK/bad-$mode" --queueservers 1 --fetchers 2 "${args[@]}" \
    --fetcher-args "--no-such-flag" > "$WORK/up.out" 2> "$WORK/up.err" || rc=$?
  [ "$rc" != 0 ] || fail "$mode: up with a fetcher that cannot start exited 0: $(cat "$WORK/up.out")"
  grep -q "fetcher0" "$WORK/up.err" || fail "$mode: up's error does not name fetcher0: $(cat "$WORK/up.err")"
  grep -q -- "--no-such-flag" "$WORK/up.err" || fail "$mode: up's error does not show fetcher0's log: $(cat "$WORK/up.err")"
  ! grep -q "local-cluster: up in" "$WORK/up.out" || fail "$mode: up said it was up"
  no_process_left "$WORK/bad-$mode"
  echo "ok: $mode up with a dying fetcher fails naming it: $(head -n 1 "$WORK/up.err")"
done

# A secure cluster: cluster.env alone lets crawlctl in, restart keeps TLS.
"$SRC/deploy/local-cluster.sh" up --dir "$WORK/cluster" --queueservers 1 --fetchers 1 --token "my-admin-token" > /dev/null
env_file="$WORK/cluster/cluster.env"
for v in NAMESERVER CRAWL_NAMESERVER CRAWL_TLS_CA CRAWL_TLS_CERT CRAWL_TLS_KEY CRAWL_TOKEN_FILE STATUS_PAGE \
         METRICS_URLS QUEUESERVERS FETCHERS CRAWL_BIN; do
  grep -q "^export $v=." "$env_file" || fail "cluster.env has no export $v: $(cat "$env_file")"
done
[ "$(cat "$WORK/cluster/tls/admin.token")" = my-admin-token ] || fail "--token not in admin.token"
grep -q "^admin $(printf my-admin-token | sha256sum | cut -d' ' -f1) admin$" "$WORK/cluster/tls/admin-tokens" || fail "--token not hashed"
# shellcheck disable=SC2016
env -i PATH="$PATH" bash -c '. "$1" &&
  [ "$(echo "$METRICS_URLS" | tr , "\n" | wc -l)" = 3 ] &&
  for u in $(echo "$METRICS_URLS" | tr , " "); do curl -fsS --noproxy "*" -o /dev/null "$u" || exit 1; done &&
  "$CRAWL_BIN/crawlctl" servers --json' _ "$env_file" > "$WORK/servers.json" 2> "$WORK/servers.err" ||
  fail "crawlctl or /metrics with only cluster.env: $(cat "$WORK/servers.err")"
grep -q '"qs0"' "$WORK/servers.json" || fail "crawlctl servers: $(cat "$WORK/servers.json")"
for n in nameserver queueserver0 fetcher0; do
  grep -q -- "--tls-cert .*--tls-key .*--tls-ca .*--tls-crl " "$WORK/cluster/$n.cmd" || fail "$n.cmd has no TLS flags"
done
echo "ok: secure up; . cluster.env is all crawlctl needs; /metrics answers at each METRICS_URLS"
kill "$(cat "$WORK/cluster/fetcher0.pid")" "$(cat "$WORK/cluster/queueserver0.pid")"
sleep 0.5
"$SRC/deploy/local-cluster.sh" restart --dir "$WORK/cluster" > "$WORK/restart.out"
grep -q "restarted 2 processes" "$WORK/restart.out" || fail "restart: $(cat "$WORK/restart.out")"
pgrep -f -- "--tls-cert $WORK/cluster/tls/fetcher-fetcher0.crt" > /dev/null || fail "restarted fetcher0 runs without its certificate"
# shellcheck disable=SC1090
(. "$env_file" && "$BIN/crawlctl" servers --json) | grep -q '"qs0"' || fail "crawlctl after restart"
echo "ok: restart brings processes back with their TLS flags"
