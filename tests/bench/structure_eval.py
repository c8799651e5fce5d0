#!/usr/bin/env python3
"""Helper of tests/bench/structure_eval.sh (run by hand).

  structure_eval.py html-graph ROOT BASE_URL OUT
      The link graph of a static HTML site: one line per HTML file under ROOT,
      'URL<TAB>OUTLINK...', URL = BASE_URL + the file's path. Outlinks are the
      <a href>, <frame src> and <iframe src> targets resolved against the
      page, fragment dropped, kept when they name an HTML file of the site.
  structure_eval.py host-graph GRAPH HOST OUT
      The lines of a 'testweb export --out' graph whose URL is on HOST, with
      outlinks on HOST only.
  structure_eval.py count GRAPH SEED
      Pages reachable from SEED.
  structure_eval.py score GRAPH SEED CRAWL_LOG
      Prints 'pages pr_share depth2_share fetched' for the pages a crawl
      fetched (crawlctl log): the share of the site's internal PageRank they
      hold and the share of the pages at depth <= 2 they include.

Internal PageRank: power iteration on the site's own graph restricted to the
pages reachable from the seed (damping 0.85; a page without outlinks gives
its rank to every page; until the L1 change is below 1e-12). Depth: BFS link
distance from the seed. URLs are compared with the fragment dropped and a
trailing 'index.html' cut ('/a/index.html' and '/a/' are one page).
"""
import collections
import html.parser
import os
import sys
import urllib.parse


def norm(url):
    url = urllib.parse.urldefrag(url)[0]
    if url.endswith("/index.html"):
        url = url[: -len("index.html")]
    return url


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.hrefs = []
        self.base = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "base" and a.get("href"):
            self.base = a["href"]
        elif tag == "a" and a.get("href"):
            self.hrefs.append(a["href"])
        elif tag in ("frame", "iframe") and a.get("src"):
            self.hrefs.append(a["src"])


def html_graph(root, base, out):
    root = os.path.realpath(root)
    base = base.rstrip("/") + "/"
    files = {}
    for d, _, names in os.walk(root, followlinks=True):
        for n in names:
            if n.endswith(".html"):
                rel = os.path.relpath(os.path.join(d, n), root).replace(os.sep, "/")
                files[norm(base + rel)] = os.path.join(d, n)
    with open(out, "w") as o:
        for url in sorted(files):
            p = Links()
            with open(files[url], encoding="utf-8", errors="replace") as f:
                p.feed(f.read())
            page_url = base + os.path.relpath(files[url], root).replace(os.sep, "/")
            ref = urllib.parse.urljoin(page_url, p.base) if p.base else page_url
            links = []
            for h in p.hrefs:
                t = norm(urllib.parse.urljoin(ref, h.strip()))
                if t in files and t not in links:
                    links.append(t)
            o.write("\t".join([url] + links) + "\n")


def host_graph(graph, host, out):
    with open(graph) as g, open(out, "w") as o:
        for line in g:
            parts = line.rstrip("\n").split("\t")
            if urllib.parse.urlsplit(parts[0]).hostname != host:
                continue
            keep = [u for u in parts[1:] if urllib.parse.urlsplit(u).hostname == host]
            o.write("\t".join([parts[0]] + keep) + "\n")


def load(graph, seed):
    out = {}
    with open(graph) as g:
        for line in g:
            parts = line.rstrip("\n").split("\t")
            out[norm(parts[0])] = [norm(u) for u in parts[1:] if u]
    seed = norm(seed)
    if seed not in out:
        sys.exit(f"seed {seed} is not a page of {graph}")
    depth = {seed: 0}
    queue = collections.deque([seed])
    while queue:
        u = queue.popleft()
        for v in out.get(u, []):
            if v in out and v not in depth:
                depth[v] = depth[u] + 1
                queue.append(v)
    nodes = sorted(depth)
    edges = {u: [v for v in dict.fromkeys(out[u]) if v in depth] for u in nodes}
    return nodes, edges, depth


def pagerank(nodes, edges, d=0.85):
    n = len(nodes)
    pr = {u: 1.0 / n for u in nodes}
    for _ in range(1000):
        nxt = {u: (1.0 - d) / n for u in nodes}
        dangling = 0.0
        for u in nodes:
            if edges[u]:
                share = d * pr[u] / len(edges[u])
                for v in edges[u]:
                    nxt[v] += share
            else:
                dangling += d * pr[u]
        for u in nodes:
            nxt[u] += dangling / n
        change = sum(abs(nxt[u] - pr[u]) for u in nodes)
        pr = nxt
        if change < 1e-12:
            break
    return pr


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "html-graph":
        html_graph(*sys.argv[2:5])
    elif cmd == "host-graph":
        host_graph(*sys.argv[2:5])
    elif cmd == "count":
        nodes, _, _ = load(sys.argv[2], sys.argv[3])
        print(len(nodes))
    elif cmd == "score":
        nodes, edges, depth = load(sys.argv[2], sys.argv[3])
        pr = pagerank(nodes, edges)
        fetched = set()
        with open(sys.argv[4]) as f:
            for line in f:
                fields = line.rstrip("\n").split("\t")
                if len(fields) > 3 and not fields[3].endswith("/robots.txt"):
                    fetched.add(norm(fields[3]))
        hit = fetched & set(nodes)
        shallow = {u for u in nodes if depth[u] <= 2}
        print(len(nodes), f"{sum(pr[u] for u in hit):.4f}", f"{len(hit & shallow) / len(shallow):.4f}", len(fetched))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
