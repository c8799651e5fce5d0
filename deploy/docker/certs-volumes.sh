#!/bin/sh
# The compose file's one-shot `certs` service (runs as root): makes or
# completes the cluster's CA, certificates and tokens in /ca (deploy/certs.sh
# cluster; existing files are kept) and copies to each directory /tls/NAME
# that is mounted (one volume per process) only what that process needs:
# ca.crt, crl.pem and its own NAME.crt/NAME.key; the name server's also
# gets admin-tokens (hashes), crawlctl's (admin-crawlctl) admin.token. The
# CA's key never leaves /ca. Files are replaced by rename, so running it
# again after a rotation updates the running processes' files in place.
#   certs-volumes.sh QUEUESERVERS FETCHERS
set -eu
certs.sh cluster --dir /ca --queueservers "${1:-2}" --fetchers "${2:-2}"
put() {  # put SRC DIR MODE: atomic copy, owned by the crawl user
  cp "/ca/$1" "$2/.$1.tmp"
  chown crawl:crawl "$2/.$1.tmp"
  chmod "$3" "$2/.$1.tmp"
  mv -f "$2/.$1.tmp" "$2/$1"
}
for dir in /tls/*/; do
  [ -d "$dir" ] || continue
  name=$(basename "$dir")
  [ -f "/ca/$name.crt" ] || { echo "certs-volumes: no certificate $name in /ca" >&2; exit 1; }
  put ca.crt "$dir" 644
  put crl.pem "$dir" 644
  put "$name.key" "$dir" 600
  put "$name.crt" "$dir" 644
  case "$name" in
    nameserver-*) put admin-tokens "$dir" 600 ;;
    admin-*) put admin.token "$dir" 600 ;;
  esac
  echo "certs-volumes: $dir: ca.crt crl.pem $name.crt $name.key"
done
