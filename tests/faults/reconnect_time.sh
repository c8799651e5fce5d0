#!/usr/bin/env bash
# How long fetchers stay refused by a queue server restarted on its address
# (tests/faults/README.md "What it found"): a crawl of 30,000 pages, qs0
# killed with SIGKILL at 1,500 pages, restarted DOWN seconds later (default
# 12); prints the time from qs0 listening again to each fetcher's last failed
# call to it. By hand, not in CI:
#   tests/faults/reconnect_time.sh build/bin .
# GRPC_CLIENT_CHANNEL_BACKUP_POLL_INTERVAL_MS=5000 in the environment shows
# gRPC's default.
source "$(dirname "$0")/../integration/lib.sh"
web=(--seed 5 --hosts 40 --pages 30000)
start_testweb "${web[@]}"
start_cluster 2 2
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --schedule-size 100 --lease-seconds 60 > /dev/null
until [ "$(status_field pages_fetched)" -gt 1500 ]; do sleep 0.2; done
kill -9 "$(cat "$WORK/cluster/queueserver0.pid")"
sleep "${DOWN:-12}"
"$SRC/deploy/local-cluster.sh" restart --dir "$WORK/cluster" > /dev/null
sleep 40
python3 - "$WORK/cluster" <<'PY'
import datetime, glob, os, sys
d = sys.argv[1]
t = lambda line: datetime.datetime.fromisoformat(line.split()[0])
up = [t(l) for l in open(os.path.join(d, "queueserver0.log")) if "listening on" in l][-1]
for f in sorted(glob.glob(os.path.join(d, "fetcher*.log"))):
    fails = [t(l) for l in open(f) if "to qs0 failed" in l or "at queue server qs0" in l]
    last = max(fails) if fails else up
    print(f"{os.path.basename(f)}: refused {max(0.0, (last - up).total_seconds()):.2f} s after qs0 listened again")
PY
