#!/usr/bin/env python3
"""A small static web with planted near-duplicates, and its truth
(tests/integration/crawl_near_duplicates_test.sh, neardup_check.py).

Writes DOCROOT/<host>/... (served by nginx with root DOCROOT/$host), a hosts
file naming every host at ADDR:PORT, the seeds (every host's "/") and
TRUTH: one line per article page, "URL<TAB>FAMILY<TAB>VARIANT": pages of
one family are near-duplicates of each other (the same article text), every
other pair is not.

The web, deterministic for a seed: HOSTS hosts www.nd<i>.test, each with
its own template (a short menu and footer, the same on all its pages).
ARTICLES articles of 900-1500 words of synthetic text from a shared
Zipf-like vocabulary, each first published on one host ("original"). A
third of the articles get copies, each one of:
  date        the same host, another path, another date line
  boilerplate another host: its template (menu, footer) instead
  mirror      another host, same template and date (the URL differs only)
  edit        the same host, two words of the body replaced
and a few short distinct pages per host (120-200 words) share a long
block of host boilerplate (a "related links" and disclaimer paragraph):
truly distinct pages with a shared template, which must not cluster.
"""
import argparse
import os
import random


def words_vocab(rng, n):
    syl = ["ka", "lo", "mi", "ne", "ru", "ta", "vi", "so", "pe", "du", "ga", "fi", "ho", "je", "ba", "zo", "wu",
           "xi", "qa", "ce", "ly", "mo", "ni", "tu"]
    vocab = set()
    while len(vocab) < n:
        vocab.add("".join(rng.choice(syl) for _ in range(rng.randint(2, 4))))
    return sorted(vocab)


def draw(rng, vocab, weights, n):
    return rng.choices(vocab, weights=weights, k=n)


def sentences(rng, words):
    out, i = [], 0
    while i < len(words):
        k = rng.randint(6, 16)
        s = words[i:i + k]
        out.append(s[0].capitalize() + " " + " ".join(s[1:]) + ".")
        i += k
    return out


def paragraphs(rng, words):
    sent = sentences(rng, words)
    out, i = [], 0
    while i < len(sent):
        k = rng.randint(3, 7)
        out.append("<p>" + " ".join(sent[i:i + k]) + "</p>")
        i += k
    return "\n".join(out)


MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


def page(title, menu, date, body_html, footer):
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title></head>\n"
            f"<body>\n<ul class=\"nav\">{menu}</ul>\n<h1>{title}</h1>\n<p class=\"date\">{date}</p>\n"
            f"{body_html}\n<footer>{footer}</footer>\n</body></html>\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--hosts", type=int, default=8)
    ap.add_argument("--articles", type=int, default=90)
    ap.add_argument("--docroot", required=True)
    ap.add_argument("--addr", required=True)
    ap.add_argument("--port", required=True)
    ap.add_argument("--hosts-file", required=True)
    ap.add_argument("--seeds", required=True)
    ap.add_argument("--truth", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    vocab = words_vocab(rng, 4000)
    weights = [1.0 / (r + 1) for r in range(len(vocab))]
    hosts = [f"www.nd{i}.test" for i in range(a.hosts)]
    pages = {h: {} for h in hosts}  # path -> html
    truth = []

    def template(h):
        trng = random.Random(f"{a.seed}-template-{h}")
        menu = "".join(f"<li><a href=\"/\">{w}</a></li>" for w in draw(trng, vocab, weights, 4))
        footer = " ".join(draw(trng, vocab, weights, 5))
        boiler = paragraphs(trng, draw(trng, vocab, weights, 150))
        return menu, footer, boiler

    templates = {h: template(h) for h in hosts}

    def date_line(r):
        return f"Updated {r.randint(1, 28)} {r.choice(MONTHS)} {r.randint(2019, 2026)}"

    def add(h, path, html, family, variant):
        pages[h][path] = html
        truth.append((f"http://{h}{path}", family, variant))

    variants = ["date", "boilerplate", "mirror", "edit"]
    for art in range(a.articles):
        arng = random.Random(f"{a.seed}-article-{art}")
        body_words = draw(arng, vocab, weights, arng.randint(900, 1500))
        title = " ".join(draw(arng, vocab, weights, 4)).capitalize()
        home = hosts[art % len(hosts)]
        menu, footer, _ = templates[home]
        date = date_line(arng)
        cuts = arng.getstate()  # the sentence and paragraph cuts, for the edited copy
        body = paragraphs(arng, body_words)
        add(home, f"/articles/{art}.html", page(title, menu, date, body, footer), f"a{art}", "original")
        if art % 3 != 0:
            continue
        for c in range(1 + art % 2):
            v = variants[(art // 3 + c) % len(variants)]
            other = hosts[(art + 1 + c) % len(hosts)]
            if v == "date":
                add(home, f"/archive/{art}-{c}.html", page(title, menu, date_line(arng), body, footer), f"a{art}", v)
            elif v == "boilerplate":
                om, of, _ = templates[other]
                add(other, f"/copy/{art}-{c}.html", page(title, om, date, body, of), f"a{art}", v)
            elif v == "mirror":
                add(other, f"/mirror/{art}.html", page(title, menu, date, body, footer), f"a{art}", v)
            else:
                edited = list(body_words)
                for _ in range(2):
                    edited[arng.randrange(len(edited))] = arng.choice(vocab)
                crng = random.Random()
                crng.setstate(cuts)
                add(home, f"/edited/{art}-{c}.html", page(title, menu, date, paragraphs(crng, edited), footer),
                    f"a{art}", v)
    for h in hosts:
        menu, footer, boiler = templates[h]
        for k in range(6):
            srng = random.Random(f"{a.seed}-short-{h}-{k}")
            body = paragraphs(srng, draw(srng, vocab, weights, srng.randint(120, 200))) + "\n" + boiler
            title = " ".join(draw(srng, vocab, weights, 3)).capitalize()
            add(h, f"/short/{k}.html", page(title, menu, date_line(srng), body, footer), f"s-{h}-{k}", "distinct")
    for h in hosts:
        links = "\n".join(f"<li><a href=\"{p}\">{p}</a></li>" for p in sorted(pages[h]))
        pages[h]["/index.html"] = f"<!DOCTYPE html>\n<html><head><title>{h}</title></head><body><ul>{links}</ul></body></html>\n"
        for path, html in pages[h].items():
            f = os.path.join(a.docroot, h, path.lstrip("/"))
            os.makedirs(os.path.dirname(f), exist_ok=True)
            with open(f, "w") as out:
                out.write(html)
    with open(a.hosts_file, "w") as out:
        for h in hosts:
            out.write(f"{a.addr}:{a.port} {h}\n")
    with open(a.seeds, "w") as out:
        for h in hosts:
            out.write(f"http://{h}/\n")
    with open(a.truth, "w") as out:
        for url, fam, v in truth:
            out.write(f"{url}\t{fam}\t{v}\n")


if __name__ == "__main__":
    main()
