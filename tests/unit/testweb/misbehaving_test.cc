// Tests for the misbehaving web (tests/testweb/universe.h "Misbehaving
// hosts", universe_misbehaving.cc), one section per misbehaviour, plus its
// determinism and its ground truth (ground_truth.h).
#include <zlib.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "common/url/url.h"
#include "tests/testweb/ground_truth.h"
#include "tests/testweb/request_handler.h"
#include "tests/testweb/universe.h"

namespace crawl::testweb {
namespace {

namespace http = boost::beast::http;
using M = Misbehaviour;

Universe Make(const std::string& preset = "misbehaving", uint64_t seed = 11, uint32_t mask_off = 0) {
  UniverseOptions o;
  o.seed = seed;
  o.hosts = 30;
  o.pages = 2000;
  o.preset = preset;
  REQUIRE(ApplyPreset(o).ok());
  o.misbehaviours &= ~mask_off;
  auto u = Universe::Create(o);
  REQUIRE(u.ok());
  return std::move(u).value();
}

Request Get(const std::string& host, const std::string& target) {
  Request req{http::verb::get, target, 11};
  req.set(http::field::host, host);
  return req;
}

std::string Inflate(const std::string& gz) {
  z_stream z{};
  REQUIRE(inflateInit2(&z, 15 + 16) == Z_OK);
  std::string out(gz.size() * 20 + 1024, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  z.avail_in = static_cast<uInt>(gz.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&z, Z_FINISH);
  out.resize(z.total_out);
  inflateEnd(&z);
  CHECK(rc == Z_STREAM_END);
  return out;
}

std::vector<Link> SpecialLinks(const Universe& u, uint32_t host, uint64_t page) {
  std::vector<Link> out;
  for (auto& l : u.Links(host, page)) {
    if (l.special) out.push_back(l);
  }
  return out;
}

bool RootLinks(const Universe& u, uint32_t host, std::string_view prefix) {
  for (const auto& l : SpecialLinks(u, host, 0)) {
    if (l.href.starts_with(prefix)) return true;
  }
  return false;
}

TEST_CASE("misbehaviour names parse, 'all' sets every bit, unknown names are refused", "[unit]") {
  uint32_t mask = 0;
  REQUIRE(SetMisbehaviours(mask, "gzip,slow", true).ok());
  UniverseOptions o;
  o.misbehaviours = mask;
  CHECK(o.Has(M::kGzip));
  CHECK(o.Has(M::kSlow));
  CHECK_FALSE(o.Has(M::kTraps));
  REQUIRE(SetMisbehaviours(mask, "all", true).ok());
  REQUIRE(SetMisbehaviours(mask, "traps", false).ok());
  o.misbehaviours = mask;
  CHECK(o.Has(M::kLinkFarm));
  CHECK_FALSE(o.Has(M::kTraps));
  const Status bad = SetMisbehaviours(mask, "gzip,nonsense", true);
  CHECK_FALSE(bad.ok());
  CHECK(bad.message().find("nonsense") != std::string::npos);
  CHECK(MisbehaviourNames().size() == static_cast<size_t>(M::kCount));
  UniverseOptions p;
  p.preset = "misbehaving";
  REQUIRE(ApplyPreset(p).ok());
  // "misbehaving" is every switch before the hostile ones (hostile_test.cc).
  for (size_t i = 0; i < static_cast<size_t>(M::kCount); ++i)
    CHECK(p.Has(static_cast<M>(i)) == (i < static_cast<size_t>(M::kSlowloris)));
}

TEST_CASE("clean has no misbehaviour: no special links, and its walk is its export", "[unit]") {
  const Universe u = Make("clean");
  for (uint32_t h = 0; h < u.HostCount(); ++h) {
    for (size_t m = 0; m < static_cast<size_t>(M::kCount); ++m) CHECK_FALSE(u.HostHas(h, static_cast<M>(m)));
    CHECK(SpecialLinks(u, h, 0).empty());
    CHECK(u.HostName(h) == "www.site" + std::to_string(h) + ".test");
  }
  const auto exported = u.Export();
  size_t i = 0;
  u.Walk([&](const WalkedUrl& w) {
    if (!w.allowed) {
      CHECK(w.kind == "disallowed");
      return;
    }
    CHECK(w.kind == "normal");
    REQUIRE(i < exported.size());
    CHECK(exported[i].url == w.url);
    std::vector<std::string> allowed;
    for (const auto& l : w.outlinks) {
      if (u.IsAllowed(l)) allowed.push_back(l);
    }
    CHECK(exported[i].outlinks == allowed);
    ++i;
  });
  CHECK(i == exported.size());
}

TEST_CASE("the misbehaving web is deterministic: same seed, same answers and truth", "[unit]") {
  const Universe a = Make();
  const Universe b = Make();
  const auto ta = GroundTruth(a);
  const auto tb = GroundTruth(b);
  REQUIRE(ta.size() == tb.size());
  for (size_t i = 0; i < ta.size(); ++i) {
    REQUIRE(ta[i].url == tb[i].url);
    REQUIRE(ta[i].kind == tb[i].kind);
    REQUIRE(ta[i].depth == tb[i].depth);
    REQUIRE(ta[i].pagerank == tb[i].pagerank);
  }
  for (size_t i = 0; i < ta.size(); i += 7) {
    auto parts = crawl::url::Split(ta[i].url);
    REQUIRE(parts.ok());
    const auto host = a.HostIndex(parts->host);
    REQUIRE(host);
    CHECK(a.Serve(*host, parts->target).body == b.Serve(*host, parts->target).body);
  }
  const Universe c = Make("misbehaving", 12);
  const auto tc = GroundTruth(c);
  CHECK((tc.size() != ta.size() || tc[10].url != ta[10].url || tc[10].pagerank != ta[10].pagerank));
}

TEST_CASE("misbehaving hosts follow the documented pattern", "[unit]") {
  const Universe u = Make();
  CHECK(u.HostHas(1, M::kRobotsRules));
  CHECK(u.HostHas(7, M::kRobots5xx));
  CHECK(u.HostHas(9, M::kRobotsUnreachable));
  CHECK(u.HostHas(0, M::kRedirects));
  CHECK(u.HostHas(1, M::kErrors));
  CHECK(u.HostHas(5, M::kSlow));
  CHECK(u.HostHas(2, M::kBigPages));
  CHECK(u.HostHas(0, M::kGzip));
  CHECK(u.HostHas(2, M::kNonHtml));
  CHECK(u.HostHas(0, M::kDuplicates));
  CHECK(u.HostHas(3, M::kSoft404));
  CHECK(u.HostHas(4, M::kMalformedHtml));
  CHECK(u.HostHas(3, M::kTraps));
  CHECK(u.HostHas(4, M::kLinkFarm));
  CHECK(u.HostHas(4, M::kHttps));
  CHECK(u.HostHas(2, M::kSitemaps));
  CHECK_FALSE(u.HostHas(0, M::kSlow));
  CHECK_FALSE(u.HostHas(5, M::kHttps));
  CHECK_FALSE(u.HostHas(3, M::kSitemaps));
  CHECK_FALSE(u.HostHas(1, M::kGzip));
  // Switching one misbehaviour off leaves the other special links as they were.
  const Universe no_redirects = Make("misbehaving", 11, 1U << static_cast<uint32_t>(M::kRedirects));
  CHECK_FALSE(no_redirects.HostHas(0, M::kRedirects));
  for (uint64_t p = 0; p < 30; ++p) {
    std::vector<std::string> with, without;
    for (const auto& l : SpecialLinks(u, 0, p)) {
      if (!l.href.starts_with("/redirect/") && !l.href.starts_with("/loop/")) with.push_back(l.url);
    }
    for (const auto& l : SpecialLinks(no_redirects, 0, p)) without.push_back(l.url);
    CHECK(with == without);
  }
}

TEST_CASE("robots-rules hosts use Allow, wildcards, $ and Crawl-delay", "[unit]") {
  const Universe u = Make();
  const std::string txt = u.RobotsTxt(1);
  CHECK(txt.find("Allow: ") != std::string::npos);
  CHECK(txt.find("Disallow: /*?sessionid=") != std::string::npos);
  CHECK(txt.find(".pdf$") != std::string::npos);
  CHECK(txt.find("Crawl-delay: 1\n") != std::string::npos);
  CHECK(u.Robots(1).CrawlDelay("*") == 1.0);
  CHECK(u.Robots(0).CrawlDelay("*") == 0.0);
  const std::string h1 = "http://" + u.HostName(1);
  CHECK_FALSE(u.IsAllowed(h1 + "/p1.html?sessionid=0123"));
  CHECK_FALSE(u.IsAllowed(h1 + "/files/2.pdf"));
  CHECK(u.IsAllowed(h1 + "/files/1.pdf"));
  CHECK(u.IsAllowed(h1 + "/"));
}

TEST_CASE("robots.txt answers 500 on some hosts and closes the connection on others", "[unit]") {
  const Universe u = Make();
  const Served s = u.Serve(7, "/robots.txt");
  CHECK(s.status == 500);
  CHECK_FALSE(u.IsAllowed("http://" + u.HostName(7) + "/"));
  CHECK(u.IsAllowed("http://" + u.HostName(7) + "/robots.txt"));
  const Handled h5 = HandleRequest(u, Get(u.HostName(7), "/robots.txt"), std::nullopt);
  CHECK(h5.response.result_int() == 500);
  const Handled closed = HandleRequest(u, Get(u.HostName(9), "/robots.txt"), std::nullopt);
  CHECK(closed.close);
  CHECK_FALSE(u.IsAllowed("http://" + u.HostName(9) + "/"));
  // Pages there are still served, for crawlers that ignore the failure.
  CHECK(HandleRequest(u, Get(u.HostName(9), "/"), std::nullopt).response.result_int() == 200);
  CHECK_FALSE(HandleRequest(u, Get(u.HostName(0), "/robots.txt"), std::nullopt).close);
}

TEST_CASE("redirect chains end at the page after their hops, loops come back", "[unit]") {
  const Universe u = Make();
  CHECK(RootLinks(u, 0, "/redirect/"));
  for (unsigned code : {301u, 302u, 307u, 308u}) {
    std::string target = "/redirect/" + std::to_string(code) + "/3/5";
    for (int hop = 0; hop < 3; ++hop) {
      const Resource r = u.Resolve(0, target);
      REQUIRE(r.type == Resource::Type::kRedirect);
      CHECK(r.status == code);
      const Served s = u.Serve(0, target);
      CHECK(s.status == code);
      CHECK(s.location == r.location);
      auto parts = crawl::url::Split(r.location);
      REQUIRE(parts.ok());
      target = parts->target;
    }
    CHECK(target == u.PagePath(0, 5));
    CHECK(u.Resolve(0, target).type == Resource::Type::kPage);
  }
  const Resource loop = u.Resolve(0, "/loop/0/2");
  REQUIRE(loop.type == Resource::Type::kRedirect);
  CHECK(loop.location == "http://" + u.HostName(0) + "/loop/1/2");
  CHECK(u.Resolve(0, "/loop/1/2").location == "http://" + u.HostName(0) + "/loop/0/2");
  CHECK(u.Resolve(0, "/redirect/303/1/5").type == Resource::Type::kNotFound);
  CHECK(u.Resolve(0, "/redirect/301/4/5").type == Resource::Type::kNotFound);
  CHECK(u.Resolve(1, "/redirect/301/1/5").type == Resource::Type::kNotFound);  // host 1 has none
}

TEST_CASE("error pages answer 404, 410, 500 and 503 with Retry-After", "[unit]") {
  const Universe u = Make();
  CHECK(RootLinks(u, 1, "/error/"));
  for (unsigned code : {404u, 410u, 500u, 503u}) {
    const Handled h =
        HandleRequest(u, Get(u.HostName(1), "/error/" + std::to_string(code) + "/0"), std::nullopt);
    CHECK(h.response.result_int() == code);
    CHECK(h.response[http::field::retry_after] == (code == 503 ? "2" : ""));
  }
}

TEST_CASE("slow hosts delay the first byte and trickle the body, boundedly", "[unit]") {
  const Universe u = Make();
  const Handled slow = HandleRequest(u, Get(u.HostName(5), "/"), std::nullopt);
  CHECK(slow.first_byte_delay.count() >= 1000);
  CHECK(slow.trickle_pieces > 1);
  CHECK(slow.first_byte_delay + slow.trickle_interval * slow.trickle_pieces <= std::chrono::seconds(3));
  const Handled fast = HandleRequest(u, Get(u.HostName(1), "/"), std::nullopt);
  CHECK(fast.first_byte_delay.count() == 0);
  CHECK(fast.trickle_pieces == 0);
}

TEST_CASE("big pages exceed 1 MiB, with Content-Length or chunked", "[unit]") {
  const Universe u = Make();
  CHECK(RootLinks(u, 2, "/big/"));
  CHECK(RootLinks(u, 2, "/big-chunked/"));
  Request with_range = Get(u.HostName(2), "/big/0.html");
  const Handled sized = HandleRequest(u, Get(u.HostName(2), "/big/0.html"), std::nullopt);
  CHECK(sized.response.body().size() > (1U << 20));
  CHECK_FALSE(sized.response.chunked());
  CHECK(sized.response[http::field::content_length] == std::to_string(sized.response.body().size()));
  with_range = Get(u.HostName(2), "/big-chunked/0.html");
  with_range.set(http::field::range, "bytes=0-999");
  const Handled chunked = HandleRequest(u, with_range, std::nullopt);
  CHECK(chunked.response.result_int() == 200);  // the range is ignored: the client must cut
  CHECK(chunked.response.chunked());
  CHECK(chunked.response[http::field::content_length].empty());
  CHECK(chunked.response.body().size() > (1U << 20));
}

TEST_CASE("gzip hosts compress when the client accepts gzip", "[unit]") {
  const Universe u = Make();
  Request req = Get(u.HostName(0), "/");
  req.set(http::field::accept_encoding, "deflate, gzip;q=0.8");
  const Handled gz = HandleRequest(u, req, std::nullopt);
  CHECK(gz.response[http::field::content_encoding] == "gzip");
  CHECK(Inflate(gz.response.body()) == u.Serve(0, "/").body);
  req.set(http::field::accept_encoding, "gzip;q=0, identity");
  CHECK(HandleRequest(u, req, std::nullopt).response[http::field::content_encoding].empty());
  CHECK(HandleRequest(u, Get(u.HostName(0), "/"), std::nullopt)
            .response[http::field::content_encoding]
            .empty());
  Request other = Get(u.HostName(1), "/");
  other.set(http::field::accept_encoding, "gzip");
  CHECK(HandleRequest(u, other, std::nullopt).response[http::field::content_encoding].empty());
}

TEST_CASE("non-HTML files are linked and served with their types", "[unit]") {
  const Universe u = Make();
  CHECK(RootLinks(u, 2, "/files/"));
  CHECK(u.Serve(2, "/files/0.pdf").content_type == "application/pdf");
  CHECK(u.Serve(2, "/files/0.pdf").body.starts_with("%PDF-"));
  CHECK(u.Serve(2, "/files/0.png").content_type == "image/png");
  CHECK(u.Serve(2, "/files/0.png").body.starts_with("\x89PNG"));
  CHECK(u.Serve(2, "/files/0.txt").content_type.starts_with("text/plain"));
  CHECK(u.Serve(2, "/files/0.exe").status == 404);
}

TEST_CASE("tracking parameters give the same body under another URL", "[unit]") {
  const Universe u = Make();
  bool session = false, utm = false;
  for (uint64_t p = 0; p < u.PageCount(0); ++p) {
    for (const auto& l : SpecialLinks(u, 0, p)) {
      session = session || l.url.find("?sessionid=") != std::string::npos;
      utm = utm || l.url.find("?utm_source=") != std::string::npos;
    }
  }
  CHECK(session);
  CHECK(utm);
  const std::string path = u.PagePath(0, 3);
  CHECK(u.Resolve(0, path + "?sessionid=00ff").type == Resource::Type::kDuplicate);
  CHECK(u.Serve(0, path + "?sessionid=00ff").body == u.Serve(0, path).body);
  CHECK(u.Serve(0, path + "?utm_source=a&utm_medium=b").body == u.Serve(0, path).body);
  CHECK(u.Serve(0, path + "?q=1").status == 404);
  CHECK(u.Serve(1, u.PagePath(1, 0) + "?sessionid=00ff").status == 404);  // host 1 has none
}

TEST_CASE("soft-404 hosts answer 200 'not found' for unknown paths", "[unit]") {
  const Universe u = Make();
  CHECK(RootLinks(u, 3, "/old/"));
  const Served soft = u.Serve(3, "/no/such/page.html");
  CHECK(soft.status == 200);
  CHECK(soft.body.find("not found") != std::string::npos);
  CHECK(u.Serve(0, "/no/such/page.html").status == 404);
}

TEST_CASE("malformed pages keep their links but break tags, entities, bytes and charset", "[unit]") {
  const Universe u = Make();
  const Served s = u.Serve(4, "/");
  CHECK(s.content_type == "text/html; charset=windows-1252");
  CHECK(s.body.find("&bogus;") != std::string::npos);
  CHECK(s.body.find('\xFF') != std::string::npos);
  CHECK(s.body.find('\0') != std::string::npos);
  CHECK(s.body.find("</p>") == std::string::npos);
  CHECK(s.body.find("charset=\"iso-8859-1\"") != std::string::npos);
  for (const auto& l : u.Links(4, 0)) CHECK(s.body.find("href=\"" + l.href + "\"") != std::string::npos);
  CHECK(u.Serve(1, "/").body == u.RenderPageAt(1, 0));  // host 1 is well-formed
}

TEST_CASE("traps never end when served, and the truth cuts them", "[unit]") {
  const Universe u = Make();
  CHECK(RootLinks(u, 3, "/calendar/2026/11/"));
  CHECK(RootLinks(u, 3, "/deep/a/"));
  const Served far = u.Serve(3, "/calendar/2300/12/");
  CHECK(far.status == 200);
  CHECK(far.body.find("/calendar/2301/01/") != std::string::npos);
  CHECK(far.body.find("/calendar/2300/11/") != std::string::npos);
  std::string deep = "/deep/";
  for (int i = 0; i < 100; ++i) deep += "a/";
  CHECK(u.Serve(3, deep).status == 200);
  CHECK(u.Resolve(3, deep).depth == 100);
  CHECK(u.Serve(3, "/calendar/2026/13/").status == 200);                        // soft 404 on host 3...
  CHECK(u.Resolve(3, "/calendar/2026/13/").type == Resource::Type::kNotFound);  // ...not a calendar
  std::map<std::string, int> calendar_pages;
  uint64_t max_deep = 0;
  u.Walk([&](const WalkedUrl& w) {
    if (w.url.find("/calendar/") != std::string::npos) {
      CHECK(w.kind != "normal");
      ++calendar_pages[crawl::url::HostOf(w.url)];
    }
    const size_t at = w.url.find("/deep/");
    if (at != std::string::npos) max_deep = std::max<uint64_t>(max_deep, (w.url.size() - at - 6) / 2);
  });
  for (const auto& [host, n] : calendar_pages) CHECK(n <= 2 * kTrapMonths + 1);
  CHECK(calendar_pages[u.HostName(3)] == 2 * kTrapMonths + 1);
  CHECK(max_deep == kTrapDepth);
}

TEST_CASE("the link farm is one CLD of dense hosts with few in-links", "[unit]") {
  const Universe u = Make();
  std::vector<uint32_t> farm;
  for (uint32_t h = 0; h < u.HostCount(); ++h) {
    if (u.IsFarmHost(h)) farm.push_back(h);
  }
  REQUIRE(farm.size() == 3);
  for (size_t j = 0; j < farm.size(); ++j) {
    CHECK(u.HostName(farm[j]) == "farm" + std::to_string(j) + ".spam.test");
    CHECK(u.HostIndex(u.HostName(farm[j])) == farm[j]);
  }
  CHECK_FALSE(u.HostIndex("www.site" + std::to_string(farm[0]) + ".test"));
  // Farm pages link only farm pages; other hosts link the farm only from
  // the roots of link-farm hosts.
  uint64_t inbound = 0;
  for (uint32_t h = 0; h < u.HostCount(); ++h) {
    for (uint64_t p = 0; p < u.PageCount(h); ++p) {
      for (const auto& l : u.Links(h, p)) {
        if (u.IsFarmHost(h)) {
          CHECK(u.IsFarmHost(l.target.host));
        } else if (u.IsFarmHost(l.target.host)) {
          CHECK(p == 0);
          CHECK(u.HostHas(h, M::kLinkFarm));
          ++inbound;
        }
      }
    }
  }
  CHECK(inbound >= 1);
  CHECK(inbound <= 3);
}

TEST_CASE("the ground truth has every kind, depths from the seeds, PageRank summing to 1", "[unit]") {
  const Universe u = Make();
  const auto rows = GroundTruth(u);
  std::set<std::string_view> kinds;
  double sum = 0;
  std::set<std::string> urls;
  for (const auto& r : rows) {
    kinds.insert(r.kind);
    sum += r.pagerank;
    CHECK(r.pagerank > 0);
    CHECK(urls.insert(r.url).second);
  }
  CHECK(kinds == std::set<std::string_view>{"normal", "farm", "trap", "duplicate", "disallowed", "error",
                                            "redirect", "non-html"});
  CHECK(std::fabs(sum - 1) < 1e-9);
  for (const auto& seed : u.Seeds()) CHECK(urls.count(seed) == 1);
  CHECK(rows[0].depth == 0);
  // Breadth-first: depths never decrease along the walk.
  for (size_t i = 1; i < rows.size(); ++i) CHECK(rows[i].depth >= rows[i - 1].depth);
}

TEST_CASE("the misbehaving export is the allowed part of the walk, closed under out-links", "[unit]") {
  const Universe u = Make();
  const auto pages = u.Export();
  std::set<std::string> listed;
  for (const auto& p : pages) listed.insert(p.url);
  bool redirect_seen = false;
  for (const auto& p : pages) {
    CHECK(u.IsAllowed(p.url));
    for (const auto& l : p.outlinks) CHECK(listed.count(l) == 1);
    if (p.url.find("/redirect/") != std::string::npos) {
      redirect_seen = true;
      CHECK(p.outlinks.size() <= 1);
    }
    if (p.url.find("/error/") != std::string::npos || p.url.find("/files/") != std::string::npos)
      CHECK(p.outlinks.empty());
  }
  CHECK(redirect_seen);
  // Nothing of the robots-5xx or robots-unreachable hosts is crawlable.
  for (const auto& url : listed) {
    CHECK(crawl::url::HostOf(url) != u.HostName(7));
    CHECK(crawl::url::HostOf(url) != u.HostName(9));
  }
}

TEST_CASE("https hosts are linked and served as https only, http answers 301", "[unit]") {
  const Universe u = Make();
  REQUIRE(u.IsHttps(4));
  CHECK_FALSE(u.IsHttps(3));
  CHECK(u.PageUrl(4, 0) == "https://" + u.HostName(4) + "/");
  CHECK(u.LookupUrl(u.PageUrl(4, 1)) == PageRef{4, 1});
  CHECK_FALSE(u.LookupUrl("http://" + u.HostName(4) + u.PagePath(4, 1)));
  CHECK(u.IsAllowed("https://" + u.HostName(4) + "/"));
  CHECK_FALSE(u.IsAllowed("http://" + u.HostName(4) + "/"));
  // Every link to an https host, from anywhere, says https.
  size_t to_https = 0;
  for (uint32_t h = 0; h < u.HostCount(); ++h) {
    for (uint64_t p = 0; p < u.PageCount(h); p += 3) {
      for (const auto& l : u.Links(h, p)) {
        if (l.special || !u.IsHttps(l.target.host)) continue;
        ++to_https;
        CHECK(l.url.starts_with("https://"));
        CHECK_FALSE(l.href.starts_with("http://"));
        if (l.href.starts_with("//")) CHECK(u.IsHttps(h));  // scheme-relative only between https hosts
      }
    }
  }
  CHECK(to_https > 0);
  // The handler: plain HTTP to an https host is redirected, TLS is served.
  const Handled plain = HandleRequest(u, Get(u.HostName(4), "/p1.html?x=1"), std::nullopt, false);
  CHECK(plain.response.result_int() == 301);
  CHECK(plain.response[http::field::location] == "https://" + u.HostName(4) + "/p1.html?x=1");
  const Handled tls = HandleRequest(u, Get(u.HostName(4), u.PagePath(4, 1)), std::nullopt, true);
  CHECK(tls.response.result_int() == 200);
  // Switched off: plain http again.
  const Universe off = Make("misbehaving", 11, 1U << static_cast<uint32_t>(M::kHttps));
  CHECK(off.PageUrl(4, 0) == "http://" + off.HostName(4) + "/");
  CHECK(HandleRequest(off, Get(off.HostName(4), "/"), std::nullopt, false).response.result_int() == 200);
}

TEST_CASE("sitemap hosts list a sitemap in robots.txt: urlset, index, gzip file", "[unit]") {
  const Universe u = Make();
  // Host 2: (2 / 4) even -> /sitemap.xml; host 6: odd -> the index.
  REQUIRE(u.SitemapUrl(2) == u.Origin(2) + "/sitemap.xml");
  REQUIRE(u.SitemapUrl(6) == u.Origin(6) + "/sitemap_index.xml");
  CHECK_FALSE(u.SitemapUrl(3));
  CHECK(u.RobotsTxt(2).find("Sitemap: " + *u.SitemapUrl(2) + "\n") != std::string::npos);
  CHECK(u.RobotsTxt(3).find("Sitemap:") == std::string::npos);

  const Served urlset = u.Serve(2, "/sitemap.xml");
  CHECK(urlset.status == 200);
  CHECK(urlset.content_type == "application/xml");
  CHECK(urlset.body.find("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">") !=
        std::string::npos);
  CHECK(urlset.body.find("<loc>" + u.PageUrl(2, 0) + "</loc>") != std::string::npos);
  for (uint64_t p = 0; p < std::min<uint64_t>(u.PageCount(2), kSitemapPages); ++p) {
    // Exactly the allowed pages of the window are listed.
    const bool listed = urlset.body.find("<loc>" + u.PageUrl(2, p) + "</loc>") != std::string::npos;
    CHECK(listed == u.IsPageAllowed(2, p));
  }
  const Served index = u.Serve(6, "/sitemap_index.xml");
  CHECK(index.body.find("<sitemapindex") != std::string::npos);
  CHECK(index.body.find("<loc>" + u.Origin(6) + "/sitemaps/1.xml.gz</loc>") != std::string::npos);
  CHECK(index.body.find("<loc>" + u.Origin(6) + "/sitemaps/2.xml</loc>") != std::string::npos);
  const Served gz = u.Serve(6, "/sitemaps/1.xml.gz");
  CHECK(gz.content_type == "application/gzip");
  const std::string xml = Inflate(gz.body);
  CHECK(xml.find("<loc>" + u.PageUrl(6, 0) + "</loc>") != std::string::npos);
  CHECK(u.Serve(6, "/sitemap.xml").status == 404);  // each host has one form
  CHECK(u.Serve(5, "/sitemap.xml").status == 404);  // (host 3 would answer a soft 404)

  // The walk reaches the sitemaps (kind non-html) and what they list.
  std::map<std::string, std::string> kinds;
  std::map<std::string, std::vector<std::string>> out;
  u.Walk([&](const WalkedUrl& w) {
    kinds[w.url] = std::string(w.kind);
    out[w.url] = w.outlinks;
  });
  for (uint32_t h : {2U, 6U}) {
    const std::string sitemap = *u.SitemapUrl(h);
    if (!kinds.count(u.PageUrl(h, 0))) continue;  // host not reached from the seeds
    REQUIRE(kinds.count(sitemap));
    CHECK(kinds[sitemap] == "non-html");
    CHECK_FALSE(out[sitemap].empty());
  }
  CHECK(kinds.count(*u.SitemapUrl(2)));  // host 2 is a seed
  const Universe off = Make("misbehaving", 11, 1U << static_cast<uint32_t>(M::kSitemaps));
  CHECK_FALSE(off.SitemapUrl(2));
  CHECK(off.RobotsTxt(2).find("Sitemap:") == std::string::npos);
}

TEST_CASE("host-names: www, blog and shop hosts share a site, some end in .co.test", "[unit]") {
  const Universe u = Make();
  CHECK(u.HostName(0) == "www.site0.test");
  CHECK(u.HostName(1) == "www.site1.co.test");
  CHECK(u.HostName(3) == "www.site3.test");
  CHECK(u.HostName(4) == "blog.site3.test");
  CHECK(u.HostName(5) == "shop.site3.test");
  CHECK(u.HostName(7) == "www.site7.co.test");
  CHECK(u.HostName(10) == "blog.site9.test");
  for (uint32_t h = 0; h < u.HostCount(); ++h) CHECK(u.HostIndex(u.HostName(h)) == h);
  CHECK_FALSE(u.HostIndex("www.site4.test"));  // host 4 is blog.site3.test now
  CHECK_FALSE(u.HostIndex("www.site1.test"));
  CHECK_FALSE(u.HostIndex("shop.site4.test"));
  CHECK_FALSE(u.HostIndex("ftp.site0.test"));
  // Served under its name.
  const Handled page = HandleRequest(u, Get("shop.site3.test", "/"), std::nullopt);
  CHECK(page.host == "shop.site3.test");
  CHECK(page.response.result_int() == 200);
  const Universe off = Make("misbehaving", 11, 1U << static_cast<uint32_t>(M::kHostNames));
  CHECK(off.HostName(4) == "www.site4.test");
  CHECK(off.HostName(1) == "www.site1.test");
}

TEST_CASE("misbehaving pages carry 20 KiB of corpus text with host topic words", "[unit]") {
  const Universe u = Make();
  CHECK(u.options().page_kb == 20);
  CHECK(u.options().corpus_text);
  std::vector<size_t> sizes;
  for (uint64_t p = 0; p < u.PageCount(0); p += 3) {
    const std::string html = u.RenderPageAt(0, p);
    sizes.push_back(html.size());
    CHECK(html.find("<p><b>") != std::string::npos);  // a paragraph led by a topic word
  }
  std::sort(sizes.begin(), sizes.end());
  const double median = static_cast<double>(sizes[sizes.size() / 2]);
  CHECK(median > 0.8 * 20 * 1024);
  CHECK(median < 1.4 * 20 * 1024);
  // A heavy right tail (log-normal): the 90th percentile well above the
  // median, as with real pages, and nothing past 8x.
  const double p90 = static_cast<double>(sizes[sizes.size() * 9 / 10]);
  CHECK(p90 > 1.6 * median);
  CHECK(sizes.back() < 8.5 * 20 * 1024 + 8192);
}

}  // namespace
}  // namespace crawl::testweb
