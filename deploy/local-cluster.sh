#!/usr/bin/env bash
# Starts, stops and restarts a local cluster: 1 name server, N queue servers
# and M fetchers, each its own process on 127.0.0.1, data and logs under DIR.
#
#   local-cluster.sh up --dir DIR [--queueservers N] [--fetchers M]
#                       [--hosts-file F] [--allow-private] [--bin BIN_DIR]
#                       [--fetcher-args "ARGS"]   # extra fetcher flags, e.g. "--schedules 1"
#   local-cluster.sh down --dir DIR
#   local-cluster.sh restart --dir DIR   # starts again whatever is not running
#
# `up` returns once every queue server has registered; DIR/cluster.env then
# holds NAMESERVER=host:port. Each process's pid is in DIR/NAME.pid and the
# exact command that started it in DIR/NAME.cmd (servers keep the port they
# first bound, so a restarted process is reachable where it was).
set -euo pipefail

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
die() { echo "local-cluster: $*" >&2; exit 1; }

cmd=${1:-}; [ -n "$cmd" ] || usage; shift
dir="" queueservers=2 fetchers=2 hosts_file="" allow_private=0 fetcher_args=""
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
    -h|--help) usage ;;
    *) die "unknown option $1" ;;
  esac
done
[ -n "$dir" ] || die "--dir is required"
[[ "$queueservers" =~ ^[1-9][0-9]*$ ]] || die "--queueservers must be a positive number"
[[ "$fetchers" =~ ^[0-9]+$ ]] || die "--fetchers must be a number"

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
  # shellcheck disable=SC2046
  nohup $(cat "$dir/$name.cmd") >>"$dir/$name.log" 2>&1 < /dev/null &
  echo $! > "$dir/$name.pid"
}

wait_for_file() {  # wait_for_file PATH NAME
  local i
  for i in $(seq 1 600); do
    [ -s "$1" ] && return 0
    # Just launched: the pid is ours (the command-line check of `alive` could
    # run before the child has exec'd the binary and wrongly see it dead).
    kill -0 "$(cat "$dir/$2.pid")" 2>/dev/null || die "$2 exited during start-up; see $dir/$2.log: $(tail -n 3 "$dir/$2.log" 2>/dev/null | tr '\n' ' ')"
    sleep 0.1
  done
  die "$2 did not become ready in 60 s; see $dir/$2.log"
}

pin_port() {  # pin_port NAME: rewrite NAME.cmd to listen on the ports it bound
  local port; port=$(tr -d '[:space:]' < "$dir/$1.port")
  sed -i "s|--listen 127.0.0.1:0|--listen 127.0.0.1:$port|" "$dir/$1.cmd"
  if [ -s "$dir/$1.http-port" ]; then
    port=$(tr -d '[:space:]' < "$dir/$1.http-port")
    sed -i "s|--http-listen 127.0.0.1:0|--http-listen 127.0.0.1:$port|" "$dir/$1.cmd"
  fi
}

wait_registered() {  # wait until N queue servers are registered
  local i n
  for i in $(seq 1 300); do
    n=$("$bin/crawlctl" --nameserver "$NAMESERVER" servers --json 2>/dev/null | grep -o '"id"' | wc -l || true)
    [ "${n:-0}" -ge "$queueservers" ] && return 0
    sleep 0.1
  done
  die "only ${n:-0} of $queueservers queue servers registered within 30 s"
}

up() {
  for b in nameserver queueserver fetcher crawlctl; do
    [ -x "$bin/$b" ] || die "$bin/$b not found: build first (cmake --build build)"
  done
  [ -z "$hosts_file" ] || [ -f "$hosts_file" ] || die "hosts file $hosts_file not found"
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  for f in "$dir"/*.pid; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .pid)
    if alive "$name"; then die "$name is already running in $dir (use down first)"; fi
  done
  rm -f "$dir"/*.port "$dir"/*.http-port "$dir"/*.pid

  echo "$bin/nameserver --listen 127.0.0.1:0 --port-file $dir/nameserver.port --data-dir $dir/nameserver" \
       "--http-listen 127.0.0.1:0 --http-port-file $dir/nameserver.http-port" > "$dir/nameserver.cmd"
  launch nameserver
  wait_for_file "$dir/nameserver.port" nameserver
  pin_port nameserver
  NAMESERVER="127.0.0.1:$(tr -d '[:space:]' < "$dir/nameserver.port")"

  local i
  for i in $(seq 0 $((queueservers - 1))); do
    echo "$bin/queueserver --id qs$i --listen 127.0.0.1:0 --port-file $dir/queueserver$i.port" \
         "--nameserver $NAMESERVER --data-dir $dir/queueserver$i" \
         "--http-listen 127.0.0.1:0 --http-port-file $dir/queueserver$i.http-port" > "$dir/queueserver$i.cmd"
    launch "queueserver$i"
  done
  for i in $(seq 0 $((queueservers - 1))); do
    wait_for_file "$dir/queueserver$i.port" "queueserver$i"
    pin_port "queueserver$i"
  done
  wait_registered

  local extra=""
  [ -z "$hosts_file" ] || extra="$extra --hosts-file $(cd "$(dirname "$hosts_file")" && pwd)/$(basename "$hosts_file")"
  [ "$allow_private" = 0 ] || extra="$extra --allow-private"
  [ -z "$fetcher_args" ] || extra="$extra $fetcher_args"
  for i in $(seq 0 $((fetchers - 1))); do
    echo "$bin/fetcher --id fetcher$i --nameserver $NAMESERVER$extra --http-listen 127.0.0.1:0" \
         "--http-port-file $dir/fetcher$i.http-port" > "$dir/fetcher$i.cmd"
    launch "fetcher$i"
  done
  {
    echo "NAMESERVER=$NAMESERVER"
    echo "STATUS_PAGE=http://127.0.0.1:$(tr -d '[:space:]' < "$dir/nameserver.http-port")/status"
    echo "QUEUESERVERS=$queueservers"
    echo "FETCHERS=$fetchers"
    echo "CRAWL_BIN=$bin"
  } > "$dir/cluster.env"
  echo "local-cluster: up in $dir (name server $NAMESERVER, $queueservers queue servers, $fetchers fetchers)"
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

down() {
  [ -d "$dir" ] || die "no cluster directory $dir"
  stopped=0
  # Fetchers first, so they can hand their last batch to live queue servers;
  # then queue servers; the name server last.
  stop_group 'fetcher*'
  stop_group 'queueserver*'
  stop_group 'nameserver'
  echo "local-cluster: stopped $stopped processes in $dir"
}

restart() {
  [ -f "$dir/cluster.env" ] || die "no cluster in $dir"
  # shellcheck disable=SC1091
  . "$dir/cluster.env"
  local f name started=0
  # Name server first, then queue servers, then fetchers.
  for f in "$dir"/nameserver.cmd "$dir"/queueserver*.cmd "$dir"/fetcher*.cmd; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .cmd)
    if ! alive "$name"; then
      rm -f "$dir/$name.port"
      launch "$name"
      started=$((started + 1))
      case "$name" in
        nameserver|queueserver*) wait_for_file "$dir/$name.port" "$name" ;;
      esac
    fi
  done
  echo "local-cluster: restarted $started processes in $dir"
}

case "$cmd" in
  up) up ;;
  down) down ;;
  restart) restart ;;
  *) usage ;;
esac
