#!/usr/bin/env bash
# A crawl of the misbehaving synthetic web (testweb --preset misbehaving:
# robots rules and Crawl-delay, 5xx and unreachable robots.txt, sitemaps,
# redirect chains and loops, 404/410/500/503, slow and trickling hosts,
# pages over 1 MiB, gzip, PDF/PNG/text files, https with a self-signed
# certificate, session-id and utm duplicates, soft 404s, malformed HTML,
# traps, a link farm, multi-host CLDs) by a local cluster with a page budget.
# It must end, stay polite by testweb's own judge of its access log (no
# second connection to a host, Crawl-delay kept, no disallowed path), and
# fetch nothing outside the reachable set testweb exports.
source "$(dirname "$0")/lib.sh"

web=(--seed 5 --hosts 40 --pages 3000 --preset misbehaving)
budget=1200
start_testweb "${web[@]}"
start_cluster 2 2

"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --accept-self-signed --max-pages "$budget"
state=$(wait_crawl_over 500)
[ "$state" = done ] || fail "crawl ended as $state, expected done"

"$BIN/crawlctl" log > "$WORK/crawl.log"
"$BIN/testweb" export "${web[@]}" --out "$WORK/reachable.tsv" --truth "$WORK/truth.tsv"
"$BIN/testweb" pagerank-captured --truth "$WORK/truth.tsv" --fetched "$WORK/crawl.log" --every 100 \
  > "$WORK/captured.tsv"
sleep 0.5  # log lines are written as answers finish
"$BIN/testweb" check-politeness "$WORK/access.log" "${web[@]}" --json > "$WORK/politeness.json"

python3 - "$WORK/crawl.log" "$WORK/reachable.tsv" "$WORK/truth.tsv" "$WORK/politeness.json" \
  "$WORK/captured.tsv" "$budget" <<'PY'
import collections, json, sys
log_path, reachable_path, truth_path, polite_path, captured_path, budget = sys.argv[1:7]
log = [l.rstrip("\n").split("\t") for l in open(log_path) if l.strip()]
assert all(len(f) == 8 or (len(f) == 9 and f[8].startswith("near-duplicate-of ")) for f in log), "crawl log lines must have 8 fields (9 for a near-duplicate)"
pages = [f for f in log if not f[3].endswith("/robots.txt")]
reachable = {l.split("\t")[0].rstrip("\n") for l in open(reachable_path) if l.strip()}
kinds = {}
for l in open(truth_path):
    f = l.rstrip("\n").split("\t")
    kinds[f[0]] = f[1]
fetched = collections.Counter(f[3] for f in pages)
statuses = collections.Counter(f[1] for f in pages)
by_kind = collections.Counter(kinds.get(u, "?") for u in fetched)
print(f"reachable {len(reachable)}, fetched {len(pages)} ({len(fetched)} distinct), budget {budget}")
print("statuses:", dict(sorted(statuses.items())))
print("kinds fetched:", dict(sorted(by_kind.items())))
https = [u for u in fetched if u.startswith("https://")]
sitemaps = [u for u in fetched if "sitemap" in u]
print(f"https URLs fetched {len(https)}, sitemaps fetched {len(sitemaps)}: {sitemaps[:4]}")
# The https hosts (self-signed certificate) are reachable and were crawled.
assert https, "no https:// URL fetched (TLS to testweb with --accept-self-signed failed?)"
extra = sorted(set(fetched) - reachable)
assert not extra, f"{len(extra)} fetched URLs outside the reachable set, e.g. {extra[:5]}"
assert len(fetched) >= int(budget) // 2, f"only {len(fetched)} pages fetched"
assert len(pages) <= int(budget) * 1.2, f"{len(pages)} fetches for a budget of {budget}"

report = json.load(open(polite_path))
bad = [h for h in report.get("hosts", []) if any(
    h.get(k, 0) for k in ("crawl_delay_violations", "disallowed_requests", "concurrency_violations"))]
print("politeness violations:", report["violations"], bad[:3])
assert report["violations"] == 0, json.dumps(report)[:2000]

captured = [l.split("\t") for l in open(captured_path) if l.strip()]
final = float(captured[-1][1])
print(f"PageRank captured after {captured[-1][0]} pages: {final:.4f}")
assert 0 < final <= 1 + 1e-9
print("ok: misbehaving crawl ended polite, inside the reachable set")
PY
