#!/usr/bin/env bash
# Shared hosting: 100 hosts on 2 addresses, crawled with default settings by
# 2 fetchers of 4 lanes each over 2 queue servers. Hosts are partitioned by
# name, so each address serves hosts of both queue servers and is reached
# by every lane; the cluster-wide slots per address
# (queueserver/politeness/address_slots.h) must keep each address at 4
# connections at once (the default), while the crawl still fetches every
# reachable page. testweb judges its own access log.
source "$(dirname "$0")/lib.sh"

web=(--seed 21 --hosts 100 --pages 2000)
start_testweb "${web[@]}" --ips 2
start_cluster 2 2
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/testweb" export "${web[@]}" --out "$WORK/reachable.tsv"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private > /dev/null
state=$(wait_crawl_over "$(scaled 300)")
[ "$state" = done ] || fail "crawl ended as $state"

"$BIN/crawlctl" log > "$WORK/crawl.log"
python3 - "$WORK/crawl.log" "$WORK/reachable.tsv" <<'PY'
import collections, sys
log = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
pages = collections.Counter(f[3] for f in log if not f[3].endswith("/robots.txt"))
reachable = {l.split("\t")[0].rstrip("\n") for l in open(sys.argv[2]) if l.strip()}
print(f"reachable {len(reachable)}, fetched {sum(pages.values())} ({len(pages)} distinct)")
missing = reachable - set(pages)
assert not missing, f"{len(missing)} reachable pages never fetched, e.g. {sorted(missing)[:5]}"
PY
sleep 0.5  # log lines are written as answers finish
"$BIN/testweb" check-politeness "$WORK/access.log" "${web[@]}" --ips 2 --json > "$WORK/politeness.json"
python3 - "$WORK/politeness.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
hosts_over = [h for h in report["hosts"] if h.get("concurrency_violations", 0) > 0]
assert not hosts_over, f"a host had two connections at once: {hosts_over[:3]}"
peaks = {a["address"]: a["max_concurrent"] for a in report["addresses"]}
print("connections at once per address:", peaks)
assert len(peaks) == 2, peaks
assert max(peaks.values()) <= 4, f"more than 4 connections at once to one address: {peaks}"
# The limit is used, not one connection at a time.
assert max(peaks.values()) >= 2, f"the addresses were never shared by two connections: {peaks}"
print("ok: at most 4 connections per address across the cluster")
PY
