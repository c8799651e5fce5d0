#!/usr/bin/env bash
# No forgotten crawls with real processes: the name server
# is made to exit, as kill -9 would, at each step of `crawlctl start`
# (CRAWL_FAULT_STARTCRAWL, nameserver/start_fault.h) and restarted; then the
# name server and both queue servers agree: killed before the crawl was
# recorded as running, no one keeps it (queue servers that took seeds are
# told to delete it); killed after, everyone has it. Then `crawlctl delete`
# (item 4) refuses the running crawl and deletes it once stopped.
source "$(dirname "$0")/lib.sh"

web=(--seed 5 --hosts 8 --pages 80)
start_testweb "${web[@]}"
start_cluster 2 0
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
cluster=$WORK/cluster

# restart_nameserver [STEP]: kills the name server if it still runs, starts
# it again (with CRAWL_FAULT_STARTCRAWL=STEP when given).
restart_nameserver() {
  local pid
  pid=$(cat "$cluster/nameserver.pid")
  kill -KILL "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  CRAWL_FAULT_STARTCRAWL=${1:-} "$SRC/deploy/local-cluster.sh" restart --dir "$cluster" > /dev/null
  . "$cluster/cluster.env"
}

# in_list ID: whether `crawlctl list --json` has crawl ID.
in_list() {
  "$BIN/crawlctl" list --json > "$WORK/list.json"
  python3 -c 'import json,sys; sys.exit(0 if any(c["crawl_id"] == int(sys.argv[2]) for c in json.load(open(sys.argv[1]))["crawls"]) else 1)' \
    "$WORK/list.json" "$1"
}

# wait_logged FILE TEXT: until FILE has a line with TEXT (30 s, scaled).
wait_logged() {
  local deadline=$((SECONDS + $(scaled 30)))
  until grep -qF "$2" "$1"; do
    [ $SECONDS -lt $deadline ] || fail "$(basename "$1") never logged '$2'"
    sleep 0.2
  done
}

# both_live: until the name server has heard both queue servers since its
# restart (a start with one live would fan out to one: not the fault).
both_live() {
  local deadline=$((SECONDS + $(scaled 30)))
  until "$BIN/crawlctl" servers --json 2> /dev/null | python3 -c '
import json, sys
s = json.load(sys.stdin)["servers"]
sys.exit(0 if len(s) == 2 and all(0 <= x["last_seen_ms_ago"] < 5000 for x in s) else 1)'; do
    [ $SECONDS -lt $deadline ] || fail "the queue servers did not heartbeat the restarted name server"
    sleep 0.3
  done
}

# killed_start STEP: `crawlctl start` with the name server exiting at STEP;
# prints the crawl's id once the name server is back.
killed_start() {
  restart_nameserver "$1"
  local pid
  pid=$(cat "$cluster/nameserver.pid")
  both_live
  # The restarted name server counts queue servers live from their next
  # heartbeat: until then a start is refused, which is not the fault.
  local deadline=$((SECONDS + $(scaled 30)))
  while :; do
    if "$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private > "$WORK/start.out" 2>&1; then
      fail "crawlctl start succeeded although the name server was to exit at $1"
    fi
    grep -q "no queue server is registered" "$WORK/start.out" || break
    [ $SECONDS -lt $deadline ] || fail "queue servers not live again: $(cat "$WORK/start.out")"
    sleep 0.3
  done
  while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  grep -q "CRAWL_FAULT_STARTCRAWL=$1" "$cluster/nameserver.log" || fail "the name server did not stop at $1"
  restart_nameserver
}

for step in after_persist after_first_queue_server after_fanout; do
  killed_start "$step"
  id=$(sed -n 's/.*crawl \([0-9]*\) was being started when the name server stopped.*/\1/p' "$cluster/nameserver.log" |
    tail -n 1)
  [ -n "$id" ] || fail "$step: the restarted name server did not roll the start back"
  in_list "$id" && fail "$step: crawl $id is still in the name server's list"
  for qs in "$cluster"/queueserver*.log; do
    if grep -qF "joining crawl $id" "$qs"; then
      wait_logged "$qs" "crawl $id deleted"
    fi
  done
  joined=$(cat "$cluster"/queueserver*.log | grep -cF "joining crawl $id" || true)
  case $step in
    after_persist) [ "$joined" = 0 ] || fail "$step: a queue server heard of crawl $id" ;;
    after_first_queue_server) [ "$joined" = 1 ] || fail "$step: $joined queue servers joined crawl $id, want 1" ;;
    after_fanout) [ "$joined" = 2 ] || fail "$step: $joined queue servers joined crawl $id, want 2" ;;
  esac
  echo "killed at $step: crawl $id rolled back on the name server and $joined queue server(s)"
done

killed_start after_activate
id=$(python3 -c 'import json,sys; print(max(c["crawl_id"] for c in json.load(open(sys.argv[1]))["crawls"]))' \
  <("$BIN/crawlctl" list --json))
in_list "$id" || fail "after_activate: the crawl is not in the name server's list"
for qs in "$cluster"/queueserver*.log; do
  grep -qF "joining crawl $id" "$qs" || fail "after_activate: $(basename "$qs") does not have crawl $id"
done
echo "killed at after_activate: crawl $id kept by the name server and both queue servers"

# crawlctl delete: refused while it runs, then everywhere.
if "$BIN/crawlctl" delete "$id" > "$WORK/delete.out" 2>&1; then fail "delete of a running crawl succeeded"; fi
grep -q "running" "$WORK/delete.out" || fail "delete of a running crawl: unclear error: $(cat "$WORK/delete.out")"
"$BIN/crawlctl" stop --crawl "$id" > /dev/null
"$BIN/crawlctl" delete "$id" > "$WORK/delete.out"
grep -q "crawl $id deleted" "$WORK/delete.out" || fail "delete: $(cat "$WORK/delete.out")"
in_list "$id" && fail "crawl $id still listed after delete"
for qs in "$cluster"/queueserver*.log; do wait_logged "$qs" "crawl $id deleted"; done
"$BIN/crawlctl" delete "$id" > /dev/null || fail "a second delete of crawl $id failed"
echo "crawl $id deleted from the name server and both queue servers"
