// Tests for the synthetic web generator (tests/testweb/universe.h): it is
// deterministic, its URLs are canonical, every page is reachable, and its
// export is exactly what a polite crawler can reach.
#include "tests/testweb/universe.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <unordered_set>

#include "common/url/url.h"

namespace crawl::testweb {
namespace {

Universe Make(uint64_t seed, uint64_t hosts, uint64_t pages) {
  UniverseOptions o;
  o.seed = seed;
  o.hosts = hosts;
  o.pages = pages;
  REQUIRE(ApplyPreset(o).ok());
  auto u = Universe::Create(o);
  REQUIRE(u.ok());
  return std::move(u).value();
}

TEST_CASE("same seed gives the same pages and links", "[unit]") {
  const Universe a = Make(7, 10, 500);
  const Universe b = Make(7, 10, 500);
  for (uint32_t h = 0; h < a.HostCount(); ++h) {
    REQUIRE(a.PageCount(h) == b.PageCount(h));
    REQUIRE(a.RobotsTxt(h) == b.RobotsTxt(h));
    for (uint64_t p = 0; p < a.PageCount(h); ++p) {
      REQUIRE(a.PageUrl(h, p) == b.PageUrl(h, p));
      REQUIRE(a.RenderPageAt(h, p) == b.RenderPageAt(h, p));
    }
  }
  const auto ea = a.Export();
  const auto eb = b.Export();
  REQUIRE(ea.size() == eb.size());
  for (size_t i = 0; i < ea.size(); ++i) {
    REQUIRE(ea[i].url == eb[i].url);
    REQUIRE(ea[i].outlinks == eb[i].outlinks);
  }
}

TEST_CASE("a different seed gives a different web", "[unit]") {
  const Universe a = Make(1, 10, 500);
  const Universe b = Make(2, 10, 500);
  int differing_pages = 0, differing_paths = 0;
  for (uint64_t p = 0; p < a.PageCount(0); ++p) {
    if (a.RenderPageAt(0, p) != b.RenderPageAt(0, p)) ++differing_pages;
    if (a.PagePath(0, p) != b.PagePath(0, p)) ++differing_paths;
  }
  CHECK(differing_pages == static_cast<int>(a.PageCount(0)));
  CHECK(differing_paths > 0);
}

TEST_CASE("host sizes sum to the page count, at least one each, Zipf-like", "[unit]") {
  const Universe u = Make(3, 100, 100'000);
  uint64_t sum = 0;
  for (uint32_t h = 0; h < u.HostCount(); ++h) {
    CHECK(u.PageCount(h) >= 1);
    if (h > 0) CHECK(u.PageCount(h) <= u.PageCount(h - 1));
    sum += u.PageCount(h);
  }
  CHECK(sum == 100'000);
  // Zipf exponent 1: size(rank r) ~ 1/(r+1).
  const double ratio = static_cast<double>(u.PageCount(0)) / static_cast<double>(u.PageCount(9));
  CHECK(ratio == Approx(10.0).epsilon(0.05));
  const double ratio2 = static_cast<double>(u.PageCount(0)) / static_cast<double>(u.PageCount(99));
  CHECK(ratio2 == Approx(100.0).epsilon(0.1));

  const Universe tight = Make(3, 50, 50);
  for (uint32_t h = 0; h < tight.HostCount(); ++h) CHECK(tight.PageCount(h) == 1);
}

TEST_CASE("every page URL and link URL is canonical and resolves from its href", "[unit]") {
  const Universe u = Make(11, 12, 1500);
  uint64_t links = 0, relative = 0, dotdot = 0, fragments = 0, scheme_relative = 0;
  for (uint32_t h = 0; h < u.HostCount(); ++h) {
    CHECK(u.HostIndex(u.HostName(h)) == h);
    for (uint64_t p = 0; p < u.PageCount(h); ++p) {
      const std::string url = u.PageUrl(h, p);
      INFO(url);
      auto canonical = crawl::url::Canonicalize(url);
      REQUIRE(canonical.ok());
      REQUIRE(*canonical == url);
      REQUIRE(url.find(':', 5) == std::string::npos);  // no port
      REQUIRE(u.LookupPath(h, u.PagePath(h, p)) == p);
      REQUIRE(u.LookupUrl(url) == PageRef{h, p});
      for (const Link& l : u.Links(h, p)) {
        INFO(l.href);
        ++links;
        auto resolved = crawl::url::Resolve(url, l.href);
        REQUIRE(resolved.ok());
        REQUIRE(*resolved == l.url);
        REQUIRE(*crawl::url::Canonicalize(l.url) == l.url);
        REQUIRE(l.url == u.PageUrl(l.target.host, l.target.page));
        if (l.href[0] != '/' && l.href.rfind("http:", 0) != 0) ++relative;
        if (l.href.rfind("../", 0) == 0) ++dotdot;
        if (l.href.rfind("//", 0) == 0) ++scheme_relative;
        if (l.href.find('#') != std::string::npos) ++fragments;
      }
    }
  }
  // The mix of href forms is really there.
  CHECK(relative > links / 10);
  CHECK(dotdot > 0);
  CHECK(scheme_relative > 0);
  CHECK(fragments > 0);
}

TEST_CASE("paths that are not pages are not found", "[unit]") {
  const Universe u = Make(1, 3, 300);
  const std::string path = u.PagePath(0, 5);
  CHECK(u.LookupPath(0, path) == 5u);
  CHECK_FALSE(u.LookupPath(0, "/nope.html"));
  CHECK_FALSE(u.LookupPath(0, "/p0.html"));
  CHECK_FALSE(u.LookupPath(0, "/p05.html"));
  CHECK_FALSE(u.LookupPath(0, "/robots.txt"));
  CHECK_FALSE(u.LookupPath(0, path + "?q=1"));
  CHECK_FALSE(u.LookupPath(0, "/x/p" + std::to_string(u.PageCount(0)) + ".html"));
  CHECK_FALSE(u.RenderPage(0, "/missing"));
  CHECK_FALSE(u.HostIndex("www.site3.test"));
  CHECK_FALSE(u.HostIndex("www.site01.test"));
  CHECK_FALSE(u.HostIndex("site1.test"));
  CHECK_FALSE(u.LookupUrl("https://www.site0.test/"));
  CHECK_FALSE(u.LookupUrl("http://www.site0.test:8080/"));
}

TEST_CASE("links per page are roughly 5 to 15, about a tenth cross-host", "[unit]") {
  const Universe u = Make(5, 20, 5000);
  uint64_t pages = 0, links = 0, text_links = 0, cross = 0, nofollow = 0;
  for (uint32_t h = 0; h < u.HostCount(); ++h) {
    for (uint64_t p = 0; p < u.PageCount(h); ++p) {
      const auto ls = u.Links(h, p);
      CHECK(ls.size() >= 2);
      CHECK(ls.size() <= 15 + 11);
      ++pages;
      links += ls.size();
      for (const Link& l : ls) {
        if (l.nav) continue;
        ++text_links;
        if (l.target.host != h) ++cross;
        if (l.nofollow) ++nofollow;
      }
    }
  }
  const double mean = static_cast<double>(links) / static_cast<double>(pages);
  CHECK(mean >= 5);
  CHECK(mean <= 15);
  const double cross_share = static_cast<double>(cross) / static_cast<double>(text_links);
  CHECK(cross_share > 0.05);
  CHECK(cross_share < 0.15);
  CHECK(nofollow > 0);
  CHECK(nofollow < text_links / 10);
}

TEST_CASE("every page is linked from its tree parent by a followable same-host link", "[unit]") {
  const Universe u = Make(2, 5, 800);
  for (uint32_t h = 0; h < u.HostCount(); ++h) {
    for (uint64_t p = 1; p < u.PageCount(h); ++p) {
      const auto parent = u.ParentPage(h, p);
      REQUIRE(parent);
      REQUIRE(*parent < p);
      const auto ls = u.Links(h, *parent);
      const bool linked = std::any_of(ls.begin(), ls.end(), [&](const Link& l) {
        return l.target == PageRef{h, p} && !l.nofollow;
      });
      REQUIRE(linked);
      // Only leaves may be private, so robots never hide anything below them.
      if (u.PagePath(h, p).rfind("/private/", 0) == 0) {
        for (const Link& l : u.Links(h, p)) CHECK((!l.nav || l.target.page < p));
      }
    }
  }
}

TEST_CASE("in-links favour low page indexes", "[unit]") {
  const Universe u = Make(9, 1, 5000);
  std::vector<uint64_t> in(u.PageCount(0), 0);
  for (uint64_t p = 0; p < u.PageCount(0); ++p) {
    for (const Link& l : u.Links(0, p)) {
      if (!l.nav) ++in[l.target.page];
    }
  }
  uint64_t low = 0, high = 0;
  for (uint64_t p = 0; p < 50; ++p) low += in[p];
  for (uint64_t p = 4950; p < 5000; ++p) high += in[p];
  CHECK(in[0] > 100);
  CHECK(low > 20 * (high + 1));
}

TEST_CASE("robots.txt: most hosts disallow /private/, some allow all, some name a bot", "[unit]") {
  const Universe u = Make(4, 200, 4000);
  int private_rule = 0, allow_all = 0, named = 0;
  for (uint32_t h = 0; h < u.HostCount(); ++h) {
    const std::string txt = u.RobotsTxt(h);
    CHECK(txt.find("User-agent: *\n") != std::string::npos);
    if (txt.find("Disallow: /private/\n") != std::string::npos) ++private_rule;
    if (txt.find("Disallow:\n") != std::string::npos) ++allow_all;
    if (txt.find("User-agent: ExampleBot\nDisallow: /\n") != std::string::npos) ++named;
  }
  CHECK(private_rule > 100);
  CHECK(allow_all > 5);
  CHECK(named > 5);
}

TEST_CASE("private pages exist, are linked to, and robots rules decide on them", "[unit]") {
  const Universe u = Make(4, 30, 6000);
  uint64_t private_pages = 0, disallowed = 0, allowed_private = 0, linked_to_disallowed = 0;
  for (uint32_t h = 0; h < u.HostCount(); ++h) {
    const bool has_rule = u.RobotsTxt(h).find("Disallow: /private/") != std::string::npos;
    for (uint64_t p = 0; p < u.PageCount(h); ++p) {
      const std::string url = u.PageUrl(h, p);
      const bool is_private = u.PagePath(h, p).rfind("/private/", 0) == 0;
      private_pages += is_private;
      CHECK(u.IsAllowed(url) == !(is_private && has_rule));
      CHECK(u.IsPageAllowed(h, p) == u.IsAllowed(url));
      if (!u.IsAllowed(url)) ++disallowed;
      if (is_private && !has_rule) ++allowed_private;
      for (const Link& l : u.Links(h, p))
        linked_to_disallowed += !u.IsPageAllowed(l.target.host, l.target.page);
    }
  }
  CHECK(private_pages > 6000 / 100);
  CHECK(private_pages < 6000 / 10);
  CHECK(disallowed > 0);
  CHECK(allowed_private > 0);
  CHECK(linked_to_disallowed > 0);
  CHECK_FALSE(u.IsAllowed("http://www.site999.test/"));
}

TEST_CASE("export lists only allowed pages, is closed, and skips nofollow links", "[unit]") {
  const Universe u = Make(1, 20, 2000);
  const auto exported = u.Export();
  REQUIRE(!exported.empty());
  const auto seeds = u.Seeds();
  REQUIRE(seeds.size() == 3);
  CHECK(exported[0].url == seeds[0]);

  std::unordered_set<std::string> listed;
  for (const auto& e : exported) {
    REQUIRE(listed.insert(e.url).second);  // each page once
    REQUIRE(u.IsAllowed(e.url));
  }
  uint64_t nofollow_seen = 0;
  for (const auto& e : exported) {
    INFO(e.url);
    const auto page = u.LookupUrl(e.url);
    REQUIRE(page);
    // Expected out-links: followable links to allowed pages, once each, in order.
    std::vector<std::string> expected;
    for (const Link& l : u.Links(page->host, page->page)) {
      if (l.nofollow) {
        ++nofollow_seen;
        continue;
      }
      if (!u.IsAllowed(l.url)) continue;
      if (std::find(expected.begin(), expected.end(), l.url) == expected.end()) expected.push_back(l.url);
    }
    REQUIRE(e.outlinks == expected);
    for (const auto& out : e.outlinks) REQUIRE(listed.count(out) == 1);
  }
  CHECK(nofollow_seen > 0);

  // Closed the other way too: an allowed page reached by a followable link
  // from a listed page is listed; a disallowed one never is.
  uint64_t total_allowed = 0;
  for (uint32_t h = 0; h < u.HostCount(); ++h) {
    for (uint64_t p = 0; p < u.PageCount(h); ++p) {
      if (!u.IsPageAllowed(h, p)) CHECK(listed.count(u.PageUrl(h, p)) == 0);
      total_allowed += u.IsPageAllowed(h, p);
    }
  }
  CHECK(exported.size() <= total_allowed);
  CHECK(exported.size() > total_allowed / 2);
}

TEST_CASE("the rendered page holds every link's href, anchor and nofollow", "[unit]") {
  const Universe u = Make(6, 8, 600);
  for (uint32_t h = 0; h < u.HostCount(); ++h) {
    for (uint64_t p = 0; p < u.PageCount(h); p += 7) {
      const std::string html = u.RenderPageAt(h, p);
      REQUIRE(html.rfind("<!DOCTYPE html>", 0) == 0);
      REQUIRE(html.find("<html lang=\"en\">") != std::string::npos);
      REQUIRE(html.find("<title>") != std::string::npos);
      REQUIRE(html.find("<h1>") != std::string::npos);
      REQUIRE(html.find("</body>") != std::string::npos);
      REQUIRE(u.RenderPage(h, u.PagePath(h, p)) == html);
      size_t pos = 0;
      for (const Link& l : u.Links(h, p)) {
        const std::string a =
            "<a href=\"" + l.href + (l.nofollow ? "\" rel=\"nofollow\">" : "\">") + l.anchor + "</a>";
        INFO(a);
        const size_t at = html.find(a, pos);
        REQUIRE(at != std::string::npos);  // present, and in Links() order
        pos = at + a.size();
      }
    }
  }
}

TEST_CASE("page sizes centre on page_kb", "[unit]") {
  for (uint32_t kb : {4u, 20u}) {
    UniverseOptions o;
    o.hosts = 2;
    o.pages = 201;
    o.page_kb = kb;
    auto u = Universe::Create(o);
    REQUIRE(u.ok());
    std::vector<size_t> sizes;
    for (uint64_t p = 0; p < u->PageCount(0); ++p) sizes.push_back(u->RenderPageAt(0, p).size());
    std::sort(sizes.begin(), sizes.end());
    const double median = static_cast<double>(sizes[sizes.size() / 2]);
    CHECK(median > 0.8 * kb * 1024);
    CHECK(median < 1.4 * kb * 1024);
  }
}

TEST_CASE("bad options are rejected with a reason", "[unit]") {
  UniverseOptions o;
  o.hosts = 0;
  CHECK_FALSE(Universe::Create(o).ok());
  o.hosts = 10;
  o.pages = 9;
  const auto r = Universe::Create(o);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message().find("at least hosts") != std::string::npos);
  o.pages = 10;
  o.preset = "nasty";
  CHECK_FALSE(ApplyPreset(o).ok());
  o.preset = "clean";
  CHECK(ApplyPreset(o).ok());
  CHECK(Universe::Create(o).ok());
}

}  // namespace
}  // namespace crawl::testweb
