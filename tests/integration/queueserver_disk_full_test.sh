#!/usr/bin/env bash
# A queue server whose data directory fills up (a small tmpfs): nothing
# half-written is kept (each request is one RocksDB write batch), the crawl
# waits instead of losing URLs, and once space is given back the crawl
# finishes with every reachable page fetched. Either the queue server logs
# the "No space left on device" error and carries on, or (seen with
# Debian's librocksdb 7.8, whose assertions are on) it aborts inside RocksDB
# after a failed WAL write: then it is restarted on the same data directory,
# like after kill -9. Needs root to mount a tmpfs; skipped (exit 77) where
# that is not allowed.
source "$(dirname "$0")/lib.sh"

disk="$WORK/cluster/queueserver0"
mkdir -p "$disk"
if ! mount -t tmpfs -o size=6m tmpfs "$disk" 2> /dev/null; then
  echo "SKIP: cannot mount a tmpfs here (not root?)"
  exit 77
fi
test_cleanup() { umount -l "$disk" 2> /dev/null; }

web=(--seed 13 --hosts 40 --pages 30000)
start_testweb "${web[@]}"
fetchers=2
start_cluster 2 $fetchers
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/testweb" export "${web[@]}" --out "$WORK/reachable.tsv"
reachable=$(grep -c . "$WORK/reachable.tsv")
schedule_size=100
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --schedule-size $schedule_size \
  --lease-seconds "$(scaled 20)" > /dev/null
field() { python3 -c "import json,sys; print(json.load(sys.stdin)[sys.argv[1]])" "$1"; }

# Wait for the disk to fill: qs0 logs the failed write, or dies of it.
qs0_pid=$(cat "$WORK/cluster/queueserver0.pid")
deadline=$((SECONDS + $(scaled 180)))
until grep -qi "no space" "$WORK/cluster/queueserver0.log" || ! kill -0 "$qs0_pid" 2>/dev/null; do
  [ $SECONDS -lt $deadline ] || fail "the 6 MB data directory never filled ($(df -h "$disk" | tail -1))"
  state=$(status_field state)  # -1: the call failed (loaded machine), not an end
  [ "$state" = running ] || [ "$state" = -1 ] || fail "crawl ended ($state) before the disk filled"
  sleep 0.2
done
if kill -0 "$qs0_pid" 2>/dev/null; then
  echo "qs0's disk is full: $(grep -i -m1 "no space" "$WORK/cluster/queueserver0.log" | cut -c1-200)"
else
  echo "qs0 died when its disk filled: $(grep -m1 -i "assert\|error" "$WORK/cluster/queueserver0.log" | cut -c1-200)"
fi
# The crawl must wait, not end, while qs0 cannot write.
for i in $(seq 1 10); do
  sleep 1
  state=$(status_field state)  # -1: the call failed (loaded machine), not an end
  [ "$state" = running ] || [ "$state" = -1 ] || fail "crawl ended ($state) while qs0's disk was full"
done
mount -o remount,size=512m "$disk"
echo "space given back"
# qs0 may also abort later, while it reloads after the failed writes (the
# assertion runs when RocksDB next flushes): as systemd's Restart= would,
# start it again whenever it is down, until the crawl ends.
deadline=$((SECONDS + $(scaled 300)))
state=running
while [ "$state" = running ] || [ "$state" = -1 ]; do
  [ $SECONDS -lt $deadline ] || fail "crawl still running after $(scaled 300) s"
  if ! kill -0 "$(cat "$WORK/cluster/queueserver0.pid")" 2> /dev/null; then
    echo "qs0 is down ($(grep -i -m1 "assert" "$WORK/cluster/queueserver0.log" | cut -c1-160)): restarting it"
    "$SRC/deploy/local-cluster.sh" restart --dir "$WORK/cluster" > /dev/null
  fi
  sleep 1
  state=$(status_field state)
done
state=$(wait_crawl_over 60)  # the final numbers are in
[ "$state" = done ] || fail "crawl ended as $state"
"$BIN/crawlctl" log > "$WORK/crawl.log"
# Only URLs leased at the failure may be fetched twice: each fetcher holds up
# to 4 schedules at a time (one per lane), as in queueserver_kill_test.sh.
python3 "$(dirname "$0")/check_nothing_lost.py" "$WORK/crawl.log" "$WORK/reachable.tsv" \
  "$((fetchers * 4 * schedule_size))" "a full disk on a queue server"
check_index_consistent "a full disk"
