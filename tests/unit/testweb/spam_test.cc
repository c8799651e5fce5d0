// Tests for the link spam of the synthetic web (tests/testweb/universe.h
// "Link spam", universe_spam.cc; the "spam" preset): the IRLbot spam CLDs,
// the farm of many hosts on one CLD, the deep sites, the links into the spam,
// and the ground truth's labels and cuts.
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>

#include "common/url/url.h"
#include "tests/testweb/ground_truth.h"
#include "tests/testweb/universe.h"

namespace crawl::testweb {
namespace {

Universe MakeSpam(uint64_t seed = 5, uint64_t hosts = 60, uint64_t pages = 6000) {
  UniverseOptions o;
  o.seed = seed;
  o.hosts = hosts;
  o.pages = pages;
  o.preset = "spam";
  REQUIRE(ApplyPreset(o).ok());
  auto u = Universe::Create(o);
  REQUIRE(u.ok());
  return std::move(u).value();
}

// The registrable part of a testweb host name: its last two labels.
std::string Cld(const std::string& host) {
  const size_t last = host.rfind('.');
  const size_t before = host.rfind('.', last - 1);
  return before == std::string::npos ? host : host.substr(before + 1);
}

std::string HostOf(const std::string& url) {
  auto parts = crawl::url::Split(url);
  REQUIRE(parts.ok());
  return parts->host;
}

TEST_CASE("the spam preset lays out spam CLDs, a one-CLD farm and deep sites by host count", "[unit]") {
  const Universe u = MakeSpam();
  std::vector<uint32_t> spam, farm, deep;
  for (uint32_t h = 0; h < u.HostCount(); ++h) {
    if (u.IsSpamCldHost(h)) spam.push_back(h);
    if (u.IsCldFarmHost(h)) farm.push_back(h);
    if (u.IsDeepSite(h)) deep.push_back(h);
    CHECK_FALSE(u.IsFarmHost(h));  // the misbehaving preset's farm is off
  }
  REQUIRE(spam.size() == 10);  // hosts / 6
  REQUIRE(farm.size() == 10);
  REQUIRE(deep == std::vector<uint32_t>{3, 4, 5});
  CHECK(spam.front() == 40);  // the spam hosts are the last ones, CLDs first
  CHECK(farm.front() == 50);
  // (a) one CLD per spam host; (b) one CLD for every farm host.
  std::set<std::string> spam_clds, farm_clds;
  for (uint32_t h : spam) spam_clds.insert(Cld(u.HostName(h)));
  for (uint32_t h : farm) farm_clds.insert(Cld(u.HostName(h)));
  CHECK(spam_clds.size() == spam.size());
  CHECK(farm_clds == std::set<std::string>{"linkfarm.test"});
  CHECK(u.HostName(40) == "www.spam0.test");
  CHECK(u.HostName(59) == "h9.linkfarm.test");
  for (uint32_t h = 0; h < u.HostCount(); ++h) CHECK(u.HostIndex(u.HostName(h)) == h);
  CHECK_FALSE(u.HostIndex("www.spam10.test"));
  CHECK_FALSE(u.HostIndex("h10.linkfarm.test"));
  CHECK_FALSE(u.HostIndex("www.site40.test"));  // index 40 is a spam host
  // Traps stay on; nothing else misbehaves, and spam hosts have no traps.
  CHECK(u.HostHas(3, Misbehaviour::kTraps));
  CHECK_FALSE(u.HostHas(3, Misbehaviour::kRedirects));
  CHECK_FALSE(u.HostHas(45, Misbehaviour::kTraps));  // 45 % 7 == 3, but a spam CLD
}

TEST_CASE("spam pages are endless: children on the own host, links to other hosts of the structure",
          "[unit]") {
  const Universe u = MakeSpam();
  for (uint32_t h : {40U, 44U, 50U, 57U}) {
    const bool cld = u.IsSpamCldHost(h);
    for (uint64_t page : {uint64_t{0}, uint64_t{1}, uint64_t{7}, uint64_t{1'000'000'000'000}}) {
      const uint64_t level = Universe::SpamLevel(page);
      const auto links = u.Links(h, page);
      uint64_t children = 0, others = 0, home = 0;
      for (const auto& l : links) {
        // Only the own structure: spam CLDs link spam CLDs, farm hosts farm hosts.
        CHECK(u.IsSpamCldHost(l.target.host) == cld);
        CHECK(u.IsCldFarmHost(l.target.host) == !cld);
        CHECK(u.LookupUrl(l.url) == std::optional<PageRef>(l.target));
        if (l.target.host == h && l.target.page == 0) {
          ++home;
        } else if (l.target.host == h) {
          CHECK(*u.ParentPage(h, l.target.page) == page);
          ++children;
        } else {
          const uint64_t to_level = Universe::SpamLevel(l.target.page);
          CHECK((to_level == 0 || to_level == level + 1));
          ++others;
        }
      }
      CHECK(children == kSpamFanout);
      CHECK(others == kSpamCrossLinks);
      CHECK(home == (page == 0 ? 0 : 1));
      // Served as a page, deep as it is: the crawler sees no end.
      const std::string path = u.PagePath(h, page);
      CHECK(path == (page == 0 ? "/" : "/s" + std::to_string(level) + "/p" + std::to_string(page) + ".html"));
      const Served s = u.Serve(h, path);
      CHECK(s.status == 200);
      for (const auto& l : links) CHECK(s.body.find(l.href) != std::string::npos);
    }
  }
  // One spelling per page: the level must be the page's.
  CHECK(u.LookupPath(40, "/s1/p3.html") == 3);
  CHECK_FALSE(u.LookupPath(40, "/s2/p3.html"));
  CHECK(u.Serve(40, "/s2/p3.html").status == 404);
  CHECK(u.IsAllowed("http://www.spam0.test/s1/p3.html"));
}

TEST_CASE("spam CLDs link each other's roots: in-links from many other CLDs", "[unit]") {
  const Universe u = MakeSpam();
  std::map<uint32_t, std::set<uint32_t>> root_linkers;
  for (uint32_t h = 40; h < 50; ++h) {
    for (uint64_t p = 0; p < 31; ++p) {
      for (const auto& l : u.Links(h, p)) {
        if (l.target.host != h && l.target.page == 0) root_linkers[l.target.host].insert(h);
      }
    }
  }
  REQUIRE(root_linkers.size() == 10);
  for (const auto& [root, from] : root_linkers) CHECK(from.size() >= 3);
}

TEST_CASE("normal pages link into the spam at the preset's rate, spam roots only", "[unit]") {
  const Universe u = MakeSpam();
  uint64_t pages = 0, entries = 0, to_cld = 0;
  for (uint32_t h = 0; h < 40; ++h) {
    for (uint64_t p = 0; p < u.PageCount(h); ++p) {
      ++pages;
      for (const auto& l : u.Links(h, p)) {
        if (!u.IsDynamicSpamHost(l.target.host)) continue;
        ++entries;
        to_cld += u.IsSpamCldHost(l.target.host);
        CHECK(l.target.page == 0);
      }
    }
  }
  const double rate = static_cast<double>(entries) / static_cast<double>(pages);
  CHECK(rate > 0.02);
  CHECK(rate < 0.04);  // spam_link_permille 30
  CHECK(to_cld > entries / 3);
  CHECK(to_cld < entries * 2 / 3);
}

TEST_CASE("deep sites hold the preset's share, are deeper and have more cross-host in-links than any other",
          "[unit]") {
  const Universe u = MakeSpam();
  uint64_t deep_pages = 0;
  std::map<uint32_t, uint64_t> in_links;  // from other hosts
  for (uint32_t h = 0; h < 40; ++h) {
    if (u.IsDeepSite(h)) deep_pages += u.PageCount(h);
    for (uint64_t p = 0; p < u.PageCount(h); ++p) {
      for (const auto& l : u.Links(h, p)) {
        if (l.target.host != h) ++in_links[l.target.host];
      }
    }
  }
  CHECK(deep_pages == 6000 * 450 / 1000);
  uint64_t normal_pages = 0;
  for (uint32_t h = 0; h < 40; ++h) normal_pages += u.PageCount(h);
  CHECK(normal_pages == 6000);
  // Depth of the tree: fan-out 2 makes the deep sites the deepest hosts.
  auto depth = [&](uint32_t h) {
    uint64_t d = 0;
    for (uint64_t p = u.PageCount(h) - 1; p > 0; p = *u.ParentPage(h, p)) ++d;
    return d;
  };
  uint64_t deepest_other = 0, in_other = 0;
  for (uint32_t h = 0; h < 40; ++h) {
    if (u.IsDeepSite(h)) continue;
    deepest_other = std::max(deepest_other, depth(h));
    in_other = std::max(in_other, in_links[h]);
  }
  uint64_t cross = 0, to_deep = 0;
  for (uint32_t h = 0; h < 40; ++h) {
    cross += in_links[h];
    if (u.IsDeepSite(h)) to_deep += in_links[h];
  }
  for (uint32_t h : {3U, 4U, 5U}) {
    CHECK(depth(h) > deepest_other);
    CHECK(in_links[h] > in_other);
  }
  // Their page share alone (preferential attachment) would give them ~45%
  // of the cross-host links; deep_link_permille adds a quarter of the rest.
  const double deep_share = static_cast<double>(to_deep) / static_cast<double>(cross);
  CHECK(deep_share > 0.52);
  CHECK(deep_share < 0.66);
}

TEST_CASE("the ground truth labels spam CLD pages spam and farm pages farm, cut at the truth's level",
          "[unit]") {
  const Universe u = MakeSpam();
  std::map<std::string, uint64_t> kinds;
  std::map<std::string, double> rank;
  for (const auto& row : GroundTruth(u)) {
    ++kinds[std::string(row.kind)];
    rank[std::string(row.kind)] += row.pagerank;
    const std::string host = HostOf(row.url);
    const auto index = u.HostIndex(host);
    REQUIRE(index);
    if (u.IsSpamCldHost(*index)) {
      CHECK(row.kind == "spam");
    } else if (u.IsCldFarmHost(*index)) {
      CHECK(row.kind == "farm");
    } else {
      CHECK(row.kind != "spam");
      CHECK(row.kind != "farm");
    }
    if (u.IsDynamicSpamHost(*index)) {
      const auto page = u.LookupUrl(row.url);
      REQUIRE(page);
      CHECK(Universe::SpamLevel(page->page) <= kSpamTruthLevels);
    }
  }
  // Every spam page of levels 0..2 is reached: 1 + 5 + 25 per host.
  CHECK(kinds["spam"] == 10 * 31);
  CHECK(kinds["farm"] == 10 * 31);
  CHECK(kinds["trap"] > 0);
  CHECK(rank["normal"] > 0.5);
}

TEST_CASE("the spam web is a function of its seed", "[unit]") {
  auto truth = [](uint64_t seed) {
    std::string all;
    for (const auto& row : GroundTruth(MakeSpam(seed))) all += row.url + std::string(row.kind) + "\n";
    return all;
  };
  CHECK(truth(5) == truth(5));
  CHECK(truth(5) != truth(6));
  const Universe a = MakeSpam(5), b = MakeSpam(5);
  CHECK(a.RenderPageAt(41, 123) == b.RenderPageAt(41, 123));
  CHECK(a.Links(2, 10).size() == b.Links(2, 10).size());
}

TEST_CASE("spam structures too large for the web are refused with a reason", "[unit]") {
  UniverseOptions o;
  o.hosts = 4;
  o.pages = 100;
  o.preset = "spam";
  REQUIRE(ApplyPreset(o).ok());
  const auto u = Universe::Create(o);
  REQUIRE_FALSE(u.ok());
  CHECK(u.status().message().find("spam") != std::string::npos);
  UniverseOptions p;
  p.hosts = 60;
  p.pages = 6000;
  p.preset = "spam";
  REQUIRE(ApplyPreset(p).ok());
  p.spam_link_permille = 1001;
  CHECK_FALSE(Universe::Create(p).ok());
}

}  // namespace
}  // namespace crawl::testweb
