// The HTML and plain text processors (fetcher/page/html_processor.h) through
// ProcessFetch, including what the synthetic web's misbehaving hosts send:
// malformed markup, bad entities, stray bytes, wrong charset labels, pages
// cut at the range, non-HTML types.
#include "fetcher/page/html_processor.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <map>
#include <thread>

#include "fetcher/page/page_processor.h"
#include "tests/unit/support/mini_index_terms.h"

using namespace crawl::fetcher;

namespace {

crawl::v1::ScheduledUrl Scheduled(const std::string& url) {
  crawl::v1::ScheduledUrl u;
  u.set_url(url);
  u.set_depth(0);
  return u;
}

ProcessedPage Run(const std::string& body, const std::string& content_type = "text/html",
                  const std::string& url = "http://a.test/dir/page.html", ProcessOptions options = {}) {
  FetchResult r;
  r.url = url;
  r.status = 200;
  r.body = body;
  r.content_type = content_type;
  r.mime_type = content_type.substr(0, content_type.find(';'));
  return ProcessFetch(Scheduled(url), r, options);
}

std::vector<std::string> Urls(const ProcessedPage& p) {
  std::vector<std::string> out;
  for (const auto& l : p.links) out.push_back(l.url());
  return out;
}

bool ValidUtf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (std::size_t k = 1; k < len; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += len;
  }
  return true;
}

void CheckAllUtf8(const ProcessedPage& p) {
  CHECK(ValidUtf8(p.record.title()));
  for (const auto& d : p.record.description()) CHECK(ValidUtf8(d.text()));
  for (const auto& t : crawl::test_support::Terms(p.record.mini_index())) CHECK(ValidUtf8(t.term()));
  for (const auto& l : p.links) CHECK(ValidUtf8(l.anchor_text()));
}

const std::string kPage =
    "<!DOCTYPE html><html lang='en-GB'><head><title>Crawler &amp; Index</title>"
    "<meta name=description content='ignored'></head><body>"
    "<h1>Crawling the web</h1>"
    "<p>A web crawler fetches pages and follows the links it finds on them.</p>"
    "<p>The crawler keeps a frontier of links that it has not fetched yet.</p>"
    "<script>var notText = 'crawler crawler crawler';</script>"
    "<a href='/about'>About this crawler project</a> <a href=x.pdf>PDF</a>"
    "<img src=logo.png alt='Project logo'> <iframe src=frame.html></iframe>"
    "</body></html>";

}  // namespace

TEST_CASE("html: title, language, description, hash, charset, robot metas", "[unit]") {
  const auto p = Run(kPage);
  const auto& r = p.record;
  CHECK(r.title() == "Crawler & Index");
  CHECK(r.language() == "en");
  CHECK(r.language_source() == "html");
  CHECK(r.charset() == "utf-8");
  CHECK(r.invalid_bytes() == 0);
  REQUIRE(r.description_size() >= 2);
  CHECK(r.description(0).text() == "Crawling the web");
  CHECK(r.description(1).text() == "A web crawler fetches pages and follows the links it finds on them.");
  CHECK(r.text_hash() != 0);
  CHECK_FALSE(r.noindex());
  // Script text is not indexed: "crawler" occurs 2x in the text, once in an anchor.
  const crawl::v1::IndexTerm* crawler = nullptr;
  const auto terms = crawl::test_support::Terms(r.mini_index());
  for (const auto& t : terms) {
    if (t.term() == "crawler") crawler = &t;
  }
  REQUIRE(crawler != nullptr);
  CHECK(crawler->title_count() == 1);
  CHECK(crawler->body_count() == 3);
  CHECK(crawler->anchor_count() == 1);
}

TEST_CASE("html: links carry anchor text, source, rank by effective terms, non-html flag", "[unit]") {
  const auto p = Run(kPage);
  REQUIRE(p.links.size() == 4);
  CHECK(p.links[0].url() == "http://a.test/about");
  CHECK(p.links[0].anchor_text() == "About this crawler project");
  CHECK(p.links[0].source() == "a");
  std::map<std::string, const crawl::v1::DiscoveredLink*> by_url;
  for (const auto& l : p.links) by_url[l.url()] = &l;
  REQUIRE(by_url.count("http://a.test/dir/logo.png") == 1);
  CHECK(by_url["http://a.test/dir/logo.png"]->anchor_text() == "Project logo");
  CHECK(by_url["http://a.test/dir/logo.png"]->source() == "img");
  CHECK(by_url["http://a.test/dir/logo.png"]->likely_non_html());
  REQUIRE(by_url.count("http://a.test/dir/x.pdf") == 1);
  // A PDF is a document the crawl reads (by default every type is): not
  // ranked down (document_range_test.cc covers a crawl that does not).
  CHECK_FALSE(by_url["http://a.test/dir/x.pdf"]->likely_non_html());
  CHECK_FALSE(p.links[0].likely_non_html());
  CHECK(p.links[3].source() == "iframe");  // no anchor text: last
  CHECK(p.links[3].effective_terms() == 0);
  for (uint32_t i = 0; i < p.links.size(); ++i) {
    CHECK(p.links[i].link_rank() == i);
    CHECK(p.links[i].links_on_page() == 4);
    CHECK(p.links[i].referrer().empty());  // the page: ResultBatcher names it
    CHECK(p.links[i].depth() == 1);
    if (i > 0) CHECK(p.links[i - 1].effective_terms() >= p.links[i].effective_terms());
  }
  CHECK(p.record.links_found() == 4);
}

TEST_CASE("html: links pruned to max_links_after_prune by effective terms", "[unit][policy]") {
  std::string body = "<body>";
  for (int i = 0; i < 120; ++i) body += "<a href='/n" + std::to_string(i) + "'>next</a>";
  body += "<a href='/rich'>a long and varied description of the target page</a></body>";
  const auto p = Run(body);
  REQUIRE(p.links.size() == 50);
  CHECK(p.links[0].url() == "http://a.test/rich");
  CHECK(p.links[0].links_on_page() == 50);
  CHECK(p.links[1].url() == "http://a.test/n0");  // ties in page order
  ProcessOptions o;
  o.max_links_after_prune = 10;
  o.max_links = 20;
  const auto q = Run(body, "text/html", "http://a.test/dir/page.html", o);
  CHECK(q.links.size() == 10);
  CHECK(q.record.links_found() == 20);
}

// A site crawl keeps a page's navigation links.
TEST_CASE("html: link_pruning none keeps every link, offsite prunes only links leaving the host",
          "[unit][policy]") {
  std::string body = "<body>";
  for (int i = 0; i < 120; ++i) body += "<a href='/n" + std::to_string(i) + "'>next</a>";
  for (int i = 0; i < 80; ++i) body += "<a href='http://other" + std::to_string(i) + ".test/'>elsewhere</a>";
  body += "<a href='http://far.test/'>a long and varied description of the target page</a></body>";
  ProcessOptions o;
  o.max_links = 1000;
  o.link_pruning = crawl::LinkPruning::kNone;
  const auto none = Run(body, "text/html", "http://a.test/dir/page.html", o);
  REQUIRE(none.links.size() == 201);
  CHECK(none.links[0].url() == "http://far.test/");  // still in usefulness order
  CHECK(none.links[0].links_on_page() == 201);
  CHECK(none.links[200].link_rank() == 200);

  o.link_pruning = crawl::LinkPruning::kOffsite;
  const auto offsite = Run(body, "text/html", "http://a.test/dir/page.html", o);
  REQUIRE(offsite.links.size() == 120 + 50);
  std::size_t onsite = 0;
  for (const auto& l : offsite.links) onsite += l.url().rfind("http://a.test/", 0) == 0 ? 1 : 0;
  CHECK(onsite == 120);
  CHECK(offsite.links[0].url() == "http://far.test/");
  // The 49 other offsite links kept are the first in page order (ties).
  auto kept = [&](const std::string& url) {
    return std::count_if(offsite.links.begin(), offsite.links.end(),
                         [&](const auto& l) { return l.url() == url; });
  };
  CHECK(kept("http://other48.test/") == 1);
  CHECK(kept("http://other49.test/") == 0);

  o.link_pruning = crawl::LinkPruning::kAll;
  CHECK(Run(body, "text/html", "http://a.test/dir/page.html", o).links.size() == 50);
}

TEST_CASE("html: robot metas; nofollow drops links, noindex is reported", "[unit]") {
  const auto p = Run("<meta name=robots content='noindex, NOARCHIVE, nosnippet'><a href=/x>x</a>");
  CHECK(p.record.noindex());
  CHECK(p.record.noarchive());
  CHECK(p.record.nosnippet());
  CHECK_FALSE(p.record.nofollow());
  CHECK(p.links.size() == 1);
  const auto q = Run("<meta name=robots content=none><a href=/x>x</a>");
  CHECK(q.record.nofollow());
  CHECK(q.record.noindex());
  CHECK(q.links.empty());
  const auto own =
      Run("<meta name=crawlbot content=nofollow><a href=/x>x</a>", "text/html", "http://a.test/", [] {
        ProcessOptions o;
        o.robots_meta_token = "crawlbot";
        return o;
      }());
  CHECK(own.links.empty());
}

TEST_CASE("html: title falls back to the first non-empty heading, cut at 100 chars", "[unit]") {
  CHECK(Run("<h2> </h2><h3>Second <b>heading</b></h3><p>x</p>").record.title() == "Second heading");
  const auto long_title = Run("<title>" + std::string(150, 'x') + "</title>").record.title();
  CHECK(long_title.size() == 100);
}

TEST_CASE("html: language from the country TLD, then frequent words", "[unit]") {
  CHECK(Run("<p>Hallo</p>", "text/html", "http://www.beispiel.de/").record.language() == "de");
  const auto fr = Run("<p>Le chat est sur la table et il ne veut pas descendre pour le dîner.</p>");
  CHECK(fr.record.language() == "fr");
  CHECK(fr.record.mini_index().stem_language() == "french");
}

TEST_CASE("html: malformed markup never crashes and keeps what is readable", "[unit]") {
  // Unclosed tags and quotes, bad entities, stray '<', an unterminated comment.
  const auto p =
      Run("<html><body><p>Unclosed <b>bold <i>italic <a href='/one'>first &bogus; &#xZZ; &#99999999; link"
          "<p>Next < para & more</div></span><a href=\"/two\">second</a><a href='/three");
  CHECK(Urls(p) == std::vector<std::string>{"http://a.test/one", "http://a.test/two"});
  CheckAllUtf8(p);
  const auto c = Run("<p>text</p><!-- never closed <a href=/hidden>h</a>");
  CHECK(c.links.empty());
  CHECK(c.record.description_size() == 0);  // "text" alone is too short to be a sentence
  // Every prefix of a page (a body cut by the range anywhere) is handled.
  for (std::size_t n = 0; n <= kPage.size(); n += 7) {
    const auto cut = Run(kPage.substr(0, n));
    CheckAllUtf8(cut);
  }
}

TEST_CASE("html: stray bytes and wrong charset labels give valid UTF-8", "[unit]") {
  // Latin-1 bytes labelled UTF-8 by the server.
  const auto wrong =
      Run("<title>Caf\xE9</title><p>Cr\xE8me br\xFBl\xE9"
          "e \xFF\xFE\x80</p>",
          "text/html; charset=utf-8");
  CHECK(wrong.record.charset() == "utf-8");
  CHECK(wrong.record.invalid_bytes() == 7);
  CHECK(wrong.record.title() == "Caf\xEF\xBF\xBD");
  CheckAllUtf8(wrong);
  // Correctly labelled Latin-1 in a meta.
  const auto latin = Run("<meta charset=iso-8859-1><title>Caf\xE9</title>");
  CHECK(latin.record.charset() == "windows-1252");
  CHECK(latin.record.title() == "Caf\xC3\xA9");
  // No label, not UTF-8: read as windows-1252.
  CHECK(Run("<title>\x93quoted\x94</title>").record.title() == "\xE2\x80\x9Cquoted\xE2\x80\x9D");
  // Random bytes.
  std::string noise;
  uint32_t x = 12345;
  for (int i = 0; i < 20000; ++i) {
    x = x * 1103515245 + 12345;
    noise.push_back(static_cast<char>(x >> 16));
  }
  CheckAllUtf8(Run(noise, "text/html; charset=utf-8"));
  CheckAllUtf8(Run(noise, "text/html; charset=shift_jis"));
}

TEST_CASE("html: a page cut at the range is processed up to the cut", "[unit]") {
  std::string big = "<html><body>";
  for (int i = 0; i < 30000; ++i)
    big += "<p>Paragraph number " + std::to_string(i) + " of a very long page.</p>";
  FetchResult r;
  r.url = "http://a.test/big";
  r.status = 206;
  r.body = big.substr(0, 1'000'000 - 3);  // cut in the middle of a tag
  r.truncated = true;
  r.mime_type = "text/html";
  auto p = ProcessFetch(Scheduled("http://a.test/big"), r, {});
  CHECK(p.record.truncated());
  CHECK(p.record.mini_index().token_count() > 100000);
  std::size_t chars = 0;
  for (const auto& d : p.record.description()) chars += d.text().size() + 1;
  CHECK(chars <= 2000);
  CHECK(chars > 1500);
}

TEST_CASE("plain text: title is the first line, text indexed, no links", "[unit]") {
  const auto p =
      Run("Release notes\n\nThis release fixes the crawler.\nIt also adds\nnew features to the index.\n"
          "See http://a.test/x for details.",
          "text/plain");
  CHECK(p.record.title() == "Release notes");
  CHECK(p.links.empty());
  REQUIRE(p.record.description_size() >= 1);
  CHECK(p.record.description(0).text() == "This release fixes the crawler.");
  CHECK(p.record.description(1).text() == "It also adds new features to the index.");
  CHECK(p.record.language() == "en");
  CHECK(crawl::test_support::Terms(p.record.mini_index()).size() > 5);
}

TEST_CASE("non-HTML types get a record only", "[unit]") {
  for (const std::string type : {"image/png", "application/pdf", "application/octet-stream", "text/css"}) {
    INFO(type);
    const auto p = Run("<a href=/x>x</a> \x89PNG\r\n", type);
    CHECK(p.links.empty());
    CHECK(crawl::test_support::Terms(p.record.mini_index()).empty());
    CHECK(p.record.title().empty());
    CHECK(p.record.status() == 200);
  }
  // XML that is not a sitemap (XHTML as XML) is scanned like HTML.
  CHECK(Run("<html xmlns='http://www.w3.org/1999/xhtml'><a href='/x'>x</a></html>", "application/xml")
            .links.size() == 1);
}

TEST_CASE("testweb's malformed-html pages: every link found, valid UTF-8, both charset labels", "[unit]") {
  // What tests/testweb (Universe::Mangle) serves: UTF-8 bytes, </p> and
  // </li> removed, a meta claiming iso-8859-1, junk after <body>.
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"iso-8859-1\">\n<title>Page "
      "7</title></head><body>"
      "\n<div><span>Caf\xC3\xA9 &nbsp &amp;amp &bogus; &#xZZ; \xFF\xFE\x80";
  page.push_back('\0');
  page +=
      " <b><ul><li><a href=\"/p1.html\">alpha beta</a><li><a href=\"/p2.html\">gamma</a>"
      "<p>Some text about the page<p><a href=\"http://other.test/\">other host</a></body></html>";
  for (const std::string type :
       {"text/html; charset=windows-1252", "text/html; charset=utf-8", "text/html"}) {
    INFO(type);
    const auto p = Run(page, type);
    std::vector<std::string> urls = Urls(p);
    std::sort(urls.begin(), urls.end());
    CHECK(urls ==
          std::vector<std::string>{"http://a.test/p1.html", "http://a.test/p2.html", "http://other.test/"});
    CHECK(p.record.title() == "Page 7");
    CheckAllUtf8(p);
  }
  CHECK(Run(page, "text/html; charset=utf-8").record.invalid_bytes() == 3);
  CHECK(Run(page, "text/html").record.charset() == "windows-1252");  // the meta's label
}

TEST_CASE("html: the mini index of a huge page is capped, the rest still counted", "[unit][policy]") {
  std::string big = "<p>";
  for (int i = 0; i < 60000; ++i) big += "w" + std::to_string(i % 5000) + " ";
  const auto p = Run(big);
  const auto& index = p.record.mini_index();
  CHECK(index.token_count() == 60000);
  CHECK(index.truncated());
  std::size_t stored = 0;
  for (const auto& t : crawl::test_support::Terms(index))
    stored += static_cast<std::size_t>(t.positions_size());
  CHECK(stored == ProcessOptions{}.max_index_positions);
}

TEST_CASE("ProcessFetch gives the same answer on concurrent threads", "[unit]") {
  const auto expected = Run(kPage);
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        const auto p = Run(kPage);
        if (p.record.SerializeAsString() != expected.record.SerializeAsString() ||
            p.links.size() != expected.links.size())
          ++mismatches;
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(mismatches == 0);
}

TEST_CASE("html: randomly damaged pages never crash and give valid UTF-8", "[unit]") {
  uint32_t x = 99;
  auto next = [&] {
    x = x * 1664525u + 1013904223u;
    return x >> 8;
  };
  for (int round = 0; round < 200; ++round) {
    std::string page = kPage;
    for (int k = 0; k < 10; ++k) {
      const std::size_t at = next() % page.size();
      switch (next() % 3) {
        case 0:
          page[at] = static_cast<char>(next());
          break;  // flip a byte
        case 1:
          page.erase(at, next() % 20);
          break;  // drop a run
        default:
          page.insert(at, page.substr(next() % page.size(), 15));
          break;  // duplicate a run
      }
    }
    const auto p = Run(page, round % 2 ? "text/html; charset=utf-8" : "text/html");
    CheckAllUtf8(p);
    CHECK(p.links.size() <= 50);
  }
}

TEST_CASE("html: Cyrillic text is lower-cased and stemmed in Russian", "[unit]") {
  const auto p = Run("<html lang=ru><title>Книги</title><p>Я читаю книги, а он читает газету.</p>");
  CHECK(p.record.language() == "ru");
  CHECK(p.record.mini_index().stem_language() == "russian");
  bool found = false;
  for (const auto& t : crawl::test_support::Terms(p.record.mini_index())) {
    if (t.term() == "книг") {
      found = true;
      CHECK(t.title_count() == 1);
      CHECK(t.body_count() == 1);
    }
  }
  CHECK(found);
}
