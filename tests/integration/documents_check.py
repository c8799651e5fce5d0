#!/usr/bin/env python3
"""Checks a crawl of the documents test web against its truth.

Usage: documents_check.py TRUTH_JSON CRAWL_JSONL CRAWLCTL OUT_DIR

TRUTH_JSON is documents_site.py's; CRAWL_JSONL is `crawlctl log --format
jsonl` of the finished crawl; CRAWLCTL searches it (CRAWL_NAMESERVER set).
Prints one line per check and a table per document type, writes
OUT_DIR/documents.txt, and exits 1 when any check fails:
  - every document is fetched, read (no document error, its type in the
    record) and found in the top 3 by a phrase of its body;
  - every page linked only from a feed is fetched, and found in the top 3
    by its item's title;
  - X-Robots-Tag noindex pages (ours, not another robot's) are fetched and
    never listed; the only link of a nofollow page is never fetched;
  - the original named by five copies as canonical is the only result of
    its phrase;
  - eight near-identical mirrors are at most two results ("N similar
    pages"), a page sharing their title and menu stays apart;
  - a meta refresh's target is fetched; hreflang alternates are shown.
"""
import collections
import json
import subprocess
import sys


def search(crawlctl, query, limit=10):
    out = subprocess.run([crawlctl, "search", "--json", "--limit", str(limit), query], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)["results"]


def main():
    truth = json.load(open(sys.argv[1]))
    records = [json.loads(line) for line in open(sys.argv[2]) if line.strip()]
    crawlctl, out_dir = sys.argv[3], sys.argv[4]
    fetched = {r["url"]: r for r in records if 200 <= r.get("status", 0) < 300}
    failures, lines = [], []

    def check(ok, what):
        lines.append(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    per_type = collections.defaultdict(lambda: [0, 0, 0])  # docs, read, found
    for d in truth["documents"]:
        row = per_type[d["type"]]
        row[0] += 1
        rec = fetched.get(d["url"])
        info = (rec or {}).get("document", {})
        read = rec is not None and info.get("type") == d["type"] and not info.get("error")
        row[1] += read
        urls = [r["url"] for r in search(crawlctl, d["phrase"])[:3]]
        found = d["url"] in urls
        row[2] += found
        check(read, "%s read (%s)" % (d["url"], info.get("error", "not fetched" if rec is None else "")))
        check(found, "%s found by '%s' in the top 3 (got %s)" % (d["url"], d["phrase"], urls))

    for it in truth["feed_items"]:
        check(it["url"] in fetched, "feed-only page %s fetched" % it["url"])
        urls = [r["url"] for r in search(crawlctl, it["title"])[:3]]
        check(it["url"] in urls, "feed item %s found by its title (got %s)" % (it["url"], urls))

    for p in truth["noindex"]:
        check(p["url"] in fetched, "noindex page %s fetched" % p["url"])
        urls = [r["url"] for r in search(crawlctl, p["phrase"])]
        check(p["url"] not in urls, "noindex page %s never listed (got %s)" % (p["url"], urls))
    for p in truth["indexed_despite_header"]:
        urls = [r["url"] for r in search(crawlctl, p["phrase"])[:3]]
        check(p["url"] in urls, "page with another robot's noindex %s listed (got %s)" % (p["url"], urls))
    target = truth["nofollow_target"]
    check(all(r["url"] != target for r in records), "nofollow page's only link %s never fetched" % target)

    c = truth["canonical"]
    urls = [r["url"] for r in search(crawlctl, c["phrase"])]
    copies = [u for u in urls if u in c["copies"]]
    check(urls[:1] == [c["url"]] and not copies,
          "canonical original %s is the only result of its phrase (got %s)" % (c["url"], urls))

    nd = truth["near_duplicates"]
    results = search(crawlctl, nd["phrase"], limit=20)
    mirrors = [r for r in results if r["url"] in nd["urls"]]
    similar = sum(r.get("similar_pages", 0) for r in mirrors)
    # Simhash at distance 3 is a test of chance per pair (a date line flips
    # a bit or two of 64); the cluster may split, never stay eight.
    check(1 <= len(mirrors) <= 2 and len(mirrors) + similar >= len(nd["urls"]) - 1,
          "%d near-identical mirrors are at most two results (got %d, standing for %d similar pages: %s)" %
          (len(nd["urls"]), len(mirrors), similar, [r["url"] for r in mirrors]))
    distinct = [r for r in search(crawlctl, "A mirrored article", limit=20) if r["url"] == nd["distinct"]]
    check(len(distinct) == 1, "a page sharing the mirrors' title and menu is not folded into them")

    check(truth["refresh_target"] in fetched, "meta refresh target %s fetched" % truth["refresh_target"])
    h = truth["hreflang"]
    hits = [r for r in search(crawlctl, h["phrase"])[:3] if r["url"] == h["url"]]
    shown = sorted(a.get("url", "") for a in (hits[0].get("alternates", []) if hits else []))
    check(shown == sorted(h["alternates"]), "hreflang alternates of %s shown (got %s)" % (h["url"], shown))

    table = ["type   docs  read  found in top 3"]
    for t in sorted(per_type):
        n, r, f = per_type[t]
        table.append("%-6s %4d  %4d  %4d" % (t, n, r, f))
    report = "\n".join(table + [""] + lines) + "\n"
    print(report)
    with open(out_dir + "/documents.txt", "w") as f:
        f.write(report)
    print("%d checks, %d failed" % (len(lines), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
