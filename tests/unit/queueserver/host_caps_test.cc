// Per-origin URL caps of a crawl (queueserver/frontier/frontier.h HostCaps,
// host_caps.cc): one host cannot fill the frontier, seeded or not.
#include <catch2/catch.hpp>

#include "queueserver/frontier/frontier.h"

using crawl::queueserver::Frontier;
using crawl::queueserver::FrontierEntry;
using crawl::queueserver::FrontierOptions;
using crawl::queueserver::LinkInput;

namespace {

FrontierOptions Capped() {
  FrontierOptions o;
  o.host_caps.max_urls = 3;
  o.host_caps.max_urls_seed = 5;
  o.host_caps.max_sitemap_urls = 2;
  return o;
}

std::vector<LinkInput> Links(const std::string& origin, int from, int n, bool from_sitemap = false) {
  std::vector<LinkInput> links;
  for (int k = from; k < from + n; ++k) {
    LinkInput& l = links.emplace_back();
    l.entry.url = origin + "/p" + std::to_string(k);
    l.entry.referrer = "http://referrer.test/";
    l.entry.depth = 1;
    l.from_sitemap = from_sitemap;
  }
  return links;
}

crawl::queueserver::HostQueueCounts Queue(const Frontier& f, std::string_view host) {
  auto q = f.QueueOfHost(host, 1'000'000, 0);
  REQUIRE(q.ok());
  return *q;
}

}  // namespace

TEST_CASE("an origin adds at most max_urls_per_host new URLs; the rest are counted, not queued", "[unit]") {
  Frontier f(Capped());
  CHECK(f.AddLinks(Links("http://a.test", 0, 10), 0) == 3);
  f.EndRequest();
  CHECK(f.Counters().over_host_cap == 7);
  CHECK(f.Counters().frontier_size == 3 + 1);  // and its robots.txt
  const auto a = Queue(f, "a.test");
  CHECK(a.urls_added == 3);
  CHECK(a.over_host_cap == 7);
  CHECK(a.waiting_for_robots == 3);
  // Another origin has its own cap.
  CHECK(f.AddLinks(Links("http://b.test", 0, 4), 0) == 3);
  // Refused URLs stay seen: offered again, they are neither queued nor counted twice.
  CHECK(f.AddLinks(Links("http://a.test", 0, 10), 0) == 0);
  CHECK(f.Counters().over_host_cap == 8);
}

TEST_CASE("an origin with a seed gets max_urls_per_seed_host, seeds included", "[unit]") {
  Frontier f(Capped());
  FrontierEntry seed;
  seed.url = "http://s.test/";
  REQUIRE(f.Add(seed, 0));
  CHECK(f.AddLinks(Links("http://s.test", 0, 10), 0) == 4);
  CHECK(Queue(f, "s.test").urls_added == 5);
  CHECK(Queue(f, "s.test").over_host_cap == 6);
}

TEST_CASE("sitemaps add at most max_sitemap_urls_per_host to an origin, within its cap", "[unit]") {
  Frontier f(Capped());
  CHECK(f.AddLinks(Links("http://m.test", 0, 5, /*from_sitemap=*/true), 0) == 2);
  CHECK(f.AddLinks(Links("http://m.test", 10, 5), 0) == 1);  // the host cap (3) is the rest
  CHECK(f.Counters().over_host_cap == 3 + 4);
}

TEST_CASE("raising the caps mid-crawl lets new URLs in", "[unit]") {
  Frontier f(Capped());
  CHECK(f.AddLinks(Links("http://a.test", 0, 5), 0) == 3);
  crawl::queueserver::HostCaps more;
  more.max_urls = 10;
  f.SetHostCaps(more);
  CHECK(f.AddLinks(Links("http://a.test", 5, 5), 0) == 5);
}
