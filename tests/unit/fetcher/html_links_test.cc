// Tests of fetcher/page/html_links.h: each extracted feature (docs/DESIGN.md
// §6), the tokenizer rules it follows (WHATWG HTML 13.2.5), and robustness on
// malformed and random input.
#include "fetcher/page/html_links.h"

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "fetcher/page/html_entities.h"

namespace html = crawl::html;

namespace {

std::vector<std::string> Hrefs(const html::PageLinks& page) {
  std::vector<std::string> out;
  for (const auto& link : page.links) out.push_back(link.href);
  return out;
}

std::string Decode(std::string_view in, bool attr) {
  std::string out;
  html::AppendDecodedEntities(in, attr, out);
  return out;
}

// Counts UTF-8 code points; false in *valid if a sequence is broken.
std::size_t Utf8Chars(std::string_view s, bool* valid) {
  std::size_t n = 0;
  *valid = true;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > s.size()) {
      *valid = false;
      return n;
    }
    for (std::size_t k = 1; k < len; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) *valid = false;
    }
    i += len;
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("links come from a, area, frame, iframe and img in document order", "[unit]") {
  const auto page = html::ExtractLinks(
      "<html><body>"
      "<a href=\"/one\">First <b>link</b></a>"
      "<map><area href=\"/area\" alt=\"Area text\"></map>"
      "<frameset><frame src=\"/frame\"></frameset>"
      "<iframe src=\"/iframe\">fallback <a href=/not-a-link>x</a></iframe>"
      "<img src=\"/pic.png\" alt=\"A  picture\">"
      "<link href=\"/style.css\"><script src=\"/app.js\"></script>"
      "</body></html>");
  REQUIRE(page.links.size() == 5);
  CHECK(page.links[0] == html::Link{"/one", "First link", "a", false});
  CHECK(page.links[1] == html::Link{"/area", "Area text", "area", false});
  CHECK(page.links[2] == html::Link{"/frame", "", "frame", false});
  CHECK(page.links[3] == html::Link{"/iframe", "", "iframe", false});
  CHECK(page.links[4] == html::Link{"/pic.png", "A picture", "img", false});
  CHECK_FALSE(page.links_truncated);
}

TEST_CASE("a feed the page announces with <link rel=alternate> is a link; style sheets are not",
          "[unit][feed]") {
  const auto page = html::ExtractLinks(
      "<head><link rel=\"stylesheet\" href=\"/s.css\">"
      "<link rel=\"alternate\" type=\"application/rss+xml\" title=\"News\" href=\"/news.rss\">"
      "<LINK REL=\"Alternate Home\" TYPE=\" Application/Atom+XML \" HREF=\"/feed.atom\">"
      "<link rel=\"alternate\" hreflang=\"de\" href=\"/de/\">"
      "<link rel=\"alternate\" type=\"application/rss+xml\"></head>");
  REQUIRE(page.links.size() == 2);
  CHECK(page.links[0] == html::Link{"/news.rss", "", "link", false});
  CHECK(page.links[1] == html::Link{"/feed.atom", "", "link", false});
}

TEST_CASE("anchor text is collapsed, bounded and closed by the next link", "[unit]") {
  const auto page = html::ExtractLinks(
      "<a href=a>  foo\n\t bar&nbsp;&nbsp;baz  </a>"
      "<a href=b>one<br>two<div>three</div>f<i>ou</i>r</a>"
      "<a href=c>unclosed <a href=d>next</a> outside"
      "<a href=e><img src=i.png alt=\"logo\"> Home</a>");
  REQUIRE(Hrefs(page) == std::vector<std::string>{"a", "b", "c", "d", "e", "i.png"});
  CHECK(page.links[0].anchor_text == "foo bar baz");
  CHECK(page.links[1].anchor_text == "one two three four");
  CHECK(page.links[2].anchor_text == "unclosed");
  CHECK(page.links[3].anchor_text == "next");
  CHECK(page.links[4].anchor_text == "logo Home");
  CHECK(page.links[5].anchor_text == "logo");

  // At most max_anchor_chars characters, cut between characters.
  std::string long_text;
  for (int i = 0; i < 300; ++i) long_text += "\xC3\xA9";  // é
  const auto big = html::ExtractLinks("<a href=x>" + long_text + "</a>");
  bool valid = false;
  CHECK(Utf8Chars(big.links.at(0).anchor_text, &valid) == 200);
  CHECK(valid);
  html::ExtractOptions small;
  small.max_anchor_chars = 6;  // "hello b" would be 7
  CHECK(html::ExtractLinks("<a href=x>hello big world</a>", small).links.at(0).anchor_text == "hello");
}

TEST_CASE("base href is the first base element with an href", "[unit]") {
  CHECK(html::ExtractLinks("<base target=_top><base href=\" http://a.example/d/?x=1&amp;y \">"
                           "<base href=\"http://b.example/\">")
            .base_href == "http://a.example/d/?x=1&y");
  CHECK(html::ExtractLinks("<a href=x>x</a>").base_href.empty());
}

TEST_CASE("title is decoded, collapsed and cut to 100 characters", "[unit]") {
  CHECK(html::ExtractLinks("<head><title>\n  Caf&eacute; &amp; Bar &mdash; <b>menu</b>\n</title>"
                           "<TITLE>second</TITLE></head>")
            .title == "Caf\xC3\xA9 & Bar \xE2\x80\x94 <b>menu</b>");
  std::string long_title;
  for (int i = 0; i < 150; ++i) long_title += "\xE2\x82\xAC ";  // "€ "
  const auto page = html::ExtractLinks("<title>" + long_title + "</title>");
  bool valid = false;
  CHECK(Utf8Chars(page.title, &valid) == 99);  // 50 x "€" and 49 spaces; no trailing space
  CHECK(valid);
  CHECK(page.title.back() != ' ');
  // A title inside a link is not anchor text, a link inside a title is text.
  const auto odd = html::ExtractLinks("<title>x <a href=/in-title>y</a></title><a href=/z>z</a>");
  CHECK(odd.title == "x <a href=/in-title>y</a>");
  CHECK(Hrefs(odd) == std::vector<std::string>{"/z"});
}

TEST_CASE("without a title the first non-empty heading is the title", "[unit]") {
  CHECK(html::ExtractLinks("<body><h1> </h1><h3>The <a href=x>real</a>\nheading</h3><h1>later</h1>").title ==
        "The real heading");
  CHECK(html::ExtractLinks("<title>  </title><h2>Fallback</h2>").title == "Fallback");
  CHECK(html::ExtractLinks("<title>Given</title><h1>Heading</h1>").title == "Given");
  CHECK(html::ExtractLinks("<h2>Unclosed heading").title == "Unclosed heading");
  CHECK(html::ExtractLinks("<p>no title at all</p>").title.empty());
}

TEST_CASE("robots meta directives are read and nofollow applies to every link", "[unit]") {
  auto page = html::ExtractLinks(
      "<meta name=\"ROBOTS\" content=\"NoIndex, NOARCHIVE\"><a href=/a rel=nofollow>a</a><a href=/b>b</a>");
  CHECK(page.noindex);
  CHECK_FALSE(page.nofollow);
  CHECK(page.noarchive);
  CHECK_FALSE(page.nosnippet);
  CHECK(page.links.at(0).nofollow);
  CHECK_FALSE(page.links.at(1).nofollow);

  page = html::ExtractLinks("<a href=/a>a</a><meta content='none' name='robots'><img src=/i>");
  CHECK(page.noindex);
  CHECK(page.nofollow);
  CHECK(page.links.at(0).nofollow);
  CHECK(page.links.at(1).nofollow);

  page = html::ExtractLinks("<meta name=robots content=nosnippet><meta name=description content=noindex>");
  CHECK(page.nosnippet);
  CHECK_FALSE(page.noindex);

  // Our own token, when configured.
  html::ExtractOptions options;
  options.robots_meta_token = "CrawlBot";
  CHECK(html::ExtractLinks("<meta name=crawlbot content=\"nofollow\">", options).nofollow);
  CHECK_FALSE(html::ExtractLinks("<meta name=crawlbot content=\"nofollow\">").nofollow);
  CHECK_FALSE(html::ExtractLinks("<meta name=otherbot content=\"nofollow\">", options).nofollow);
}

TEST_CASE("rel nofollow is a token of the rel list", "[unit]") {
  const auto page = html::ExtractLinks(
      "<a href=/1 rel=\"external NOFOLLOW\">1</a><a href=/2 rel=\"nofollowing\">2</a>"
      "<area href=/3 rel=nofollow><a rel=nofollow href=/4>4</a>");
  REQUIRE(page.links.size() == 4);
  CHECK(page.links[0].nofollow);
  CHECK_FALSE(page.links[1].nofollow);
  CHECK(page.links[2].nofollow);
  CHECK(page.links[3].nofollow);
}

TEST_CASE("lang is the primary subtag of html lang, else the content-language meta", "[unit]") {
  CHECK(html::ExtractLinks("<!DOCTYPE html><HTML LANG=\"en-US\"><html lang=fr>").lang == "en");
  CHECK(html::ExtractLinks("<html xml:lang=\"DE_at\">").lang == "de");
  CHECK(html::ExtractLinks("<html><meta http-equiv=\"Content-Language\" content=\"pt-BR, en\">").lang ==
        "pt");
  CHECK(html::ExtractLinks("<html lang=es><meta http-equiv=content-language content=it>").lang == "es");
  CHECK(html::ExtractLinks("<html lang=\"12\">").lang.empty());
  CHECK(html::ExtractLinks("<p lang=en>").lang.empty());
}

TEST_CASE("character references decode to UTF-8", "[unit]") {
  CHECK(Decode("&amp;&lt;&gt;&quot;&apos;&nbsp;", false) == "&<>\"'\xC2\xA0");
  CHECK(Decode("&#65;&#x42;&#X43;&#x20AC;&#128512;", false) == "ABC\xE2\x82\xAC\xF0\x9F\x98\x80");
  CHECK(Decode("&#0;|&#xD800;|&#x110000;|&#99999999999999;", false) ==
        "\xEF\xBF\xBD|\xEF\xBF\xBD|\xEF\xBF\xBD|\xEF\xBF\xBD");
  CHECK(Decode("&#150;&#x80;", false) == "\xE2\x80\x93\xE2\x82\xAC");  // Windows-1252
  CHECK(Decode("&#65 &#x;&#;&unknown;&;& amp", false) == "A &#x;&#;&unknown;&;& amp");
  CHECK(Decode("&amp &ampx &notit;", false) == "& &x \xC2\xACit;");
  // In attributes, legacy references before "=" or alphanumerics stay.
  CHECK(Decode("?a=1&copy=2&amp;b=3&ampx&lt", true) == "?a=1&copy=2&b=3&ampx<");
  CHECK(Decode(std::string("a\0b", 3), true) ==
        "a\xEF\xBF\xBD"
        "b");
  CHECK(Decode(std::string("a\0b", 3), false) == "ab");
  CHECK(html::ExtractLinks("<a href=\"/s?q=a&amp;p=2&sect=3\">x &lt;&gt; y</a>").links.at(0) ==
        html::Link{"/s?q=a&p=2&sect=3", "x <> y", "a", false});
}

TEST_CASE("empty and non-fetchable hrefs are skipped", "[unit]") {
  const auto page = html::ExtractLinks(
      "<a href=\"\">e</a><a href=\"   \">s</a><a>none</a><a href=\"javascript:void(0)\">j</a>"
      "<a href=\" JavaScript:x\">J</a><a href=\"java\nscript:x\">nl</a><a href=\"mailto:a@b\">m</a>"
      "<a href=\"data:text/html,x\">d</a><a href=\"TEL:+1\">t</a><img src=\"data:image/png;base64,x\">"
      "<a href=\"vbscript:x\">v</a>"
      "<a href=\"#top\">top</a><a href=\" /kept \">k</a><a href=\"https://x.example/javascript:\">h</a>");
  CHECK(Hrefs(page) == std::vector<std::string>{"#top", "/kept", "https://x.example/javascript:"});
}

TEST_CASE("malformed markup is read as browsers read it", "[unit]") {
  SECTION("unterminated tag at end of input is dropped") {
    CHECK(Hrefs(html::ExtractLinks("<a href=\"/ok\">ok</a><a href=\"/cut\"")) ==
          std::vector<std::string>{"/ok"});
    CHECK(Hrefs(html::ExtractLinks("<a href=/ok>ok</a><a href=/cut")) == std::vector<std::string>{"/ok"});
    CHECK(html::ExtractLinks("<").links.empty());
    CHECK(html::ExtractLinks("</").links.empty());
  }
  SECTION("unquoted, single-quoted and spaced attribute values") {
    CHECK(Hrefs(html::ExtractLinks("<a href=x>1</a><a href='/y z'>2</a><a href = \"/w\" >3</a>"
                                   "<a href=/v/>4</a><a title=\"t\"href=\"/u\">5</a>")) ==
          std::vector<std::string>{"x", "/y z", "/w", "/v/", "/u"});
  }
  SECTION("a > inside quotes does not end the tag") {
    const auto page = html::ExtractLinks("<a title=\"a > b\" href=\"/p?x=>\">t</a>");
    CHECK(Hrefs(page) == std::vector<std::string>{"/p?x=>"});
    CHECK(page.links[0].anchor_text == "t");
  }
  SECTION("comments hide links") {
    CHECK(Hrefs(html::ExtractLinks("<!-- <a href=/c1>c</a> --><a href=/a1>a</a><!--><a href=/a2>"
                                   "<!---><a href=/a3><!-- x --!><a href=/a4><!-- unclosed <a href=/c2>")) ==
          std::vector<std::string>{"/a1", "/a2", "/a3", "/a4"});
  }
  SECTION("script, style and textarea content is not markup") {
    const auto page = html::ExtractLinks(
        "<script>document.write('<a href=/s1>'); var s = \"</scr\" + \"ipt>\";</script>"
        "<STYLE>a[href='<a href=/s2>'] {}</STYLE><textarea><a href=/s3></textarea >"
        "<a href=/after>after</a><script type=x><a href=/s4>");
    CHECK(Hrefs(page) == std::vector<std::string>{"/after"});
  }
  SECTION("upper-case tags and attribute names") {
    const auto page = html::ExtractLinks("<A HREF=\"/X\">Up</A><IMG SRC=/I ALT=Pic><BASE HREF=/b/>");
    REQUIRE(page.links.size() == 2);
    CHECK(page.links[0] == html::Link{"/X", "Up", "a", false});
    CHECK(page.links[1] == html::Link{"/I", "Pic", "img", false});
    CHECK(page.base_href == "/b/");
  }
  SECTION("NUL bytes") {
    const char raw[] = "<a href=\"/a\0b\">x\0y</a>\0<a\0 href=/c>c</a><a href=/d>d</a>";
    const std::string doc(raw, sizeof raw - 1);
    const auto page = html::ExtractLinks(doc);
    REQUIRE(page.links.size() == 2);
    CHECK(page.links[0].href ==
          "/a\xEF\xBF\xBD"
          "b");
    CHECK(page.links[0].anchor_text == "xy");
    CHECK(page.links[1].href == "/d");
  }
  SECTION("duplicate attributes: the first wins") {
    CHECK(Hrefs(html::ExtractLinks("<a href=/first href=/second>x</a>")) ==
          std::vector<std::string>{"/first"});
  }
  SECTION("an unterminated quote runs to the end of input") {
    CHECK(Hrefs(html::ExtractLinks("<a href=/ok>ok</a><a href=\"/broken>x</a><a href=/lost>")) ==
          std::vector<std::string>{"/ok"});
  }
  SECTION("stray < and bogus markup are text") {
    const auto page = html::ExtractLinks(
        "<?xml version=\"1.0\"?><!DOCTYPE html><a href=/l>a < b <3 </ c> <![CDATA[x]]> d</a></>");
    REQUIRE(page.links.size() == 1);
    CHECK(page.links[0].anchor_text == "a < b <3 d");
  }
}

TEST_CASE("links beyond max_links are not collected", "[unit]") {
  std::string doc = "<html><head><title>Many</title></head><body>";
  for (int i = 0; i < 10000; ++i)
    doc += "<a href=\"/p" + std::to_string(i) + "\">link " + std::to_string(i) + "</a>\n";
  doc += "<meta name=robots content=noindex></body></html>";
  const auto page = html::ExtractLinks(doc);
  REQUIRE(page.links.size() == 300);
  CHECK(page.links.front().href == "/p0");
  CHECK(page.links.back().href == "/p299");
  CHECK(page.links.back().anchor_text == "link 299");
  CHECK(page.links_truncated);
  CHECK(page.noindex);  // the scan still reads the whole page
  CHECK(page.title == "Many");

  html::ExtractOptions options;
  options.max_links = 5;
  CHECK(html::ExtractLinks(doc, options).links.size() == 5);
  CHECK_FALSE(html::ExtractLinks("<a href=/a>a</a>", options).links_truncated);
}

TEST_CASE("huge attributes are bounded", "[unit]") {
  const std::string big(1 << 20, 'x');
  const auto page = html::ExtractLinks("<a title=\"" + big + "\" href=\"/" + big + "\">big</a><img alt=\"" +
                                       big + "\" src=/ok.png><base href=\"" + big + "\">");
  CHECK(Hrefs(page) == std::vector<std::string>{"/ok.png"});
  CHECK(page.links[0].anchor_text.size() == 200);
  CHECK(page.base_href.empty());
  html::ExtractOptions options;
  options.max_href_bytes = 10;
  CHECK(Hrefs(html::ExtractLinks("<a href=/0123456789>x</a><a href=/012345678>y</a>", options)) ==
        std::vector<std::string>{"/012345678"});
}

// Inputs that make naive scanners quadratic (re-scanning on every '<', '"',
// "<!--" or "&"). A linear scanner finishes each in milliseconds; a
// quadratic one would take minutes and trip the test timeout. (No wall-time
// assertion: a loaded machine would make it flaky.)
TEST_CASE("five megabytes of hostile markup are scanned without blowing up", "[unit]") {
  constexpr std::size_t kSize = 5 << 20;
  const std::vector<std::string> units = {
      "<",        "<a href=\"",   "<a href='", "<!--",
      "<a ",      "&#x",          "&amp",      "</",
      "<script>", "<a href=x>",   "<title>",   "\"'<>=",
      "<h1>",     "<a href=/x>y", "</scrip",   std::string("\0<\0a", 4),
  };
  for (const std::string& unit : units) {
    std::string doc;
    doc.reserve(kSize + unit.size());
    while (doc.size() < kSize) doc += unit;
    INFO("unit=" << unit);
    const auto page = html::ExtractLinks(doc);
    CHECK(page.links.size() <= 300);
  }
  // Random bytes, 5 MB.
  std::mt19937 rng(7);
  std::string noise(kSize, '\0');
  for (char& c : noise) c = static_cast<char>(rng());
  CHECK(html::ExtractLinks(noise).links.size() <= 300);
}

TEST_CASE("random buffers never crash the scanner", "[unit]") {
  std::mt19937 rng(20240611);
  // Half the buffers are raw random bytes, half random sequences of markup
  // fragments (which do form tags, links, comments and raw text).
  const std::vector<std::string> tokens = {"<a",
                                           " href=",
                                           "\"",
                                           "'",
                                           "/x",
                                           "x",
                                           ">",
                                           "</a>",
                                           "<img src=",
                                           " alt=",
                                           "<area",
                                           "<iframe src=/f>",
                                           "<!--",
                                           "-->",
                                           "<script>",
                                           "</script>",
                                           "<title>",
                                           "</title>",
                                           "<h1>",
                                           "</h1>",
                                           "&amp;",
                                           "&#",
                                           "&#x",
                                           "1;",
                                           "=",
                                           " ",
                                           "\n",
                                           "<",
                                           "/",
                                           "<base href=",
                                           "<meta name=robots content=",
                                           "nofollow",
                                           "<html lang=",
                                           "java",
                                           "script:",
                                           "\xC3\xA9",
                                           "\x80",
                                           std::string(1, '\0'),
                                           "<textarea>",
                                           "<!",
                                           "?"};
  std::uniform_int_distribution<int> len_dist(0, 400);
  std::uniform_int_distribution<std::size_t> pick(0, tokens.size() - 1);
  std::size_t total_links = 0;
  for (int i = 0; i < 4000; ++i) {
    const int n = len_dist(rng);
    std::string doc;
    for (int k = 0; k < n; ++k) {
      if (i % 2) {
        doc.push_back(static_cast<char>(rng()));
      } else {
        doc += tokens[pick(rng)];
      }
    }
    const auto page = html::ExtractLinks(doc);
    total_links += page.links.size();
    bool valid = false;
    CHECK(Utf8Chars(page.title, &valid) <= 100);
    CHECK(page.links.size() <= 300);
    for (const auto& link : page.links) {
      CHECK_FALSE(link.href.empty());
      CHECK(link.anchor_text.size() <= 4 * 200);
    }
  }
  CHECK(total_links > 0);  // the markup fragments do produce links
}

// ------------------------------------------------------------ visible text --

TEST_CASE("visible text: entities decoded, whitespace collapsed, blocks on their own lines", "[unit]") {
  html::ExtractOptions o;
  o.collect_text = true;
  const auto page = html::ExtractLinks(
      "<html><head><title>T</title><style>p{}</style></head><body>\n"
      "<h1>Head  line</h1><p>One <b>bold</b>&nbsp;word &amp; more.</p>"
      "<script>var x = '<p>not text</p>';</script><ul><li>a</li><li>b<br>c</li></ul>"
      "<textarea>typed</textarea>x<!-- hidden -->y</body></html>",
      o);
  CHECK(page.text == "Head line\nOne bold word & more.\na\nb\nc\nxy");
  CHECK_FALSE(page.text_truncated);
  // Off by default.
  CHECK(html::ExtractLinks("<p>text</p>").text.empty());
}

TEST_CASE("visible text stops at max_text_bytes on a character boundary", "[unit]") {
  html::ExtractOptions o;
  o.collect_text = true;
  o.max_text_bytes = 10;
  const auto page = html::ExtractLinks("<p>abcdefgh\xC3\xA9\xC3\xA9\xC3\xA9</p>", o);
  CHECK(page.text == "abcdefgh\xC3\xA9");
  CHECK(page.text_truncated);
}

// The link-kind scoring filter tells navigation links from
// body links; a link is in_nav inside an open <nav> element (nested ones
// counted), and not after it closes.
TEST_CASE("links inside <nav> are marked in_nav", "[unit]") {
  const auto page = html::ExtractLinks(
      "<a href=/before>b</a><NAV><ul><li><a href=/n1>n</a><nav><a href=/n2>m</a></nav>"
      "<a href=/n3>o</a></ul></nav><p><a href=/body>x</a><img src=/i.png>");
  REQUIRE(page.links.size() == 6);
  const bool want[] = {false, true, true, true, false, false};
  for (size_t k = 0; k < 6; ++k) {
    INFO(page.links[k].href);
    CHECK(page.links[k].in_nav == want[k]);
  }
}

namespace {

// The visible-text collapse as it was written before runs went through
// single spaces (word by word): the reference for one text node, from an
// empty text, of at most `max` bytes.
std::string CollapseWordByWord(std::string_view piece, std::size_t max, bool* truncated) {
  std::string out;
  int pending = 0;
  *truncated = false;
  const std::size_t n = piece.size();
  std::size_t i = 0;
  auto space = [](unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; };
  while (i < n) {
    const auto b = static_cast<unsigned char>(piece[i]);
    if (space(b)) {
      pending = pending == 0 ? 1 : pending;
      ++i;
      continue;
    }
    if (b == 0xC2 && i + 1 < n && static_cast<unsigned char>(piece[i + 1]) == 0xA0) {
      pending = pending == 0 ? 1 : pending;
      i += 2;
      continue;
    }
    if (b == 0) {
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < n) {
      const auto c = static_cast<unsigned char>(piece[j]);
      if (space(c) || c == 0xC2 || c == 0) break;
      ++j;
    }
    if (pending != 0 && !out.empty()) out.push_back(' ');
    pending = 0;
    std::size_t len = j - i;
    if (out.size() + len > max) {
      len = max > out.size() ? max - out.size() : 0;
      while (len > 0 && (static_cast<unsigned char>(piece[i + len]) & 0xC0) == 0x80) --len;
      out.append(piece.substr(i, len));
      *truncated = true;
      return out;
    }
    out.append(piece.substr(i, len));
    i = j;
  }
  return out;
}

}  // namespace

TEST_CASE("visible text agrees with the word-by-word reference on random text and limits", "[unit]") {
  const std::vector<std::string> pieces = {"a",
                                           "word",
                                           "longerword",
                                           " ",
                                           " ",
                                           "  ",
                                           "\t",
                                           "\n",
                                           "\r",
                                           "\f",
                                           "\xC2\xA0",
                                           "\xC2",
                                           "\xC3\xA9",
                                           "x.",
                                           std::string(1, '\0'),
                                           "abcdefghijklmnopq",
                                           "0123456789abcdefghijklmnopqrstu"};
  uint64_t state = 7;
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  };
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    const uint32_t n = next() % 80;
    for (uint32_t k = 0; k < n; ++k) text += pieces[next() % pieces.size()];
    html::ExtractOptions o;
    o.collect_text = true;
    o.max_text_bytes = round % 3 == 0 ? 2 * 1024 * 1024 : 1 + next() % 120;
    bool truncated = false;
    const std::string want = CollapseWordByWord(text, o.max_text_bytes, &truncated);
    const auto page = html::ExtractLinks("<p>" + text + "</p>", o);
    INFO(text << " (limit " << o.max_text_bytes << ")");
    CHECK(page.text == want);
    CHECK(page.text_truncated == truncated);
  }
}

// Text between tags that holds no '&' and no NUL goes to the sinks without
// DecodeEntities (Scanner::Run's plain pieces); the rest is decoded. Either
// way the page's text must be the collapse of each text node decoded on its
// own, across inline tags (which do not break text), at any place of the
// 16-byte scan.
TEST_CASE("visible text: plain and decoded pieces of text agree with decoding each node", "[unit]") {
  const std::vector<std::string> pieces = {"word",
                                           " ",
                                           "&amp;",
                                           "&",
                                           "&lt;b",
                                           "x&y",
                                           std::string(1, '\0'),
                                           "\xC3\xA9",
                                           "&#233;",
                                           "&nosuch;",
                                           "abcdefghijklmnopqrstuvwxyz",
                                           "0123456789abcdef"};
  const std::vector<std::string> tags = {"<b>", "</b>", "<span>", "</span>", "<i>"};
  uint64_t state = 11;
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  };
  for (int round = 0; round < 20000; ++round) {
    std::string html = "<p>", decoded, node;
    auto end_node = [&] {
      html::internal::DecodeEntities(node, false, [&](std::string_view piece) {
        decoded.append(piece);
        return true;
      });
      html += node;
      node.clear();
    };
    for (uint32_t k = next() % 40; k > 0; --k) {
      if (next() % 4 == 0) {
        end_node();
        html += tags[next() % tags.size()];
      } else {
        node += pieces[next() % pieces.size()];
      }
    }
    end_node();
    html::ExtractOptions o;
    o.collect_text = true;
    bool truncated = false;
    const std::string want = CollapseWordByWord(decoded, o.max_text_bytes, &truncated);
    INFO(html);
    CHECK(html::ExtractLinks(html, o).text == want);
  }
}
