#!/usr/bin/env python3
"""Precision and recall of near-duplicate clusters against a planted truth
(tests/integration/neardup_web.py writes it; crawl_near_duplicates_test.sh).

  neardup_check.py TRUTH CRAWL_LOG_JSONL [--min-precision P] [--min-recall R]
                   [--table]

TRUTH: "URL<TAB>FAMILY<TAB>VARIANT" lines; two pages are near-duplicates
when their families are equal. CRAWL_LOG_JSONL: `crawlctl log --format
jsonl`. Scored over the pairs of truth pages the crawl fetched with a
simhash: precision = predicted pairs that are true / predicted pairs,
recall = true pairs predicted / true pairs.

"crawl": the clusters the crawl made (near_duplicate_of: a page's cluster is
its first page, else itself). With --table also the clusters the same rule
makes at distance k = 0..3 from the logged simhashes, in fetch order (a
page joins the cluster of the earliest earlier page within k bits), as the
fingerprint tables do. Exits 1 when the crawl's figures are below the
minimums.
"""
import argparse
import itertools
import json
import sys


def pairs(cluster_of):
    by = {}
    for url, c in cluster_of.items():
        by.setdefault(c, []).append(url)
    out = set()
    for members in by.values():
        for a, b in itertools.combinations(sorted(members), 2):
            out.add((a, b))
    return out


def score(predicted, truth_pairs):
    hit = len(predicted & truth_pairs)
    precision = hit / len(predicted) if predicted else 1.0
    recall = hit / len(truth_pairs) if truth_pairs else 1.0
    return precision, recall, len(predicted)


def simulate(pages, k):
    """pages: [(timestamp, url, simhash)] in fetch order -> url -> cluster."""
    cluster, done = {}, []
    for _, url, fp in pages:
        best = None
        for t, u, f in done:
            if bin(f ^ fp).count("1") <= k and (best is None or t < best[0]):
                best = (t, u)
        cluster[url] = cluster[best[1]] if best else url
        done.append((_, url, fp))
    return cluster


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("truth")
    ap.add_argument("log")
    ap.add_argument("--min-precision", type=float, default=0)
    ap.add_argument("--min-recall", type=float, default=0)
    ap.add_argument("--table", action="store_true")
    a = ap.parse_args()
    family = {}
    for line in open(a.truth):
        f = line.rstrip("\n").split("\t")
        if len(f) >= 2:
            family[f[0]] = f[1]
    latest = {}
    for line in open(a.log):
        if not line.strip():
            continue
        r = json.loads(line)
        url = r.get("url", "")
        if url in family and int(r.get("simhash", "0")) != 0:
            latest[url] = r  # a refetch keeps its cluster; the last record counts
    fetched = sorted(latest.values(), key=lambda r: int(r.get("timestamp_unix_us", "0")))
    truth_pairs = pairs({r["url"]: family[r["url"]] for r in fetched})
    crawl = {r["url"]: r.get("near_duplicate_of") or r["url"] for r in fetched}
    p, rc, n = score(pairs(crawl), truth_pairs)
    print(f"truth pages fetched with a simhash: {len(fetched)} of {len(family)}; true pairs {len(truth_pairs)}")
    if a.table:
        print("k\tprecision\trecall\tpredicted_pairs")
        pages = [(int(r.get("timestamp_unix_us", "0")), r["url"], int(r["simhash"])) for r in fetched]
        for k in range(4):
            sp, sr, sn = score(pairs(simulate(pages, k)), truth_pairs)
            print(f"{k}\t{sp:.3f}\t{sr:.3f}\t{sn}")
    print(f"crawl\t{p:.3f}\t{rc:.3f}\t{n}")
    missed = sorted(truth_pairs - pairs(crawl))
    wrong = sorted(pairs(crawl) - truth_pairs)
    if missed:
        print("missed, e.g.:", " ".join(f"{x}~{y}" for x, y in missed[:3]))
    if wrong:
        print("wrong, e.g.:", " ".join(f"{x}~{y}" for x, y in wrong[:3]))
    if p < a.min_precision or rc < a.min_recall:
        print(f"FAIL: precision {p:.3f} (min {a.min_precision}), recall {rc:.3f} (min {a.min_recall})",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
