#!/usr/bin/env python3
"""Writes the seed corpora in fuzz/corpus/<name>/ (committed; rerun after a
format change). Seeds are small real inputs: URL and robots.txt cases from
tests/data/conformance, pages and sitemaps like the unit tests', and RPC
sequences encoded from text-format requests with protoc --encode.
    fuzz/make_corpus.py            (from anywhere; needs protoc)"""
import gzip, json, os, shutil, struct, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFORMANCE = os.path.join(ROOT, "tests", "data", "conformance")
CORPUS = os.path.join(ROOT, "fuzz", "corpus")


def write(name, items):
    d = os.path.join(CORPUS, name)
    # A README beside the seeds (their sources and licence) is kept.
    readme = os.path.join(d, "README")
    kept = open(readme, "rb").read() if os.path.exists(readme) else None
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    if kept is not None:
        with open(readme, "wb") as f:
            f.write(kept)
    for i, data in enumerate(items):
        with open(os.path.join(d, "seed-%03d" % i), "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode("utf-8"))


def url_seeds():
    cases = json.load(open(os.path.join(CONFORMANCE, "url", "urltestdata.json")))
    out = []
    for c in cases:
        if not isinstance(c, dict) or c.get("base") is None:
            continue
        base = c["base"]
        if not base.startswith(("http:", "https:")):
            continue
        out.append(base + "\n" + c["input"])
    # Every 12th case: a spread of hosts, IPv4/IPv6, percent-encoding, dots.
    out = out[::12][:50]
    res = json.load(open(os.path.join(CONFORMANCE, "url", "rfc3986_resolution.json")))
    for c in res["normal"][::4]:
        out.append(res["base"] + "\n" + c["ref"])
    out += ["HTTP://Example.COM:80/a/./b/../c?%7euser#frag", "https://xn--nxasmq6b.test/%E2%82%AC?q=%41"]
    return out


def robots_seeds():
    cases = json.load(open(os.path.join(CONFORMANCE, "robots", "google_cases.json")))
    out, seen = [], set()
    for c in cases:
        if c["robotstxt"] in seen or not c["robotstxt"]:
            continue
        seen.add(c["robotstxt"])
        path = c["url"].split("://", 1)[-1]
        path = path[path.find("/"):] if "/" in path else "/"
        out.append(path + "\n" + c["robotstxt"])
    out = out[:30]
    out.append("/shop/cart?x=1\nUser-agent: crawlbot\nCrawl-delay: 2.5\nDisallow: /shop/*?\nAllow: /shop/$\n"
               "Sitemap: http://a.test/sitemap.xml\n")
    return out


PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Cats and dogs</title>
<meta name="description" content="All about pets."><base href="/base/">
<meta name="robots" content="noarchive"></head><body><h1>Pets</h1>
<p>Cats sleep a lot. Dogs run in the park.</p><a href="cats.html">cats</a>
<a href="/dogs/?a=1&amp;b=2#top">dogs</a><a rel="nofollow" href="/x">x</a>
<a href="mailto:a@b.test">mail</a><script>var a = "<a href='/no'>";</script></body></html>"""


def html_seeds():
    # First byte: index into html_fuzzer.cc's content types.
    return [
        b"\x00" + PAGE.encode(),
        b"\x02" + "<html><title>Caf\u00e9</title><p>na\u00efve r\u00e9sum\u00e9</p>".encode("cp1252"),
        b"\x03" + "<title>\u65e5\u672c</title><p>\u6771\u4eac\u3067\u3059</p>".encode("shift_jis"),
        b"\x04" + "<p>hi</p><a href=a>a</a>".encode("utf-16-le"),
        b"\x06" + b'<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><a href="b">b</a></body></html>',
        b"\x07" + b"First line title\n\nA paragraph of plain text.\nStill the same paragraph.",
        b"\x00" + b'<meta name="robots" content="nofollow,noindex"><a href="/a">a</a>',
        b"\x09" + b"<html><head><meta http-equiv=\"content-type\" content=\"text/html; charset=iso-8859-2\">"
                  b"<title>\xb1</title></head><body>\x00\xff<a href='http://[::1]/'>v6</a></body>",
    ] + entity_seeds()


def entity_seeds():
    """Character references (fetcher/page/html_entities.h): named ones with
    and without ';', longest-match and legacy cases, the attribute-value
    rule, two-code-point references, and numeric ones at every boundary."""
    named = ("<title>&NotEqualTilde; &CounterClockwiseContourIntegral; &notin; &notit &not=1 &ampere; "
             "&frac34x &Aopf; &fjlig; &ThickSpace; &Amp; &nosuch; &CounterClockwiseContourIntegralX;</title>"
             "<p>&eacute&Eacute;&copy&COPY;&nbsp&lt&gt&quot&AMP &zwnj;&zwj;&lrm;&rlm;&#8203;</p>"
             "<a href=\"/s?q=1&copy=2&lang=en&not=3&amp;x=&lang;&ltx&lt.\">&notinva;&nvlt;&bne;</a>"
             "<a href=/u?a=1&sect&para=2&amp>&amp&amp;amp;&</a><img alt='&frac12&half;&hookrightarrow;'>")
    numeric = ("<p>&#65;&#x41;&#X41;&#0065&#x80;&#150;&#x9F;&#x81;&#x8D;&#0;&#xD800;&#xDFFF;&#x110000;"
               "&#99999999999999999999999;&#x10FFFF;&#xFFFE;&#1;&#x0D;&#x7F;&#x;&#;&#a;&#xg;&#x41g&#97F&#</p>"
               "<a href='/n?&#x26;&#38;x=&#x2F;'>&#x1F600;&#128512</a>")
    # windows-1252 bytes next to references, and references cut by the end.
    legacy = "<p>caf\u00e9 &eacute &euro; &#128; &hellip;</p><a href=\"a?b=1&amp;c=\u00e9\">x</a>&CounterClock"
    return [b"\x00" + named.encode(), b"\x01" + numeric.encode(), b"\x02" + legacy.encode("cp1252")]


URLSET = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>http://a.test/</loc><lastmod>2024-01-01</lastmod></url>
  <url><loc> http://a.test/b?x=1&amp;y=2 </loc><image:image><image:loc>http://a.test/i.png</image:loc></image:image></url>
  <url><loc><![CDATA[http://a.test/c&d]]></loc></url>
</urlset>"""
INDEX = """<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>http://a.test/s1.xml</loc></sitemap><sitemap><loc>http://a.test/s2.xml.gz</loc></sitemap>
</sitemapindex>"""


def sitemap_seeds():
    gz = lambda s: gzip.compress(s.encode(), mtime=0)
    # First byte: 0 application/xml, 1 text/xml, 2 application/gzip, 3 application/x-gzip.
    return [b"\x00" + URLSET.encode(), b"\x01" + INDEX.encode(), b"\x02" + gz(URLSET), b"\x03" + gz(INDEX),
            b"\x00" + gz(URLSET), b"\x00" + b"<feed><entry><link href='http://a.test/e'/></entry></feed>"]


def charset_seeds():
    """Byte 0: the encoding (its place in the WHATWG encodings.json; one past
    the last: no label), byte 1: the streamed decode's piece sizes, then the
    body: the real prose of tests/data/charset/ and the sniffing cases."""
    whatwg = os.path.join(ROOT, "fetcher", "page", "whatwg", "encodings.json")
    names = [e["name"].lower() for g in json.load(open(whatwg)) for e in g["encodings"]]
    vectors = os.path.join(ROOT, "tests", "data", "charset")
    out = []
    for i, f in enumerate(sorted(os.listdir(vectors))):
        lang, _, enc = f.partition(".")
        if enc in names:
            body = open(os.path.join(vectors, f), "rb").read()[:600]
            out.append(bytes([names.index(enc), i]) + body)
            out.append(bytes([len(names), i]) + body)
    unlabelled = bytes([len(names), 7])
    out += [
        unlabelled + b'<meta charset="shift_jis"><p>\x93\xfa\x96\x7b</p>',
        unlabelled + b"<meta http-equiv=content-type content='text/html; charset=koi8-r'>\xf0\xd2",
        unlabelled + b'<?xml version="1.0" encoding="windows-1251"?><a>\xcf\xf0</a>',
        unlabelled + b"\xff\xfeh\x00i\x00\x00\xd8",
        unlabelled + b"\xef\xbb\xbfcaf\xc3\xa9 \xe2\x82",
        unlabelled + b"a\x1b$B\x30\x21\x1b(Bb",
        bytes([names.index("big5"), 3]) + b"\x88\x62\x88\x64\x81\x40\xa4\x40",
        bytes([names.index("gb18030"), 5]) + b"\x80\x81\x30\x81\x30\xa6\xd9\xff",
        bytes([names.index("utf-16le"), 9]) + b"A\x00\x3d\xd8\x00\xde\x00\xd8",
    ]
    return out


def encode(message, text):
    proto = os.path.join(ROOT, "proto", "crawl.proto")
    return subprocess.run(["protoc", "--proto_path=" + ROOT, "--encode=crawl.v1." + message, proto],
                          input=text.encode(), stdout=subprocess.PIPE, check=True).stdout


def call(selector, data):
    return bytes([selector]) + struct.pack("<H", len(data)) + data


CRAWL = 'crawl_id: 7 state: CRAWL_STATE_RUNNING params_version: 1 params { order: "bfs" max_pages: 100 ' \
        'schedule_size: 10 lease_seconds: 60 results_batch_pages: 5 max_links_per_page: 300 } ' \
        'queue_servers { id: "qs-fuzz" address: "127.0.0.1:1" }'


def queueserver_seeds():
    inject = encode("InjectSeedsRequest", CRAWL.join(["crawl { ", " } "]) +
                    'urls: "http://a.test/" urls: "http://b.test/x?y"')
    sched = encode("GetScheduleRequest", 'crawl_id: 7 fetcher_id: "f1" max_urls: 10')
    submit = encode("SubmitResultsRequest", 'crawl_id: 7 fetcher_id: "f1" schedule_id: 1 sequence: 1 final: true '
                    'records { url: "http://a.test/robots.txt" kind: URL_KIND_ROBOTS status: 200 '
                    'robots_body: "User-agent: *\\nDisallow: /private\\n" } '
                    'records { url: "http://a.test/" status: 200 bytes: 100 mime_type: "text/html" title: "A" } '
                    'links { url: "http://a.test/private/x" referrer: "http://a.test/" depth: 1 } '
                    'links { url: "http://c.test/" referrer: "http://a.test/" depth: 1 link_rank: 2 } '
                    'host_errors { origin: "http://b.test" errors: 2 }')
    add = encode("AddUrlsRequest", 'crawl_id: 7 fetcher_id: "f1" batch_id: "b1" '
                 'links { url: "http://d.test/" from_sitemap: true }')
    stats = encode("StatsRequest", "crawl_id: 7 limit_pages: true page_cap: 3")
    end = encode("EndCrawlRequest", "crawl_id: 7 state: CRAWL_STATE_STOPPED")
    log = encode("GetCrawlLogRequest", "crawl_id: 7 offset: 0 limit: 100")
    # Selectors as in queueserver_rpc_fuzzer.cc: 0 inject, 1 schedule, 2 submit,
    # 3 add, 4 stats, 5 end, 6 log, 7 tick, 8 advance the clock.
    return [
        call(0, inject),
        call(0, inject) + call(1, sched) + call(2, submit) + call(1, sched),
        call(0, inject) + call(3, add) + call(4, stats) + call(6, log),
        call(0, inject) + call(1, sched) + call(8, b"\x90") + call(7, b"") + call(1, sched) + call(5, end) + call(6, log),
        call(2, submit) + call(1, sched) + call(4, stats),
    ]


def nameserver_seeds():
    reg = encode("RegisterQueueServerRequest", 'server { id: "qs-1" address: "127.0.0.1:7001" }')
    hb = encode("HeartbeatRequest", 'server { id: "qs-1" address: "127.0.0.1:7001" } stats { crawl_id: 1 '
                'frontier_size: 5 top_hosts { host: "a.test" pages: 3 } }')
    state = encode("GetCrawlStateRequest", 'fetcher_id: "f1" stats { fetches: 3 }')
    start = encode("StartCrawlRequest", 'seeds: "http://a.test/" seeds: "ftp://x" seeds: "HTTP://B.test:80/./a" '
                   'params { order: "bfs" max_pages: 1000 schedule_size: 50 user_agent: "crawlbot/1.0" }')
    setp = encode("SetCrawlParamsRequest", 'crawl_id: 1 params { max_pages: 5 } fields: "max_pages"')
    # Selectors as in nameserver_rpc_fuzzer.cc: 0 register, 1 heartbeat,
    # 2 crawl state, 3 start, 4 stop, 5 status, 6 list crawls, 7 list servers,
    # 8 log, 9 resume, 10 set params, 11 snapshot.
    return [
        call(0, reg) + call(1, hb) + call(7, b"") + call(11, b""),
        call(2, state) + call(3, start),
        call(3, start) + call(4, encode("StopCrawlRequest", "crawl_id: 1")) + call(5, b"") + call(6, b""),
        call(9, encode("ResumeCrawlRequest", "crawl_id: 1")) + call(10, setp) +
        call(8, encode("GetCrawlLogRequest", "crawl_id: 1 limit: 10")),
    ]


def segmenter_seeds():
    # Real snippets in scripts written without spaces, and the NFKC and case
    # folding cases. Sources (Debian packages, GPL-2+): debian-reference-ja,
    # -zh-cn, -zh-tw (Debian Reference, chapter titles), and the Thai, Khmer,
    # Myanmar and Lao translations of apt, dpkg, gtk+3.0 and iso-codes.
    # The first byte picks the case folding (odd: Turkic).
    snippets = [
        "2.1.7. パッケージ管理のイベントの流れ 2.1.8. パッケージ管理のトラブルへの応急対処法",
        "1.1.11. 追加のユーザーアカウント 1.1.12. sudo の設定 1.1.13. お遊びの時間",
        "2.2.4. aptitude 的按键绑定 2.2.5. aptitude 软件包视图 2.2.6. aptitude 搜索方式选项",
        "1.1.7. 怎樣退出命令列提示字元 1.1.8. 怎樣關閉系統 1.1.9. 恢復一個正常的控制檯",
        "แพกเกจที่ขาดหาย: แพกเกจเสมือนผสม: แพกเกจเสมือนที่มีแพกเกจจริงเดียว: ตารางรุ่น:",
        "ไม่ตรงกันกับ ( หรือ \\( ไม่ตรงกันกับ ) หรือ \\)",
        "ឈ្មោះ\u200bកញ្ចប់\u200bមិន\u200bត្រឹមត្រូវ `%.255s' ៖ %s",
        "စိတ်ကြိုက် အရွယ်များကို စီမံပါ... ပုံနှိုပ်စက်မှ",
        "ປະເທດຝະລັ່ງ ປະເທດເຊອັອກຊີ ປະເທດເຢັຽລະມັນ ຮົງກົງ",
        "ＡＢＣ ａｂｃ１２３ ｶﾀｶﾅ ﬁle Straße ΣΟΦΌΣ Ⅻ cafe\u0301 \ufdfa",
        "iPhone用ケース2024年 Москва東京 한국어 텍스트",
    ]
    out = ["\x00" + t for t in snippets]
    out.append("\x01DİYARBAKIR Istanbul ıi İI")
    out.append(b"\x00\xe6\x9d\xb1\xff\xe4\xba\xac\xe4\xba word \xc3")
    out.append("\x00" + "東京" * 3000)
    return out


def document_seeds(extensions):
    """The test documents (tests/data/documents/) of these extensions, each
    after the type byte that picks its type (document_fuzz.h)."""
    d = os.path.join(ROOT, "tests", "data", "documents")
    out = []
    for name in sorted(os.listdir(d)):
        ext = name.rsplit(".", 1)[-1]
        if ext in extensions:
            out.append(bytes([extensions.index(ext)]) + open(os.path.join(d, name), "rb").read())
    return out


def main():
    write("url", url_seeds())
    write("robots", robots_seeds())
    write("html", html_seeds())
    write("sitemap", sitemap_seeds())
    write("charset", charset_seeds())
    write("segmenter", segmenter_seeds())
    write("queueserver_rpc", queueserver_seeds())
    write("nameserver_rpc", nameserver_seeds())
    write("pdf", document_seeds(["pdf"]))
    write("ooxml", document_seeds(["docx", "xlsx", "pptx"]))
    write("odf", document_seeds(["odt", "ods", "odp"]))
    write("epub", document_seeds(["epub"]))
    write("rtf", document_seeds(["rtf"]))
    for name in sorted(os.listdir(CORPUS)):
        print(name, len(os.listdir(os.path.join(CORPUS, name))), "seeds")


if __name__ == "__main__":
    sys.exit(main())
