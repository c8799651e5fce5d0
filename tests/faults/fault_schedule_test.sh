#!/usr/bin/env bash
# The fault harness (tests/faults/README.md): a cluster of 1 name server,
# 2 queue servers and 2 fetchers crawls testweb inside a network namespace
# this test makes, while tests/faults/nemesis.py applies a schedule of faults
# drawn from a seed (links cut both ways or one, connections reset, processes
# paused or killed and restarted, wall clocks skewed by minutes), one after another. After the last fault is
# healed the crawl must end by itself, with the checks of every fault test:
# every reachable page fetched, none more than twice and at most the URLs
# leased at the faults twice (check_nothing_lost.py), the index consistent
# with the crawl log (check_index_consistent.py), and no politeness violation
# in testweb's access log (testweb check-politeness).
#
#   fault_schedule_test.sh BIN SRC [SEED...]
# Seeds come from the arguments, else CRAWL_FAULT_SEEDS (space-separated),
# else one drawn now; each seed is printed first, so a failure replays with
# `fault_schedule_test.sh BIN SRC SEED`. CRAWL_FAULT_STEPS: faults per seed
# (default 4). CRAWL_FAULT_PLAN: an explicit schedule instead of seeds
# (nemesis.py --faults). CRAWL_FAULT_FETCHER_ARGS: more fetcher flags. Needs root (network namespaces, iptables, cgroup v2); skipped
# (exit 77) where that is not allowed.

# Into a network namespace of our own: iptables rules there touch nothing
# else, and it goes away with the test. nsenter (not `ip netns exec`) keeps
# /sys, where the cgroup v2 hierarchy is.
if [ -z "${CRAWL_FAULTS_NETNS:-}" ]; then
  ns="crawlfx-$$"
  cgroup_mount=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
  if [ "$(id -u)" != 0 ] || [ -z "$cgroup_mount" ] || ! command -v iptables > /dev/null ||
    ! ip netns add "$ns" 2> /dev/null; then
    echo "SKIP: needs root, a cgroup v2 mount, iptables and ip netns"
    exit 77
  fi
  ip netns exec "$ns" ip link set lo up
  rc=0
  CRAWL_FAULTS_NETNS=$ns CRAWL_FAULTS_CGROUP="$cgroup_mount/$ns" \
    nsenter --net="/run/netns/$ns" bash "$0" "$@" || rc=$?
  ip netns del "$ns" 2> /dev/null || true
  exit $rc
fi

source "$(dirname "$0")/../integration/lib.sh"
shift 2
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || [ -z "${CRAWL_FAULT_PLAN:-}" ] || seeds=(plan)
[ ${#seeds[@]} -gt 0 ] || read -r -a seeds <<< "${CRAWL_FAULT_SEEDS:-}"
[ ${#seeds[@]} -gt 0 ] || seeds=($((RANDOM * 32768 + RANDOM)))
steps=${CRAWL_FAULT_STEPS:-4}
cgroups=$CRAWL_FAULTS_CGROUP
export CRAWL_CLUSTER_CGROUPS=$cgroups  # local-cluster.sh starts each process in its cgroup
export CRAWL_CLUSTER_CLOCK_SKEW=1      # and lets the nemesis skew its wall clock
test_cleanup() {
  # The cgroups empty once their processes are gone.
  for d in "$cgroups"/*/; do [ -d "$d" ] && rmdir "$d" 2> /dev/null; done
  rmdir "$cgroups" 2> /dev/null || true
}
iptables -L OUTPUT > /dev/null 2>&1 || { echo "SKIP: iptables does not work in a namespace here"; exit 77; }

web=(--seed 21 --hosts 40 --pages 20000)
start_testweb "${web[@]}"
fetchers=2
schedule_size=100
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/testweb" export "${web[@]}" --out "$WORK/reachable.tsv"
mkdir -p "$cgroups"

run_seed() {  # run_seed SEED: one crawl under that seed's faults, checked
  local seed=$1 schedule
  if [ "$seed" = plan ]; then
    schedule=(--faults "$CRAWL_FAULT_PLAN")
    echo "== the schedule \"$CRAWL_FAULT_PLAN\""
  else
    schedule=(--seed "$seed" --steps "$steps" --scale "$TIME_SCALE")
    echo "== seed $seed ($steps faults; replay: $0 BIN SRC $seed)"
  fi
  python3 "$SRC/tests/faults/nemesis.py" --cluster "$WORK/cluster" --cgroup-root "$cgroups" \
    "${schedule[@]}" --local-cluster "$SRC/deploy/local-cluster.sh" --plan
  start_cluster 2 $fetchers "${CRAWL_FAULT_FETCHER_ARGS:-}"
  "$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --schedule-size $schedule_size \
    --lease-seconds "$(scaled 20)" > /dev/null
  python3 "$SRC/tests/faults/nemesis.py" --cluster "$WORK/cluster" --cgroup-root "$cgroups" \
    "${schedule[@]}" --local-cluster "$SRC/deploy/local-cluster.sh" || fail "seed $seed: the nemesis failed"
  local state
  state=$(wait_crawl_over 300)
  [ "$state" = done ] || fail "seed $seed: crawl ended as $state"
  "$BIN/crawlctl" log > "$WORK/crawl.log"
  echo "calls given up: $(cat "$WORK"/cluster/*.log | grep -c "giving up after retries" || true);" \
    "batches withheld for undelivered links: $(cat "$WORK"/cluster/fetcher*.log | grep -c "are withheld" || true)"
  # Each fault may cost the leases of every fetcher (4 schedules each).
  python3 "$SRC/tests/integration/check_nothing_lost.py" "$WORK/crawl.log" "$WORK/reachable.tsv" \
    "$((steps * fetchers * 4 * schedule_size))" "seed $seed's faults"
  check_index_consistent "seed $seed's faults"
  sleep 0.5  # access log lines are written as answers finish
  "$BIN/testweb" check-politeness "$WORK/access.log" "${web[@]}" --json > "$WORK/politeness.json"
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("politeness violations:", r["violations"]); assert r["violations"] == 0, json.dumps([h for h in r["hosts"] if h["violations"]])[:4000]' \
    "$WORK/politeness.json" || fail "seed $seed: politeness violated"
  "$SRC/deploy/local-cluster.sh" down --dir "$WORK/cluster" > /dev/null
  rm -rf "$WORK/cluster"
  : > "$WORK/access.log"
}

for seed in "${seeds[@]}"; do run_seed "$seed"; done
echo "ok: ${#seeds[@]} fault schedule(s): nothing lost, index consistent, polite"
