#!/usr/bin/env python3
"""A small multilingual web of real text, built from installed Debian docs
(crawl_multilingual_test.sh).

  multilingual_site.py OUT_DIR [PAGES_PER_LANGUAGE]

Writes, under OUT_DIR:
  site/<lang>.multilingual.test/index.html   one host per language: an index
      linking every copy of every page with neutral anchor text ("page 3,
      shift_jis, header"), so that a page is found by its own words only
  site/<host>/<encoding>/<labelling>/<id>.html   the copies of a page: UTF-8
      and each legacy encoding its script uses on the web, labelled in the
      HTTP header (nginx adds the charset of the directory), in a <meta>
      tag, or nowhere
  nginx-charsets.conf   one `location /<encoding>/header/ { charset <encoding>; }`
      per encoding, to include in the nginx server block
  truth.json   the ground truth: per page its language, the title (as
      read, and as written in the HTML), a clause of its body, its whole
      text and its copies (URL, encoding, labelling, whether ASCII-only)
  seeds.txt    the index pages

Text: the Debian Reference (debian-reference-*), the Debian FAQ
(debian-faq-ru, debian-faq-ko), the installation guide
(installation-guide-amd64: Greek) and Polish manual pages (manpages-pl); a
page is one section of those documents: its heading as the title and its
first paragraphs as the body. Sections are kept only when their text is in
the language (untranslated English paragraphs are dropped), their title is
no other page's, and their text survives every legacy encoding of the
language (characters an encoding lacks are written as numeric character
references, as legacy pages do). Titles of one page in three carry named
character references of HTML 4 (&eacute;, &mdash;), of one in three also
HTML5-only ones (&colon;, &lpar;); half of the pages name their language in
<html lang>, the others leave it to the text. Exits 2 with a message when a
source document is missing.
"""
import glob
import gzip
import html
import html.entities
import html.parser
import json
import os
import re
import sys
import unicodedata

# Pages are one section each; paragraphs shorter than this are headings of
# lists, captions or commands rather than prose.
MIN_PARAGRAPH = 40
MAX_PARAGRAPHS = 4
MAX_BODY_CHARS = 1600

REF = "/usr/share/debian-reference/*.{}.html"
FAQ = "/usr/share/doc/debian/FAQ/{}/*.html"
INSTALL = "/usr/share/doc/installation-guide-amd64/{}/*.html"

# (label the web uses, Python codec writing the bytes, Python codec that
# reads them as the WHATWG decoder for that label does; a section whose text
# does not come back the same through both is left out, so the ground truth
# never depends on where the WHATWG tables and Python's differ).
W1252 = ("windows-1252", "cp1252", "cp1252")
L1 = ("iso-8859-1", "cp1252", "cp1252")  # WHATWG reads iso-8859-1 as windows-1252
WESTERN = [W1252, L1]

# code: (html lang value, expected ISO 639-1 code, script test, sources,
# legacy encodings)
LANGUAGES = {
    "en": ("en", "en", "latin", [REF.format("en")], [W1252]),
    "de": ("de", "de", "latin", [REF.format("de")], WESTERN),
    "es": ("es", "es", "latin", [REF.format("es")], WESTERN),
    "fr": ("fr", "fr", "latin", [REF.format("fr")], WESTERN),
    "it": ("it", "it", "latin", [REF.format("it")], WESTERN),
    "pt": ("pt", "pt", "latin", [REF.format("pt")], WESTERN),
    "pt-br": ("pt-BR", "pt", "latin", [REF.format("pt-br")], WESTERN),
    "id": ("id", "id", "latin", [REF.format("id")], [W1252]),
    "pl": ("pl", "pl", "latin", ["manpages-pl"], [("iso-8859-2", "iso8859_2", "iso8859_2"),
                                                 ("windows-1250", "cp1250", "cp1250")]),
    "ru": ("ru", "ru", "cyrillic", [FAQ.format("ru")], [("koi8-r", "koi8_r", "koi8_r"),
                                                         ("windows-1251", "cp1251", "cp1251")]),
    "el": ("el", "el", "greek", [INSTALL.format("el")], [("windows-1253", "cp1253", "cp1253"),
                                                          ("iso-8859-7", "iso8859_7", "iso8859_7")]),
    "ja": ("ja", "ja", "cjk", [REF.format("ja")], [("shift_jis", "shift_jis", "cp932"),
                                                    ("euc-jp", "euc_jp", "euc_jp"),
                                                    ("iso-2022-jp", "iso2022_jp", "iso2022_jp")]),
    "zh-cn": ("zh-CN", "zh", "cjk", [REF.format("zh-cn")], [("gb2312", "gbk", "gb18030"),
                                                             ("gb18030", "gb18030", "gb18030")]),
    "zh-tw": ("zh-TW", "zh", "cjk", [REF.format("zh-tw")], [("big5", "big5", "cp950")]),
    "ko": ("ko", "ko", "hangul", [FAQ.format("ko")], [("euc-kr", "euc_kr", "cp949")]),
}

LABELLINGS = ["header", "meta", "none"]

ENGLISH = set("the and of to is in for with you this that are be by on it as an or can not from".split())


class Sections(html.parser.HTMLParser):
    """DocBook HTML: every h1-h4 heading starts a section; <p> elements are
    its paragraphs (tables of contents and navigation hold none)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.sections = []  # [title, [paragraphs]]
        self.heading = None
        self.para = None
        self.skip = 0  # inside <pre>, <code>-like blocks kept out of prose

    def handle_starttag(self, tag, attrs):
        cls = dict(attrs).get("class") or ""
        if tag in ("h1", "h2", "h3", "h4"):
            self.heading = ""
            self.para = None
        elif tag == "p" and self.heading is None and self.sections and "toc" not in cls:
            self.para = ""
        elif tag in ("pre", "table", "script", "style"):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in ("h1", "h2", "h3", "h4") and self.heading is not None:
            self.sections.append([norm(self.heading), []])
            self.heading = None
        elif tag == "p" and self.para is not None:
            if self.sections:
                self.sections[-1][1].append(norm(self.para))
            self.para = None
        elif tag in ("pre", "table", "script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if self.skip:
            return
        if self.heading is not None:
            self.heading += data
        elif self.para is not None:
            self.para += data


def norm(s):
    return " ".join(s.split())


def docbook_sections(pattern):
    out = []
    for path in sorted(glob.glob(pattern)):
        p = Sections()
        with open(path, encoding="utf-8", errors="strict") as f:
            p.feed(f.read())
        for title, paras in p.sections:
            # "1.2.3. Title", "Глава 1. Title", "第1章 Title": the number is
            # navigation, not the title a page would carry.
            title = re.sub(r"^(?:[A-Z]|\d+)(?:\.\d+)*\.?\s+", "", title)
            out.append((title, paras))
    return out


ROFF_ESCAPES = [(r"\\f(\[[^\]]*\]|\(..|.)", ""), (r"\\[-]", "-"), (r"\\\(em", "\u2014"), (r"\\\(en", "\u2013"),
                (r"\\\(aq", "'"), (r"\\\((lq|rq|dq)", '"'), (r"\\&", ""), (r"\\[,/]", ""), (r"\\e", "\\"),
                (r"\\ ", " "), (r"\\\*\(..", ""), (r"\\\*.", ""), (r"\\.", "")]


def roff_text(line):
    for pat, rep in ROFF_ESCAPES:
        line = re.sub(pat, lambda _m, r=rep: r, line)
    return line


# Sections of a manual page that are not its own text: the synopsis, and
# the authors, bug reports, copyright and translation notes that many pages
# share word for word.
BOILERPLATE = {"NAZWA", "SKŁADNIA", "ZOBACZ TAKŻE", "TŁUMACZENIE", "AUTOR", "AUTORZY", "ZGŁASZANIE BŁĘDÓW",
               "PRAWA AUTORSKIE", "COPYRIGHT", "KOLOFON", "UWAGI"}


def manpage_sections():
    """Polish manual pages: the NAME line's description as the title
    ("ls(1) - wypisuje zawartość katalogu"), the prose paragraphs (.PP/.P/.LP
    blocks, not option lists) as the body."""
    out = []
    for path in sorted(glob.glob("/usr/share/man/pl/man[1578]/*.gz")):
        try:
            lines = gzip.open(path, "rt", encoding="utf-8", errors="strict").read().splitlines()
        except (UnicodeDecodeError, OSError):
            continue
        name = os.path.basename(path)[:-3]
        page, _, sec = name.rpartition(".")
        section, title, paras, cur, in_prose = "", "", [], [], False
        for line in lines:
            if line.startswith((".\\\"", "'\\\"")):
                continue
            m = re.match(r"^\.(\w+)\s*(.*)$", line)
            if m:
                macro, arg = m.group(1), m.group(2)
                if cur:
                    paras.append(norm(" ".join(cur)))
                    cur = []
                if macro == "SH":
                    section = arg.strip('"')
                    in_prose = False
                elif macro in ("PP", "P", "LP"):
                    in_prose = section not in BOILERPLATE
                elif macro in ("TP", "IP", "nf", "EX", "TS", "RS"):
                    in_prose = False
                elif macro in ("B", "I", "BR", "IR", "RB", "RI", "BI", "IB", "SM", "SB") and in_prose:
                    cur.append(roff_text(arg.replace('"', "")))
                continue
            if section == "NAZWA" and not title and "\\-" in line:
                title = roff_text(line.split("\\-", 1)[1]).strip()
            elif in_prose:
                cur.append(roff_text(line))
        if cur:
            paras.append(norm(" ".join(cur)))
        if title:
            out.append((f"{page}({sec}) - {norm(title)}", paras))
    return out


def letters(s):
    return [c for c in s if c.isalpha()]


def in_script(text, script):
    """Most letters of the text are of the language's script (non-Latin
    languages), or few of its words are English (Latin-script ones)."""
    ls = letters(text)
    if not ls:
        return False
    if script == "latin":
        return True
    want = {"cyrillic": "CYRILLIC", "greek": "GREEK", "hangul": "HANGUL"}.get(script)
    if want:
        n = sum(1 for c in ls if want in unicodedata.name(c, ""))
    else:  # cjk: ideographs, kana
        n = sum(1 for c in ls if any(k in unicodedata.name(c, "") for k in ("CJK", "HIRAGANA", "KATAKANA")))
    return n >= 0.6 * len(ls)


def englishness(text):
    words = re.findall(r"[a-z]+", text.lower())
    return sum(1 for w in words if w in ENGLISH) / max(len(words), 1)


def survives(text, encodings):
    """The text written in every encoding (numeric references for what an
    encoding lacks) reads back the same through the WHATWG-like codec."""
    for _, write, read in encodings:
        try:
            back = text.encode(write, "xmlcharrefreplace").decode(read)
        except UnicodeError:
            return False
        if html.unescape(back) != text:
            return False
    return True


def strictly_encodable(text, encodings):
    try:
        for _, write, read in encodings:
            if text.encode(write).decode(read) != text:
                return False
    except UnicodeError:
        return False
    return True


CLAUSE_SPLIT = re.compile(r"[.,;:!?\"“”«»„。、，；：！？「」『』【】・]")


def clause_of(paras, cjk):
    return next(clauses(paras, cjk), None)


def clauses(paras, cjk):
    """Clauses of the body to search for, in page order: runs of 4-7 words
    of one phrase, or for Chinese and Japanese whole runs of 6-16 characters
    between punctuation (a run cut in the middle could cut a word)."""
    for para in paras:
        for piece in CLAUSE_SPLIT.split(para):
            if cjk:
                for r in re.findall(r"[^\sA-Za-z0-9_/\-.()（）]+", piece):
                    if 6 <= len(r) <= 16 and all(c.isalpha() for c in r):
                        yield r
            else:
                run = []
                for w in piece.split() + [""]:
                    if w.isalpha() and len(w) >= 2:
                        run.append(w)
                        continue
                    if len(run) >= 4:
                        yield " ".join(run[:7])
                    run = []
    return None


def entity_title(title, mode):
    """The title as written in HTML: mode 0 plain, 1 HTML 4 named
    references for the characters that have one, 2 also HTML5-only names for
    punctuation."""
    escaped = html.escape(title, quote=False)
    if mode == 0:
        return escaped
    names = {}
    for name, ch in html.entities.html5.items():
        if name.endswith(";") and len(ch) == 1:
            if ch not in names or (len(name), name) < (len(names[ch]), names[ch]):
                names[ch] = name
    out = []
    for c in title:
        cp = ord(c)
        if c == "&":
            out.append("&amp;")
        elif c == "<":
            out.append("&lt;")
        elif c == ">":
            out.append("&gt;")
        elif cp > 127 and cp in html.entities.codepoint2name:
            out.append(f"&{html.entities.codepoint2name[cp]};")
        elif mode == 2 and c in ":()/,!?'" and c in names:
            out.append(f"&{names[c]}")
        else:
            out.append(c)
    return "".join(out)


def page_html(lang_attr, title_html, paras, label, labelling, index_url, short_meta):
    meta = ""
    if labelling == "meta":
        # Both forms of the meta label are common.
        meta = (f'<meta charset="{label}">' if short_meta else
                f'<meta http-equiv="Content-Type" content="text/html; charset={label}">')
    html_tag = f'<html lang="{lang_attr}">' if lang_attr else "<html>"
    body = "\n".join(f"<p>{html.escape(p, quote=False)}</p>" for p in paras)
    return (f"<!DOCTYPE html>\n{html_tag}\n<head>\n{meta}\n<title>{title_html}</title>\n</head>\n<body>\n"
            f"<h1>{title_html}</h1>\n{body}\n<p><a href=\"{index_url}\">index</a></p>\n</body>\n</html>\n")


def choose(sections, script, code, per_language, seen_titles):
    kept = []
    for title, paras in sections:
        # A title the crawler keeps whole: it cuts titles at 100 characters
        # (docs/DESIGN.md §6), and a page is searched by its title.
        if not title or len(letters(title)) < 3 or len(title) > 100 or title.lower() in seen_titles:
            continue
        body = []
        for p in paras:
            if len(p) < MIN_PARAGRAPH or not in_script(p, script):
                continue
            if code != "en" and englishness(p) > 0.12:
                continue
            if sum(len(x) for x in body) + len(p) > MAX_BODY_CHARS and body:
                break
            body.append(p)
            if len(body) == MAX_PARAGRAPHS:
                break
        chars = sum(len(p) for p in body)
        if chars < (150 if script in ("cjk", "hangul") else 300):
            continue
        if not in_script(title, script) or (code != "en" and script == "latin" and englishness(title) > 0.3):
            continue
        if clause_of(body, script == "cjk") is None:  # nothing to search the body for
            continue
        kept.append((title, body))
    if len(kept) < per_language:
        return kept
    # Evenly over the documents, so that the pages are not all one chapter.
    step = len(kept) / per_language
    return [kept[int(i * step)] for i in range(per_language)]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    out = sys.argv[1]
    per_language = int(sys.argv[2]) if len(sys.argv) == 3 else 10
    site = os.path.join(out, "site")
    os.makedirs(site, exist_ok=True)
    truth, seeds, encodings_used, seen_titles = [], [], {"utf-8"}, set()
    all_pages = []
    for code, (lang_attr, iso, script, sources, legacy) in LANGUAGES.items():
        sections = []
        for src in sources:
            if src == "manpages-pl":
                sections += manpage_sections()
                if not sections:
                    print("missing source: /usr/share/man/pl (manpages-pl)", file=sys.stderr)
                    sys.exit(2)
            else:
                found = docbook_sections(src)
                if not found:
                    print(f"missing source: {src}", file=sys.stderr)
                    sys.exit(2)
                sections += found
        # Only sections whose whole text every encoding of the language
        # carries; titles must need no numeric reference.
        usable = [(t, ps) for t, ps in sections
                  if strictly_encodable(t, legacy) and survives("\n".join([t] + ps), legacy)]
        picked = choose(usable, script, code, per_language, seen_titles)
        for title, _ in picked:
            seen_titles.add(title.lower())
        all_pages.append((code, lang_attr, iso, script, legacy, picked))

    # A clause must name its page alone: it may occur in no other page's text.
    texts = {}
    for code, _, _, _, _, picked in all_pages:
        for i, (title, body) in enumerate(picked):
            texts[(code, i)] = norm(" ".join([title] + body)).lower()

    for code, lang_attr, iso, script, legacy, picked in all_pages:
        host = f"{code}.multilingual.test"
        index_links = []
        for i, (title, body) in enumerate(picked):
            pid = f"p{i:02d}"
            # From the second paragraph on when there is one: the first is
            # the likeliest to be the page's description.
            others = [t for k, t in texts.items() if k != (code, i)]
            clause = next((c for c in clauses(body[1:] + body[:1], script == "cjk")
                           if not any(c.lower() in t for t in others)), None)
            mode = i % 3
            title_html = entity_title(title, mode)
            with_lang = i % 2 == 0
            copies = []
            for j, (label, write, _) in enumerate([("utf-8", "utf-8", "utf-8")] + legacy):
                labelling = LABELLINGS[(i + j) % 3]
                rel = f"{label}/{labelling}/{pid}.html"
                doc = page_html(lang_attr if with_lang else "", title_html, body, label, labelling, "/index.html",
                                (i + j) % 2 == 0)
                path = os.path.join(site, host, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                data = doc.encode(write, "xmlcharrefreplace")
                with open(path, "wb") as f:
                    f.write(data)
                encodings_used.add(label)
                url = f"http://{host}/{rel}"
                # An ASCII-only copy reads the same in every ASCII-compatible
                # encoding: any is right for it.
                copies.append({"url": url, "encoding": label, "labelling": labelling, "ascii": data.isascii()})
                index_links.append(f'<li><a href="/{rel}">page {i + 1}, {label}, {labelling}</a></li>')
            truth.append({"id": f"{code}-{pid}", "language": code, "iso": iso, "html_lang": with_lang,
                          "title": title, "title_html": title_html, "clause": clause,
                          "text": norm(" ".join([title] + body)), "copies": copies})
        index = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>multilingual test web: "
                 f"{code}</title></head><body><h1>{code}</h1><ul>\n" + "\n".join(index_links) +
                 "\n</ul></body></html>\n")
        with open(os.path.join(site, host, "index.html"), "w", encoding="utf-8") as f:
            f.write(index)
        seeds.append(f"http://{host}/index.html")

    with open(os.path.join(out, "nginx-charsets.conf"), "w") as f:
        for label in sorted(encodings_used):
            f.write(f"location /{label}/header/ {{ charset {label}; }}\n")
    with open(os.path.join(out, "truth.json"), "w", encoding="utf-8") as f:
        json.dump(truth, f, ensure_ascii=False, indent=1)
    with open(os.path.join(out, "seeds.txt"), "w") as f:
        f.write("\n".join(seeds) + "\n")
    counts = {}
    for t in truth:
        counts[t["language"]] = counts.get(t["language"], 0) + 1
    short = [c for c in LANGUAGES if counts.get(c, 0) < min(per_language, 8)]
    print(f"{len(truth)} pages, {sum(len(t['copies']) for t in truth)} copies: " +
          " ".join(f"{c}:{counts.get(c, 0)}" for c in LANGUAGES))
    if short:
        print(f"too few usable sections for: {' '.join(short)}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
