#!/usr/bin/env python3
"""Regenerates the documents of the documents test web (this folder).

Each document holds its own text: a question and its answer from the Python
FAQ (python3-doc, /usr/share/doc/python3.11/html/faq/; PSF licence, see
README.md), so that every document is a search result of its own. They are
made by real tools from Debian, never by the crawler's code:
  - pandoc: docx, odt, epub, rtf, pptx (from Markdown with a title,
    author, date and language block);
  - LibreOffice (soffice --headless): pdf from the docx or odt, xlsx and ods
    from CSV, odp from the pptx;
  - groff -ms with pdfmark, through ghostscript's ps2pdf: one pdf.
Writes MANIFEST.tsv (file, type, title, phrase, author, link) for
tests/integration/documents_site.py. Not run by the tests: the files are
committed; needs pandoc, groff, ghostscript and
libreoffice-{writer,calc,impress}-nogui.
"""
import html.parser
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FAQ = "/usr/share/doc/python3.11/html/faq"
AUTHOR = "Python Software Foundation"
# type -> how many documents, and how each is made
PLAN = [("pdf", "docx"), ("pdf", "odt"), ("pdf", "groff"), ("pdf", "docx"),
        ("docx", "pandoc"), ("docx", "pandoc"), ("docx", "pandoc"),
        ("odt", "pandoc"), ("odt", "pandoc"), ("odt", "pandoc"),
        ("epub", "pandoc"), ("epub", "pandoc"), ("epub", "pandoc"),
        ("rtf", "pandoc"), ("rtf", "odt"), ("rtf", "pandoc"),
        ("pptx", "pandoc"), ("pptx", "pandoc"), ("pptx", "pandoc"),
        ("odp", "pptx"), ("odp", "pptx"), ("odp", "pptx"),
        ("xlsx", "csv"), ("xlsx", "csv"), ("ods", "csv"), ("ods", "csv")]


class Questions(html.parser.HTMLParser):
    """(question, [answer paragraphs]) of a FAQ page: h3 then p."""

    def __init__(self):
        super().__init__()
        self.tag, self.buf, self.out = None, [], []

    def handle_starttag(self, tag, attrs):
        if tag in ("h3", "p"):
            self.tag, self.buf = tag, []

    def handle_endtag(self, tag):
        if tag != self.tag:
            return
        text = " ".join("".join(self.buf).replace("\u00b6", "").split())
        if tag == "h3":
            self.out.append((text, []))
        elif self.out and len(text.split()) >= 12:
            self.out[-1][1].append(text)
        self.tag = None

    def handle_data(self, data):
        if self.tag:
            self.buf.append(data)


def questions():
    out = []
    for name in ("general.html", "programming.html", "design.html", "library.html", "extending.html"):
        p = Questions()
        with open(os.path.join(FAQ, name), encoding="utf-8") as f:
            p.feed(f.read())
        out += [(q, a[:3]) for q, a in p.out
                if q != "Navigation" and len(a) >= 2 and sum(len(x.split()) for x in a) >= 80]
    return out


def phrase_of(paragraphs):
    """Seven consecutive words of the answer, the run with most long words."""
    words = [w.strip(".,;:()'\"") for w in paragraphs[0].split()]
    best = max(range(max(1, len(words) - 6)),
               key=lambda i: (sum(len(w) >= 5 and w.isalpha() for w in words[i:i + 7]), -i))
    return " ".join(words[best:best + 7])


def run(*cmd, cwd):
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def markdown(title, paragraphs, slides):
    head = "---\ntitle: %s\nauthor: %s\ndate: 2023-05-01\nlang: en\n---\n\n" % (title.replace(":", " -"), AUTHOR)
    if slides:
        return head + "".join("## Part %d\n\n%s\n\n" % (i + 1, p) for i, p in enumerate(paragraphs))
    link = "\n\nSee [the Python FAQ](https://docs.python.org/3/faq/) for more.\n"
    return head + "\n\n".join(paragraphs) + link


def make(tmp, kind, how, name, title, paragraphs):
    lo = ["soffice", "--headless", "-env:UserInstallation=file://%s/lo" % tmp]
    md = os.path.join(tmp, name + ".md")
    with open(md, "w") as f:
        f.write(markdown(title, paragraphs, kind in ("pptx", "odp")))
    if how == "pandoc":
        run("pandoc", "-s", md, "-o", os.path.join(HERE, "%s.%s" % (name, kind)), cwd=tmp)
    elif how in ("docx", "odt", "pptx"):  # LibreOffice converts what pandoc made
        run("pandoc", "-s", md, "-o", "%s.%s" % (name, how), cwd=tmp)
        run(*lo, "--convert-to", kind, "--outdir", HERE, "%s.%s" % (name, how), cwd=tmp)
    elif how == "groff":
        ms = ".pdfinfo /Title %s\n.pdfinfo /Author %s\n.TL\n%s\n.AU\n%s\n" % (title, AUTHOR, title, AUTHOR)
        ms += "".join(".PP\n%s\n" % p for p in paragraphs)
        with open(os.path.join(tmp, name + ".ms"), "w") as f:
            f.write(ms)
        ps = subprocess.run(["groff", "-ms", "-mpdfmark", "-Tps", name + ".ms"], cwd=tmp, check=True,
                            capture_output=True).stdout
        subprocess.run(["ps2pdf", "-", os.path.join(HERE, name + ".pdf")], input=ps, check=True)
    elif how == "csv":
        rows = ['"%s"' % title.replace('"', "'")] + ['"%s"' % p.replace('"', "'") for p in paragraphs]
        with open(os.path.join(tmp, name + ".csv"), "w") as f:
            f.write("\n".join(rows) + "\n")
        run(*lo, "--infilter=CSV:44,34,76,1", "--convert-to", kind, "--outdir", HERE, name + ".csv", cwd=tmp)


def main():
    qs = questions()
    if len(qs) < len(PLAN):
        sys.exit("only %d FAQ questions with enough text" % len(qs))
    rows = ["file\ttype\ttitle\tphrase\tauthor\tlink"]
    with tempfile.TemporaryDirectory() as tmp:
        for i, ((kind, how), (title, paragraphs)) in enumerate(zip(PLAN, qs)):
            name = "faq-%02d" % (i + 1)
            make(tmp, kind, how, name, title, paragraphs)
            shown = title if kind not in ("xlsx", "ods") else ""  # a spreadsheet has no title of its own
            rows.append("%s.%s\t%s\t%s\t%s\t%s\t" % (name, kind, kind, shown, phrase_of(paragraphs), AUTHOR))
    with open(os.path.join(HERE, "MANIFEST.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    print("%d documents" % len(PLAN))


if __name__ == "__main__":
    main()
