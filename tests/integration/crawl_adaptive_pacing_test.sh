#!/usr/bin/env bash
# Adaptive pacing (fetcher/http/host_pacer.h) against a host that degrades
# under load (testweb serve --degrading-hosts, tests/testweb/degrading_hosts.h:
# latency = B x (1 + (requests in the last second / R)^2)). A default crawl
# (unscoped: adaptive pacing) must settle at a rate where the degrading
# host's latency stays near its unloaded value: the median latency of its
# last half of requests below 2 x B. The same crawl with --pacing fixed
# (and no per-address gap)
# asks as fast as answers come and must drive that latency well up (above
# 2 x B, and above the adaptive crawl's), so the test can fail. Latencies
# are the server's own (the access log's DURATION_MS). The crawl log
# carries each request's pace and address (FetchRecord.pace_ms, remote_ip):
# above the response time in the adaptive crawl, 0 in the fixed one.
source "$(dirname "$0")/lib.sh"

base_ms=20
web=(--seed 5 --hosts 4 --pages 400 --preset clean)
start_testweb "${web[@]}" --degrading-hosts 1 --degrade-base-ms "$base_ms" --degrade-capacity 12.5
start_cluster 1 1
"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
slow_host=www.site0.test

# crawl NAME ARGS...: one crawl to its end; the access-log lines it caused
# go to $WORK/NAME.access.
crawl() {
  local name=$1 before
  shift
  sleep 1.2  # the degrading host forgets the previous crawl's requests
  before=$(wc -l < "$WORK/access.log")
  "$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private "$@"
  local state
  state=$(wait_crawl_over 60)
  [ "$state" = done ] || fail "$name crawl ended as $state"
  sleep 0.5  # log lines are written as answers finish
  tail -n +"$((before + 1))" "$WORK/access.log" > "$WORK/$name.access"
  "$BIN/crawlctl" log --format jsonl > "$WORK/$name.crawl.jsonl"
}

crawl adaptive
# Without the per-address gap too (a floor under any pacing): today's old behaviour.
crawl fixed --pacing fixed --address-gap-ms 0

python3 - "$WORK" "$slow_host" "$base_ms" <<'PY'
import statistics, sys
work, host, base = sys.argv[1], sys.argv[2], float(sys.argv[3])

def latencies(name):
    rows = [l.rstrip("\n").split("\t") for l in open(f"{work}/{name}.access") if l.strip()]
    rows = [r for r in rows if r[1] == host and r[2] != "/robots.txt" and r[3] == "200"]
    rows.sort(key=lambda r: r[0])
    ms = [float(r[6]) for r in rows]
    assert len(ms) >= 100, f"{name}: only {len(ms)} requests to {host}"
    tail = ms[len(ms) // 2:]
    return len(ms), statistics.median(tail), max(tail)

adaptive = latencies("adaptive")
fixed = latencies("fixed")
print(f"{host}, base {base:.0f} ms: adaptive {adaptive[0]} requests, median of last half {adaptive[1]:.1f} ms; "
      f"fixed {fixed[0]} requests, median of last half {fixed[1]:.1f} ms")
assert adaptive[1] < 2 * base, f"adaptive pacing let latency climb: median {adaptive[1]:.1f} ms"
assert fixed[1] > 2 * base, f"fixed pacing did not load the host: median {fixed[1]:.1f} ms (test cannot fail?)"
assert fixed[1] > 1.3 * adaptive[1], (fixed, adaptive)

import json
def records(name):
    out = []
    for line in open(f"{work}/{name}.crawl.jsonl"):
        r = json.loads(line)
        if f"//{host}/" in r["url"] and not r["url"].endswith("/robots.txt"):
            out.append(r)
    return out
paces = [int(r.get("pace_ms", 0)) for r in records("adaptive")]
assert paces and statistics.median(paces) >= base, f"adaptive paces: median {statistics.median(paces)} ms"
assert all(r.get("remote_ip", "").startswith("127.") for r in records("adaptive")), "remote_ip missing"
assert all(int(r.get("pace_ms", 0)) == 0 for r in records("fixed")), "fixed pacing chose a gap"
print(f"adaptive pace median {statistics.median(paces)} ms; fixed pace 0")
PY
echo "ok: adaptive pacing keeps a degrading host near its unloaded latency; fixed pacing does not"
