#!/usr/bin/env bash
# The demo: installs what is missing, builds, starts a synthetic web and a
# local cluster (1 name server, 2 queue servers, 2 fetchers, each its own
# process on loopback), crawls it with live progress and ends with a summary.
# Ctrl-C stops every process it started.
#
# The cluster is secure (deploy/local-cluster.sh's default): mutual TLS
# between every process with certificates from a CA made for it, crawlctl
# with the admin client certificate and admin token; the demo prints where
# they are. `. DIR/cluster/cluster.env` in another shell lets crawlctl in
# while the demo runs.
#
# Knobs (environment): DEMO_HOSTS (default 200), DEMO_PAGES (default 50000),
# DEMO_SEED (default 7), DEMO_DIR (default a new directory under /tmp),
# DEMO_INSECURE=1 (plain text: no TLS, no roles).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
hosts=${DEMO_HOSTS:-200}
pages=${DEMO_PAGES:-50000}
seed=${DEMO_SEED:-7}

# Only what the demo runs: the build tools and libraries and the runtime
# tools (the tests' and deployment checks' packages are deploy/test.sh's),
# and the five binaries, not the tests and benchmarks.
./deploy/install-deps.sh --build --runtime --demo
./deploy/build.sh nameserver queueserver fetcher crawlctl testweb
bin="$root/build/bin"

dir=${DEMO_DIR:-$(mktemp -d /tmp/crawl-demo.XXXXXX)}
mkdir -p "$dir"
testweb_pid=""
cleanup() {
  trap - INT TERM EXIT
  echo
  ./deploy/local-cluster.sh down --dir "$dir/cluster" >/dev/null 2>&1 || true
  if [ -n "$testweb_pid" ]; then kill "$testweb_pid" 2>/dev/null || true; wait "$testweb_pid" 2>/dev/null || true; fi
  echo "demo: stopped; logs and data are in $dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

web=(--seed "$seed" --hosts "$hosts" --pages "$pages")
echo "demo: synthetic web of $pages pages on $hosts hosts (seed $seed)"
"$bin/testweb" serve "${web[@]}" --hosts-file "$dir/hosts" --access-log "$dir/access.log" \
  > "$dir/testweb.log" 2>&1 &
testweb_pid=$!
for _ in $(seq 1 300); do
  [ -s "$dir/hosts" ] && break
  kill -0 "$testweb_pid" 2>/dev/null || { cat "$dir/testweb.log" >&2; exit 1; }
  sleep 0.1
done
[ -s "$dir/hosts" ] || { echo "demo: testweb did not start" >&2; exit 1; }

secure=(); [ "${DEMO_INSECURE:-0}" = 0 ] || secure=(--insecure)
./deploy/local-cluster.sh up --dir "$dir/cluster" --queueservers 2 --fetchers 2 \
  --hosts-file "$dir/hosts" --allow-private "${secure[@]}"
# Everything crawlctl needs (name server, CA, admin certificate and token).
# shellcheck disable=SC1091
. "$dir/cluster/cluster.env"
if [ -n "${CRAWL_TLS_CA:-}" ]; then
  echo "demo: secure cluster (mutual TLS); CA certificate $CRAWL_TLS_CA"
  echo "demo: admin token in $CRAWL_TOKEN_FILE, admin client certificate $CRAWL_TLS_CERT"
else
  echo "demo: INSECURE cluster (DEMO_INSECURE=1): no TLS, no tokens"
fi
echo "demo: status page $STATUS_PAGE; for crawlctl in another shell: . $dir/cluster/cluster.env"

"$bin/testweb" seeds "${web[@]}" > "$dir/seeds.txt"
"$bin/crawlctl" start --seeds "$dir/seeds.txt" --allow-private
"$bin/crawlctl" status --follow

echo
echo "== summary =="
"$bin/testweb" export "${web[@]}" --out "$dir/reachable.tsv"
"$bin/crawlctl" log > "$dir/crawl.log"
python3 - "$dir/crawl.log" "$dir/reachable.tsv" <<'PY'
import collections, sys
log = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
pages = [f for f in log if not f[3].endswith("/robots.txt")]
reachable = {l.split("\t")[0].rstrip("\n") for l in open(sys.argv[2]) if l.strip()}
fetched = collections.Counter(f[3] for f in pages)
statuses = collections.Counter(f[1] for f in pages)
print(f"pages fetched:        {len(pages)} ({len(fetched)} distinct URLs)")
print(f"robots.txt fetched:   {len(log) - len(pages)}")
print(f"reachable pages:      {len(reachable)} (testweb export)")
print(f"reachable & fetched:  {len(reachable & set(fetched))}")
print(f"statuses:             " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())))
if pages:
    t0, t1 = log[0][0], log[-1][0]
    print(f"first fetch:          {t0}\nlast fetch:           {t1}")
PY
echo "crawl log: $dir/crawl.log   (crawlctl log)"
