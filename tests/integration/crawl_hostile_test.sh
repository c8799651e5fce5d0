#!/usr/bin/env bash
# A crawl of the hostile synthetic web (testweb --preset hostile: normal
# hosts among hosts that trickle headers a byte every 2 s (slowloris), send
# an endless chunked body, a gzip bomb (4 MiB -> 4 GiB), 1 MiB of headers,
# redirect loops and an endless redirect chain, a page of 10,000 links,
# invalid UTF-8 and NUL bytes, a 10 MiB robots.txt, sitemap bombs (an index
# of gzip sitemaps of 50,500 URLs of 1 KB each, one inflating to 64 MiB, one
# of URLs over 2,048 bytes), a page of links over 2,048 bytes, and endless
# calendar and /deep/ traps, hostile documents for the document worker:
# truncated and garbage-xref PDFs, a PDF whose page inflates to 512 MiB of
# text operators, a .docx zip bomb inflating to 2 GiB, billion-laughs XML
# in a .docx, an .odt and an RSS feed) by a local cluster. It must:
#   - end by itself: the traps and the chain are endless, so the crawl is
#     scoped with --max-depth = 4 x (deepest normal page of the ground truth)
#     + DEPTH_MARGIN; every trap then ends at that depth (a few URLs per
#     level). The crawler's depth is the hop count of the path a URL was
#     first found on (as Heritrix's hops), not the shortest path the ground
#     truth gives: with 2 fetchers x 4 lanes fetching hosts in parallel, a
#     host is often first reached through a long cross-host path, so a page
#     at true depth 5 was seen at depth 11 in one run, and under ASan a page
#     at true depth 3 at depth 20 (its only out-link, at 21, was then cut by
#     the old bound of 2 x 6 + 8); the bound leaves room. The trap rules'
#     hop limit (--trap-max-hops, 20 by default) is raised to the same bound,
#     or it cuts such a page's out-links at 21 as the old bound did (an
#     ASan run found www.site0.test/blog/a4/p280.html, true depth 4, never
#     fetched: its only in-link was first seen 20 hops out);
#   - fetch every reachable, allowed normal page, none more than twice;
#   - fetch nothing outside the ground truth except past-the-cut trap,
#     chain and bad-byte URLs of hostile and trap hosts;
#   - keep every fetcher's peak RSS (VmHWM, sampled with VmRSS from
#     /proc/PID/status during the crawl) under RSS_LIMIT_MIB, and every
#     queue server's under QS_RSS_LIMIT_MIB (docs/OPERATIONS.md);
#   - hold the URL limits: no URL over 2,048 bytes in the crawl log, none
#     of the bombs' URLs fetched, the per-host caps engaged (queue servers'
#     crawl_queueserver_over_host_cap_urls_total above 0);
#   - keep every document worker's RSS (the fetchers' children, sampled)
#     under WORKER_RSS_LIMIT_MIB, and give each hostile document a record
#     whose document.error says why it was not read;
#   - leave every process alive.
source "$(dirname "$0")/lib.sh"

web=(--seed 9 --hosts 30 --pages 1500 --preset hostile)
DEPTH_MARGIN=16
# Measured peak (docs/OPERATIONS.md "Hostile servers"): 50-90 MiB per
# fetcher on this web; the bound leaves room for a loaded machine and
# allocator slack while staying far below what one unbounded answer
# (a 4 GiB bomb, an endless body) would cost.
# CRAWL_TEST_RSS_SLACK_MIB (deploy/test.sh sets it for ASan): an ASan
# allocator keeps freed blocks in a 256 MiB quarantine and pads every block,
# which says nothing about the fetcher's own bounds.
RSS_LIMIT_MIB=$(( ${RSS_LIMIT_MIB:-300} + ${CRAWL_TEST_RSS_SLACK_MIB:-0} ))
# Queue servers (docs/OPERATIONS.md "Hostile servers"): the per-host caps
# bound what is kept; the peak is ingest, a result batch of up to one
# sitemap's links (at most 16 MiB of URL text) from each fetcher at once,
# held as the request, its parsed links and their canonical copies
# (docs/BENCHMARKS.md has the measured peaks).
QS_RSS_LIMIT_MIB=$(( ${QS_RSS_LIMIT_MIB:-500} + ${CRAWL_TEST_RSS_SLACK_MIB:-0} ))
# Document workers: RLIMIT_AS is 1 GiB (--document-memory-mb), so their
# resident set stays below it whatever a document asks for.
WORKER_RSS_LIMIT_MIB=$(( ${WORKER_RSS_LIMIT_MIB:-1024} + ${CRAWL_TEST_RSS_SLACK_MIB:-0} ))

start_testweb "${web[@]}" --threads 2
# slow.pdf takes 9 s to parse on this machine's cores, near the default
# 10 s limit: a quiet machine parsed it in time, and the test failed. With
# 3 s it is timed out on a core three times faster still.
start_cluster 2 2 "--document-timeout-ms 3000"
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/testweb" export "${web[@]}" --truth "$WORK/truth.tsv"
max_normal_depth=$(awk -F'\t' '$2 == "normal" && $3 > m { m = $3 } END { print m + 0 }' "$WORK/truth.tsv")
max_depth=$((4 * max_normal_depth + DEPTH_MARGIN))
echo "deepest normal page at depth $max_normal_depth: crawling with --max-depth $max_depth"

# RSS of every fetcher and queue server, every 200 ms, until killed; and of
# the fetchers' document workers (their children, started on the first
# document and replaced when one is killed) in worker.samples.
watched_pids=()
fetcher_pids=()
for f in "$WORK"/cluster/fetcher*.pid; do fetcher_pids+=("$(cat "$f")"); done
for f in "$WORK"/cluster/fetcher*.pid "$WORK"/cluster/queueserver*.pid; do watched_pids+=("$(cat "$f")"); done
: > "$WORK/qs.pids"
for f in "$WORK"/cluster/queueserver*.pid; do cat "$f" >> "$WORK/qs.pids"; done
: > "$WORK/worker.samples"
(
  while true; do
    for p in "${watched_pids[@]}"; do
      rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$p/status" 2>/dev/null || echo gone)
      echo "$p ${rss:-gone}"  # a zombie's status has no VmRSS line
    done
    for p in "${fetcher_pids[@]}"; do
      for c in $(cat /proc/"$p"/task/*/children 2>/dev/null); do
        rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$c/status" 2>/dev/null || echo gone)
        # A killed worker not yet reaped is a zombie: no VmRSS line.
        echo "$c ${rss:-gone}" >> "$WORK/worker.samples"
      done
    done
    sleep 0.2
  done
) > "$WORK/rss.samples" &
_bg_pids+=($!)

# CRAWL_START_ARGS: more `crawlctl start` flags (crawl_h2_hostile_test.sh).
# Fixed pacing and no address gap: this test is about limits and endings;
# adaptive pacing spaces the slow hosts' requests by twice their seconds-long
# answers, which doubled the crawl's length (crawl_adaptive_pacing_test.sh
# tests pacing).
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --max-depth "$max_depth" --trap-max-hops "$max_depth" \
  --pacing fixed --address-gap-ms 0 ${CRAWL_START_ARGS:-} > /dev/null
# A slowloris URL holds its schedule's results until the total time limit
# ends it (30 s by default); 20 s keeps the test shorter. Not 10 s: on a
# loaded machine a bomb sitemap (50 MB inflated, parsed while the next ones
# wait on the same h2 connection) or a gzip bomb took longer than that, and
# its fetch timed out. The first schedule (the seeds) has no slowloris URL;
# fetchers pick this up at their next poll.
"$BIN/crawlctl" set-param fetch_timeout_ms 20000 > /dev/null
# A bomb host's sitemaps hand out about 67,000 URLs (16 MiB of URL text per
# file), under the default sitemap cap of 100,000; a lower cap, set while
# the crawl runs, shows the cap engages and takes a change.
"$BIN/crawlctl" set-param max_sitemap_urls_per_host 20000 > /dev/null
state=$(wait_crawl_over 300)
[ "$state" = done ] || fail "crawl ended as $state, expected done"

# Peak RSS as the kernel counts it (VmHWM), and the sampled curve.
: > "$WORK/rss.peaks"
for p in "${watched_pids[@]}"; do
  kill -0 "$p" 2>/dev/null || fail "process $p died during the hostile crawl"
  echo "$p $(awk '/^VmHWM:/ { print $2 }' "/proc/$p/status")" >> "$WORK/rss.peaks"
done
for f in "$WORK"/cluster/*.pid; do
  kill -0 "$(cat "$f")" 2>/dev/null || fail "$(basename "$f" .pid) died during the hostile crawl"
done
kill -0 "${_bg_pids[0]}" 2>/dev/null || fail "testweb died during the hostile crawl"

# The per-host caps refused URLs (the bombs list about 67,000 on one host).
over_cap=0
for f in "$WORK"/cluster/queueserver*.http-port; do
  n=$(curl -fsS "http://127.0.0.1:$(cat "$f")/metrics" | awk '/^crawl_queueserver_over_host_cap_urls_total/ { print int($2) }')
  over_cap=$((over_cap + ${n:-0}))
done
echo "URLs refused over their host's cap: $over_cap"
[ "$over_cap" -gt 0 ] || fail "no URL was refused over its host's cap: the sitemap bombs were not capped"

"$BIN/crawlctl" log > "$WORK/crawl.log"
"$BIN/crawlctl" log --format jsonl > "$WORK/crawl.jsonl"
for f in "$WORK"/cluster/fetcher*.http-port; do
  curl -fsS "http://127.0.0.1:$(cat "$f")/metrics" | grep -E '^crawl_fetcher_(documents_total|document_worker)' || true
done
python3 - "$WORK/crawl.jsonl" "$WORK/worker.samples" "$WORKER_RSS_LIMIT_MIB" <<'PY'
import json, sys, urllib.parse
jsonl, samples, limit_mib = sys.argv[1:4]
docs = {}
for line in open(jsonl):
    r = json.loads(line)
    path = urllib.parse.urlsplit(r["url"]).path
    if path.startswith("/bomb-docs/") and int(r.get("status", 0)) == 200:
        docs.setdefault(path[len("/bomb-docs/"):], []).append(r)
print(f"hostile documents fetched: {sorted(docs)}")
binary = ["truncated.pdf", "bad-xref.pdf", "slow.pdf", "zip-bomb.docx", "laughs.docx", "laughs.odt"]
missing = [n for n in binary if n not in docs]
assert not missing, f"hostile documents never fetched: {missing}"
for name in binary:
    for r in docs[name]:
        doc = r.get("document", {})
        err = doc.get("error", "")
        print(f"  {name}: {err or 'parsed'}")
        assert doc.get("type"), f"{name}: no document info in its record"
        # poppler rebuilds a garbage xref table from the objects: that one
        # may be read; every other one must fail with a reason.
        if name == "bad-xref.pdf":
            continue
        assert err, f"{name}: no document error in its record: {doc}"
        assert not r.get("mini_index"), f"{name}: a document that could not be read was indexed"
peak = 0
for l in open(samples):
    p, rss = l.split()
    if rss != "gone":
        peak = max(peak, int(rss))
print(f"document workers: sampled peak RSS {peak / 1024:.1f} MiB; bound {limit_mib} MiB")
assert peak < int(limit_mib) * 1024, f"a document worker peaked at {peak / 1024:.1f} MiB"
PY
python3 - "$WORK/crawl.log" "$WORK/truth.tsv" "$WORK/rss.samples" "$WORK/rss.peaks" "$RSS_LIMIT_MIB" \
  "$max_normal_depth" "$WORK/qs.pids" "$QS_RSS_LIMIT_MIB" <<'PY'
import collections, sys, urllib.parse
log_path, truth_path, samples_path, peaks_path, limit_mib, max_normal_depth, qs_pids_path, qs_limit_mib = sys.argv[1:9]
log = [l.rstrip("\n").split("\t") for l in open(log_path) if l.strip()]
assert all(len(f) == 8 or (len(f) == 9 and f[8].startswith("near-duplicate-of ")) for f in log), "crawl log lines must have 8 fields (9 for a near-duplicate)"
pages = [f for f in log if not f[3].endswith("/robots.txt")]
truth = {}
for l in open(truth_path):
    f = l.rstrip("\n").split("\t")
    truth[f[0]] = (f[1], int(f[2]))
fetched = collections.Counter(f[3] for f in pages)
status_of = collections.defaultdict(list)
for f in pages:
    status_of[f[3]].append(int(f[1]))

# Every reachable, allowed normal page: fetched, none more than twice.
normal = {u for u, (kind, _) in truth.items() if kind == "normal"}
missing = sorted(normal - set(fetched))
twice = sorted(u for u, n in fetched.items() if n == 2)
over = sorted(u for u, n in fetched.items() if n > 2 and u in normal)
print(f"normal pages {len(normal)} (depth <= {max_normal_depth}), fetched {len(pages)} URLs "
      f"({len(fetched)} distinct), fetched twice {len(twice)}")
assert not missing, f"{len(missing)} normal pages never fetched, e.g. {missing[:5]}"
assert not over, f"normal pages fetched more than twice: {over[:5]}"

# What the hostile URLs gave (status < 0: a fetch error, see fetcher/fetch_error.h).
def what(u):
    path = urllib.parse.urlsplit(u).path
    return path.split("/")[1] if path.count("/") > 1 else path.lstrip("/")
# (Statuses of the URLs the truth lists; bad-byte hrefs repaired into
# URLs the server does not know answer 404 and are counted apart.)
by = collections.defaultdict(collections.Counter)
repaired = collections.Counter()
for u, statuses in status_of.items():
    kind = truth.get(u, ("outside",))[0]
    for s in statuses:
        if kind in ("hostile", "trap"):
            by[what(u)][s] += 1
        elif kind == "outside":
            repaired[what(u) + " " + str(s)] += 1
for k in sorted(by):
    print(f"  {k:14s} {dict(by[k])}")
print(f"  outside the truth: {dict(repaired)}")
for k in ("slowloris", "endless", "bomb", "huge-headers", "bytes", "flood.html"):
    assert by.get(k), f"no {k} URL was fetched: the hostile hosts were not reached"
assert set(by["endless"]) == {200}, f"endless body: {dict(by['endless'])} (cut at the range: 200)"
assert set(by["bomb"]) == {200}, f"gzip bomb: {dict(by['bomb'])} (decoded and cut: 200)"
assert all(s < 0 for s in by["slowloris"]), f"slowloris: {dict(by['slowloris'])} (a timeout)"
assert all(s < 0 for s in by["huge-headers"]), f"huge headers: {dict(by['huge-headers'])} (refused)"
assert set(by["bytes"]) == {200} and set(by["flood.html"]) == {200}
# Sitemap bombs and long links: fetched, and none of what they list.
for k in ("bomb-sitemaps", "long-links.html"):
    assert set(by.get(k, {})) == {200}, f"{k}: {dict(by.get(k, {}))} (fetched: 200)"
# The index (in the truth) and the 6 sitemaps it lists (not in it).
bomb_maps = [s for u, st in status_of.items() if what(u) == "bomb-sitemaps" for s in st]
assert bomb_maps.count(200) >= 7, f"bomb sitemaps fetched: {collections.Counter(bomb_maps)} (the index and its 6)"
bomb_items = [u for u in fetched if what(u) == "bomb-items"]
assert not bomb_items, f"URLs the bombs list were fetched: {bomb_items[:3]}"
too_long = [f[3] for f in log if len(f[3].encode()) > 2048]
assert not too_long, f"{len(too_long)} URLs over 2,048 bytes in the crawl log, e.g. {too_long[0][:100]}"

# Outside the truth only what the truth cuts or leaves out: trap, chain and
# bad-byte URLs.
outside = sorted(u for u in fetched if u not in truth)
bad = [u for u in outside if what(u) not in ("calendar", "deep", "chain", "bytes", "bomb-sitemaps")]
print(f"fetched outside the truth: {len(outside)} (past the trap cuts and bad-byte hrefs)")
assert not bad, f"fetched outside the ground truth: {bad[:5]}"

# Memory.
samples = collections.defaultdict(list)
for l in open(samples_path):
    p, rss = l.split()
    if rss != "gone":
        samples[p].append(int(rss))
qs_pids = set(open(qs_pids_path).read().split())
for l in open(peaks_path):
    p, hwm = l.split()
    s = samples.get(p, [0])
    kind, bound = ("queue server", qs_limit_mib) if p in qs_pids else ("fetcher", limit_mib)
    print(f"{kind} {p}: peak RSS (VmHWM) {int(hwm) / 1024:.1f} MiB, sampled max {max(s) / 1024:.1f} MiB, "
          f"median {sorted(s)[len(s) // 2] / 1024:.1f} MiB over {len(s)} samples; bound {bound} MiB")
    peak = max(int(hwm), max(s))
    assert peak < int(bound) * 1024, f"{kind} {p} peaked at {peak / 1024:.1f} MiB"
print("ok: hostile crawl ended, every normal page fetched, memory bounded, every process alive")
PY
