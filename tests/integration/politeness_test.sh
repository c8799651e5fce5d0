#!/usr/bin/env bash
# Politeness on a web whose robots.txt files use Allow, wildcards and
# Crawl-delay (testweb's robots-rules misbehaviour): the crawl fetches the
# whole reachable set, and testweb's own judge of its access log finds no
# second connection to a host, no request closer than Crawl-delay, and no
# request for a disallowed path.
source "$(dirname "$0")/lib.sh"

web=(--seed 9 --hosts 24 --pages 300 --preset clean --enable robots-rules)
start_testweb "${web[@]}"
start_cluster 2 2
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private
state=$(wait_crawl_over 400)
[ "$state" = done ] || fail "crawl ended as $state"

"$BIN/crawlctl" log > "$WORK/crawl.log"
"$BIN/testweb" export "${web[@]}" --out "$WORK/reachable.tsv"
python3 - "$WORK/crawl.log" "$WORK/reachable.tsv" <<'PY'
import collections, sys
log = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
pages = collections.Counter(f[3] for f in log if not f[3].endswith("/robots.txt"))
reachable = {l.split("\t")[0].rstrip("\n") for l in open(sys.argv[2]) if l.strip()}
print(f"reachable {len(reachable)}, fetched {sum(pages.values())} ({len(pages)} distinct)")
assert set(pages) == reachable, (sorted(reachable - set(pages))[:5], sorted(set(pages) - reachable)[:5])
assert all(n == 1 for n in pages.values())
PY
# The server's access log, judged by testweb itself.
sleep 0.5  # log lines are written as answers finish
"$BIN/testweb" check-politeness "$WORK/access.log" "${web[@]}" --json > "$WORK/politeness.json"
python3 - "$WORK/politeness.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
print("violations:", report["violations"])
assert report["violations"] == 0, json.dumps(report)[:2000]
print("ok: no politeness violation")
PY
