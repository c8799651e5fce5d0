#!/usr/bin/env bash
# The cluster's certificate authority, certificates and admin tokens, made
# with the openssl command-line tool (Debian package openssl). Every process
# gets a certificate whose URI SAN crawl://role/ROLE/ID names its role
# (nameserver, queueserver, fetcher, admin, reader); all of them are signed
# by one cluster CA and carry serverAuth and clientAuth (every process is a
# client and a server). Keys are EC P-256, mode 600. Every file is written to
# a temporary name in DIR and renamed, so a process watching it never reads
# half a file.
#
#   certs.sh ca --dir D         the CA (D/ca.key, D/ca.crt) unless it exists
#   certs.sh issue --dir D --role ROLE --id ID [--days N] [--out NAME] [--expired]
#       D/NAME.crt and D/NAME.key (NAME defaults to ROLE-ID), valid N days
#       (825); replaces an existing pair (rotation: the old certificate stays
#       valid until it expires or is revoked by --serial). --expired issues
#       one valid only on 2020-01-01 (for tests).
#   certs.sh revoke --dir D (--name NAME | --serial HEX)
#       revokes D/NAME.crt (or any certificate the CA issued, D/newcerts/)
#       and regenerates D/crl.pem
#   certs.sh crl --dir D [--days N]
#       regenerates D/crl.pem, valid N days (30): renew it before then
#       (a process keeps enforcing an expired CRL and warns in its log)
#   certs.sh token --dir D --role admin|reader --name NAME [--value T|-]
#       a random token (or T; "-" reads it from stdin) in D/NAME.token
#       (mode 600), its SHA-256 in D/admin-tokens as "ROLE SHA256HEX NAME"
#       (the name server's --admin-tokens file) replacing NAME's old line
#   certs.sh cluster --dir D [--queueservers N] [--fetchers M]
#       everything a cluster needs, keeping whatever already exists: the CA,
#       nameserver-ns, queueserver-qs0..qs(N-1), fetcher-fetcher0..(M-1),
#       admin-crawlctl (the admin client certificate for crawlctl),
#       reader-reader, tokens admin.token and reader.token, admin-tokens and
#       an empty crl.pem. N and M default to 2. A certificate that is
#       revoked, expires within a day or was not signed by D's CA is issued
#       again; so is a missing token; crl.pem is made again when it expires
#       within 10 days (so running cluster now and then, or crl, from cron,
#       keeps a long-lived cluster's CRL valid).
#   certs.sh list --dir D       every certificate the CA issued, with state
#
# Exit status: 0 done, 1 failed, 2 bad arguments (a "certs: ..." line on
# stderr either way).
set -euo pipefail

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit "${1:-2}"; }
die() { echo "certs: $*" >&2; exit 1; }
bad() { echo "certs: $*" >&2; echo "certs: see certs.sh --help" >&2; exit 2; }

command -v openssl > /dev/null || die "openssl not found (Debian package openssl)"

cmd=${1:-}
case "$cmd" in
  -h|--help|help) usage 0 ;;
  "") bad "no subcommand (ca, issue, revoke, crl, token, cluster, list)" ;;
esac
shift

dir="" role="" id="" days="" out="" expired=0 name="" serial="" value="" value_set=0
queueservers=2 fetchers=2
given=" "  # the options given, to refuse those the subcommand does not take
need() { if [ $# -lt 2 ] || [ -z "$2" ]; then bad "$1 needs a value"; fi; given="$given$1 "; }
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) need "$@"; dir=$2; shift 2 ;;
    --role) need "$@"; role=$2; shift 2 ;;
    --id) need "$@"; id=$2; shift 2 ;;
    --days) need "$@"; days=$2; shift 2 ;;
    --out) need "$@"; out=$2; shift 2 ;;
    --expired) expired=1; given="$given$1 "; shift ;;
    --name) need "$@"; name=$2; shift 2 ;;
    --serial) need "$@"; serial=$2; shift 2 ;;
    --value) need "$@"; value=$2; value_set=1; shift 2 ;;
    --queueservers) need "$@"; queueservers=$2; shift 2 ;;
    --fetchers) need "$@"; fetchers=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    *) bad "unknown option $1 for $cmd" ;;
  esac
done

allowed() {  # allowed OPTION...: fails on a given option not among them
  local o
  for o in $given; do
    [ "$o" = --dir ] || [[ " $* " == *" $o "* ]] || bad "$cmd does not take $o"
  done
}

[ -n "$dir" ] || bad "--dir is required"
safe_name='^[A-Za-z0-9][A-Za-z0-9._-]*$'
valid_role() {
  case "$1" in nameserver|queueserver|fetcher|admin|reader) return 0 ;; esac
  bad "unknown role '$1' (one of nameserver, queueserver, fetcher, admin, reader)"
}
positive() { [[ "$2" =~ ^[1-9][0-9]*$ ]] || bad "$1 must be a positive number, not '$2'"; }

case "$cmd" in
  ca|list) allowed ;;
  issue) allowed --role --id --days --out --expired ;;
  revoke) allowed --name --serial ;;
  crl) allowed --days ;;
  token) allowed --role --name --value ;;
  cluster) allowed --queueservers --fetchers ;;
  *) bad "unknown subcommand '$cmd' (ca, issue, revoke, crl, token, cluster, list)" ;;
esac

case "$cmd" in
  issue|revoke|crl|list)
    if [ ! -s "$dir/ca.key" ] || [ ! -s "$dir/ca.crt" ]; then
      die "no CA in $dir: run certs.sh ca --dir $dir first"
    fi ;;
esac
mkdir -p "$dir" || die "cannot create $dir"
dir=$(cd "$dir" && pwd)
[ -w "$dir" ] || die "$dir is not writable"
# Config values and the .cmd files of local-cluster.sh split on spaces.
[[ "$dir" != *[[:space:]]* ]] || die "the directory must not contain white space: '$dir'"

# One certs.sh at a time per directory (the CA's index and serial are shared).
exec 9> "$dir/.certs.lock"
flock 9 || die "cannot lock $dir/.certs.lock"

tmpfiles=()
cleanup() { local f; for f in "${tmpfiles[@]}"; do rm -f "$f"; done; }
trap cleanup EXIT
tmp() {  # tmp VAR NAME: VAR= a new temporary file in DIR (same file system: mv is atomic)
  local _tmp_file; _tmp_file=$(mktemp "$dir/.$2.XXXXXX") || die "cannot write in $dir"
  tmpfiles+=("$_tmp_file"); printf -v "$1" '%s' "$_tmp_file"
}
ossl() {  # ossl ARGS...: openssl, its output shown only when it fails
  local log; tmp log openssl-log
  if ! openssl "$@" > "$log" 2>&1; then
    echo "certs: openssl $1 failed:" >&2
    sed 's/^/  /' "$log" >&2
    exit 1
  fi
}
newkey() {  # newkey FILE: an EC P-256 private key, mode 600
  local mask; mask=$(umask); umask 077
  ossl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"
  umask "$mask"; chmod 600 "$1"
}

conf="$dir/openssl.cnf"
# The leaf certificates' SAN, set per certificate (the configuration needs a
# value whenever it is read).
export CERTS_SAN="DNS:localhost"
write_conf() {  # the minimal `openssl ca` configuration: index, serial, extensions
  local t; tmp t openssl.cnf
  cat > "$t" <<EOF
# Written by deploy/certs.sh: the cluster CA's database for \`openssl ca\`.
[ ca ]
default_ca = cluster_ca

[ cluster_ca ]
dir = $dir
database = \$dir/index.txt
serial = \$dir/serial
crlnumber = \$dir/crlnumber
new_certs_dir = \$dir/newcerts
certificate = \$dir/ca.crt
private_key = \$dir/ca.key
default_md = sha256
default_days = 825
default_crl_days = 30
policy = policy_any
unique_subject = no
copy_extensions = none
preserve = no

[ policy_any ]
organizationName = optional
commonName = supplied

[ req ]
distinguished_name = req_dn
prompt = no
[ req_dn ]
CN = unused

[ ca_ext ]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash

[ leaf_ext ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyAgreement
extendedKeyUsage = serverAuth, clientAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid, issuer
subjectAltName = \${ENV::CERTS_SAN}

[ crl_ext ]
authorityKeyIdentifier = keyid:always
EOF
  mv -f "$t" "$conf"
}

ca_exists() {
  if [ -s "$dir/ca.key" ] && [ -s "$dir/ca.crt" ]; then return 0; fi
  [ ! -e "$dir/ca.key" ] && [ ! -e "$dir/ca.crt" ] && return 1
  die "half a CA in $dir (ca.key or ca.crt missing): restore it or start a new directory"
}
need_ca() { ca_exists || die "no CA in $dir: run certs.sh ca --dir $dir first"; }

init_db() {  # the configuration (rewritten: DIR may have moved) and the CA's database
  write_conf
  mkdir -p "$dir/newcerts"
  [ -f "$dir/index.txt" ] || : > "$dir/index.txt"
  # A random first serial: certificates of two CAs made here never share one.
  [ -s "$dir/serial" ] || openssl rand -hex 8 | sed 's/^[89a-f]/1/' > "$dir/serial"
  [ -s "$dir/crlnumber" ] || echo 1000 > "$dir/crlnumber"
}

do_ca() {
  if ca_exists; then return 0; fi
  local k c
  tmp k ca.key; tmp c ca.crt
  newkey "$k"
  # A subject of its own per CA, so "signed by another cluster's CA" is an
  # unknown issuer, not a bad signature.
  ossl req -config "$conf" -new -x509 -key "$k" -out "$c" -days 3650 -sha256 \
    -subj "/O=crawl cluster/CN=crawl cluster CA $(hostname -s 2>/dev/null || echo host) $(date -u +%Y%m%dT%H%M%SZ) $(openssl rand -hex 4)" \
    -extensions ca_ext
  chmod 644 "$c"
  mv -f "$k" "$dir/ca.key"
  mv -f "$c" "$dir/ca.crt"
  echo "certs: CA created: $dir/ca.crt"
}

do_crl() {
  [ -z "$days" ] || positive --days "$days"
  need_ca
  local t; tmp t crl.pem
  ossl ca -config "$conf" -gencrl -crldays "${days:-30}" -crlexts crl_ext -out "$t"
  chmod 644 "$t"
  mv -f "$t" "$dir/crl.pem"
}

do_issue() {  # uses role, id, days, out, expired
  [ -n "$role" ] || bad "issue needs --role"
  [ -n "$id" ] || bad "issue needs --id"
  valid_role "$role"
  [[ "$id" =~ $safe_name ]] || bad "--id '$id': letters, digits, '.', '_' and '-' only"
  local base=${out:-$role-$id}
  [[ "$base" =~ $safe_name ]] || bad "--out '$base': letters, digits, '.', '_' and '-' only"
  [ -z "$days" ] || positive --days "$days"
  need_ca
  local k r c validity=()
  tmp k "$base.key"; tmp r "$base.csr"; tmp c "$base.crt"
  newkey "$k"
  ossl req -config "$conf" -new -key "$k" -out "$r" -subj "/O=crawl cluster/CN=$role $id"
  if [ "$expired" = 1 ]; then
    validity=(-startdate 20200101000000Z -enddate 20200102000000Z)
  else
    validity=(-days "${days:-825}")
  fi
  CERTS_SAN="URI:crawl://role/$role/$id, DNS:localhost, IP:127.0.0.1" \
    ossl ca -config "$conf" -batch -notext -extensions leaf_ext -in "$r" -out "$c" "${validity[@]}"
  chmod 644 "$c"
  # The key first: a process re-reading on a change of the certificate then
  # finds the matching key already there.
  mv -f "$k" "$dir/$base.key"
  mv -f "$c" "$dir/$base.crt"
  echo "certs: issued $dir/$base.crt (crawl://role/$role/$id, serial $(openssl x509 -in "$dir/$base.crt" -noout -serial | cut -d= -f2))"
}

do_revoke() {
  if [ -n "$name" ] && [ -n "$serial" ]; then bad "revoke takes --name or --serial, not both"; fi
  need_ca
  local cert
  if [ -n "$name" ]; then
    [[ "$name" =~ $safe_name ]] || bad "--name '$name': letters, digits, '.', '_' and '-' only"
    cert="$dir/$name.crt"
    [ -f "$cert" ] || die "no certificate $cert"
  elif [ -n "$serial" ]; then
    [[ "$serial" =~ ^[0-9A-Fa-f]+$ ]] || bad "--serial '$serial' is not hexadecimal"
    serial=$(echo "$serial" | tr 'a-f' 'A-F')
    cert="$dir/newcerts/$serial.pem"
    [ -f "$cert" ] || die "the CA issued no certificate with serial $serial (no $cert)"
  else
    bad "revoke needs --name NAME or --serial HEX"
  fi
  local s; s=$(openssl x509 -in "$cert" -noout -serial | cut -d= -f2)
  if revoked "$cert"; then
    echo "certs: serial $s was already revoked"
  else
    ossl ca -config "$conf" -revoke "$cert"
    echo "certs: revoked serial $s ($cert)"
  fi
  do_crl
}

sha256hex() { printf '%s' "$1" | openssl dgst -sha256 -r | cut -d' ' -f1; }

do_token() {
  [ -n "$role" ] || bad "token needs --role admin|reader"
  case "$role" in admin|reader) ;; *) bad "token --role must be admin or reader, not '$role'" ;; esac
  [ -n "$name" ] || bad "token needs --name"
  [[ "$name" =~ $safe_name ]] || bad "--name '$name': letters, digits, '.', '_' and '-' only"
  local token
  if [ "$value_set" = 0 ]; then
    token=$(openssl rand -hex 32)
  elif [ "$value" = - ]; then
    token=$(cat)
  else
    token=$value
  fi
  # As crawlctl reads a token file: trailing white space is not part of it.
  token=${token%"${token##*[![:space:]]}"}
  [ -n "$token" ] || bad "empty token"
  [[ "$token" != *[[:space:]]* ]] || bad "a token must not contain white space"
  local tf af
  tmp tf "$name.token"
  printf '%s\n' "$token" > "$tf"
  chmod 600 "$tf"
  tmp af admin-tokens
  if [ -f "$dir/admin-tokens" ]; then
    # Every line but NAME's old one.
    awk -v n="$name" '/^[[:space:]]*(#|$)/ { print; next } $3 != n { print }' "$dir/admin-tokens" > "$af"
  else
    printf '# role sha256hex name: the name server'"'"'s --admin-tokens (deploy/certs.sh token)\n' > "$af"
  fi
  printf '%s %s %s\n' "$role" "$(sha256hex "$token")" "$name" >> "$af"
  chmod 600 "$af"
  mv -f "$tf" "$dir/$name.token"
  mv -f "$af" "$dir/admin-tokens"
  echo "certs: $role token $dir/$name.token (hash in $dir/admin-tokens)"
}

revoked() {  # revoked CERT: the CA's index has its serial as revoked
  local s; s=$(openssl x509 -in "$1" -noout -serial 2>/dev/null | cut -d= -f2)
  awk -F'\t' -v s="$s" '$1 == "R" && $4 == s { found = 1 } END { exit !found }' "$dir/index.txt"
}

usable() {  # usable NAME: NAME.crt and .key exist, chain to the CA, are not revoked and valid a day more
  [ -s "$dir/$1.crt" ] && [ -s "$dir/$1.key" ] || return 1
  openssl verify -CAfile "$dir/ca.crt" "$dir/$1.crt" > /dev/null 2>&1 || return 1
  openssl x509 -in "$dir/$1.crt" -noout -checkend 86400 > /dev/null 2>&1 || return 1
  ! revoked "$dir/$1.crt"
}

do_cluster() {
  positive --queueservers "$queueservers"
  [[ "$fetchers" =~ ^[0-9]+$ ]] || bad "--fetchers must be a number, not '$fetchers'"
  do_ca
  local pairs=(nameserver:ns admin:crawlctl reader:reader) p i
  for i in $(seq 0 $((queueservers - 1))); do pairs+=("queueserver:qs$i"); done
  for i in $(seq 0 $((fetchers - 1))); do pairs+=("fetcher:fetcher$i"); done
  for p in "${pairs[@]}"; do
    role=${p%%:*} id=${p#*:} out="" days="" expired=0
    usable "$role-$id" && continue
    do_issue
  done
  for p in admin:admin reader:reader; do
    role=${p%%:*} name=${p#*:} value_set=0
    if [ -s "$dir/$name.token" ] && [ -f "$dir/admin-tokens" ] &&
       awk -v n="$name" '!/^[[:space:]]*#/ && $3 == n { f = 1 } END { exit !f }' "$dir/admin-tokens"; then
      continue
    fi
    do_token
  done
  # A CRL that is missing, not the CA's or running out is made again (a
  # process keeps enforcing an expired CRL, but warns in its log).
  if ! crl_fresh; then days="" && do_crl; fi
}

crl_fresh() {  # crl.pem is signed by the CA and valid 10 days more
  [ -s "$dir/crl.pem" ] || return 1
  openssl crl -in "$dir/crl.pem" -CAfile "$dir/ca.crt" -noout 2>&1 | grep -q "verify OK" || return 1
  local next; next=$(openssl crl -in "$dir/crl.pem" -noout -nextupdate 2>/dev/null | cut -d= -f2)
  next=$(date -u -d "$next" +%s 2>/dev/null) || return 1
  [ "$next" -gt $(($(date -u +%s) + 10 * 86400)) ]
}

do_list() {
  need_ca
  # index.txt: state, expiry, revocation, serial, file, subject
  awk -F'\t' -v now="$(date -u +%y%m%d%H%M%S)Z" '
    { st = ($1 == "R" ? "revoked" : $2 < now ? "expired" : "valid");
                printf "%-8s serial %s  until %s  %s\n", st, $4, $2, $6 }' "$dir/index.txt"
}

init_db
case "$cmd" in
  ca) do_ca ;;
  issue) do_issue ;;
  revoke) do_revoke ;;
  crl) do_crl ;;
  token) do_token ;;
  cluster) do_cluster ;;
  list) do_list ;;
esac
