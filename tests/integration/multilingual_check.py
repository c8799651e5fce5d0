#!/usr/bin/env python3
"""Checks a crawl of the multilingual test web (crawl_multilingual_test.sh)
against its ground truth (multilingual_site.py) and prints a table per
language.

  multilingual_check.py TRUTH LOG_JSONL CRAWLCTL OUT_DIR [CONSOLE_SEARCH_URL CHROMIUM]

Per copy of a page (each encoding and labelling), from the crawl log
(`crawlctl log --format jsonl`: the fetcher's record of the page):
  fetched   answered 2xx (the crawl asks for a byte range: 206)
  title     the title read equals the title as written (entities decoded,
            white space collapsed)
  lang      the language found has the page's ISO 639-1 code as its primary
            subtag (zh-TW and pt-BR pages: zh, pt)
  charset   the encoding the body was read as is the one written, and no
            byte was invalid in it (labels of
            one encoding count as one: gb2312, gbk and gb18030 read GBK
            bytes alike; iso-8859-1 is windows-1252; an ASCII-only copy may
            be read as UTF-8 or windows-1252)
Per page (its copies share one text, so the index may keep any of them):
  q:title   `crawlctl search` for the title's words has a copy in the top 3
  q:clause  the same for the words of a clause of the body
Per result shown in those searches that is a copy of a test page:
  clean     no U+FFFD in its title or snippet, its title is the page's title
            and every word of its snippet occurs in the page's text
            (compared after NFKC and case folding)
In the console (with CONSOLE_SEARCH_URL, e.g.
http://127.0.0.1:8080/console/search?crawl=1, and CHROMIUM): headless Chromium loads the
search page for the title query of the first page of a few languages,
saves a screenshot (OUT_DIR/console-<lang>.png) and its DOM; the check
passes when a result's title is the page's title, with no U+FFFD.

A language passes when every count is at least 90% of its total; the exit
status is 1 when any language fails. The table also goes to
OUT_DIR/report.txt, each miss to OUT_DIR/misses.txt.
"""
import html
import json
import os
import re
import subprocess
import sys
import unicodedata
import urllib.parse

TOP = 3
REQUIRED = 0.9
CONSOLE_LANGUAGES = ["ja", "zh-cn", "zh-tw", "ko", "ru", "el", "pl", "fr"]
SAME_ENCODING = [{"gb2312", "gbk", "gb18030"}, {"iso-8859-1", "windows-1252", "us-ascii"},
                 {"shift_jis", "windows-31j"}, {"euc-kr", "windows-949"}]
ASCII_COMPATIBLE = {"utf-8", "windows-1252", "iso-8859-1", "us-ascii"}


def norm(s):
    return " ".join((s or "").split())


def fold(s):
    return unicodedata.normalize("NFKC", s or "").casefold()


def words(s):
    return " ".join(re.findall(r"\w+", s))


def same_encoding(a, b):
    a, b = (a or "").lower(), (b or "").lower()
    return a == b or any(a in g and b in g for g in SAME_ENCODING)


def snippet_clean(snippet, text):
    if "\ufffd" in snippet:
        return False
    letters = re.sub(r"\W+", "", fold(text))
    return all(re.sub(r"\W+", "", w) in letters for w in re.findall(r"\w+", fold(snippet)))


class Counts:
    def __init__(self):
        self.n = {}

    def add(self, key, ok):
        got, total = self.n.get(key, (0, 0))
        self.n[key] = (got + (1 if ok else 0), total + 1)

    def get(self, key):
        return self.n.get(key, (0, 0))


def layout(rows):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in rows)


def search(crawlctl, query):
    out = subprocess.run([crawlctl, "search", "--json", "--limit", str(TOP), query], capture_output=True,
                         text=True, timeout=60)
    if out.returncode != 0:
        return None, out.stderr.strip()
    return json.loads(out.stdout)["results"], ""


def console(url, chromium, query, out_png, out_dom):
    """Loads the console's search page in headless Chromium: a screenshot,
    then the DOM; returns the result titles and snippets shown."""
    page = f"{url}&q={urllib.parse.quote(query)}"
    common = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--hide-scrollbars", f"--user-data-dir={os.path.dirname(out_png)}/chromium-profile",
              "--virtual-time-budget=3000"]
    subprocess.run(common + ["--window-size=1200,900", f"--screenshot={out_png}", page], capture_output=True,
                   timeout=90)
    dom = subprocess.run(common + ["--dump-dom", page], capture_output=True, timeout=90).stdout.decode(
        "utf-8", "replace")
    with open(out_dom, "w", encoding="utf-8") as f:
        f.write(dom)
    titles = [html.unescape(t) for t in re.findall(r'<a class="title"[^>]*>([^<]*)</a>', dom)]
    snippets = [html.unescape(t) for t in re.findall(r'<div class="snippet">([^<]*)</div>', dom)]
    return titles, snippets


def main():
    if len(sys.argv) not in (5, 7):
        sys.exit(__doc__)
    truth_file, log_file, crawlctl, out_dir = sys.argv[1:5]
    console_url, chromium = (sys.argv[5], sys.argv[6]) if len(sys.argv) == 7 else (None, None)
    truth = json.load(open(truth_file, encoding="utf-8"))
    records = {}
    for line in open(log_file, encoding="utf-8"):
        r = json.loads(line)
        if 200 <= r.get("status", 0) < 300:  # 206: the crawl asks for a range
            records[r.get("url")] = r
    page_of = {c["url"]: p for p in truth for c in p["copies"]}
    languages = []
    for p in truth:
        if p["language"] not in languages:
            languages.append(p["language"])
    counts = {lang: Counts() for lang in languages}
    by_encoding = Counts()  # copies whose title and language are right
    misses = []

    def miss(lang, what, detail):
        misses.append(f"{lang}\t{what}\t{detail}")

    for p in truth:
        lang, c = p["language"], counts[p["language"]]
        for copy in p["copies"]:
            r = records.get(copy["url"])
            where = f'{copy["url"]} ({copy["encoding"]}, {copy["labelling"]})'
            c.add("fetched", r is not None)
            if r is None:
                miss(lang, "fetched", where)
                r = {}
            title_ok = norm(r.get("title")) == norm(p["title"])
            c.add("title", title_ok)
            if r and not title_ok:
                miss(lang, "title", f'{where}: got {r.get("title", "")!r}, written {p["title"]!r}')
            found = (r.get("language") or "").lower()
            lang_ok = found.split("-")[0] == p["iso"]
            c.add("lang", lang_ok)
            if r and not lang_ok:
                miss(lang, "lang", f'{where}: got {found!r} ({r.get("language_source", "")}), '
                     f'want {p["iso"]!r} (html lang {"given" if p["html_lang"] else "absent"})')
            by_encoding.add((copy["encoding"], copy["labelling"]), title_ok and lang_ok)
            cs_ok = (same_encoding(r.get("charset"), copy["encoding"]) or (
                copy["ascii"] and (r.get("charset") or "").lower() in ASCII_COMPATIBLE)) and not r.get("invalid_bytes")
            c.add("charset", cs_ok)
            if r and not cs_ok:
                miss(lang, "charset", f'{where}: read as {r.get("charset", "")!r}, '
                     f'{r.get("invalid_bytes", 0)} invalid bytes')

    for p in truth:
        lang, c = p["language"], counts[p["language"]]
        urls = {x["url"] for x in p["copies"]}
        for what, query in (("q:title", words(p["title"])), ("q:clause", words(p["clause"] or ""))):
            if not query:
                miss(lang, what, f'{p["id"]}: no clause of its own to search for')
                c.add(what, False)
                continue
            results, err = search(crawlctl, query)
            if results is None:
                miss(lang, what, f'{p["id"]} [{query}]: crawlctl search failed: {err}')
                c.add(what, False)
                continue
            hit = any(r["url"] in urls for r in results)
            c.add(what, hit)
            if not hit:
                shown = "; ".join(f'{r["url"]} {r["title"]!r}' for r in results) or "no results"
                miss(lang, what, f'{p["id"]} [{query}] -> {shown}')
            for r in results:
                q = page_of.get(r["url"])
                if q is None:
                    continue
                ok = ("\ufffd" not in r["title"] and norm(r["title"]) == norm(q["title"]) and
                      snippet_clean(r.get("snippet", ""), q["text"]))
                counts[q["language"]].add("clean", ok)
                if not ok:
                    miss(q["language"], "clean", f'{r["url"]}: title {r["title"]!r} snippet {r.get("snippet", "")!r}')

    if console_url:
        done = set()
        for p in truth:
            lang = p["language"]
            if lang not in CONSOLE_LANGUAGES or lang in done:
                continue
            done.add(lang)
            png = os.path.join(out_dir, f"console-{lang}.png")
            titles, snippets = console(console_url, chromium, words(p["title"]), png,
                                       os.path.join(out_dir, f"console-{lang}.html"))
            ok = (os.path.exists(png) and any(norm(t) == norm(p["title"]) for t in titles) and
                  not any("\ufffd" in t for t in titles + snippets))
            counts[lang].add("console", ok)
            if not ok:
                miss(lang, "console", f'{p["id"]} [{words(p["title"])}]: shown titles {titles!r}')

    columns = ["fetched", "title", "lang", "charset", "q:title", "q:clause", "clean", "console"]
    rows = [["language", "pages", "copies"] + columns + ["verdict"]]
    failed = []
    for lang in languages:
        c = counts[lang]
        pages = sum(1 for p in truth if p["language"] == lang)
        copies = sum(len(p["copies"]) for p in truth if p["language"] == lang)
        row, ok = [lang, str(pages), str(copies)], True
        for col in columns:
            got, total = c.get(col)
            if total == 0:
                row.append("-")
                continue
            row.append(f"{got}/{total}")
            ok = ok and got >= REQUIRED * total
        row.append("pass" if ok else "FAIL")
        if not ok:
            failed.append(lang)
        rows.append(row)
    table = layout(rows)
    # Where the reading goes wrong: per encoding and labelling, the copies
    # whose title and language are both right.
    encodings = sorted({e for e, _ in by_encoding.n})
    enc_rows = [["encoding", "header", "meta", "none"]]
    for e in encodings:
        enc_rows.append([e] + ["{}/{}".format(*by_encoding.get((e, lab))) if by_encoding.get((e, lab))[1] else "-"
                               for lab in ("header", "meta", "none")])
    table += "\n\ncopies read right (title and language), by encoding and label:\n" + layout(enc_rows)
    summary = (f"languages: {len(languages) - len(failed)} passed, {len(failed)} failed"
               + (f" ({' '.join(failed)})" if failed else ""))
    print(table)
    print(summary)
    with open(os.path.join(out_dir, "report.txt"), "w", encoding="utf-8") as f:
        f.write(table + "\n" + summary + "\n")
    with open(os.path.join(out_dir, "misses.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(misses) + ("\n" if misses else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
