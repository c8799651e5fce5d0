#include "nameserver/status_page.h"

#include <boost/json.hpp>
#include <catch2/catch.hpp>
#include <limits>

using crawl::nameserver::NameServerServiceImpl;
using crawl::nameserver::StatusPageJson;
namespace v1 = crawl::v1;

namespace {

NameServerServiceImpl::Snapshot RunningCrawl() {
  NameServerServiceImpl::Snapshot snap;
  v1::CrawlInfo c;
  c.set_crawl_id(77);
  c.set_state(v1::CRAWL_STATE_RUNNING);
  c.mutable_params()->set_order("bfs");
  snap.crawls[77] = c;
  snap.active_crawl = 77;
  for (int i = 0; i < 2; ++i) {
    NameServerServiceImpl::Snapshot::MemberView m;
    m.info.set_id("qs" + std::to_string(i));
    m.info.set_address("127.0.0.1:" + std::to_string(5000 + i));
    m.last_seen_ms_ago = i == 0 ? 100 : 60'000;  // qs1 is silent
    snap.members.push_back(m);
    v1::QueueServerStats st;
    st.set_queue_server_id(m.info.id());
    st.set_pages_fetched(100 * (i + 1));
    st.set_frontier_size(10);
    st.set_index_documents(7 * (i + 1));
    auto* tier = st.add_tiers();
    tier->set_tier(2);
    tier->set_urls(10);
    auto* h = st.add_top_hosts();
    h->set_host(i == 0 ? "a.test" : "b.test");
    h->set_pages(i == 0 ? 5 : 9);
    auto* e = st.add_recent_errors();
    e->set_url("http://a.test/" + std::to_string(i));
    e->set_status(500);
    e->set_timestamp_unix_us(1'000'000 * (i + 1));
    snap.crawl_stats[m.info.id()] = st;
  }
  // 10 s of history: 100 pages, then 300.
  snap.history_crawl = 77;
  snap.history.push_back({1'000'000, 100, 20, 0, 100});
  snap.history.push_back({1'010'000, 300, 20, 2, 400});
  NameServerServiceImpl::Snapshot::FetcherView f;
  f.id = "fetcher0";
  f.last_seen_ms_ago = 500;
  f.stats.set_in_flight(12);
  snap.fetchers.push_back(f);
  return snap;
}

}  // namespace

TEST_CASE("status json sums the queue servers and derives rates from history", "[unit]") {
  auto j = boost::json::parse(StatusPageJson(RunningCrawl(), 1'010'000)).as_object();
  CHECK(j.at("active_crawl").as_int64() == 77);
  CHECK(j.at("crawl").as_object().at("state").as_string() == "running");
  const auto& totals = j.at("totals").as_object();
  CHECK(totals.at("pages_fetched").as_int64() == 300);
  CHECK(totals.at("frontier_size").as_int64() == 20);
  CHECK(totals.at("pages_per_second").as_double() == Approx(20.0));  // 200 pages in 10 s
  CHECK(j.at("history").as_array().size() == 2);
  const auto& qs = j.at("queue_servers").as_array();
  REQUIRE(qs.size() == 2);
  CHECK(qs[0].as_object().at("healthy").as_bool());
  CHECK_FALSE(qs[1].as_object().at("healthy").as_bool());
  CHECK(qs[1].as_object().at("index_documents").as_int64() == 14);
  CHECK(qs[0].as_object().at("tiers").as_array()[0].as_array()[1].as_int64() == 10);
  CHECK(j.at("fetchers").as_array()[0].as_object().at("in_flight").as_int64() == 12);
}

TEST_CASE("status json merges top hosts and lists newest errors first", "[unit]") {
  auto j = boost::json::parse(StatusPageJson(RunningCrawl(), 1'010'000)).as_object();
  const auto& hosts = j.at("top_hosts").as_array();
  REQUIRE(hosts.size() == 2);
  CHECK(hosts[0].as_object().at("host").as_string() == "b.test");
  const auto& errors = j.at("recent_errors").as_array();
  REQUIRE(errors.size() == 2);
  CHECK(errors[0].as_object().at("url").as_string() == "http://a.test/1");
}

TEST_CASE("status json merges the structure order's site reports, newest first", "[unit]") {
  auto snap = RunningCrawl();
  auto add = [&](const std::string& qs, const std::string& site, int64_t ended, uint32_t crawled) {
    v1::SiteReport* r = snap.crawl_stats[qs].add_site_reports();
    r->set_site(site);
    r->set_end_reason("objective.pages");
    r->set_ended_unix_ms(ended);
    r->set_pages_crawled(crawled);
    r->add_layer_sizes()->add_sizes(4);
    snap.crawl_stats[qs].set_sites_reported(snap.crawl_stats[qs].sites_reported() + 1);
  };
  const std::string a = snap.crawl_stats.begin()->first, b = snap.crawl_stats.rbegin()->first;
  add(a, "http://old.test", 10, 3);
  add(b, "http://new.test", 20, 7);
  auto j = boost::json::parse(StatusPageJson(snap, 1'010'000)).as_object();
  CHECK(j.at("sites_reported").as_int64() == 2);
  const auto& sites = j.at("site_reports").as_array();
  REQUIRE(sites.size() == 2);
  CHECK(sites[0].as_object().at("site").as_string() == "http://new.test");
  CHECK(sites[0].as_object().at("pages_crawled").as_int64() == 7);
  CHECK(sites[0].as_object().at("end_reason").as_string() == "objective.pages");
  CHECK(sites[1].as_object().at("last_layers").as_array().at(0).as_int64() == 4);
}

TEST_CASE("status json stays valid JSON for quotes, control bytes, bad UTF-8 and non-finite numbers",
          "[unit]") {
  auto snap = RunningCrawl();
  const std::string hostile = std::string("a\"b\\c\n\t\x01\x7f caf\xc3\xa9 \xff\xc3", 18);
  snap.crawls[77].set_end_reason(hostile);
  auto& st = snap.crawl_stats.begin()->second;
  st.mutable_recent_errors(0)->set_error(hostile);
  st.mutable_top_hosts(0)->set_host(hostile);
  v1::SiteReport* nan = st.add_site_reports();
  nan->set_site(hostile);
  nan->set_seconds(std::numeric_limits<double>::quiet_NaN());
  nan->set_ended_unix_ms(2);
  st.add_site_reports()->set_seconds(std::numeric_limits<double>::infinity());
  const std::string text = StatusPageJson(snap, 1'010'000);
  CHECK(text.find("NaN") == std::string::npos);
  CHECK(text.find("Infinity") == std::string::npos);
  boost::json::error_code ec;
  const boost::json::value v = boost::json::parse(text, ec);  // strict: valid UTF-8, no NaN
  REQUIRE_FALSE(ec);
  const auto& j = v.as_object();
  const std::string kept = "a\"b\\c\n\t\x01\x7f caf\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd";  // bad bytes -> U+FFFD
  CHECK(j.at("crawl").as_object().at("end_reason").as_string() == kept);
  CHECK(j.at("top_hosts").as_array()[1].as_object().at("host").as_string() == kept);
  const auto& sites = j.at("site_reports").as_array();
  REQUIRE(sites.size() == 2);
  CHECK(sites[0].as_object().at("site").as_string() == kept);
  CHECK(sites[0].as_object().at("seconds").is_null());  // non-finite numbers are null
  CHECK(sites[1].as_object().at("seconds").is_null());
}

TEST_CASE("status json with no crawl says so", "[unit]") {
  NameServerServiceImpl::Snapshot empty;
  auto j = boost::json::parse(StatusPageJson(empty, 0)).as_object();
  CHECK(j.at("crawl").is_null());
  CHECK(j.at("crawls").as_array().empty());
}

TEST_CASE("status page is self-contained html that polls status.json", "[unit]") {
  const std::string& html = crawl::nameserver::StatusPageHtml();
  CHECK(html.find("<!doctype html>") == 0);
  CHECK(html.find("/status.json") != std::string::npos);
  CHECK(html.find("<script src") == std::string::npos);  // works offline
}
