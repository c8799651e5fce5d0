#!/usr/bin/env bash
# Traps end by themselves: an uncapped host_budget crawl
# with every setting default (no --max-pages, no --max-depth) of a small
# misbehaving universe, whose trap hosts serve endless /calendar/YYYY/MM/
# chains and /deep/a/a/.../ paths and whose link farm is one CLD of dense
# hosts. The per-CLD budgets from WIN and the trap rules
# (queueserver/frontier/host_budget.h, trap_rules.h) must end the crawl
# ("frontier exhausted") with at most 10% of its fetches on trap and farm
# URLs (ground truth: testweb export --truth, KIND column; calendar and deep
# URLs past the truth's cut count as trap). The crawl-delayed and slow
# switches are off so that the whole crawl fits in about a minute.
source "$(dirname "$0")/lib.sh"

web=(--seed 5 --hosts 30 --pages 1500 --preset misbehaving --disable robots-rules,slow)
start_testweb "${web[@]}"
start_cluster 1 2

"$BIN/testweb" seeds "${web[@]}" > "$WORK/seeds.txt"
# Fixed pacing and no address gap: the test is about traps ending (the spam
# web's endless trees under adaptive pacing outlasted the wait on a loaded
# machine; crawl_adaptive_pacing_test.sh tests pacing).
"$BIN/crawlctl" start --seeds "$WORK/seeds.txt" --allow-private --accept-self-signed --pacing fixed --address-gap-ms 0
state=$(wait_crawl_over "$(scaled 150)")
[ "$state" = done ] || fail "crawl ended as $state, expected done"

"$BIN/crawlctl" log > "$WORK/crawl.log"
"$BIN/testweb" export "${web[@]}" --truth "$WORK/truth.tsv"
python3 - "$WORK/crawl.log" "$WORK/truth.tsv" <<'PY'
import collections, sys
log_path, truth_path = sys.argv[1:3]
kinds = {}
for l in open(truth_path):
    f = l.rstrip("\n").split("\t")
    kinds[f[0]] = f[1]
pages = [l.split("\t")[3] for l in open(log_path) if l.strip()]
pages = [u for u in pages if not u.endswith("/robots.txt")]
def kind(u):
    if u in kinds: return kinds[u]
    return "trap" if "/calendar/" in u or "/deep/" in u else "?"
by_kind = collections.Counter(kind(u) for u in pages)
wasted = by_kind["trap"] + by_kind["farm"]
share = wasted / max(1, len(pages))
print(f"fetches {len(pages)}, by kind {dict(sorted(by_kind.items()))}, trap+farm {share:.1%}")
# The rules must not cost the real pages (all 1,302 were fetched when written).
normal = sum(1 for k in kinds.values() if k == "normal")
assert by_kind["normal"] >= 0.9 * normal, f"{by_kind['normal']} of {normal} normal pages fetched"
assert share <= 0.10, f"trap+farm share {share:.1%} above 10%"
print("ok: the uncapped crawl ended by itself with trap+farm at most 10%")
PY
