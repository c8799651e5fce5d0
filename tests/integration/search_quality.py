#!/usr/bin/env python3
"""Known-item search quality on a real documentation site (search_quality_test.sh).

  search_quality.py pick LOG BASE_URL DOCROOT COUNT SEED > picks.jsonl
      From the crawl log (crawlctl log: tab-separated time, status, bytes,
      URL, referrer, media type, ...), the fetched HTML pages (status 2xx,
      text/html) under BASE_URL whose file under DOCROOT has a non-empty
      <title> that no other such page has; COUNT of them chosen with random.Random(SEED), one JSON line
      each: {"url", "file", "title"}.
  search_quality.py check PICKS BASE_URL DOCROOT TOP CRAWLCTL
      For every pick, asks `CRAWLCTL search --json --limit TOP` with the
      title's words and counts the picks whose page is among the results (a
      result counts when it is the same file: "/dir/" and "/dir/index.html"
      are one page). Prints the misses with the score parts of the results and of
      the page (found with --limit 200), and "known-item: HITS/N in the top TOP".
"""
import html.parser
import json
import os
import random
import re
import subprocess
import sys
import urllib.parse


class TitleParser(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.in_title = False
        self.done = False
        self.title = ""

    def handle_starttag(self, tag, attrs):
        if tag == "title" and not self.done:
            self.in_title = True

    def handle_endtag(self, tag):
        if tag == "title" and self.in_title:
            self.in_title = False
            self.done = True

    def handle_data(self, data):
        if self.in_title:
            self.title += data


def file_of(url, base, docroot):
    """The file under docroot that serves url, or None outside base."""
    if not url.startswith(base):
        return None
    path = urllib.parse.unquote(urllib.parse.urlsplit(url).path)
    rel = path[len(urllib.parse.urlsplit(base).path):].lstrip("/")
    full = os.path.normpath(os.path.join(docroot, rel))
    if os.path.isdir(full):
        full = os.path.join(full, "index.html")
    return full


def title_of(path):
    p = TitleParser()
    with open(path, encoding="utf-8", errors="replace") as f:
        p.feed(f.read())
    return " ".join(p.title.split())


def pick(log, base, docroot, count, seed):
    pages = {}
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 6 or not fields[1].startswith("2") or not fields[5].startswith("text/html"):
                continue
            url = fields[3]
            path = file_of(url, base, docroot)
            if path is None or not os.path.isfile(path) or path in pages.values():
                continue
            pages[url] = path
    titled = []
    for url in sorted(pages):
        title = title_of(pages[url])
        if title:
            titled.append({"url": url, "file": pages[url], "title": title})
    # A known item is named by its title: pages sharing their title with
    # another (python3-doc's 28 "Index" pages, genindex-*.html) name none.
    count_of = {}
    for c in titled:
        count_of[c["title"].lower()] = count_of.get(c["title"].lower(), 0) + 1
    candidates = [c for c in titled if count_of[c["title"].lower()] == 1]
    if len(candidates) < count:
        sys.exit(f"only {len(candidates)} fetched HTML pages with a title of their own, {count} wanted")
    print(f"{len(titled)} fetched HTML pages with a title, {len(candidates)} with a title no other page has; "
          f"picking {count}", file=sys.stderr)
    for c in random.Random(seed).sample(candidates, count):
        print(json.dumps(c))


def parts(r):
    return (f"({r['score']:.2f} = rank {r['doc_rank']:.2f} + bonus {r['bonus']:.2f} + rel {r['relevance']:.2f}"
            f" + prox {r['proximity']:.2f})")


def check(picks_file, base, docroot, top, crawlctl):
    picks = [json.loads(l) for l in open(picks_file, encoding="utf-8")]
    hits = 0
    for p in picks:
        # The title's words; punctuation (and so every query operator) dropped.
        query = " ".join(re.findall(r"\w+", p["title"]))
        out = subprocess.run([crawlctl, "search", "--json", "--limit", str(top), query],
                             check=True, capture_output=True, text=True).stdout
        results = json.loads(out)["results"]
        files = [file_of(r["url"], base, docroot) for r in results]
        if p["file"] in files:
            hits += 1
        else:
            # Why: the score parts of the results and, when it is found
            # further down, of the page itself.
            deep = json.loads(subprocess.run([crawlctl, "search", "--json", "--limit", "200", query],
                                             check=True, capture_output=True, text=True).stdout)["results"]
            rank = next((i for i, r in enumerate(deep) if file_of(r["url"], base, docroot) == p["file"]), None)
            shown = results + ([deep[rank]] if rank is not None else [])
            got = "; ".join(f"{r['url'][len(base):] or '/'} {parts(r)}" for r in shown) or "no results"
            where = f"at {rank + 1}" if rank is not None else "not in the top 200"
            print(f"miss ({where}): {p['url'][len(base):]} [{query}] -> {got}")
    print(f"known-item: {hits}/{len(picks)} in the top {top}")
    return hits


def main():
    if len(sys.argv) >= 7 and sys.argv[1] == "pick":
        pick(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]))
    elif len(sys.argv) >= 7 and sys.argv[1] == "check":
        hits = check(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6])
        if len(sys.argv) >= 8:
            sys.exit(0 if hits >= int(sys.argv[7]) else 1)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
