#!/usr/bin/env bash
# End to end: a synthetic web of about 2,000 pages, a local cluster of real
# processes (1 name server, 2 queue servers, 2 fetchers) on loopback, one bfs
# crawl to completion. The fetched set must equal the reachable set testweb
# exports, each page fetched exactly once (checked from the crawl log and
# from the server's own access log), and robots.txt honoured.
source "$(dirname "$0")/lib.sh"

web=(--seed 11 --hosts 30 --pages 2000)
start_testweb "${web[@]}"
start_cluster 2 2

"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private
state=$(wait_crawl_over 300)
[ "$state" = done ] || fail "crawl ended as $state, expected done"

"$BIN/crawlctl" log > "$WORK/crawl.log"
"$BIN/testweb" export "${web[@]}" --out "$WORK/reachable.tsv"
status_json "$WORK/status.json"

python3 - "$WORK/crawl.log" "$WORK/reachable.tsv" "$WORK/access.log" "$WORK/status.json" <<'PY'
import collections, json, sys
log_path, reachable_path, access_path, status_path = sys.argv[1:5]
log = [l.rstrip("\n").split("\t") for l in open(log_path) if l.strip()]
assert all(len(f) == 8 or (len(f) == 9 and f[8].startswith("near-duplicate-of ")) for f in log), "crawl log lines must have 8 fields (9 for a near-duplicate)"
pages = [f for f in log if not f[3].endswith("/robots.txt")]
robots = [f for f in log if f[3].endswith("/robots.txt")]
reachable = {}
for line in open(reachable_path):
    parts = line.rstrip("\n").split("\t")
    if parts[0]:
        reachable[parts[0]] = parts[1:]
fetched = collections.Counter(f[3] for f in pages)
dupes = [u for u, n in fetched.items() if n > 1]
missing = sorted(set(reachable) - set(fetched))
extra = sorted(set(fetched) - set(reachable))
bad = [f for f in pages if f[1] != "200" and f[1] != "206"]
print(f"reachable {len(reachable)}, fetched {len(pages)} ({len(fetched)} distinct), robots {len(robots)}")
assert len(reachable) >= 1000, f"universe too small: {len(reachable)}"
assert not dupes, f"fetched more than once: {dupes[:5]}"
assert not missing, f"{len(missing)} reachable pages not fetched, e.g. {missing[:5]}"
assert not extra, f"{len(extra)} fetched pages not reachable (robots or nofollow ignored?), e.g. {extra[:5]}"
assert not bad, f"non-200 fetches: {bad[:3]}"
# Every fetched page except seeds names the page that linked to it.
for f in pages:
    if f[4] != "-":
        assert f[3] in reachable.get(f[4], []), f"referrer {f[4]} does not link to {f[3]}"
# Fetch order: timestamps never go backwards.
stamps = [f[0] for f in log]
assert stamps == sorted(stamps), "crawl log is not in fetch order"

# The server's view: each page requested once, robots.txt once per host,
# and nothing under a disallowed path.
access = [l.rstrip("\n").split("\t") for l in open(access_path) if l.strip()]
requests = collections.Counter((a[1], a[2]) for a in access)
again = [k for k, n in requests.items() if n > 1]
assert not again, f"server saw repeated requests: {again[:5]}"
# Everything requested is a reachable page or a robots.txt: disallowed and
# nofollow-only pages (left out of the export) were never asked for.
for a in access:
    if a[2] != "/robots.txt":
        assert f"http://{a[1]}{a[2]}" in reachable, f"requested a page that is not reachable: {a[1]}{a[2]}"
hosts_crawled = {a[1] for a in access}
robots_hosts = {a[1] for a in access if a[2] == "/robots.txt"}
assert hosts_crawled == robots_hosts, "a host was crawled without fetching robots.txt first"

status = json.load(open(status_path))
assert status["state"] == "done", status
assert status["pages_fetched"] == len(pages), (status["pages_fetched"], len(pages))
assert status["frontier_size"] == 0, status
# The universe links to robots-disallowed pages; the crawl saw and dropped them.
assert status["robots_disallowed"] > 0, status
print("ok: fetched set == reachable set, each once")
PY
