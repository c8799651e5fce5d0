#!/usr/bin/env bash
# HTTP/2: the politeness web of politeness_test.sh
# (robots.txt with Allow, wildcards and Crawl-delay) crawled with
# `crawlctl start --h2-prior-knowledge`, testweb answering h2c. The crawl
# finds the whole reachable set, the same pages the HTTP/1.1 crawl of
# politeness_test.sh finds; testweb's judge of its access log sees one
# connection per host at a time, request starts Crawl-delay apart and no
# disallowed path; and requests overlapped on one connection, which only
# HTTP/2's streams allow (HTTP/1.1 answers one request at a time). Pacing
# is fixed: adaptive pacing (the default of an unscoped crawl) runs a host's
# streams one at a time, each a multiple of the last response time after the
# previous one (fetcher/http/host_pacer.h); and without the per-address gap,
# which is a floor under any pacing.
source "$(dirname "$0")/lib.sh"

web=(--seed 9 --hosts 24 --pages 300 --preset clean --enable robots-rules)
start_testweb "${web[@]}"
start_cluster 2 2
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --h2-prior-knowledge --pacing fixed --address-gap-ms 0
state=$(wait_crawl_over 400)
[ "$state" = done ] || fail "crawl ended as $state"

"$BIN/crawlctl" log > "$WORK/crawl.log"
"$BIN/testweb" export "${web[@]}" --out "$WORK/reachable.tsv"
python3 - "$WORK/crawl.log" "$WORK/reachable.tsv" <<'PY'
import collections, sys
log = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
failed = [f for f in log if int(f[1]) < 0]
assert not failed, failed[:5]
pages = collections.Counter(f[3] for f in log if not f[3].endswith("/robots.txt"))
reachable = {l.split("\t")[0].rstrip("\n") for l in open(sys.argv[2]) if l.strip()}
print(f"reachable {len(reachable)}, fetched {sum(pages.values())} ({len(pages)} distinct)")
assert set(pages) == reachable, (sorted(reachable - set(pages))[:5], sorted(set(pages) - reachable)[:5])
assert all(n == 1 for n in pages.values())
PY
sleep 0.5  # log lines are written as answers finish
"$BIN/testweb" check-politeness "$WORK/access.log" "${web[@]}" --json > "$WORK/politeness.json"
python3 - "$WORK/politeness.json" "$WORK/access.log" <<'PY'
import collections, json, sys
report = json.load(open(sys.argv[1]))
print("violations:", report["violations"])
assert report["violations"] == 0, json.dumps(report)[:2000]
# Requests of one connection that overlap in time: h2 streams in flight.
by_conn = collections.defaultdict(list)
for line in open(sys.argv[2]):
    f = line.rstrip("\n").split("\t")
    if len(f) < 8:
        continue
    # start (ISO 8601, microseconds), duration ms, connection
    from datetime import datetime
    start = datetime.strptime(f[0], "%Y-%m-%dT%H:%M:%S.%fZ").timestamp() * 1000
    by_conn[f[7]].append((start, start + float(f[6])))
overlaps = 0
for spans in by_conn.values():
    spans.sort()
    overlaps += sum(1 for a, b in zip(spans, spans[1:]) if b[0] < a[1])
print(f"connections {len(by_conn)}, requests overlapping on a connection {overlaps}")
assert overlaps > 0, "no two requests shared a connection at once: HTTP/2 streams were not used"
print("ok: h2 crawl complete and polite")
PY
