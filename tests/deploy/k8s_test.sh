#!/usr/bin/env bash
# The Kubernetes manifests against the Kubernetes OpenAPI schema: every
# object of deploy/k8s/crawl.yaml and of the Secrets make-secrets.sh makes,
# through the JSON-schema validators kubernetes-models generates from the
# schema (tests/deploy/k8s-schema/: versions pinned by package-lock.json,
# installed with `npm ci` from the npm registry into a cache outside the
# checkout, $CRAWL_NPM_CACHE_DIR, default ~/.cache/crawl-k8s-schema). The
# schema allows unknown fields, so strict.js also compiles every object as a
# TypeScript literal of its kubernetes-types type: a misspelt field anywhere
# fails. Then the checks no schema makes (tests/deploy/check_k8s.py).
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/crawl-k8s.XXXXXX")
trap 'rm -rf "$work"' EXIT
command -v node > /dev/null && command -v npm > /dev/null ||
  { echo "FAIL: node and npm needed (deploy/install-deps.sh --deploy)" >&2; exit 1; }
cache=${CRAWL_NPM_CACHE_DIR:-$HOME/.cache/crawl-k8s-schema}
mkdir -p "$cache"
if ! cmp -s "$src/tests/deploy/k8s-schema/package-lock.json" "$cache/package-lock.json" || [ ! -d "$cache/node_modules" ]; then
  cp "$src/tests/deploy/k8s-schema/package.json" "$src/tests/deploy/k8s-schema/package-lock.json" "$cache/"
  (cd "$cache" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error) ||
    { echo "FAIL: npm ci of tests/deploy/k8s-schema" >&2; rm -f "$cache/package-lock.json"; exit 1; }
fi
cp "$src/tests/deploy/k8s-schema/validate.js" "$src/tests/deploy/k8s-schema/strict.js" "$cache/"
"$src/deploy/k8s/make-secrets.sh" "$work/certs" > "$work/secrets.yaml" 2> "$work/make-secrets.log" ||
  { cat "$work/make-secrets.log" >&2; exit 1; }
node "$cache/validate.js" "$src/deploy/k8s/crawl.yaml" "$work/secrets.yaml"
node "$cache/strict.js" "$src/deploy/k8s/crawl.yaml" "$work/secrets.yaml"
python3 "$src/tests/deploy/check_k8s.py" "$src/deploy/k8s/crawl.yaml" "$work/secrets.yaml"
