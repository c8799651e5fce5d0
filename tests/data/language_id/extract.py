#!/usr/bin/env python3
"""Rebuilds the held-out language identification set (README.md here).

Reads the translation catalogues (.mo) of the Debian packages named in
README.md from a directory where they were unpacked (`apt-get download PKG`
then `dpkg-deb -x PKG.deb DIR`), and writes one file per language here: about
40 paragraphs of about 200 characters, one per line. A paragraph is one long
translated message cut at a word boundary, or consecutive shorter messages
joined with a space. Nothing here was used to tune the identifier.

Usage: extract.py UNPACKED_DIR [--out DIR]
"""
import argparse
import gettext
import os
import re
import sys

# Expected code -> list of (catalogue path under UNPACKED_DIR, share of the
# paragraphs). "en" reads the catalogues' msgids (VLC's English originals).
VLC = "usr/share/locale/{}/LC_MESSAGES/vlc.mo"
SOURCES = {
    "ar": [(VLC.format("ar"), 1)], "bg": [(VLC.format("bg"), 1)], "ca": [(VLC.format("ca"), 1)],
    "da": [(VLC.format("da"), 1)], "de": [(VLC.format("de"), 1)], "el": [(VLC.format("el"), 1)],
    "en": [(VLC.format("de"), 1)], "es": [(VLC.format("es"), 1)], "eu": [(VLC.format("eu"), 1)],
    "fi": [(VLC.format("fi"), 1)], "fr": [(VLC.format("fr"), 1)], "ga": [(VLC.format("ga"), 1)],
    "he": [(VLC.format("he"), 1)], "hi": [(VLC.format("hi"), 1)], "hu": [(VLC.format("hu"), 1)],
    "hy": [(VLC.format("hy"), 1)], "id": [(VLC.format("id"), 1)], "it": [(VLC.format("it"), 1)],
    "ja": [(VLC.format("ja"), 1)], "ko": [(VLC.format("ko"), 1)], "lt": [(VLC.format("lt"), 1)],
    "ne": [(VLC.format("ne"), 1)], "nl": [(VLC.format("nl"), 1)], "no": [(VLC.format("nb"), 1)],
    "pt": [(VLC.format("pt_PT"), 0.5), (VLC.format("pt_BR"), 0.5)], "ro": [(VLC.format("ro"), 1)],
    "ru": [(VLC.format("ru"), 1)], "sr": [(VLC.format("sr"), 1)], "sv": [(VLC.format("sv"), 1)],
    "ta": [(VLC.format("ta"), 1)], "th": [(VLC.format("th"), 1)], "tr": [(VLC.format("tr"), 1)],
    "uk": [(VLC.format("uk"), 1)],
    "zh": [(VLC.format("zh_CN"), 0.5), (VLC.format("zh_TW"), 0.5)],
    "yi": [("usr/share/locale/yi/LC_MESSAGES/gtk30-properties.mo", 0.5),
           ("usr/share/locale/yi/LC_MESSAGES/gtk20-properties.mo", 0.5)],
}
# Languages not written in Latin letters: a translation mostly in ASCII
# letters is an untranslated or half-translated message, not their text.
NON_LATIN = {"ar", "bg", "el", "he", "hi", "hy", "ja", "ko", "ne", "ru", "sr", "ta", "th", "uk", "zh", "yi"}
PER_LANGUAGE = 40
TARGET = 200  # characters per paragraph, about


def clean(s):
    s = re.sub(r"<[^>]*>", " ", s)                      # markup
    s = re.sub(r"%(\d+\$)?[-+ #0]*\d*(\.\d+)?[a-zA-Z]", " ", s)  # printf formats
    s = s.replace("&", "").replace("_", "")              # accelerator marks
    return re.sub(r"\s+", " ", s).strip()


def cut(s, limit):
    """s cut to at most `limit` characters, at a space when there is one."""
    if len(s) <= limit:
        return s
    space = s.rfind(" ", int(limit * 0.7), limit)
    return s[: space if space > 0 else limit].strip()


def messages(path, english):
    catalog = gettext.GNUTranslations(open(path, "rb"))._catalog
    out = []
    for key in sorted(k for k in catalog if isinstance(k, str) and k):
        value = catalog[key]
        if value == key:
            continue  # untranslated
        text = clean(key if english else value)
        if len(text) >= 15:
            out.append(text)
    return out


def paragraphs(texts):
    out, current = [], ""
    for t in texts:
        if len(t) >= TARGET * 0.9:
            out.append(cut(t, int(TARGET * 1.1)))
            continue
        current = (current + " " + t).strip()
        if len(current) >= TARGET * 0.9:
            out.append(cut(current, int(TARGET * 1.1)))
            current = ""
    return out


def mostly_non_ascii(s):
    letters = [c for c in s if c.isalpha()]
    return letters and sum(ord(c) > 127 for c in letters) >= 0.6 * len(letters)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("unpacked")
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    args = ap.parse_args()
    for code, sources in sorted(SOURCES.items()):
        chosen = []
        for rel, share in sources:
            texts = messages(os.path.join(args.unpacked, rel), english=(code == "en"))
            if code in NON_LATIN:
                texts = [t for t in texts if mostly_non_ascii(t)]
            paras = paragraphs(texts)
            want = round(PER_LANGUAGE * share)
            step = max(1, len(paras) // want) if want else 1
            chosen += paras[::step][:want]
        with open(os.path.join(args.out, code + ".txt"), "w", encoding="utf-8") as f:
            for p in chosen:
                f.write(p + "\n")
        print(f"{code}: {len(chosen)} paragraphs", file=sys.stderr)


if __name__ == "__main__":
    main()
