#!/usr/bin/env bash
# The structure order (docs/DESIGN.md §5.4, queueserver/frontier/structure_order.h) end to
# end: `crawlctl start --order structure` on a clean testweb of 12 hosts,
# two queue servers and two fetchers. The queue server qs0 is killed with
# SIGKILL mid-crawl and restarted on its data directory: it loads the
# structure order's per-host GC and GB graphs back from RocksDB (its log says
# how many nodes), and the crawl still fetches every reachable page, only
# URLs leased at the kill twice, with zero politeness violations.
# (crawl_orders_test.sh runs the order on the misbehaving preset with a page
# budget.)
source "$(dirname "$0")/lib.sh"

web=(--seed 8 --hosts 12 --pages 3000 --preset clean)
start_testweb "${web[@]}"
fetchers=2
start_cluster 2 $fetchers
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/testweb" export "${web[@]}" --out "$WORK/reachable.tsv"
reachable=$(grep -c . "$WORK/reachable.tsv")
schedule_size=100
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --order structure --load-take 5 \
  --lease-seconds 30 --schedule-size $schedule_size

field() { "$BIN/crawlctl" status --json | python3 -c "import json,sys; print(json.load(sys.stdin)[sys.argv[1]])" "$1"; }
[ "$(field order)" = structure ] || fail "the crawl does not run the structure order"

target=$((reachable * 40 / 100))
deadline=$((SECONDS + $(scaled 240)))
while :; do
  [ "$(field state)" = running ] || fail "crawl ended before the kill at $target pages"
  [ "$(field pages_fetched)" -ge "$target" ] && break
  [ $SECONDS -lt $deadline ] || fail "crawl did not reach $target pages"
  sleep 0.1
done
log=$WORK/cluster/queueserver0.log
old_pid=$(cat "$WORK/cluster/queueserver0.pid")
kill -KILL "$old_pid"
echo "killed qs0 (pid $old_pid) at about $target of $reachable pages"
sleep 0.3
"$SRC/deploy/local-cluster.sh" restart --dir "$WORK/cluster"
new_pid=$(cat "$WORK/cluster/queueserver0.pid")
[ "$new_pid" != "$old_pid" ] && kill -0 "$new_pid" || fail "queueserver0 was not restarted"
grep "loaded from the store" "$log" || fail "queueserver0 did not load its state"
line=$(grep "structure order:" "$log" | tail -n 1)
echo "$line"
# GC and GB came back: qs0 owns about half of the 12 hosts, each crawled in part.
python3 - "$line" <<'PY'
import re, sys
m = re.search(r"(\d+) sites, (\d+) GC nodes, (\d+) GB nodes", sys.argv[1])
assert m, sys.argv[1]
sites, gc, gb = map(int, m.groups())
assert sites > 0 and gc >= sites, (sites, gc, gb)
PY

state=$(wait_crawl_over 400)
[ "$state" = done ] || fail "crawl ended as $state"
"$BIN/crawlctl" log > "$WORK/crawl.log"
python3 "$(dirname "$0")/check_nothing_lost.py" "$WORK/crawl.log" "$WORK/reachable.tsv" \
  "$((fetchers * schedule_size))" "a kill -9 of a queue server under the structure order"
"$BIN/crawlctl" sites --json > "$WORK/sites.json"
python3 - "$WORK/sites.json" "$WORK/reachable.tsv" <<'PY'
import json, sys, urllib.parse
sites = {r["site"]: r for r in json.load(open(sys.argv[1]))["sites"]}
hosts = set()
for line in open(sys.argv[2]):
    u = urllib.parse.urlsplit(line.split("\t")[0])
    hosts.add(u.scheme + "://" + u.netloc)
assert hosts <= set(sites), sorted(hosts - set(sites))
assert all(r["end_reason"] == "exhausted" and r["pages_crawled"] > 0 for r in sites.values()), sites
print("site reports:", len(sites), "sites, pages", sum(r["pages_crawled"] for r in sites.values()))
PY
sleep 0.5
"$BIN/testweb" check-politeness "$WORK/access.log" "${web[@]}" --json > "$WORK/politeness.json"
python3 - "$WORK/politeness.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
print("politeness violations:", report["violations"])
assert report["violations"] == 0, json.dumps(report)[:2000]
PY
