// crawlctl output formats that scripts rely on (crawlctl/crawlctl_format.h).
#include "crawlctl/crawlctl_format.h"

#include <boost/json.hpp>
#include <catch2/catch.hpp>

#include "crawlctl/site_report_format.h"

using namespace crawl::crawlctl;

TEST_CASE("log lines have eight tab-separated fields", "[unit]") {
  crawl::v1::FetchRecord r;
  r.set_timestamp_unix_us(1'700'000'000'123'456);
  r.set_status(200);
  r.set_bytes(1234);
  r.set_url("http://a.test/x");
  r.set_mime_type("text/html");
  r.set_fetch_ms(12);
  r.set_content_digest("00112233aabbccdd");
  CHECK(LogLine(r) ==
        "2023-11-14T22:13:20.123456Z\t200\t1234\thttp://a.test/x\t-\ttext/html\t12\t00112233aabbccdd");
  r.set_status(-3);
  r.set_referrer("http://a.test/\tbad");
  const std::string line = LogLine(r);
  CHECK(std::count(line.begin(), line.end(), '\t') == 7);
  CHECK(line.find("\t-3\t") != std::string::npos);
  // Revisits of unchanged content say so in a ninth field.
  r.set_status(304);
  r.set_revisit(crawl::v1::REVISIT_NOT_MODIFIED);
  CHECK(LogLine(r).ends_with("\t00112233aabbccdd\tnot-modified"));
  r.set_status(200);
  r.set_revisit(crawl::v1::REVISIT_IDENTICAL_DIGEST);
  CHECK(LogLine(r).ends_with("\t00112233aabbccdd\tunchanged"));
}

TEST_CASE("status json carries the fields scripts read", "[unit]") {
  crawl::v1::CrawlStatusResponse s;
  s.mutable_crawl()->set_crawl_id(42);
  s.mutable_crawl()->set_state(crawl::v1::CRAWL_STATE_DONE);
  s.mutable_totals()->set_pages_fetched(7);
  s.mutable_totals()->set_frontier_size(3);
  const std::string json = StatusJson(s);
  CHECK(json.find("\"crawl_id\":42") != std::string::npos);
  CHECK(json.find("\"state\":\"done\"") != std::string::npos);
  CHECK(json.find("\"pages_fetched\":7") != std::string::npos);
  CHECK(json.find("\"frontier_size\":3") != std::string::npos);
}

TEST_CASE("status, list and server json stay valid whatever the strings and numbers", "[unit]") {
  const std::string hostile = "a\"b\\c\n\x01 caf\xc3\xa9 x\xff";
  crawl::v1::CrawlStatusResponse s;
  s.mutable_crawl()->set_end_reason(hostile);
  s.mutable_crawl()->mutable_params()->set_order(hostile);
  s.add_queue_servers()->set_queue_server_id(hostile);
  crawl::v1::ListCrawlsResponse list;
  *list.add_crawls() = s.crawl();
  crawl::v1::ListQueueServersResponse servers;
  servers.add_servers()->set_id(hostile);
  servers.add_servers()->set_address(hostile);
  servers.add_last_seen_ms_ago(5);
  const std::string kept = "a\"b\\c\n\x01 caf\xc3\xa9 x\xef\xbf\xbd";  // bad bytes -> U+FFFD
  for (const std::string& json : {StatusJson(s), CrawlListJson(list), ServersJson(servers)}) {
    INFO(json);
    CHECK(json.back() == '\n');
    boost::json::error_code ec;
    const boost::json::value v = boost::json::parse(json, ec);  // strict: valid UTF-8
    REQUIRE_FALSE(ec);
  }
  const auto status = boost::json::parse(StatusJson(s));
  CHECK(status.at("end_reason").as_string() == kept);
  CHECK(status.at("order").as_string() == kept);
  CHECK(status.at("elapsed_seconds").as_double() == 0);
  CHECK(status.at("queue_servers").at(0).at("id").as_string() == kept);
  CHECK(boost::json::parse(CrawlListJson(list)).at("crawls").at(0).at("end_reason").as_string() == kept);
  const auto listed = boost::json::parse(ServersJson(servers)).at("servers");
  CHECK(listed.at(0).at("id").as_string() == kept);
  CHECK(listed.at(0).at("last_seen_ms_ago").as_int64() == 5);
  CHECK(listed.at(1).at("address").as_string() == kept);
  CHECK(listed.at(1).at("last_seen_ms_ago").as_int64() == -1);
}

TEST_CASE("progress bar fills with the page budget and sweeps without one", "[unit]") {
  crawl::v1::CrawlStatusResponse st;
  st.mutable_crawl()->set_crawl_id(9);
  st.mutable_crawl()->set_state(crawl::v1::CRAWL_STATE_RUNNING);
  st.mutable_crawl()->mutable_params()->set_max_pages(1000);
  st.mutable_totals()->set_pages_fetched(250);
  const std::string line = crawl::crawlctl::ProgressBarLine(st, 12.5, 3'000'000, 0, 20);
  CHECK(line.rfind("[#####...............]  25%  crawl 9 running  pages 250  12.5 pages/s", 0) == 0);
  CHECK(line.find("3.0 MB/s") != std::string::npos);
  st.mutable_totals()->set_pages_fetched(5000);  // over budget: capped at full
  CHECK(crawl::crawlctl::ProgressBarLine(st, 0, 0, 0, 10).rfind("[##########] 100%", 0) == 0);
  st.mutable_crawl()->mutable_params()->set_max_pages(0);
  CHECK(crawl::crawlctl::ProgressBarLine(st, 0, 0, 0, 10).rfind("[<=>       ]", 0) == 0);
  CHECK(crawl::crawlctl::ProgressBarLine(st, 0, 0, 3, 10).rfind("[   <=>    ]", 0) == 0);
}

TEST_CASE("sites: the structure order's reports from every queue server, newest first", "[unit]") {
  crawl::v1::CrawlStatusResponse status;
  status.mutable_crawl()->set_crawl_id(5);
  auto add = [&](const std::string& site, int64_t ended) {
    auto* qs = status.add_queue_servers();
    qs->set_sites_reported(3);
    auto* r = qs->add_site_reports();
    r->set_site(site);
    r->set_end_reason("exhausted");
    r->set_ended_unix_ms(ended);
    r->set_pages_crawled(12);
    r->set_seconds(1.25);
    r->add_layer_names("Primary");
    r->add_layer_names("Secondary");
    auto* l = r->add_layer_sizes();
    l->add_sizes(2);
    l->add_sizes(5);
  };
  add("http://a.test", 100);
  add("http://b.test", 200);
  const std::string text = SitesText(status);
  CHECK(text.find("crawl 5: 6 site sessions reported") == 0);
  CHECK(text.find("http://b.test\texhausted\t1.2") < text.find("http://a.test"));
  CHECK(text.find("Primary 2, Secondary 5") != std::string::npos);
  const std::string json = SitesJson(status);
  CHECK(json.find("{\"crawl_id\":5,\"sites_reported\":6,\"sites\":[{") == 0);
  CHECK(json.find("\"pages_crawled\":12") != std::string::npos);
  CHECK(SitesText(crawl::v1::CrawlStatusResponse()).find("0 site sessions reported") != std::string::npos);
}
