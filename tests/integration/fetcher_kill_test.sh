#!/usr/bin/env bash
# A fetcher killed with SIGKILL mid-crawl loses nothing: `local-cluster.sh
# restart` brings it back under its id, its lanes' first schedule requests
# say they started again (GetScheduleRequest.lane_started), and what its
# earlier process had leased goes back to the queues at once: the crawl
# fetches every reachable page long before those leases (600 s) would end.
# Only URLs that were leased at the moment of the kill may be fetched twice
# (a fetcher works up to `--schedules` schedules at once, 4 by default: at
# most 4 x schedule_size).
source "$(dirname "$0")/lib.sh"

web=(--seed 5 --hosts 40 --pages 20000)
start_testweb "${web[@]}"
start_cluster 2 2

"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
schedule_size=100
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --lease-seconds 600 --schedule-size $schedule_size

pages() { status_field pages_fetched; }
deadline=$((SECONDS + $(scaled 120)))
until [ "$(pages)" -ge 1000 ]; do
  [ $SECONDS -lt $deadline ] || fail "crawl did not reach 1000 pages"
  sleep 0.05
done
old_pid=$(cat "$WORK/cluster/fetcher0.pid")
kill -KILL "$old_pid"
echo "killed fetcher0 (pid $old_pid) at $(pages) pages"
sleep 0.5
"$SRC/deploy/local-cluster.sh" restart --dir "$WORK/cluster"
new_pid=$(cat "$WORK/cluster/fetcher0.pid")
[ "$new_pid" != "$old_pid" ] || fail "fetcher0 was not restarted"
kill -0 "$new_pid" || fail "restarted fetcher0 is not running"

state=$(wait_crawl_over 300)
[ "$state" = done ] || fail "crawl ended as $state"
"$BIN/crawlctl" log > "$WORK/crawl.log"
"$BIN/testweb" export "${web[@]}" --out "$WORK/reachable.tsv"
python3 "$(dirname "$0")/check_nothing_lost.py" "$WORK/crawl.log" "$WORK/reachable.tsv" "$((4 * schedule_size))" "kill -9 of a fetcher"
check_index_consistent "kill -9 of a fetcher"
