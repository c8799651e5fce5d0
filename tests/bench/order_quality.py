#!/usr/bin/env python3
"""Helpers of tests/bench/order_quality.sh: the omniscient order and the report.

  order_quality.py omniscient TRUTH GRAPH SEEDS BUDGET > FETCHED
  order_quality.py report OUT [--uncapped] PRESET:ORDER,ORDER... ...

The report reads, per preset, OUT/PRESET/{truth.tsv, runs.tsv, ORDER.log,
omniscient.fetched} and writes OUT/table.md and OUT/PRESET/curves.tsv.

Quality PageRank: the truth's PageRank (testweb export --truth) of pages of
kind spam, farm and trap counts as nothing, and the rest is scaled to sum to
1: link spam collects PageRank by construction (that is what it is for), so
counting it would reward an order for fetching spam. The omniscient order
fetches, among the discovered pages, the one of highest quality PageRank.

Waste: the share of fetches (robots.txt not counted) of each spam structure
in the first 25% of the reachable pages: spam CLDs (kind spam, the spam
preset's www.spam<k>.test), farm on one CLD (kind farm: the spam preset's
h<j>.linkfarm.test and the misbehaving preset's farm<j>.spam.test), traps.
URLs past the truth's cuts are classified by path (traps) and host (spam).
"""
import heapq
import os
import re
import sys

SPAM_KINDS = ("spam", "farm", "trap")
PAST_CUT = [
    (re.compile(r"^https?://[^/]+/(calendar|deep)/"), "trap"),
    (re.compile(r"^https?://www\.spam[0-9]+\.test/"), "spam"),
    (re.compile(r"^https?://h[0-9]+\.linkfarm\.test/"), "farm"),
]
ROBOTS = re.compile(r"^https?://[^/]+/robots\.txt$")
PCTS = [5, 10, 25, 50]


def load_truth(path):
    """(kind, quality rank) per URL; the quality ranks sum to 1."""
    kind, rank = {}, {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) != 4:
            continue
        kind[f[0]] = f[1]
        if f[1] != "disallowed":
            rank[f[0]] = 0.0 if f[1] in SPAM_KINDS else float(f[3])
    total = sum(rank.values()) or 1.0
    return kind, {u: r / total for u, r in rank.items()}


def classify(kind, url):
    k = kind.get(url)
    if k is not None:
        return k
    for pattern, name in PAST_CUT:
        if pattern.match(url):
            return name
    return "unknown"


def omniscient(truth, graph, seeds, budget):
    _, rank = load_truth(truth)
    out = {}
    for line in open(graph):
        f = line.rstrip("\n").split("\t")
        out[f[0]] = f[1:]
    heap, seen = [], set()

    def discover(u):
        if u in rank and u not in seen:
            seen.add(u)
            heapq.heappush(heap, (-rank[u], u))

    for s in open(seeds):
        discover(s.strip())
    n = 0
    while heap and n < budget:
        _, u = heapq.heappop(heap)
        sys.stdout.write(u + "\n")
        n += 1
        for v in out.get(u, ()):
            discover(v)


def fetches(path):
    """Fetched page URLs in order: the first http(s) field of each log line."""
    urls = []
    for line in open(path):
        url = next((x for x in line.rstrip("\n").split("\t") if x.startswith(("http://", "https://"))), None)
        if url and not ROBOTS.match(url):
            urls.append(url)
    return urls


def captured_at(urls, rank, ks):
    """Quality PageRank of the distinct pages among the first k, per k."""
    out, got, seen, i = [], 0.0, set(), 0
    for k in ks:
        while i < min(k, len(urls)):
            u = urls[i]
            if u not in seen:
                seen.add(u)
                got += rank.get(u, 0.0)
            i += 1
        out.append(got if len(urls) >= k else None)
    return out


def share(kind, urls, kinds):
    return sum(1 for u in urls if classify(kind, u) in kinds) / max(len(urls), 1)


def ratio(a, b):
    return "-" if a is None or not b else f"{a / b:.2f}x"


def fmt(v):
    return "-" if v is None else f"{v:.3f}"


def preset_rows(out, preset, orders, uncapped):
    d = os.path.join(out, preset)
    kind, rank = load_truth(os.path.join(d, "truth.tsv"))
    reachable = sum(1 for k in kind.values() if k != "disallowed")
    ks = [reachable * p // 100 for p in PCTS]
    runs = {}
    for line in open(os.path.join(d, "runs.tsv")):
        f = line.rstrip("\n").split("\t")
        runs[f[0]] = f
    names = [o for o in orders if o in runs] + ["omniscient"]
    logs = {n: fetches(os.path.join(d, "omniscient.fetched" if n == "omniscient" else f"{n}.log")) for n in names}
    at = {n: captured_at(logs[n], rank, ks) for n in names}
    rows = []
    for n in names:
        urls, head = logs[n], logs[n][: ks[2]]
        v = at[n][1]
        waste = [share(kind, head, {k}) for k in SPAM_KINDS]
        ended = "-" if n == "omniscient" else f"{runs[n][1]} ({runs[n][3]} s)"
        row = (f"| {preset} | {n} | {fmt(v)} | {ratio(v, at.get('bfs', [None] * 4)[1])} | "
               f"{ratio(v, at['omniscient'][1])} | " + " | ".join(f"{w:.1%}" for w in waste) +
               f" | {sum(waste):.1%} | {len(urls):,} | {ended} |")
        if uncapped and n == "omniscient":
            row += " - | - |"
        elif uncapped:
            tail = urls[len(urls) * 3 // 4:]
            row += f" {share(kind, urls, set(SPAM_KINDS)):.1%} | {share(kind, tail, set(SPAM_KINDS)):.1%} |"
        rows.append(row)
    with open(os.path.join(d, "curves.tsv"), "w") as f:
        step = max(reachable // 400, 1)
        for n in names:
            f.write(f"# {n}\n")
            pts = captured_at(logs[n], rank, list(range(step, min(len(logs[n]), reachable) + 1, step)))
            for k, c in zip(range(step, reachable + 1, step), pts):
                if c is not None:
                    f.write(f"{k / reachable:.5f}\t{c:.6f}\n")
            f.write("\n\n")
    return reachable, ks, rows


def report(out, uncapped, specs):
    lines = [
        "Quality PageRank captured at 10% of the reachable pages (spam, farm and trap pages count 0; the rest "
        "sums to 1), and the share of the first 25% of fetches wasted on each spam structure:",
        "",
    ]
    head = ("| preset | order | PR at 10% | vs bfs | vs omniscient | spam CLDs | farm (one CLD) | traps | "
            "all spam | fetches | crawl ended |")
    if uncapped:
        head += " spam+farm+trap share, whole crawl | same, last quarter |"
    lines += [head, "|" + "---|" * (head.count("|") - 1)]
    notes = []
    for spec in specs:
        preset, orders = spec.split(":", 1)
        reachable, ks, rows = preset_rows(out, preset, orders.split(","), uncapped)
        lines += rows
        notes.append(f"{preset}: {reachable:,} reachable pages; 10% = {ks[1]:,}, 25% = {ks[2]:,} fetches")
    lines += [""] + notes
    text = "\n".join(lines) + "\n"
    open(os.path.join(out, "table.md"), "w").write(text)
    print(text, end="")


def main(argv):
    if len(argv) == 6 and argv[1] == "omniscient":
        omniscient(argv[2], argv[3], argv[4], int(argv[5]))
        return 0
    if len(argv) >= 3 and argv[1] == "report":
        uncapped = "--uncapped" in argv[3:]
        report(argv[2], uncapped, [a for a in argv[3:] if a != "--uncapped"])
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
