// Tests for the politeness checker (tests/testweb/politeness.h) on small
// hand-written access logs.
#include "tests/testweb/politeness.h"

#include <boost/json.hpp>
#include <catch2/catch.hpp>
#include <limits>
#include <sstream>

#include "tests/testweb/hosts_file.h"

namespace crawl::testweb {
namespace {

Universe Make() {
  UniverseOptions o;
  o.seed = 11;
  o.hosts = 30;
  o.pages = 2000;
  o.preset = "misbehaving";
  REQUIRE(ApplyPreset(o).ok());
  // The logs below name hosts www.site<i>.test.
  o.misbehaviours &= ~(1U << static_cast<uint32_t>(Misbehaviour::kHostNames));
  auto u = Universe::Create(o);
  REQUIRE(u.ok());
  return std::move(u).value();
}

std::vector<AccessRecord> Parse(const std::string& text) {
  std::vector<AccessRecord> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    auto r = ParseAccessLine(line);
    REQUIRE(r.ok());
    out.push_back(std::move(r).value());
  }
  return out;
}

const HostPoliteness& Find(const PolitenessReport& r, const std::string& host) {
  for (const auto& h : r.hosts) {
    if (h.host == host) return h;
  }
  FAIL("no host " << host);
  return r.hosts.front();
}

TEST_CASE("access lines parse with and without the duration field", "[unit]") {
  auto r =
      ParseAccessLine("2026-11-22T18:00:01.250000Z\twww.site0.test\t/p1.html\t200\t42\t127.0.0.1:5\t3.5");
  REQUIRE(r.ok());
  CHECK(r->start_us == 1795370401250000LL);
  CHECK(r->host == "www.site0.test");
  CHECK(r->target == "/p1.html");
  CHECK(r->status == 200);
  CHECK(r->bytes == 42);
  CHECK(r->remote == "127.0.0.1:5");
  CHECK(r->duration_ms == 3.5);
  CHECK(r->connection == 0);
  auto with_conn =
      ParseAccessLine("2026-11-22T18:00:01.250000Z\twww.site0.test\t/p1.html\t200\t42\t127.0.0.1:5\t3.5\t9");
  REQUIRE(with_conn.ok());
  CHECK(with_conn->connection == 9);
  CHECK_FALSE(ParseAccessLine("2026-11-22T18:00:01.250000Z\th\t/\t200\t42\tr\t1\tx").ok());
  CHECK(ParseAccessLine("2026-11-22T18:00:01.250000Z\th\t/\t200\t42\tr").ok());
  CHECK_FALSE(ParseAccessLine("yesterday\th\t/\t200\t42\tr").ok());
  CHECK_FALSE(ParseAccessLine("2026-11-22T18:00:01.250000Z\th\t/\tok\t42\tr").ok());
  CHECK_FALSE(ParseAccessLine("2026-11-22T18:00:01.250000Z\th\t/\t200\t42\tr\t-1").ok());
  CHECK_FALSE(ParseAccessLine("just one field").ok());
}

TEST_CASE("a polite log has no violations", "[unit]") {
  const Universe u = Make();
  // Host 1 has Crawl-delay 1: requests 1 s apart on one connection.
  const auto report = CheckPoliteness(
      u, Parse("2026-11-22T18:00:00.000000Z\twww.site1.test\t/robots.txt\t200\t10\t127.0.0.1:1000\t1.000\n"
               "2026-11-22T18:00:01.000000Z\twww.site1.test\t/\t200\t10\t127.0.0.1:1000\t1.000\n"
               "2026-11-22T18:00:02.500000Z\twww.site1.test\t/files/1.pdf\t200\t10\t127.0.0.1:1000\t1.000\n"
               "2026-11-22T18:00:00.000000Z\twww.site0.test\t/\t200\t10\t127.0.0.1:1001\t5.000\n"
               "2026-11-22T18:00:00.010000Z\twww.site0.test\t/p1.html\t200\t10\t127.0.0.1:1002\t5.000\n"));
  CHECK(report.violations == 0);
  CHECK(report.requests == 5);
  const auto& h1 = Find(report, "www.site1.test");
  CHECK(h1.crawl_delay_s == 1.0);
  CHECK(h1.min_gap_ms == Approx(1000.0));
  CHECK(h1.max_concurrent == 1);
  const auto& h0 = Find(report, "www.site0.test");
  CHECK(h0.min_gap_ms == Approx(10.0));
  CHECK(h0.max_concurrent == 1);  // the second connection starts after the first ended
}

TEST_CASE("crawl-delay, concurrency and robots violations are each counted", "[unit]") {
  const Universe u = Make();
  const auto report = CheckPoliteness(
      u, Parse(
             // Host 1, Crawl-delay 1: 0.5 s gap (1), and a disallowed sessionid URL (1).
             "2026-11-22T18:00:00.000000Z\twww.site1.test\t/\t200\t10\t127.0.0.1:1000\t1.000\n"
             "2026-11-22T18:00:00.500000Z\twww.site1.test\t/"
             "p1.html?sessionid=ab\t200\t10\t127.0.0.1:1000\t1.000\n"
             // Host 0: two connections overlapping (1 concurrency violation).
             "2026-11-22T18:00:00.000000Z\twww.site0.test\t/\t200\t10\t127.0.0.1:2000\t50.000\n"
             "2026-11-22T18:00:00.020000Z\twww.site0.test\t/p1.html\t200\t10\t127.0.0.1:2001\t50.000\n"
             "2026-11-22T18:00:00.040000Z\twww.site0.test\t/p2.html\t200\t10\t127.0.0.1:2000\t5.000\n"
             // Host 7 answers 500 for robots.txt: everything else is disallowed (1).
             "2026-11-22T18:00:00.000000Z\twww.site7.test\t/robots.txt\t500\t10\t127.0.0.1:3000\t1.000\n"
             "2026-11-22T18:00:10.000000Z\twww.site7.test\t/\t200\t10\t127.0.0.1:3000\t1.000\n"));
  const auto& h1 = Find(report, "www.site1.test");
  CHECK(h1.crawl_delay_violations == 1);
  CHECK(h1.disallowed_requests == 1);
  const auto& h0 = Find(report, "www.site0.test");
  CHECK(h0.max_concurrent == 2);
  CHECK(h0.concurrency_violations == 1);
  CHECK(h0.min_gap_ms == Approx(20.0));
  const auto& h7 = Find(report, "www.site7.test");
  CHECK(h7.disallowed_requests == 1);
  CHECK(report.violations == 4);
  // Connection numbers, when logged, tell apart connections that reuse a port.
  const auto reused = CheckPoliteness(
      u, Parse("2026-11-22T18:00:00.000000Z\twww.site0.test\t/\t200\t10\t127.0.0.1:2000\t5.000\t1\n"
               "2026-11-22T18:00:00.100000Z\twww.site0.test\t/p1.html\t200\t10\t127.0.0.1:2001\t5.000\t2\n"
               "2026-11-22T18:00:00.200000Z\twww.site0.test\t/p2.html\t200\t10\t127.0.0.1:2000\t5.000\t3\n"));
  CHECK(reused.violations == 0);
  CHECK(Find(reused, "www.site0.test").max_concurrent == 1);
  const std::string json = ToJson(report);
  CHECK(json.starts_with("{\"requests\":7,\"violations\":4,\"hosts\":["));
  CHECK(json.find("\"host\":\"www.site0.test\",\"requests\":3,\"max_concurrent\":2") != std::string::npos);
  CHECK(ToText(report).find("violations 4") != std::string::npos);
}

TEST_CASE("the JSON report is valid JSON for odd host names and numbers", "[unit]") {
  PolitenessReport report;
  HostPoliteness odd;
  odd.host = "a\"b\\c\n\x01\xff";  // the access log's Host header, as the client sent it
  odd.requests = 1;
  odd.crawl_delay_s = std::numeric_limits<double>::quiet_NaN();
  report.hosts.push_back(odd);
  HostPoliteness gaps;
  gaps.host = "b.test";
  gaps.min_gap_ms = 12.3456;
  gaps.crawl_delay_s = std::numeric_limits<double>::infinity();
  report.hosts.push_back(gaps);
  report.addresses.push_back({"127.0.0.\"1", 1, 1, 1, 0});
  const std::string json = ToJson(report);
  CHECK(json.find('\n') == json.size() - 1);
  boost::json::error_code ec;
  const boost::json::value v = boost::json::parse(json, ec);  // strict: valid UTF-8, no NaN
  REQUIRE_FALSE(ec);
  const auto& hosts = v.at("hosts").as_array();
  CHECK(hosts.at(0).at("host").as_string() == "a\"b\\c\n\x01\xef\xbf\xbd");
  CHECK(hosts.at(0).at("min_gap_ms").is_null());              // fewer than 2 requests
  CHECK(hosts.at(0).at("crawl_delay_s").is_null());           // non-finite numbers are null
  CHECK(hosts.at(1).at("min_gap_ms").as_double() == 12.346);  // three decimals
  CHECK(hosts.at(1).at("crawl_delay_s").is_null());
  CHECK(v.at("addresses").at(0).at("address").as_string() == "127.0.0.\"1");
}

TEST_CASE("hosts sharing an address are judged together when the addresses are given", "[unit]") {
  const Universe u = Make();
  // Hosts 0 and 2 share an address: each host alone has one connection at
  // a time, but the address has two at once (1 violation).
  const std::string log =
      "2026-11-22T18:00:00.000000Z\twww.site0.test\t/\t200\t10\t127.0.0.1:2000\t50.000\t1\n"
      "2026-11-22T18:00:00.020000Z\twww.site2.test\t/\t200\t10\t127.0.0.1:2001\t50.000\t2\n"
      "2026-11-22T18:00:01.000000Z\twww.site3.test\t/\t200\t10\t127.0.0.1:2002\t50.000\t3\n";
  const auto per_host = CheckPoliteness(u, Parse(log));
  CHECK(per_host.violations == 0);
  CHECK(per_host.addresses.empty());
  auto addresses = HostAddresses("127.20.0.0", u.HostCount(), 2);  // even hosts on .1, odd on .2
  REQUIRE(addresses.ok());
  const auto shared = CheckPoliteness(u, Parse(log), &*addresses);
  CHECK(shared.violations == 1);
  REQUIRE(shared.addresses.size() == 2);
  CHECK(shared.addresses[0].address == "127.20.0.1");
  CHECK(shared.addresses[0].hosts == 2);
  CHECK(shared.addresses[0].max_concurrent == 2);
  CHECK(shared.addresses[0].concurrency_violations == 1);
  CHECK(shared.addresses[1].max_concurrent == 1);
  CHECK(ToJson(shared).find("\"addresses\":[{\"address\":\"127.20.0.1\",\"hosts\":2") != std::string::npos);
}

TEST_CASE("each address's peak is reported and judged against max-per-ip connections", "[unit]") {
  const Universe u = Make();
  // Hosts 0, 2 and 4 share 127.20.0.1: three connections open at once
  // there (each host alone has one); host 3 is alone on 127.20.0.2.
  const std::string log =
      "2026-11-22T18:00:00.000000Z\twww.site0.test\t/\t200\t10\t127.0.0.1:2000\t50.000\t1\n"
      "2026-11-22T18:00:00.010000Z\twww.site2.test\t/\t200\t10\t127.0.0.1:2001\t50.000\t2\n"
      "2026-11-22T18:00:00.020000Z\twww.site4.test\t/\t200\t10\t127.0.0.1:2002\t50.000\t3\n"
      "2026-11-22T18:00:01.000000Z\twww.site3.test\t/\t200\t10\t127.0.0.1:2003\t50.000\t4\n";
  auto addresses = HostAddresses("127.20.0.0", u.HostCount(), 2);
  REQUIRE(addresses.ok());
  // The old judgement: one connection per address (2 opened while others were).
  const auto one = CheckPoliteness(u, Parse(log), &*addresses);
  CHECK(one.max_per_address == 1);
  CHECK(one.addresses.at(0).max_concurrent == 3);
  CHECK(one.addresses.at(0).concurrency_violations == 2);
  CHECK(one.violations == 2);
  // Two at once allowed: only the third connection is one too many.
  const auto two = CheckPoliteness(u, Parse(log), &*addresses, 2);
  CHECK(two.addresses.at(0).concurrency_violations == 1);
  CHECK(two.violations == 1);
  const auto three = CheckPoliteness(u, Parse(log), &*addresses, 3);
  CHECK(three.violations == 0);
  CHECK(three.addresses.at(0).max_concurrent == 3);  // the peak, judged or not
  // Limit 0: peaks only.
  const auto peaks = CheckPoliteness(u, Parse(log), &*addresses, 0);
  CHECK(peaks.violations == 0);
  CHECK(peaks.addresses.at(1).max_concurrent == 1);
  const std::string json = ToJson(two);
  CHECK(json.find("\"max_per_address\":2") != std::string::npos);
  CHECK(json.find("\"address\":\"127.20.0.2\"") != std::string::npos);
  const std::string text = ToText(two);
  CHECK(text.find("address 127.20.0.1      hosts 3 requests 3 peak 3 too_many 1") != std::string::npos);
  CHECK(text.find("judged against 2 connection(s)") != std::string::npos);
}

TEST_CASE("the text report lists the addresses with the largest peaks, the JSON all", "[unit]") {
  const Universe u = Make();
  // One address per host; host 7 has two connections at once, the others one.
  std::string log;
  for (int i = 0; i < 12; ++i)
    log += "2026-11-22T18:00:0" + std::to_string(i % 10) + ".000000Z\twww.site" + std::to_string(i) +
           ".test\t/\t200\t10\t127.0.0.1:1\t5.000\t" + std::to_string(100 + i) + "\n";
  log += "2026-11-22T18:00:07.001000Z\twww.site7.test\t/a\t200\t10\t127.0.0.1:1\t5.000\t99\n";
  auto addresses = HostAddresses("127.20.0.0", u.HostCount(), 0);
  REQUIRE(addresses.ok());
  const auto report = CheckPoliteness(u, Parse(log), &*addresses, 0);
  REQUIRE(report.addresses.size() == 12);
  const std::string text = ToText(report);
  // Host 7 is the eighth address (127.20.0.8): listed first.
  const size_t first = text.find("address ");
  REQUIRE(first != std::string::npos);
  CHECK(text.compare(first, 20, "address 127.20.0.8  ") == 0);
  CHECK(text.find("(2 more addresses: --json lists all)") != std::string::npos);
  CHECK(text.find("peaks only") != std::string::npos);
  size_t listed = 0;
  for (size_t at = text.find("address 127."); at != std::string::npos; at = text.find("address 127.", at + 1))
    ++listed;
  CHECK(listed == kTextAddresses);
  boost::json::error_code ec;
  const boost::json::value v = boost::json::parse(ToJson(report), ec);
  REQUIRE_FALSE(ec);
  CHECK(v.at("addresses").as_array().size() == 12);
  CHECK(v.at("max_per_address").as_int64() == 0);
}

TEST_CASE("requests to https hosts are judged by their own https rules", "[unit]") {
  const Universe u = Make();
  REQUIRE(u.IsHttps(4));
  // Host 4 is https-only; "/" is allowed there, /private/ is not.
  const auto report = CheckPoliteness(
      u, Parse("2026-11-22T18:00:00.000000Z\twww.site4.test\t/robots.txt\t200\t10\t127.0.0.1:1\t1.000\t1\n"
               "2026-11-22T18:00:01.000000Z\twww.site4.test\t/\t200\t10\t127.0.0.1:1\t1.000\t1\n"));
  CHECK(Find(report, "www.site4.test").disallowed_requests == 0);
  CHECK(report.violations == 0);
}

}  // namespace
}  // namespace crawl::testweb
