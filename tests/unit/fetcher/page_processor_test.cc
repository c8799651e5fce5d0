// Page processing: crawl-log record and discovered links (fetcher/page/page_processor.h).
#include "fetcher/page/page_processor.h"

#include <catch2/catch.hpp>
#include <set>

#include "fetcher/result_batch.h"

using crawl::fetcher::FetchResult;
using crawl::fetcher::ProcessFetch;
using crawl::fetcher::ProcessOptions;

namespace {

crawl::v1::ScheduledUrl Scheduled(const std::string& url,
                                  crawl::v1::UrlKind kind = crawl::v1::URL_KIND_PAGE) {
  crawl::v1::ScheduledUrl u;
  u.set_url(url);
  u.set_referrer("http://a.test/");
  u.set_depth(2);
  u.set_kind(kind);
  return u;
}

FetchResult Html(const std::string& url, const std::string& body) {
  FetchResult r;
  r.url = url;
  r.status = 200;
  r.body = body;
  r.mime_type = "text/html";
  r.start_unix_us = 123;
  r.fetch_ms = 4;
  return r;
}

std::vector<std::string> LinkUrls(const crawl::fetcher::ProcessedPage& p) {
  std::vector<std::string> out;
  for (const auto& l : p.links) out.push_back(l.url());
  return out;
}

}  // namespace

TEST_CASE("html links are resolved, canonical, deduplicated, nofollow dropped", "[unit]") {
  const std::string body =
      "<html><head><title>T</title></head><body>"
      "<a href='b.html'>b</a> <a href='/c/../d.html#x'>d</a> <a href='b.html'>again</a>"
      "<a href='HTTP://Other.TEST:80/'>o</a> <a rel=nofollow href='/secret'>s</a>"
      "<a href='mailto:x@a.test'>m</a> <a href='ftp://a.test/f'>f</a></body></html>";
  auto p =
      ProcessFetch(Scheduled("http://a.test/dir/page.html"), Html("http://a.test/dir/page.html", body), {});
  CHECK(LinkUrls(p) ==
        std::vector<std::string>{"http://a.test/dir/b.html", "http://a.test/d.html", "http://other.test/"});
  for (const auto& l : p.links) {
    CHECK(l.referrer().empty());  // the page (record.url()): ResultBatcher names it
    CHECK(l.depth() == 3);
  }
  CHECK(p.record.title() == "T");
  CHECK(p.record.status() == 200);
  CHECK(p.record.bytes() == body.size());
  CHECK(p.record.content_digest().size() == 16);
  CHECK(p.record.referrer() == "http://a.test/");
}

TEST_CASE("base href changes the resolution base", "[unit]") {
  auto p = ProcessFetch(
      Scheduled("http://a.test/x/y.html"),
      Html("http://a.test/x/y.html", "<base href='http://b.test/root/'><a href='z.html'>z</a>"), {});
  CHECK(LinkUrls(p) == std::vector<std::string>{"http://b.test/root/z.html"});
}

TEST_CASE("robots meta nofollow drops every link", "[unit]") {
  auto p = ProcessFetch(
      Scheduled("http://a.test/"),
      Html("http://a.test/", "<meta name=robots content='noindex,nofollow'><a href=/x>x</a>"), {});
  CHECK(p.links.empty());
}

TEST_CASE("links are capped at max_links", "[unit][policy]") {
  std::string body;
  for (int i = 0; i < 50; ++i) body += "<a href='/p" + std::to_string(i) + "'>x</a>";
  ProcessOptions o;
  o.max_links = 10;
  auto p = ProcessFetch(Scheduled("http://a.test/"), Html("http://a.test/", body), o);
  CHECK(p.links.size() == 10);
}

TEST_CASE("a redirect's target is a discovered link", "[unit]") {
  FetchResult r;
  r.url = "http://a.test/old";
  r.status = 301;
  r.location = "/new?x=1";
  auto p = ProcessFetch(Scheduled("http://a.test/old"), r, {});
  CHECK(p.record.redirect_url() == "http://a.test/new?x=1");
  CHECK(LinkUrls(p) == std::vector<std::string>{"http://a.test/new?x=1"});
}

TEST_CASE("non-html and failed fetches yield no links", "[unit]") {
  auto text = Html("http://a.test/t.txt", "<a href='/x'>x</a>");
  text.mime_type = "text/plain";
  CHECK(ProcessFetch(Scheduled("http://a.test/t.txt"), text, {}).links.empty());
  auto missing = Html("http://a.test/gone", "<a href='/x'>x</a>");
  missing.status = 404;
  CHECK(ProcessFetch(Scheduled("http://a.test/gone"), missing, {}).links.empty());
  FetchResult err;
  err.url = "http://a.test/e";
  err.status = -3;
  err.error = "timeout";
  auto p = ProcessFetch(Scheduled("http://a.test/e"), err, {});
  CHECK(p.record.status() == -3);
  CHECK(p.record.content_digest().empty());
}

TEST_CASE("robots.txt bodies travel to the queue server, capped", "[unit][rfc9309]") {
  FetchResult r;
  r.url = "http://a.test/robots.txt";
  r.status = 200;
  r.body = std::string(600 * 1024, 'x');
  auto p = ProcessFetch(Scheduled("http://a.test/robots.txt", crawl::v1::URL_KIND_ROBOTS), r, {});
  CHECK(p.record.robots_body().size() == 500 * 1024);
  CHECK(p.record.kind() == crawl::v1::URL_KIND_ROBOTS);
}

TEST_CASE("batches route links to the queue server owning their host", "[unit]") {
  crawl::fetcher::ResultBatcher batcher({"qs0", "qs1"});
  std::string body;
  for (int i = 0; i < 40; ++i) body += "<a href='http://h" + std::to_string(i) + ".test/'>x</a>";
  batcher.Add(ProcessFetch(Scheduled("http://a.test/"), Html("http://a.test/", body), {}));
  CHECK(batcher.pages() == 1);
  auto batch = batcher.Take();
  CHECK(batcher.pages() == 0);
  REQUIRE(batch.links_by_server.size() == 2);
  CHECK(batch.links_by_server[0].size() + batch.links_by_server[1].size() == 40);
  CHECK_FALSE(batch.links_by_server[0].empty());
  CHECK_FALSE(batch.links_by_server[1].empty());
  CHECK(batch.records.size() == 1);
}

TEST_CASE("links routed to another queue server carry the page's order data; home gets copies to book",
          "[unit]") {
  const std::vector<std::string> ids{"qs0", "qs1"};
  auto scheduled = Scheduled("http://www.a.test/");
  scheduled.set_order_tier(2);
  scheduled.set_order_weight(5);
  scheduled.set_order_cash(0.25);
  // Which server owns a.test's page decides nothing here: home is the
  // server that scheduled it. Three links within the CLD a.test, 37 outside.
  std::string body =
      "<a href='http://www.a.test/1'>x</a><a href='http://a.test/2'>x</a>"
      "<a href='http://blog.a.test/3'>x</a>";
  for (int i = 0; i < 37; ++i)
    body += i == 0 ? "<nav><a href='http://h0.test/'>x</a></nav>"
                   : "<a href='http://h" + std::to_string(i) + ".test/'>x</a>";
  for (size_t home : {size_t{0}, size_t{1}}) {
    crawl::fetcher::ResultBatcher batcher(ids, nullptr, home);
    batcher.Add(ProcessFetch(scheduled, Html("http://www.a.test/", body), {}), &scheduled);
    auto batch = batcher.Take();
    const size_t away = 1 - home;
    size_t copies = 0, local = 0;
    std::set<std::string> copied;
    std::string referrer;  // as the queue server reads it (DiscoveredLink.same_referrer)
    for (const auto& l : batch.links_by_server[home]) {
      if (!l.same_referrer()) referrer = l.referrer();
      if (l.sent_elsewhere()) {
        ++copies;
        copied.insert(l.url());
        CHECK(referrer == "http://www.a.test/");
        CHECK(l.links_on_page() == 40);
        CHECK(l.source() == "a");  // the link-kind filter weighs the copy as the original
        CHECK(l.in_nav() == (l.url() == "http://h0.test/"));
      } else {
        ++local;
        CHECK_FALSE(l.referrer_order_known());
      }
    }
    REQUIRE_FALSE(batch.links_by_server[away].empty());
    CHECK(copies == static_cast<size_t>(batch.links_by_server[away].size()));
    CHECK(local + copies == 40);
    for (const auto& l : batch.links_by_server[away]) {
      CHECK_FALSE(l.sent_elsewhere());
      CHECK(copied.count(l.url()) == 1);
      CHECK(l.referrer_order_known());
      CHECK(l.referrer_tier() == 2);
      CHECK(l.referrer_weight() == 5);
      CHECK(l.referrer_cash() == 0.25);
      CHECK(l.same_cld_links_on_page() == 3);
    }
  }
  // Without the schedule entry (or a home) links are only routed.
  crawl::fetcher::ResultBatcher plain(ids, nullptr, 0);
  plain.Add(ProcessFetch(scheduled, Html("http://www.a.test/", body), {}));
  auto batch = plain.Take();
  CHECK(batch.links_by_server[0].size() + batch.links_by_server[1].size() == 40);
  for (const auto& l : batch.links_by_server[1]) CHECK_FALSE(l.referrer_order_known());
}

// The scoring chain's datum travels lease -> record (the
// queue server's PassScoreAfterProcessing reads it), and a link found in
// <nav> says so for the link-kind filter.
TEST_CASE("the lease's scoring datum comes back on the record; nav links are marked", "[unit]") {
  auto scheduled = Scheduled("http://a.test/");
  auto p = ProcessFetch(scheduled, Html("http://a.test/", "<nav><a href=/n>n</a></nav><a href=/b>b</a>"), {});
  CHECK_FALSE(p.record.has_scoring_datum());  // nothing to echo
  scheduled.set_scoring_datum(0.125);
  p = ProcessFetch(scheduled, Html("http://a.test/", "<nav><a href=/n>n</a></nav><a href=/b>b</a>"), {});
  REQUIRE(p.record.has_scoring_datum());
  CHECK(p.record.scoring_datum() == 0.125);
  REQUIRE(p.links.size() == 2);
  for (const auto& l : p.links) CHECK(l.in_nav() == (l.url() == "http://a.test/n"));
}

// A page's links share its URL as referrer: in each server's list only the
// first link of a run names it, the rest say "same as the previous link"
// (DiscoveredLink.same_referrer), and each batch starts afresh.
TEST_CASE("a batch names a referrer once per run of links that share it", "[unit]") {
  crawl::fetcher::ResultBatcher batcher({"qs0"}, nullptr, 0);
  const std::string body = "<a href=/1>1</a><a href=/2>2</a><a href=/3>3</a>";
  batcher.Add(ProcessFetch(Scheduled("http://a.test/p"), Html("http://a.test/p", body), {}));
  batcher.Add(ProcessFetch(Scheduled("http://a.test/q"), Html("http://a.test/q", body), {}));
  auto batch = batcher.Take();
  const auto& links = batch.links_by_server[0];
  REQUIRE(links.size() == 6);
  std::vector<std::string> read;
  std::string referrer;
  for (int i = 0; i < links.size(); ++i) {
    CHECK(links[i].same_referrer() == (i % 3 != 0));
    CHECK(links[i].referrer().empty() == links[i].same_referrer());
    if (!links[i].same_referrer()) referrer = links[i].referrer();
    read.push_back(referrer);
  }
  CHECK(read == std::vector<std::string>{"http://a.test/p", "http://a.test/p", "http://a.test/p",
                                         "http://a.test/q", "http://a.test/q", "http://a.test/q"});
  batcher.Add(ProcessFetch(Scheduled("http://a.test/q"), Html("http://a.test/q", body), {}));
  batch = batcher.Take();
  REQUIRE(batch.links_by_server[0].size() == 3);
  CHECK(batch.links_by_server[0][0].referrer() == "http://a.test/q");  // a new batch names it again
  CHECK_FALSE(batch.links_by_server[0][0].same_referrer());
  // A link that names its own referrer keeps it, and the run restarts there.
  crawl::fetcher::ProcessedPage page =
      ProcessFetch(Scheduled("http://a.test/r"), Html("http://a.test/r", body), {});
  page.links[1].set_referrer("http://a.test/elsewhere");
  batcher.Add(std::move(page));
  batch = batcher.Take();
  const auto& named = batch.links_by_server[0];
  REQUIRE(named.size() == 3);
  CHECK(named[0].referrer() == "http://a.test/r");
  CHECK(named[1].referrer() == "http://a.test/elsewhere");
  CHECK_FALSE(named[1].same_referrer());
  CHECK(named[2].referrer() == "http://a.test/r");
  CHECK_FALSE(named[2].same_referrer());
}
