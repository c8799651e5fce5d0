#!/usr/bin/env bash
# A queue server unreachable for 30 s mid-crawl (SIGSTOP: its port accepts
# nothing, calls time out, as with a network partition): fetchers hold the
# batches they owe it and retry, schedules from the other queue server go on,
# the name server does not declare the crawl over, and after SIGCONT the
# crawl ends with every reachable page fetched and nothing lost.
source "$(dirname "$0")/lib.sh"

web=(--seed 12 --hosts 40 --pages 20000)
start_testweb "${web[@]}"
fetchers=2
start_cluster 2 $fetchers
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/testweb" export "${web[@]}" --out "$WORK/reachable.tsv"
reachable=$(grep -c . "$WORK/reachable.tsv")
schedule_size=100
# A schedule whose reply is lost in the partition (the server leased it, the
# fetcher had given up) comes back when its lease ends: 120 s outlasts the
# pause and the fetchers' retries, and ends within the wait below.
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --schedule-size $schedule_size \
  --lease-seconds 120 > /dev/null
field() { python3 -c "import json,sys; print(json.load(sys.stdin)[sys.argv[1]])" "$1"; }

target=$((reachable * 30 / 100))
deadline=$((SECONDS + $(scaled 180)))
until [ "$(status_field pages_fetched)" -ge "$target" ]; do
  [ $SECONDS -lt $deadline ] || fail "crawl did not reach $target pages"
  sleep 0.05
done
pid=$(cat "$WORK/cluster/queueserver0.pid")
kill -STOP "$pid"
echo "queue server qs0 paused at $target of $reachable pages"
for i in $(seq 1 30); do
  sleep 1
  state=$(status_field state)  # -1: the call failed (loaded machine), not an end
  [ "$state" = running ] || [ "$state" = -1 ] || { kill -CONT "$pid"; fail "crawl ended ($state) while qs0 was unreachable"; }
done
kill -CONT "$pid"
echo "queue server qs0 back after 30 s"

state=$(wait_crawl_over 300)
[ "$state" = done ] || fail "crawl ended as $state"
"$BIN/crawlctl" log > "$WORK/crawl.log"
python3 "$(dirname "$0")/check_nothing_lost.py" "$WORK/crawl.log" "$WORK/reachable.tsv" \
  "$((fetchers * schedule_size))" "a queue server unreachable for 30 s"
check_index_consistent "a queue server unreachable for 30 s"
