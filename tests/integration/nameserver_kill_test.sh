#!/usr/bin/env bash
# The name server killed with SIGKILL twice during one crawl loses nothing:
# fetchers and queue servers keep crawling while it is away (they only need
# it to learn about crawls), the restarted name server reloads its registry
# from RocksDB and goes on watching the running crawl, which ends as done
# with every reachable page fetched once (no lease is involved, so nothing
# should be fetched twice).
source "$(dirname "$0")/lib.sh"

web=(--seed 11 --hosts 40 --pages 20000)
start_testweb "${web[@]}"
start_cluster 2 2
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/testweb" export "${web[@]}" --out "$WORK/reachable.tsv"
reachable=$(grep -c . "$WORK/reachable.tsv")
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --schedule-size 100 > /dev/null
field() { python3 -c "import json,sys; print(json.load(sys.stdin)[sys.argv[1]])" "$1"; }

for percent in 20 60; do
  target=$((reachable * percent / 100))
  deadline=$((SECONDS + $(scaled 180)))
  until [ "$(status_field pages_fetched)" -ge "$target" ]; do
    [ $SECONDS -lt $deadline ] || fail "crawl did not reach $target pages"
    sleep 0.05
  done
  pid=$(cat "$WORK/cluster/nameserver.pid")
  kill -KILL "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  sleep 1  # the cluster runs on without it for a moment
  "$SRC/deploy/local-cluster.sh" restart --dir "$WORK/cluster" > /dev/null
  grep -q "resuming the watch over running crawl" "$WORK/cluster/nameserver.log" || fail "registry not reloaded"
  echo "killed the name server at $target of $reachable pages; restarted"
done

state=$(wait_crawl_over 300)
[ "$state" = done ] || fail "crawl ended as $state"
"$BIN/crawlctl" log > "$WORK/crawl.log"
python3 "$(dirname "$0")/check_nothing_lost.py" "$WORK/crawl.log" "$WORK/reachable.tsv" 0 "2 kill -9 of the name server"
check_index_consistent "2 kill -9 of the name server"
