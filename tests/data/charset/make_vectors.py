#!/usr/bin/env python3
"""Writes the charset test vectors beside this script: LANG.txt (UTF-8
prose) and LANG.ENCODING (the same prose in a legacy encoding, by Python's
codec), for tests/unit/fetcher/charset_test.cc. Sources (see README.md):
Debian Reference (debian-reference-ja, -zh-cn, -zh-tw; GPL-2+) and GNU
coreutils' translations (/usr/share/locale/LL/LC_MESSAGES/coreutils.mo;
GPL-3+), as installed by Debian 12.

    make_vectors.py [--chars N]
"""
import gettext
import glob
import html
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = [
    ("ja", "ref", [("shift_jis", "cp932"), ("euc-jp", "euc_jp"), ("iso-2022-jp", "iso2022_jp")]),
    ("zh-cn", "ref", [("gbk", "gbk"), ("gb18030", "gb18030")]),
    ("zh-tw", "ref", [("big5", "big5")]),
    ("ko", "mo", [("euc-kr", "euc_kr")]),
    ("ru", "mo", [("koi8-r", "koi8_r"), ("windows-1251", "cp1251"), ("iso-8859-5", "iso8859_5")]),
    ("pl", "mo", [("iso-8859-2", "iso8859_2"), ("windows-1250", "cp1250")]),
    ("el", "mo", [("windows-1253", "cp1253"), ("iso-8859-7", "iso8859_7")]),
    # From the sixth paragraph on: prose uchardet reads as ISO-8859-13 (è as
    # č), which the language check must put right (DetectLegacyEncoding).
    ("it", "ref", [("windows-1252", "cp1252")], 5),
]


def reference(lang):
    text = open("/usr/share/debian-reference/ch01.%s.html" % lang, encoding="utf-8").read()
    out = []
    for para in re.findall(r"(?is)<p\b[^>]*>(.*?)</p>", text):
        para = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", para))).strip()
        if len(para) >= 40:
            out.append(para)
    return out


def coreutils(lang):
    with open("/usr/share/locale/%s/LC_MESSAGES/coreutils.mo" % lang, "rb") as f:
        catalog = gettext.GNUTranslations(f)._catalog
    out = []
    for key, value in sorted(catalog.items(), key=lambda kv: str(kv[0])):
        if key and isinstance(value, str):
            value = re.sub(r"\s+", " ", re.sub(r"%[-0-9.]*[a-zA-Z]|[\x00-\x1f]", " ", value)).strip()
            if len(value) >= 30 and not re.search(r"[-=]{3}", value):
                out.append(value)
    return out


def main():
    chars = int(sys.argv[sys.argv.index("--chars") + 1]) if "--chars" in sys.argv else 1500
    for lang, source, encodings, *skip in VECTORS:
        paras = (reference(lang) if source == "ref" else coreutils(lang))[skip[0] if skip else 0:]
        kept, size = [], 0
        for p in paras:
            try:
                for _, codec in encodings:
                    p.encode(codec)
            except UnicodeEncodeError:
                continue
            kept.append(p)
            size += len(p)
            if size >= chars:
                break
        text = "\n".join(kept) + "\n"
        with open(os.path.join(HERE, lang + ".txt"), "w", encoding="utf-8") as f:
            f.write(text)
        for name, codec in encodings:
            with open(os.path.join(HERE, "%s.%s" % (lang, name)), "wb") as f:
                f.write(text.encode(codec))
        print(lang, len(text), "characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
