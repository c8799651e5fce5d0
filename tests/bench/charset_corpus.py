#!/usr/bin/env python3
"""Unlabelled legacy-encoded test pages from real prose, for the encoding
detector comparison (tests/bench/charset_detect_eval.cc) and the charset
test vectors (tests/data/charset/).

    charset_corpus.py OUT_DIR [--samples N] [--chars C]

Reads prose installed by Debian packages (not shipped in the repository):
Debian Reference's HTML (debian-reference-ja, -zh-cn, -zh-tw, -de, -fr;
GPL-2+) and the translations of installed programs (/usr/share/locale/LL/
LC_MESSAGES/*.mo; each under its program's licence). For every (language,
encoding) pair below it writes OUT_DIR/ENCODING/LANG-N.html: N pages of
about C characters of prose in <p>s inside a small HTML skeleton with no
charset label, encoded with Python's codec for that encoding. Paragraphs
the codec cannot encode are left out. ENCODING is the WHATWG name, lower
case.
"""
import argparse
import gettext
import glob
import html
import os
import re
import sys

# (language, source, [(WHATWG name, Python codec)])
PAIRS = [
    ("ja", "ref", [("shift_jis", "cp932"), ("euc-jp", "euc_jp"), ("iso-2022-jp", "iso2022_jp")]),
    ("zh-cn", "ref", [("gbk", "gbk"), ("gb18030", "gb18030")]),
    ("zh-tw", "ref", [("big5", "big5")]),
    ("ko", "mo", [("euc-kr", "euc_kr")]),
    ("ru", "mo", [("koi8-r", "koi8_r"), ("windows-1251", "cp1251"), ("iso-8859-5", "iso8859_5"),
                  ("ibm866", "cp866")]),
    ("uk", "mo", [("koi8-u", "koi8_u")]),
    ("pl", "mo", [("iso-8859-2", "iso8859_2"), ("windows-1250", "cp1250")]),
    ("cs", "mo", [("iso-8859-2", "iso8859_2"), ("windows-1250", "cp1250")]),
    ("el", "mo", [("windows-1253", "cp1253"), ("iso-8859-7", "iso8859_7")]),
    ("de", "ref", [("windows-1252", "cp1252")]),
    ("fr", "ref", [("windows-1252", "cp1252")]),
    ("he", "mo", [("windows-1255", "cp1255")]),
    ("ar", "mo", [("windows-1256", "cp1256")]),
    ("th", "mo", [("windows-874", "cp874")]),
    ("tr", "mo", [("windows-1254", "cp1254")]),
    ("vi", "mo", [("windows-1258", "cp1258")]),
]


def paragraphs_from_reference(lang):
    out = []
    for path in sorted(glob.glob("/usr/share/debian-reference/*.%s.html" % lang)):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        text = re.sub(r"(?is)<(script|style|pre)\b.*?</\1>", " ", text)
        for para in re.findall(r"(?is)<p\b[^>]*>(.*?)</p>", text):
            para = html.unescape(re.sub(r"<[^>]+>", " ", para))
            para = re.sub(r"\s+", " ", para).strip()
            if len(para) >= 40:
                out.append(para)
    return out


def paragraphs_from_mo(lang):
    out = []
    for path in sorted(glob.glob("/usr/share/locale/%s/LC_MESSAGES/*.mo" % lang)):
        try:
            with open(path, "rb") as f:
                catalog = gettext.GNUTranslations(f)._catalog
        except Exception:  # a catalogue Python cannot read: skip it
            continue
        for key, value in sorted(catalog.items(), key=lambda kv: str(kv[0])):
            if not key or not isinstance(value, str):
                continue
            value = re.sub(r"%[-0-9.]*[a-zA-Z]|\\[nt]|[\x00-\x1f]", " ", value)
            value = re.sub(r"\s+", " ", value).strip()
            if len(value) >= 25:
                out.append(value)
    return out


def pages(paragraphs, codec, count, chars):
    usable = []
    for p in paragraphs:
        try:
            p.encode(codec)
            usable.append(p)
        except UnicodeEncodeError:
            continue
    result, i = [], 0
    while len(result) < count and usable:
        body, size = [], 0
        while size < chars and i < len(usable) * 4:
            p = usable[i % len(usable)]
            i += 1
            body.append("<p>" + html.escape(p, quote=False) + "</p>")
            size += len(p)
        if i >= len(usable) * 4:
            break
        page = ("<!DOCTYPE html>\n<html><head><title>%s</title></head>\n<body>\n%s\n</body></html>\n" %
                (html.escape(usable[(i * 7) % len(usable)][:60], quote=False), "\n".join(body)))
        result.append(page.encode(codec))
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--chars", type=int, default=600)
    args = parser.parse_args()
    for lang, source, encodings in PAIRS:
        paras = paragraphs_from_reference(lang) if source == "ref" else paragraphs_from_mo(lang)
        for name, codec in encodings:
            made = pages(paras, codec, args.samples, args.chars)
            os.makedirs(os.path.join(args.out, name), exist_ok=True)
            for n, data in enumerate(made):
                with open(os.path.join(args.out, name, "%s-%d.html" % (lang, n)), "wb") as f:
                    f.write(data)
            print("%-14s %-6s %3d pages from %d paragraphs" % (name, lang, len(made), len(paras)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
