# Helpers for integration tests (sourced). Every test gets BIN and SRC as $1
# and $2, works in its own temporary directory and cleans up on any exit.
set -euo pipefail
BIN=$(cd "${1:?bin dir}" && pwd)
SRC=$(cd "${2:?source dir}" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/crawl-it.XXXXXX")
export CRAWL_BIN=$BIN
_bg_pids=()

fail() { echo "FAIL: $*" >&2; exit 1; }

# Time limits and leases stretch by CRAWL_TEST_TIME_SCALE (a whole number,
# default 1): deploy/test.sh sets it for the sanitizer builds, whose servers
# run several times slower. `scaled N` prints N times the scale.
TIME_SCALE=${CRAWL_TEST_TIME_SCALE:-1}
[[ "$TIME_SCALE" =~ ^[1-9][0-9]*$ ]] || fail "CRAWL_TEST_TIME_SCALE must be a positive whole number"
scaled() { echo $(($1 * TIME_SCALE)); }

# status_json FILE: `crawlctl status --json` into FILE, asked up to five
# times a second apart (one lost call on a loaded machine is not a failure).
status_json() {
  local attempt
  for attempt in 1 2 3 4; do
    "$BIN/crawlctl" status --json > "$1" 2>/dev/null && return 0
    sleep 1
  done
  "$BIN/crawlctl" status --json > "$1"
}

# status_field NAME: that field of `crawlctl status --json` (asked as
# status_json does), or -1 when every attempt failed: polling loops then ask
# again instead of failing on lost calls.
status_field() {
  if ! status_json "$WORK/.status-field.json" 2>/dev/null; then
    echo -1
    return 0
  fi
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$WORK/.status-field.json" "$1" 2>/dev/null ||
    echo -1
}

# rpc_probe ARGS...: what tests/integration/rpc_probe prints (a status code
# and message). A probe that itself fails (a crash, a sanitizer report at
# its exit) fails the test with its exit status, where set -e would end the
# test at the assignment without a word.
rpc_probe() {
  local out rc=0
  out=$("$BIN/rpc_probe" "$@") || rc=$?
  [ $rc -eq 0 ] || fail "rpc_probe $2 exited with status $rc (printed: $out)"
  echo "$out"
}

_cleanup() {
  local rc=$?
  if [ -f "$WORK/cluster/cluster.env" ]; then
    "$SRC/deploy/local-cluster.sh" down --dir "$WORK/cluster" >/dev/null 2>&1 || true
  fi
  for p in "${_bg_pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${_bg_pids[@]}"; do wait "$p" 2>/dev/null || true; done
  # A test may define test_cleanup (e.g. to unmount what it mounted).
  if declare -F test_cleanup > /dev/null; then test_cleanup || true; fi
  if [ $rc -ne 0 ]; then
    echo "--- logs of the failed run ($WORK) ---" >&2
    for f in "$WORK"/cluster/*.log "$WORK"/*.log; do
      [ -f "$f" ] || continue
      echo "== $f" >&2; tail -n 30 "$f" >&2
    done
  else
    rm -rf "$WORK"
  fi
  exit $rc
}
trap _cleanup EXIT

# start_testweb ARGS...: serves a universe; waits for its hosts file.
start_testweb() {
  "$BIN/testweb" serve "$@" --hosts-file "$WORK/hosts" --access-log "$WORK/access.log" \
    > "$WORK/testweb.log" 2>&1 &
  _bg_pids+=($!)
  local i
  for i in $(seq 1 300); do
    [ -s "$WORK/hosts" ] && return 0
    kill -0 "${_bg_pids[-1]}" 2>/dev/null || fail "testweb exited: $(cat "$WORK/testweb.log")"
    sleep 0.1
  done
  fail "testweb did not write its hosts file"
}

# start_cluster QUEUESERVERS FETCHERS [FETCHER_ARGS]: a local cluster crawling
# the testweb started before, its fetchers given FETCHER_ARGS too (one
# string, e.g. "--proxy http://127.0.0.1:3128"); exports CRAWL_NAMESERVER.
start_cluster() {
  "$SRC/deploy/local-cluster.sh" up --dir "$WORK/cluster" --queueservers "$1" --fetchers "$2" \
    --hosts-file "$WORK/hosts" --allow-private --fetcher-args "${3:-}"
  . "$WORK/cluster/cluster.env"
  export CRAWL_NAMESERVER=$NAMESERVER
}

# wait_crawl_over TIMEOUT_S: waits (crawlctl wait) until the crawl is not
# running and prints its state; a name server restarting meanwhile is asked
# again.
wait_crawl_over() {
  local limit=$(scaled "$1") out rc=0
  out=$("$BIN/crawlctl" wait --timeout "$limit" --interval-ms 250 --json 2>"$WORK/wait.err") || rc=$?
  if [ "$rc" -eq 2 ] || [ -z "$out" ]; then
    cat "$WORK/wait.err" >&2
    "$BIN/crawlctl" status >&2 || true
    fail "crawl still running after $limit s"
  fi
  python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])' <<< "$out"
}

# check_index_consistent WHAT: once a crawl is over, the frontier is empty and
# 40 sampled fetched pages are each found once in the index
# (check_index_consistent.py); reads $WORK/crawl.log and $WORK/hosts.
check_index_consistent() {
  status_json "$WORK/final-status.json"
  python3 "$SRC/tests/integration/check_index_consistent.py" "$WORK/crawl.log" "$WORK/hosts" \
    "$WORK/final-status.json" 40 "$1"
}

# serve_docroot ADDR DOCROOT SERVER_NAME PROBE_PATH [LOG_FORMAT] [SERVER_CONF]:
# nginx, one process in the foreground with everything under $WORK/nginx,
# serving DOCROOT on ADDR at a free port (set in $port) until the test ends;
# the access log is $WORK/nginx/access.log (in LOG_FORMAT, an nginx
# log_format body, when given and not empty). Every answer is labelled
# charset=utf-8, unless SERVER_CONF names a file of server directives to
# include instead (DOCROOT may then hold nginx variables, e.g. $host).
# Exits 77 (skip) when nginx is missing or cannot run here, fails when it
# exits before PROBE_PATH answers.
serve_docroot() {
  local addr=$1 docroot=$2 server_name=$3 probe=$4 log_format=${5:-} server_conf=${6:-} nginx format_line=""
  local log_name="" charset_line="charset utf-8;"
  nginx=$(command -v nginx || echo /usr/sbin/nginx)
  [ -x "$nginx" ] || { echo "SKIP: nginx is not installed (deploy/install-deps.sh installs it)"; exit 77; }
  port=$(python3 -c 'import socket, sys; s = socket.socket(); s.bind((sys.argv[1], 0)); print(s.getsockname()[1])' "$addr")
  if [ -n "$log_format" ]; then
    format_line="log_format served '$log_format';"
    log_name=" served"
  fi
  [ -z "$server_conf" ] || charset_line="include $server_conf;"
  mkdir -p "$WORK/nginx/tmp"
  cat > "$WORK/nginx/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 256; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  $format_line
  access_log $WORK/nginx/access.log$log_name;
  client_body_temp_path $WORK/nginx/tmp/body;
  proxy_temp_path $WORK/nginx/tmp/proxy;
  fastcgi_temp_path $WORK/nginx/tmp/fastcgi;
  uwsgi_temp_path $WORK/nginx/tmp/uwsgi;
  scgi_temp_path $WORK/nginx/tmp/scgi;
  server {
    listen $addr:$port;
    server_name $server_name;
    root $docroot;
    $charset_line
    disable_symlinks off;
  }
}
CONF
  if ! "$nginx" -t -q -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" > "$WORK/nginx-check.log" 2>&1; then
    echo "SKIP: nginx cannot run here: $(tr '\n' ' ' < "$WORK/nginx-check.log")"
    exit 77
  fi
  "$nginx" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" > "$WORK/nginx.log" 2>&1 &
  _bg_pids+=($!)
  local i
  for i in $(seq 1 100); do
    curl -sf -o /dev/null -A probe "http://$addr:$port/$probe" && return 0
    kill -0 "${_bg_pids[-1]}" 2>/dev/null ||
      fail "nginx exited: $(cat "$WORK/nginx.log" "$WORK/nginx/error.log" 2>/dev/null | tr '\n' ' ')"
    sleep 0.1
  done
  fail "nginx did not answer http://$addr:$port/$probe"
}
