#!/usr/bin/env python3
"""Builds the documents test web (crawl_documents_test.sh) and its truth.

Usage: documents_site.py OUT_DIR

OUT_DIR/site/<host>/... is served by nginx with the header rules in
OUT_DIR/server.conf; OUT_DIR/seeds.txt and OUT_DIR/truth.json tell the
checker (documents_check.py) what each part of the site must do:
  - documents: every file of tests/data/documents/web/ (real PDFs, Office and
    OpenDocument files, EPUBs and RTFs made by Debian's tools, listed in
    its MANIFEST.tsv), linked from the home page: each must be found by a
    phrase of its body;
  - feeds: an RSS 2.0 and an Atom feed whose items are the only links to
    ten pages: each must be fetched, and found by its item's title (anchor
    text);
  - X-Robots-Tag: five pages served with "noindex" (fetched, never listed),
    one with "nofollow" whose only link must not be fetched, one with
    "otherbot: noindex" (not for us: listed) and one with
    "crawlbot: noindex" (for us: not listed);
  - rel=canonical: an original and five copies naming it (four in HTML,
    one in a Link header), each copy with its own text beside the
    original's: a search for the original's phrase lists the original only;
  - near-duplicates: one long article mirrored on four hosts under two
    paths each, every copy with its own date line: (nearly) one result;
  - a meta refresh whose target is linked from nowhere else: fetched;
  - hreflang alternates on a page: shown with its result.
The text of every page is real prose: paragraphs of the Python
documentation (python3-doc, PSF licence). Exit 2 when it is missing.
"""
import csv
import html
import html.parser
import json
import os
import shutil
import sys

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = os.path.join(SRC, "tests", "data", "documents", "web")
PYDOC = "/usr/share/doc/python3.11/html/library"
MAIN = "docs.documents.test"
MIRRORS = ["mirror-%s.documents.test" % c for c in "abcd"]
OUR_TOKEN = "crawlbot"


class Paragraphs(html.parser.HTMLParser):
    """Collects the text of <p> elements."""

    def __init__(self):
        super().__init__()
        self.depth = 0
        self.buf = []
        self.out = []

    def handle_starttag(self, tag, attrs):
        if tag == "p":
            self.depth += 1

    def handle_endtag(self, tag):
        if tag == "p" and self.depth:
            self.depth -= 1
            text = " ".join("".join(self.buf).split())
            self.buf = []
            if len(text.split()) >= 40 and "\u00b6" not in text:
                self.out.append(text)

    def handle_data(self, data):
        if self.depth:
            self.buf.append(data)


def paragraphs():
    if not os.path.isdir(PYDOC):
        print("python3-doc is not installed (%s)" % PYDOC)
        sys.exit(2)
    seen, out = set(), []
    for name in sorted(os.listdir(PYDOC)):
        if not name.endswith(".html"):
            continue
        p = Paragraphs()
        with open(os.path.join(PYDOC, name), encoding="utf-8") as f:
            p.feed(f.read())
        for t in p.out:
            if t not in seen:
                seen.add(t)
                out.append(t)
        if len(out) >= 200:
            break
    return out


def phrase_of(text, start=8, words=7):
    """A run of plain words from the middle of a paragraph."""
    w = [x for x in text.split() if x.isalpha()]
    return " ".join(w[start:start + words])


def page(title, body, head="", lang="en"):
    return ('<!DOCTYPE html>\n<html lang="%s"><head><meta charset="utf-8"><title>%s</title>%s</head>\n'
            '<body><h1>%s</h1>\n%s\n</body></html>\n') % (lang, html.escape(title), head, html.escape(title), body)


def para(text):
    return "<p>%s</p>" % html.escape(text)


def write(root, host, path, content):
    full = os.path.join(root, "site", host, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    mode = "wb" if isinstance(content, bytes) else "w"
    with open(full, mode) as f:
        f.write(content)


def url(host, path):
    return "http://%s/%s" % (host, path.lstrip("/"))


class Site:
    def __init__(self, root):
        self.root = root
        self.paras = paragraphs()
        self.next = 0
        self.links = []  # (path, text) of the home page
        self.truth = {}

    def take(self):
        self.next += 1
        return self.paras[self.next - 1]

    def add(self, path, title, body, head="", home=True, host=MAIN, lang="en"):
        write(self.root, host, path, page(title, body, head, lang))
        if home:
            self.links.append((url(host, path), title))

    def documents(self):
        rows = []
        with open(os.path.join(DOCS, "MANIFEST.tsv"), encoding="utf-8") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                name = os.path.basename(row["file"])
                shutil.copy(os.path.join(DOCS, row["file"]), os.path.join(self.root, "site", MAIN, "files", name))
                self.links.append((url(MAIN, "files/" + name), row["title"] or name))
                rows.append({"url": url(MAIN, "files/" + name), "type": row["type"], "phrase": row["phrase"],
                             "title": row["title"]})
        self.truth["documents"] = rows

    def feeds(self):
        items = []
        for i in range(10):
            text = self.take()
            title = "Feed item %d: %s" % (i + 1, phrase_of(text, 2, 4))
            path = "feed/item-%d.html" % (i + 1)
            self.add(path, title, para(text), home=False)
            items.append({"url": url(MAIN, path), "title": title, "summary": phrase_of(text, 0, 20)})
        rss = ['<?xml version="1.0" encoding="utf-8"?>', '<rss version="2.0"><channel>',
               "<title>Documents test news</title>", "<link>%s</link>" % url(MAIN, ""),
               "<description>Items of the documents test web</description>"]
        for it in items[:5]:
            rss.append("<item><title>%s</title><link>%s</link><description>%s</description></item>" %
                       (html.escape(it["title"]), it["url"], html.escape("<p>%s</p>" % it["summary"])))
        rss.append("</channel></rss>")
        write(self.root, MAIN, "feed.rss", "\n".join(rss) + "\n")
        atom = ['<?xml version="1.0" encoding="utf-8"?>', '<feed xmlns="http://www.w3.org/2005/Atom">',
                "<title>Documents test updates</title>", '<link href="%s"/>' % url(MAIN, ""),
                "<id>urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6</id>", "<updated>2026-11-30T12:00:00Z</updated>",
                "<author><name>Documents Test</name></author>"]
        for i, it in enumerate(items[5:]):
            atom.append('<entry><title>%s</title><link rel="alternate" href="%s"/><id>urn:item:%d</id>'
                        "<updated>2026-11-30T12:00:00Z</updated><summary>%s</summary></entry>" %
                        (html.escape(it["title"]), it["url"], i, html.escape(it["summary"])))
        atom.append("</feed>")
        write(self.root, MAIN, "feed.atom", "\n".join(atom) + "\n")
        self.links.append((url(MAIN, "feed.rss"), "News feed (RSS)"))
        self.links.append((url(MAIN, "feed.atom"), "Updates feed (Atom)"))
        self.truth["feed_items"] = items

    def robots_headers(self):
        noindex = []
        for i in range(5):
            text = self.take()
            path = "noindex/page-%d.html" % (i + 1)
            self.add(path, "Hidden page %d" % (i + 1), para(text))
            noindex.append({"url": url(MAIN, path), "phrase": phrase_of(text)})
        target = "nofollow/target.html"
        self.add(target, "Target of a nofollow page", para(self.take()), home=False)
        self.add("nofollow/page.html", "A nofollow page",
                 para(self.take()) + '<p><a href="target.html">the only link</a></p>')
        other, ours = self.take(), self.take()
        self.add("agent/other.html", "Noindex for another robot", para(other))
        self.add("agent/ours.html", "Noindex for our robot", para(ours))
        self.truth["noindex"] = noindex + [{"url": url(MAIN, "agent/ours.html"), "phrase": phrase_of(ours)}]
        self.truth["indexed_despite_header"] = [{"url": url(MAIN, "agent/other.html"), "phrase": phrase_of(other)}]
        self.truth["nofollow_target"] = url(MAIN, target)

    def canonical(self):
        original = self.take()
        self.add("canonical/original.html", "The original page", para(original))
        copies = []
        for i in range(5):
            path = "canonical/copy-%d.html" % (i + 1)
            head = '<link rel="canonical" href="original.html">' if i < 4 else ""
            self.add(path, "A copy of the original page", para(original) + para(self.take()), head=head)
            copies.append(url(MAIN, path))
        self.truth["canonical"] = {"url": url(MAIN, "canonical/original.html"), "copies": copies,
                                   "phrase": phrase_of(original)}

    def near_duplicates(self):
        # One long article (as mirrors copy whole pages), the same site menu
        # on every copy, each copy with its own date line: what differs is a
        # few words in a thousand.
        article = [self.take() for _ in range(14)]
        menu = "<nav>Home | Articles | Archive | About</nav>"
        mirrors = []
        for n, host in enumerate(MIRRORS):
            for k, path in enumerate(["article.html", "archive/article-copy.html"]):
                body = (menu + "<p>Last updated on 2026-11-%02d.</p>" % (n * 2 + k + 1) +
                        "".join(para(t) for t in article))
                self.add(path, "A mirrored article", body, host=host)
                mirrors.append(url(host, path))
        distinct = self.take()
        self.add("template-sibling.html", "A mirrored article", menu + para(distinct) + para(self.take()))
        self.truth["near_duplicates"] = {"urls": mirrors, "phrase": phrase_of(article[1]),
                                         "distinct": url(MAIN, "template-sibling.html")}

    def refresh_and_hreflang(self):
        self.add("refresh/target.html", "Where the refresh goes", para(self.take()), home=False)
        self.add("refresh/start.html", "Moved",
                 para("This page has moved."), head='<meta http-equiv="refresh" content="0; url=target.html">')
        self.truth["refresh_target"] = url(MAIN, "refresh/target.html")
        text = self.take()
        head = ('<link rel="alternate" hreflang="de" href="hreflang-de.html">'
                '<link rel="alternate" hreflang="x-default" href="hreflang-en.html">')
        self.add("hreflang-en.html", "A page with alternates", para(text), head=head)
        self.truth["hreflang"] = {"url": url(MAIN, "hreflang-en.html"), "phrase": phrase_of(text),
                                  "alternates": [url(MAIN, "hreflang-de.html"), url(MAIN, "hreflang-en.html")]}

    def home(self):
        items = "".join('<li><a href="%s">%s</a></li>' % (html.escape(u), html.escape(t)) for u, t in self.links)
        write(self.root, MAIN, "index.html", page("Documents test web", "<ul>%s</ul>" % items))


def server_conf(root):
    """nginx rules: the header directives, and epub's type."""
    return """charset utf-8;
location /noindex/ { add_header X-Robots-Tag "noindex"; }
location = /nofollow/page.html { add_header X-Robots-Tag "nofollow"; }
location = /agent/other.html { add_header X-Robots-Tag "otherbot: noindex"; }
location = /agent/ours.html { add_header X-Robots-Tag "%s: noindex, nofollow"; }
location = /canonical/copy-5.html { add_header Link '<http://%s/canonical/original.html>; rel="canonical"'; }
""" % (OUR_TOKEN, MAIN)


def main():
    root = sys.argv[1]
    os.makedirs(os.path.join(root, "site", MAIN, "files"), exist_ok=True)
    s = Site(root)
    s.documents()
    s.feeds()
    s.robots_headers()
    s.canonical()
    s.near_duplicates()
    s.refresh_and_hreflang()
    s.home()
    with open(os.path.join(root, "server.conf"), "w") as f:
        f.write(server_conf(root))
    with open(os.path.join(root, "seeds.txt"), "w") as f:
        f.write(url(MAIN, "") + "\n")
    with open(os.path.join(root, "truth.json"), "w") as f:
        json.dump(s.truth, f, indent=1)
    print("%d documents, %d feed items, %d pages of text used" %
          (len(s.truth["documents"]), len(s.truth["feed_items"]), s.next))


if __name__ == "__main__":
    main()
