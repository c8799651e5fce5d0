// Links' referrers on the wire (queueserver/link_wire.h, crawl.proto
// DiscoveredLink.same_referrer): a link may say its referrer is the
// previous link's; the queue server reads them in request order, and the
// URLs it queues carry the same referrers as when every link named its own.
#include "queueserver/link_wire.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "common/base/clock.h"
#include "queueserver/crawl_shard.h"

namespace qs = crawl::queueserver;
namespace v1 = crawl::v1;

namespace {

v1::DiscoveredLink Link(const std::string& url, const std::string& referrer, bool same) {
  v1::DiscoveredLink l;
  l.set_url(url);
  l.set_depth(1);
  l.set_source("a");
  if (same) {
    l.set_same_referrer(true);
  } else {
    l.set_referrer(referrer);
  }
  return l;
}

v1::CrawlInfo Crawl() {
  v1::CrawlInfo c;
  c.set_crawl_id(9);
  c.set_state(v1::CRAWL_STATE_RUNNING);
  c.mutable_params()->set_schedule_size(50);
  c.mutable_params()->set_lease_seconds(60);
  return c;
}

// The referrer of every URL leased after robots.txt allows a.test, with the
// links of `links` submitted along with a.test's seed page.
std::map<std::string, std::string> LeasedReferrers(const std::vector<v1::DiscoveredLink>& links) {
  crawl::ManualClock clock;
  qs::CrawlShard shard(Crawl(), &clock, nullptr);
  REQUIRE(shard.Create().ok());
  v1::InjectSeedsRequest seeds;
  *seeds.mutable_crawl() = Crawl();
  seeds.add_urls("http://a.test/");
  v1::InjectSeedsResponse injected;
  REQUIRE(shard.InjectSeeds(seeds, &injected).ok());
  v1::GetScheduleRequest lease;
  lease.set_crawl_id(9);
  lease.set_fetcher_id("f");
  v1::GetScheduleResponse robots;
  REQUIRE(shard.GetSchedule(lease, &robots).ok());
  REQUIRE(robots.urls_size() == 1);
  v1::SubmitResultsRequest allow;
  allow.set_crawl_id(9);
  allow.set_fetcher_id("f");
  allow.set_schedule_id(robots.schedule_id());
  allow.set_final(true);
  v1::FetchRecord* rr = allow.add_records();
  rr->set_url("http://a.test/robots.txt");
  rr->set_kind(v1::URL_KIND_ROBOTS);
  rr->set_status(404);
  v1::SubmitResultsResponse resp;
  REQUIRE(shard.SubmitResults(allow, &resp).ok());
  v1::GetScheduleResponse seed;
  REQUIRE(shard.GetSchedule(lease, &seed).ok());
  REQUIRE(seed.urls_size() == 1);
  v1::SubmitResultsRequest page;
  page.set_crawl_id(9);
  page.set_fetcher_id("f");
  page.set_schedule_id(seed.schedule_id());
  page.set_final(true);
  v1::FetchRecord* r = page.add_records();
  r->set_url("http://a.test/");
  r->set_kind(v1::URL_KIND_PAGE);
  r->set_status(200);
  for (const v1::DiscoveredLink& l : links) *page.add_links() = l;
  REQUIRE(shard.SubmitResults(page, &resp).ok());
  v1::GetScheduleResponse next;
  REQUIRE(shard.GetSchedule(lease, &next).ok());
  std::map<std::string, std::string> out;
  for (const v1::ScheduledUrl& u : next.urls()) out[u.url()] = u.referrer();
  return out;
}

}  // namespace

TEST_CASE("LinkReferrers: a link's own referrer, or the previous link's", "[unit]") {
  google::protobuf::RepeatedPtrField<v1::DiscoveredLink> links;
  *links.Add() = Link("http://b.test/1", "", true);  // nothing before it: no referrer
  *links.Add() = Link("http://b.test/2", "http://a.test/x", false);
  *links.Add() = Link("http://b.test/3", "", true);
  *links.Add() = Link("http://b.test/4", "", true);
  *links.Add() = Link("http://b.test/5", "http://a.test/y", false);
  *links.Add() = Link("http://b.test/6", "", true);
  *links.Add() = Link("http://b.test/7", "", false);  // a seed's: none
  CHECK(qs::LinkReferrers(links) == std::vector<std::string_view>{"", "http://a.test/x", "http://a.test/x",
                                                                  "http://a.test/x", "http://a.test/y",
                                                                  "http://a.test/y", ""});
}

TEST_CASE("queued URLs carry the same referrers whether links name them or say 'same as before'", "[unit]") {
  const std::vector<std::pair<std::string, std::string>> found = {
      {"http://a.test/1", "http://a.test/"},
      {"http://a.test/2", "http://a.test/"},
      {"bad url", "http://a.test/"},  // refused, but still passes its referrer on
      {"http://a.test/3", "http://a.test/"},
      {"http://a.test/4", "http://a.test/other"},
      {"http://a.test/5", "http://a.test/other"},
  };
  std::vector<v1::DiscoveredLink> named, elided;
  for (size_t i = 0; i < found.size(); ++i) {
    named.push_back(Link(found[i].first, found[i].second, false));
    elided.push_back(Link(found[i].first, found[i].second, i > 0 && found[i].second == found[i - 1].second));
  }
  const auto expected = LeasedReferrers(named);
  CHECK(expected.size() == 5);
  CHECK(expected.at("http://a.test/3") == "http://a.test/");
  CHECK(expected.at("http://a.test/5") == "http://a.test/other");
  CHECK(LeasedReferrers(elided) == expected);
}
