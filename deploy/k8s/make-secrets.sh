#!/usr/bin/env bash
# The Secrets deploy/k8s/crawl.yaml mounts, as YAML on stdout, from a
# deploy/certs.sh directory (made or completed here: existing certificates
# and tokens are kept).
#
#   deploy/k8s/make-secrets.sh DIR > secrets.yaml && kubectl apply -f secrets.yaml
#
# One certificate per role (host names are not checked, the role in the URI
# SAN is), so every pod of a StatefulSet or Deployment mounts the same one:
#   crawl-nameserver-tls    tls.crt tls.key ca.crt crl.pem   (role nameserver)
#   crawl-queueserver-tls   ...                              (role queueserver)
#   crawl-fetcher-tls       ...                              (role fetcher)
#   crawl-admin-tokens      admin-tokens (hashes only: the name server's --admin-tokens)
#   crawl-admin-client      tls.crt tls.key ca.crt token     (crawlctl, role admin)
# Rotation: run certs.sh issue/revoke in DIR, this script again, and apply:
# the kubelet updates mounted Secrets in place and the processes re-read
# changed files without a restart.
set -euo pipefail
dir=${1:?usage: make-secrets.sh CERT_DIR}
certs="$(cd "$(dirname "$0")/.." && pwd)/certs.sh"
"$certs" cluster --dir "$dir" --queueservers 1 --fetchers 0 >&2
for role in queueserver fetcher; do
  [ -s "$dir/$role-k8s.crt" ] || "$certs" issue --dir "$dir" --role "$role" --id k8s >&2
done

b64() { base64 -w0 < "$1"; }
secret() {  # secret NAME KEY=FILE...
  local name=$1; shift
  printf -- '---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: %s\n  namespace: crawl\ntype: Opaque\ndata:\n' "$name"
  local kv
  for kv in "$@"; do printf '  %s: %s\n' "${kv%%=*}" "$(b64 "${kv#*=}")"; done
}
tls() { echo "tls.crt=$dir/$1.crt" "tls.key=$dir/$1.key" "ca.crt=$dir/ca.crt" "crl.pem=$dir/crl.pem"; }
echo "# Made by deploy/k8s/make-secrets.sh from $dir: private keys inside, keep it out of git."
# shellcheck disable=SC2046
secret crawl-nameserver-tls $(tls nameserver-ns)
# shellcheck disable=SC2046
secret crawl-queueserver-tls $(tls queueserver-k8s)
# shellcheck disable=SC2046
secret crawl-fetcher-tls $(tls fetcher-k8s)
secret crawl-admin-tokens "admin-tokens=$dir/admin-tokens"
secret crawl-admin-client "tls.crt=$dir/admin-crawlctl.crt" "tls.key=$dir/admin-crawlctl.key" \
  "ca.crt=$dir/ca.crt" "token=$dir/admin.token"
