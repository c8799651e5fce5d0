#!/usr/bin/env bash
# A queue server killed with SIGKILL mid-crawl loses nothing: its state is in
# RocksDB under its --data-dir, `local-cluster.sh restart` brings it back on
# the same port and data directory, it rejoins the running crawl, and the
# crawl still fetches every reachable page. Three kills (qs0, qs1, qs0) at
# different points of one crawl; only URLs leased at a kill may be fetched
# twice (each fetcher holds up to --schedules schedules at a time, 4 by
# default, so at most kills x fetchers x 4 x schedule_size).
source "$(dirname "$0")/lib.sh"

web=(--seed 5 --hosts 40 --pages 20000)
start_testweb "${web[@]}"
fetchers=2
start_cluster 2 $fetchers

"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/testweb" export "${web[@]}" --out "$WORK/reachable.tsv"
reachable=$(grep -c . "$WORK/reachable.tsv")
schedule_size=100
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --lease-seconds 30 --schedule-size $schedule_size

status() { status_json "$WORK/status.json"; }
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$WORK/status.json" "$1"; }
leased_at() {  # leased_at QS_ID: URLs that queue server had leased at its last poll
  python3 -c "import json,sys; print(sum(q['leased_urls'] for q in json.load(open(sys.argv[1]))['queue_servers'] if q['id']==sys.argv[2]))" \
    "$WORK/status.json" "$1"
}

kills=0
for spec in "qs0 15" "qs1 40" "qs0 65"; do
  set -- $spec
  name=queueserver${1#qs}
  target=$((reachable * $2 / 100))
  deadline=$((SECONDS + $(scaled 180)))
  while :; do
    status
    [ "$(field state)" = running ] || fail "crawl ended ($(field state)) before the kill at $target pages"
    [ "$(field pages_fetched)" -ge "$target" ] && break
    [ $SECONDS -lt $deadline ] || fail "crawl did not reach $target pages"
    sleep 0.05
  done
  old_pid=$(cat "$WORK/cluster/$name.pid")
  loads=$(grep -c "loaded from the store" "$WORK/cluster/$name.log" || true)
  kill -KILL "$old_pid"
  kills=$((kills + 1))
  echo "killed $1 (pid $old_pid) at $(field pages_fetched) of $reachable pages; it had about $(leased_at "$1") urls leased"
  sleep 0.3
  "$SRC/deploy/local-cluster.sh" restart --dir "$WORK/cluster"
  new_pid=$(cat "$WORK/cluster/$name.pid")
  [ "$new_pid" != "$old_pid" ] || fail "$name was not restarted"
  kill -0 "$new_pid" || fail "restarted $name is not running"
  [ "$(grep -c "loaded from the store" "$WORK/cluster/$name.log")" -gt "$loads" ] ||
    fail "$name did not load its state from the store"
done

state=$(wait_crawl_over 300)
[ "$state" = done ] || fail "crawl ended as $state"
"$BIN/crawlctl" log > "$WORK/crawl.log"
python3 "$(dirname "$0")/check_nothing_lost.py" "$WORK/crawl.log" "$WORK/reachable.tsv" "$((kills * fetchers * 4 * schedule_size))" "3 kill -9 of queue servers"
check_index_consistent "3 kill -9 of queue servers"
