#!/usr/bin/env bash
# imbWEM's control side on the crawl path (queueserver/frontier/site_control.h):
# a structure-order crawl of a clean testweb of 4 hosts with
# a page limit per site (the Objective), a dismiss glob and a path-depth
# limit (target control rules) and keywords (the passive relevance rule).
# Checks, from the crawl log: no host past its page limit, no dismissed URL
# fetched; and the Reporting Engine's per-site reports in all three places:
# `crawlctl sites --json` (one per host, its pages equal to the log's, layer
# sizes per iteration), the queue server's report file
# DATA_DIR/reports/crawl-ID-sites.jsonl, and the status page's status.json.
source "$(dirname "$0")/lib.sh"

web=(--seed 3 --hosts 4 --pages 400 --preset clean)
start_testweb "${web[@]}"
start_cluster 1 1
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
max=30
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --order structure --load-take 5 \
  --site-max-pages $max --site-dismiss '*/wiki/*' --site-max-path-depth 2 --keywords p1,a1 \
  --schedule-size 50 > "$WORK/start.out"
id=$(awk '{print $2}' "$WORK/start.out")

# Bad settings are refused with a message, not started.
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --order bfs --site-max-pages 5 2> "$WORK/err" &&
  fail "site_* accepted for the bfs order"
grep -q "structure order only" "$WORK/err" || fail "unclear error: $(cat "$WORK/err")"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --order structure --site-dismiss 'a b' 2> "$WORK/err" &&
  fail "a URL glob with a space accepted"
grep -q "site_dismiss_patterns" "$WORK/err" || fail "unclear error: $(cat "$WORK/err")"

state=$(wait_crawl_over 300)
[ "$state" = done ] || fail "crawl ended as $state"
# Each site's rules are built at start: site_* cannot change mid-crawl.
"$BIN/crawlctl" set-param site_max_pages 5 2> "$WORK/err" && fail "site_max_pages changed"
grep -q "cannot change" "$WORK/err" || fail "unclear error: $(cat "$WORK/err")"
"$BIN/crawlctl" log > "$WORK/crawl.log"
"$BIN/crawlctl" sites --json > "$WORK/sites.json"
"$BIN/crawlctl" sites
http=$(tr -d '[:space:]' < "$WORK/cluster/nameserver.http-port")
curl -sf "http://127.0.0.1:$http/status.json" > "$WORK/status.json" || fail "no status.json"
file="$WORK/cluster/queueserver0/reports/crawl-$id-sites.jsonl"
[ -s "$file" ] || fail "no report file $file"

python3 - "$WORK/crawl.log" "$WORK/sites.json" "$file" "$WORK/status.json" $max <<'PY'
import collections, json, sys, urllib.parse
log_path, sites_path, file_path, status_path, limit = sys.argv[1:6]
limit = int(limit)
pages = collections.Counter()
for line in open(log_path):
    f = line.rstrip("\n").split("\t")
    if len(f) < 4 or f[3].endswith("/robots.txt"):
        continue
    u = urllib.parse.urlsplit(f[3])
    assert "/wiki/" not in u.path, "dismissed URL fetched: " + f[3]
    assert u.path.count("/") - 1 <= 2, "URL deeper than the path-depth limit fetched: " + f[3]
    pages[u.scheme + "://" + u.netloc] += 1
print("pages per site:", dict(pages))
assert pages and all(n <= limit for n in pages.values()), pages

sites = json.load(open(sites_path))["sites"]
by_site = {s["site"]: s for s in sites}
assert set(by_site) == set(pages), (sorted(by_site), sorted(pages))
for site, r in by_site.items():
    assert r["pages_crawled"] == pages[site], (site, r, pages[site])
    assert r["end_reason"] in ("objective.pages", "exhausted"), r
    assert len(r["layer_sizes"]) == r["iterations"] > 0, r
    assert r["layer_names"] == ["Primary", "Secondary", "Reserve"], r
assert any(r["end_reason"] == "objective.pages" for r in sites), "no site reached its page limit"
assert any(r["dismissed"] > 0 for r in sites), "nothing dismissed"

latest = {}
for line in open(file_path):
    r = json.loads(line)
    latest[r["site"]] = r
assert set(latest) == set(pages), sorted(latest)
assert all(latest[s]["pages_crawled"] == pages[s] for s in pages), latest

status = json.load(open(status_path))
shown = {r["site"] for r in status["site_reports"]}
assert shown == set(pages), shown
assert status["sites_reported"] >= len(pages), status["sites_reported"]
print("site reports:", {s: (r["end_reason"], r["pages_crawled"], r["dismissed"]) for s, r in by_site.items()})
PY
