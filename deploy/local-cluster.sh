#!/usr/bin/env bash
# Starts, stops and restarts a local cluster: 1 name server, N queue servers
# and M fetchers, each its own process on 127.0.0.1, data and logs under DIR.
#
#   local-cluster.sh up --dir DIR [--queueservers N] [--fetchers M]
#                       [--hosts-file F] [--allow-private] [--bin BIN_DIR]
#                       [--fetcher-args "ARGS"]   # extra fetcher flags, e.g. "--schedules 1"
#                       [--queueserver-args "ARGS"]  # extra queue server flags, e.g. "--memory-budget-mb 512"
#                       [--insecure] [--token T] [--timeout S]
#   local-cluster.sh down --dir DIR
#   local-cluster.sh restart --dir DIR [--timeout S]  # starts again whatever is not running
#
# Secure by default: the first `up` in DIR makes a cluster CA, a certificate
# per process (its role in a crawl://role/ROLE/ID SAN), an admin client
# certificate, admin and reader tokens and a CRL in DIR/tls (deploy/certs.sh
# cluster; later runs keep them and renew the CRL, valid 30 days), and
# every process runs with mutual TLS
# (--tls-cert/--tls-key/--tls-ca/--tls-crl), the name server with
# --admin-tokens DIR/tls/admin-tokens. --token T makes T the admin token
# (DIR/tls/admin.token) instead of a random one. --insecure starts the
# processes without TLS, as before.
#
# `up` and `restart` return once every process answers /healthz on its HTTP
# port (and, for `up`, every queue server has registered), each within S
# seconds (default 30 times CRAWL_TEST_TIME_SCALE); otherwise they fail
# naming the process and the last lines of its log, and a failed `up` stops
# what it started.
# DIR/cluster.env then holds `export VAR=value` lines, so `. DIR/cluster.env`
# is all crawlctl needs: NAMESERVER and CRAWL_NAMESERVER (host:port),
# CRAWL_TLS_CA, CRAWL_TLS_CERT, CRAWL_TLS_KEY (the admin client certificate),
# CRAWL_TOKEN_FILE (the admin token), STATUS_PAGE, METRICS_URLS (one
# /metrics URL per process, comma-separated), QUEUESERVERS, FETCHERS and
# CRAWL_BIN; insecure, it unsets the TLS and token variables instead. Each
# process's pid is in DIR/NAME.pid and the exact command that started it
# (TLS flags included) in DIR/NAME.cmd. The name server and queue servers
# listen for gRPC on ports below the kernel's ephemeral range, kept across
# restarts so a restarted process is reachable where it was; HTTP ports are
# picked afresh by each start and `restart` rewrites cluster.env.
# For tests and benchmarks: CRAWL_CLUSTER_CGROUPS, CRAWL_CLUSTER_CLOCK_SKEW
# (launch) and CRAWL_CLUSTER_QS_DELAY_MS (launch_qs_proxy).
set -euo pipefail

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit "${1:-2}"; }
die() { echo "local-cluster: $*" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
cmd=${1:-}; [ -n "$cmd" ] || usage; shift
case "$cmd" in -h|--help|help) usage 0 ;; up|down|restart) ;; *) die "unknown command '$cmd' (up, down, restart; --help)" ;; esac
dir="" queueservers=2 fetchers=2 hosts_file="" allow_private=0 fetcher_args="" queueserver_args="" insecure=0 token="" timeout=""
bin="${CRAWL_BIN:-$(cd "$(dirname "$0")/.." && pwd)/build/bin}"
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=${2:?--dir needs a value}; shift 2 ;;
    --queueservers) queueservers=${2:?}; shift 2 ;;
    --fetchers) fetchers=${2:?}; shift 2 ;;
    --hosts-file) hosts_file=${2:?}; shift 2 ;;
    --allow-private) allow_private=1; shift ;;
    --bin) bin=${2:?}; shift 2 ;;
    --fetcher-args) fetcher_args=${2?}; shift 2 ;;
    --queueserver-args) queueserver_args=${2?}; shift 2 ;;
    --insecure) insecure=1; shift ;;
    --token) token=${2:?--token needs a value}; shift 2 ;;
    --timeout) timeout=${2:?--timeout needs a value}; shift 2 ;;
    -h|--help) usage 0 ;;
    *) die "unknown option $1" ;;
  esac
done
[ -n "$dir" ] || die "--dir is required"
[[ "$queueservers" =~ ^[1-9][0-9]*$ ]] || die "--queueservers must be a positive number"
[[ "$fetchers" =~ ^[0-9]+$ ]] || die "--fetchers must be a number"
[ "$insecure" = 0 ] || [ -z "$token" ] || die "--token needs TLS: not with --insecure"
scale=${CRAWL_TEST_TIME_SCALE:-1}
[[ "$scale" =~ ^[1-9][0-9]*$ ]] || die "CRAWL_TEST_TIME_SCALE must be a positive whole number"
timeout=${timeout:-$((30 * scale))}
[[ "$timeout" =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a positive number of seconds"
# The .cmd files are split on white space.
[[ "$dir" != *[[:space:]]* ]] || die "the directory must not contain white space: '$dir'"

alive() {  # alive NAME: its recorded pid runs the binary it was started as
  local pidfile="$dir/$1.pid"
  [ -f "$pidfile" ] || return 1
  local pid; pid=$(cat "$pidfile")
  kill -0 "$pid" 2>/dev/null || return 1
  local want; want=$(awk '{print $1}' "$dir/$1.cmd" | xargs basename)
  tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -q "$want"
}

launch() {  # launch NAME: runs DIR/NAME.cmd in the background
  local name=$1
  # The fault harness skews one process's wall clock through this file
  # (common/base/clock_skew.h); nothing reads it otherwise.
  if [ -n "${CRAWL_CLUSTER_CLOCK_SKEW:-}" ]; then
    export CRAWL_TEST_CLOCK_SKEW_FILE="$dir/$name.clock-skew-ms"
  fi
  if [ -n "${CRAWL_CLUSTER_CGROUPS:-}" ]; then
    # The fault harness (tests/faults): each process starts in the cgroup
    # v2 CRAWL_CLUSTER_CGROUPS/NAME, so every socket it opens carries it
    # and iptables can cut that process's links alone.
    mkdir -p "$CRAWL_CLUSTER_CGROUPS/$name"
    # shellcheck disable=SC2046
    (echo "$BASHPID" > "$CRAWL_CLUSTER_CGROUPS/$name/cgroup.procs" &&
      exec nohup $(cat "$dir/$name.cmd")) >>"$dir/$name.log" 2>&1 < /dev/null &
  else
    # shellcheck disable=SC2046
    nohup $(cat "$dir/$name.cmd") >>"$dir/$name.log" 2>&1 < /dev/null &
  fi
  echo $! > "$dir/$name.pid"
}

died() {  # died NAME: fails saying NAME exited, with its exit status and the end of its log
  local pid rc="" how
  pid=$(cat "$dir/$1.pid")
  # A process this shell launched is its child: its exit status is known.
  if wait "$pid" 2>/dev/null; then rc=0; else rc=$?; fi
  how="exited during start-up"
  [ "$rc" = 127 ] || how="$how (exit status $rc)"
  {
    echo "local-cluster: $1 $how; last lines of $dir/$1.log:"
    tail -n 8 "$dir/$1.log" 2>/dev/null | sed 's/^/  /'
  } >&2
  exit 1
}

wait_for_file() {  # wait_for_file PATH NAME: until PATH is written, NAME running
  local deadline=$((SECONDS + timeout))
  while [ $SECONDS -lt $deadline ]; do
    [ -s "$1" ] && return 0
    # Just launched: the pid is ours (the command-line check of `alive` could
    # run before the child has exec'd the binary and wrongly see it dead).
    kill -0 "$(cat "$dir/$2.pid")" 2>/dev/null || died "$2"
    sleep 0.1
  done
  die "$2 did not write $1 within $timeout s; see $dir/$2.log"
}

wait_healthy() {  # wait_healthy NAME: until NAME answers /healthz on its HTTP port
  local name=$1 port deadline=$((SECONDS + timeout))
  wait_for_file "$dir/$name.http-port" "$name"
  port=$(tr -d '[:space:]' < "$dir/$name.http-port")
  while [ $SECONDS -lt $deadline ]; do
    curl -fsS --noproxy '*' -m 2 -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null && return 0
    kill -0 "$(cat "$dir/$name.pid")" 2>/dev/null || died "$name"
    sleep 0.1
  done
  {
    echo "local-cluster: $name does not answer http://127.0.0.1:$port/healthz after $timeout s; last lines of $dir/$name.log:"
    tail -n 8 "$dir/$name.log" 2>/dev/null | sed 's/^/  /'
  } >&2
  exit 1
}

launch_qs_proxy() {  # launch_qs_proxy I QS_PORT: prints the proxy's address
  # Benchmarks of distance (tests/bench/distance.sh): with
  # CRAWL_CLUSTER_QS_DELAY_MS=D, queue server I is advertised behind the
  # tests' TCP relay (tests/faults/fault_proxy.h), which delays each chunk
  # D ms each way: every call to it (fetchers', the name server's) takes
  # 2D ms more, as from another data centre.
  local port; port=$(free_port)
  [ -x "$bin/fault_proxy" ] || die "CRAWL_CLUSTER_QS_DELAY_MS needs $bin/fault_proxy (built with the tests)"
  echo "$bin/fault_proxy --listen 127.0.0.1:$port --upstream 127.0.0.1:$2 --latency-ms $CRAWL_CLUSTER_QS_DELAY_MS" \
       "--port-file $dir/qsproxy$1.port" > "$dir/qsproxy$1.cmd"
  launch "qsproxy$1" > /dev/null
  wait_for_file "$dir/qsproxy$1.port" "qsproxy$1" > /dev/null
  echo "127.0.0.1:$port"
}

free_port() {  # a free TCP port on 127.0.0.1 below the kernel's ephemeral range
  # bind(0) and outgoing connections take their ports from the ephemeral
  # range, so a port below it that is free now stays free for a restart:
  # a port a killed process held there can be taken by any connection.
  local low lo p try
  low=$(awk '{print $1}' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
  [[ "$low" =~ ^[0-9]+$ ]] || low=32768
  lo=$(( low > 11024 ? low - 10000 : 1024 ))
  for try in $(seq 1 100); do
    p=$(( lo + (RANDOM * 32768 + RANDOM) % (low - lo) ))
    if command -v ss > /dev/null; then
      [ -z "$(ss -Htan "( sport = :$p )" 2>/dev/null)" ] && { echo "$p"; return 0; }
    elif ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"; return 0
    fi
  done
  die "no free port below $low on 127.0.0.1"
}

fresh_http_port() {  # fresh_http_port NAME: NAME.cmd binds any free HTTP port
  # HTTP ports are not part of a process's identity (cluster.env is
  # rewritten after a restart), so a restarted process binds a new one.
  sed -i -E "s|--http-listen 127\.0\.0\.1:[0-9]+ |--http-listen 127.0.0.1:0 |" "$dir/$1.cmd"
}

tls_flags() {  # tls_flags CERT_NAME: the TLS flags of a process using DIR/tls/CERT_NAME.{crt,key}
  [ "$insecure" = 0 ] || return 0
  local t="$dir/tls"
  echo " --tls-cert $t/$1.crt --tls-key $t/$1.key --tls-ca $t/ca.crt --tls-crl $t/crl.pem"
}

client_env() {  # this script's crawlctl calls: the admin certificate and token, or nothing
  unset CRAWL_TOKEN CRAWL_TLS_CA CRAWL_TLS_CERT CRAWL_TLS_KEY CRAWL_TOKEN_FILE
  if [ "$insecure" = 0 ]; then
    export CRAWL_TLS_CA="$dir/tls/ca.crt" CRAWL_TLS_CERT="$dir/tls/admin-crawlctl.crt" \
           CRAWL_TLS_KEY="$dir/tls/admin-crawlctl.key" CRAWL_TOKEN_FILE="$dir/tls/admin.token"
  fi
}

wait_registered() {  # wait until N queue servers are registered
  local n=0 deadline=$((SECONDS + timeout))
  while [ $SECONDS -lt $deadline ]; do
    n=$("$bin/crawlctl" --nameserver "$NAMESERVER" servers --json 2>"$dir/.crawlctl.err" | grep -o '"id"' | wc -l || true)
    [ "${n:-0}" -ge "$queueservers" ] && { rm -f "$dir/.crawlctl.err"; return 0; }
    sleep 0.1
  done
  die "only ${n:-0} of $queueservers queue servers registered within $timeout s (crawlctl servers: $(tail -n 2 "$dir/.crawlctl.err" | tr '\n' ' '))"
}

setup_tls() {  # the CA, certificates, tokens and a fresh CRL in DIR/tls (kept once made)
  local t="$dir/tls" log="$dir/certs.log"
  command -v openssl > /dev/null || die "openssl not found (Debian package openssl); or use --insecure"
  if [ -n "$token" ] && [ "$(cat "$t/admin.token" 2>/dev/null)" != "$token" ]; then
    printf '%s' "$token" | "$here/certs.sh" token --dir "$t" --role admin --name admin --value - >> "$log" 2>&1 ||
      die "certs.sh token failed: $(tail -n 3 "$log")"
  fi
  "$here/certs.sh" cluster --dir "$t" --queueservers "$queueservers" --fetchers "$fetchers" >> "$log" 2>&1 ||
    die "certs.sh cluster failed: $(tail -n 5 "$log")"
  # A CRL is valid 30 days: each `up` renews it.
  "$here/certs.sh" crl --dir "$t" >> "$log" 2>&1 || die "certs.sh crl failed: $(tail -n 3 "$log")"
}

env_line() {  # env_line VAR VALUE: "export VAR=VALUE", quoted only when the shell needs it
  if [[ "$2" =~ ^[A-Za-z0-9_./:,@%+=-]*$ ]]; then echo "export $1=$2"; else printf 'export %s=%q\n' "$1" "$2"; fi
}

write_env() {  # DIR/cluster.env, atomically
  local f="$dir/.cluster.env.tmp" name urls="" port
  for name in nameserver $(seq -f 'queueserver%g' 0 $((queueservers - 1))) \
              $( [ "$fetchers" = 0 ] || seq -f 'fetcher%g' 0 $((fetchers - 1)) ); do
    port=$(tr -d '[:space:]' < "$dir/$name.http-port")
    urls="${urls:+$urls,}http://127.0.0.1:$port/metrics"
  done
  {
    echo "# Written by deploy/local-cluster.sh: \`. $dir/cluster.env\` and crawlctl finds the cluster."
    env_line NAMESERVER "$NAMESERVER"
    env_line CRAWL_NAMESERVER "$NAMESERVER"
    if [ "$insecure" = 0 ]; then
      env_line CRAWL_TLS_CA "$dir/tls/ca.crt"
      env_line CRAWL_TLS_CERT "$dir/tls/admin-crawlctl.crt"
      env_line CRAWL_TLS_KEY "$dir/tls/admin-crawlctl.key"
      env_line CRAWL_TOKEN_FILE "$dir/tls/admin.token"
    else
      echo "unset CRAWL_TLS_CA CRAWL_TLS_CERT CRAWL_TLS_KEY CRAWL_TOKEN_FILE CRAWL_TOKEN"
    fi
    env_line STATUS_PAGE "http://127.0.0.1:$(tr -d '[:space:]' < "$dir/nameserver.http-port")/status"
    env_line METRICS_URLS "$urls"
    env_line QUEUESERVERS "$queueservers"
    env_line FETCHERS "$fetchers"
    env_line CRAWL_BIN "$bin"
  } > "$f"
  mv -f "$f" "$dir/cluster.env"
}

up_failed() {  # EXIT trap of `up`: a failed start-up leaves nothing running
  local rc=$?
  trap - EXIT
  if [ "$rc" != 0 ]; then
    stopped=0
    stop_all
    [ "$stopped" = 0 ] || echo "local-cluster: up failed; stopped the $stopped processes it had started (logs in $dir)" >&2
  fi
  exit "$rc"
}

up() {
  for b in nameserver queueserver fetcher crawlctl; do
    [ -x "$bin/$b" ] || die "$bin/$b not found: build first (cmake --build build)"
  done
  command -v curl > /dev/null || die "curl not found (Debian package curl)"
  [ -z "$hosts_file" ] || [ -f "$hosts_file" ] || die "hosts file $hosts_file not found"
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  for f in "$dir"/*.pid; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .pid)
    if alive "$name"; then die "$name is already running in $dir (use down first)"; fi
  done
  rm -f "$dir"/*.port "$dir"/*.http-port "$dir"/*.pid "$dir/cluster.env"
  [ "$insecure" = 1 ] || setup_tls
  client_env
  trap up_failed EXIT
  trap 'exit 130' INT TERM

  local t="$dir/tls" i
  echo "$bin/nameserver --listen 127.0.0.1:$(free_port) --port-file $dir/nameserver.port --data-dir $dir/nameserver" \
       "--http-listen 127.0.0.1:0 --http-port-file $dir/nameserver.http-port$(tls_flags nameserver-ns)" \
       "$( [ "$insecure" = 1 ] || echo "--admin-tokens $t/admin-tokens")" > "$dir/nameserver.cmd"
  launch nameserver
  wait_for_file "$dir/nameserver.port" nameserver
  wait_healthy nameserver
  NAMESERVER="127.0.0.1:$(tr -d '[:space:]' < "$dir/nameserver.port")"

  local qs_port advertise
  for i in $(seq 0 $((queueservers - 1))); do
    qs_port=$(free_port) advertise=""
    [ -z "${CRAWL_CLUSTER_QS_DELAY_MS:-}" ] || advertise=" --advertise $(launch_qs_proxy "$i" "$qs_port")"
    echo "$bin/queueserver --id qs$i --listen 127.0.0.1:$qs_port --port-file $dir/queueserver$i.port" \
         "--nameserver $NAMESERVER --data-dir $dir/queueserver$i$advertise${queueserver_args:+ $queueserver_args}" \
         "--http-listen 127.0.0.1:0 --http-port-file $dir/queueserver$i.http-port$(tls_flags "queueserver-qs$i")" \
         > "$dir/queueserver$i.cmd"
    launch "queueserver$i"
  done
  for i in $(seq 0 $((queueservers - 1))); do
    wait_for_file "$dir/queueserver$i.port" "queueserver$i"
    wait_healthy "queueserver$i"
  done
  wait_registered

  local extra=""
  [ -z "$hosts_file" ] || extra="$extra --hosts-file $(cd "$(dirname "$hosts_file")" && pwd)/$(basename "$hosts_file")"
  [ "$allow_private" = 0 ] || extra="$extra --allow-private"
  [ -z "$fetcher_args" ] || extra="$extra $fetcher_args"
  for i in $(seq 0 $((fetchers - 1))); do
    echo "$bin/fetcher --id fetcher$i --nameserver $NAMESERVER$extra --http-listen 127.0.0.1:0" \
         "--http-port-file $dir/fetcher$i.http-port$(tls_flags "fetcher-fetcher$i")" > "$dir/fetcher$i.cmd"
    launch "fetcher$i"
  done
  for i in $(seq 0 $((fetchers - 1))); do
    wait_healthy "fetcher$i"
  done
  check_all_alive
  write_env
  trap - EXIT INT TERM
  if [ "$insecure" = 1 ]; then
    echo "local-cluster: up in $dir (name server $NAMESERVER, $queueservers queue servers, $fetchers fetchers; INSECURE: no TLS)"
  else
    echo "local-cluster: up in $dir (name server $NAMESERVER, $queueservers queue servers, $fetchers fetchers; mutual TLS, CA $t/ca.crt, admin token $t/admin.token)"
  fi
  echo "local-cluster: for crawlctl: . $dir/cluster.env"
}

check_all_alive() {  # every process still runs (none died after answering /healthz)
  local f name
  for f in "$dir"/*.pid; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .pid)
    kill -0 "$(cat "$f")" 2>/dev/null || died "$name"
  done
}

stop_group() {  # stop_group GLOB: TERM every live process whose name matches, wait, then KILL
  local pids=() f name p i left
  for f in "$dir"/$1.pid; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .pid)
    if alive "$name"; then
      pids+=("$(cat "$f")")
      kill -TERM "$(cat "$f")" 2>/dev/null || true
    fi
    rm -f "$f"
  done
  for i in $(seq 1 100); do
    left=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && left=1; done
    [ "$left" = 0 ] && break
    sleep 0.1
  done
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  stopped=$((stopped + ${#pids[@]}))
}

stop_all() {
  # Fetchers first, so they can hand their last batch to live queue servers;
  # then queue servers; the name server last.
  stop_group 'fetcher*'
  stop_group 'queueserver*'
  stop_group 'qsproxy*'
  stop_group 'nameserver'
}

down() {
  [ -d "$dir" ] || die "no cluster directory $dir"
  stopped=0
  stop_all
  echo "local-cluster: stopped $stopped processes in $dir"
}

read_env_counts() {  # the cluster's shape, as `up` wrote it in cluster.env
  local v
  v=$(sed -n 's/^export QUEUESERVERS=//p' "$dir/cluster.env"); [ -z "$v" ] || queueservers=$v
  v=$(sed -n 's/^export FETCHERS=//p' "$dir/cluster.env"); [ -z "$v" ] || fetchers=$v
  NAMESERVER=$(sed -n 's/^export NAMESERVER=//p' "$dir/cluster.env")
  grep -q '^export CRAWL_TLS_CA=' "$dir/cluster.env" && insecure=0 || insecure=1
}

restart() {
  [ -f "$dir/cluster.env" ] || die "no cluster in $dir"
  command -v curl > /dev/null || die "curl not found (Debian package curl)"
  dir=$(cd "$dir" && pwd)
  local f name started=0 names=()
  # Name server first, then queue servers, then fetchers. The .cmd files
  # hold every flag the process was started with (TLS included).
  for f in "$dir"/nameserver.cmd "$dir"/qsproxy*.cmd "$dir"/queueserver*.cmd "$dir"/fetcher*.cmd; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .cmd)
    names+=("$name")
    if ! alive "$name"; then
      rm -f "$dir/$name.port" "$dir/$name.http-port"
      fresh_http_port "$name"
      launch "$name"
      started=$((started + 1))
      case "$name" in
        nameserver|queueserver*|qsproxy*) wait_for_file "$dir/$name.port" "$name" ;;
      esac
    fi
  done
  for name in "${names[@]}"; do
    [[ "$name" == qsproxy* ]] || wait_healthy "$name"
  done
  check_all_alive
  read_env_counts
  write_env
  echo "local-cluster: restarted $started processes in $dir"
}

case "$cmd" in
  up) up ;;
  down) down ;;
  restart) restart ;;
  *) usage ;;
esac
