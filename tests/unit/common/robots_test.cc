// Tests of common/url/robots.h. Two parts, as in google/robotstxt:
//   [rfc9309]  the public conformance vectors taken from Google's test suite
//              (tests/data/conformance/robots/, see its README), with our
//              decision on every Google-specific case written down below;
//   [policy]   our own choices: crawl-delay, sitemaps, the 500 KiB limit,
//              fetch-outcome rules, serialisation, robustness.
#include "common/url/robots.h"

// Boost.JSON is compiled once, in tests/unit/catch_main.cc.
#include <boost/json.hpp>
#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>

namespace robots = crawl::robots;
namespace json = boost::json;

namespace {

json::value LoadJson(const std::string& name) {
  const std::string path = std::string(CRAWL_CONFORMANCE_DIR) + "/robots/" + name;
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  boost::system::error_code ec;
  json::value v = json::parse(ss.str(), ec);
  REQUIRE_FALSE(ec);
  return v;
}

std::string Str(const json::value& v) {
  const json::string& s = v.as_string();
  return std::string(s.data(), s.size());
}

bool Allowed(std::string_view body, std::string_view agent, std::string_view url) {
  return robots::IsAllowedUrl(robots::Parse(body, agent), url);
}

// ---------------------------------------------------------------------------
// Decisions on the 16 cases of google_cases.json marked google_specific,
// keyed by source_line. Principle (robots.h has the full list):
//   - how a LINE IS READ: follow Google's leniency, it reads what the author
//     evidently meant and authors test their files with Google's tools;
//   - what a RULE COVERS: follow RFC 9309, so a rule never covers more or
//     other URLs than its text says.
// ---------------------------------------------------------------------------
struct Decision {
  int source_line;
  const char* why;
};

// We answer as Google does.
const Decision kFollowGoogle[] = {
    {49, "Our API contract: an empty path is checked as \"/\" (GetPathParamsQuery maps \"\" to \"/\")."},
    {79, "Line reading: \"disallow /\" without colon, exactly two tokens, is an evident directive."},
    {219,
     "Line reading: \"User-Agent: FOO BAR\" names product token FOO (value cut at the first "
     "character outside [a-zA-Z_-]); obeying it is the polite choice."},
    {220, "As 219 (lower case value)."},
    {221, "As 219 (mixed case value)."},
    {225, "As 219 (lower case crawler token)."},
    {226, "As 219."},
    {227, "As 219."},
    {246, "As 219: \"User-Agent: Foo Bar\" is the group of token Foo."},
    {247,
     "Our token must be valid (RFC 9309 2.2.1); \"Foo Bar\" is not, so it never matches a "
     "named group and the \"*\" group applies."},
};

// We answer differently from Google (the expected value is inverted).
const Decision kDeviateFromGoogle[] = {
    {419,
     "RFC 9309 2.2.2: non-ASCII in the path is percent-encoded before matching, so "
     "/foo/bar/ツ matches \"Allow: /foo/bar/ツ\" (Google compares the raw URL). Our "
     "canonical URLs (common/url/url.h) are always encoded anyway."},
    {430, "As 419: rule %E3%83%84 and path ツ are the same octets once the path is encoded."},
    {441,
     "RFC 9309 2.2.2: %-escapes of unreserved characters are decoded, so rule %62%61%7A "
     "is /baz and matches /foo/bar/baz; common/url/url.h canonicalises URLs the same way, "
     "so without this the rule would never match any URL we crawl."},
    {505,
     "Google-only index.html rewrite not applied: \"Allow: /allowed-slash/index.html\" "
     "does not allow /allowed-slash/ (a rule covers what it says; Disallow: / wins)."},
    {539,
     "No 16,663-byte line cut: the long disallow rule is kept whole, so it does not match "
     "a URL that only shares its first 16 kB (cutting widens the rule)."},
    {565,
     "As 539: the long allow rule, kept whole, does not match the /x/bbb... URL, so "
     "Disallow: / applies."},
};

const Decision* FindDecision(const Decision* begin, const Decision* end, int line) {
  for (const Decision* d = begin; d != end; ++d) {
    if (d->source_line == line) return d;
  }
  return nullptr;
}

}  // namespace

// RFC 9309 (and Google's reading of it): all 145 allow/disallow vectors.
TEST_CASE("google conformance cases answer as RFC 9309 and our documented decisions", "[unit][rfc9309]") {
  const json::value cases = LoadJson("google_cases.json");
  const json::array& arr = cases.as_array();
  REQUIRE(arr.size() == 145);

  int google_specific = 0;
  int agree_with_google = 0;
  int deviations = 0;
  std::map<int, int> used_decisions;
  for (const json::value& v : arr) {
    const json::object& c = v.as_object();
    const std::string name = Str(c.at("name"));
    const int line = static_cast<int>(c.at("source_line").to_number<std::int64_t>());
    const bool google_answer = c.at("allowed").as_bool();
    const bool specific = c.contains("google_specific") && c.at("google_specific").as_bool();

    bool expected = google_answer;
    if (specific) {
      ++google_specific;
      const Decision* follow = FindDecision(std::begin(kFollowGoogle), std::end(kFollowGoogle), line);
      const Decision* deviate =
          FindDecision(std::begin(kDeviateFromGoogle), std::end(kDeviateFromGoogle), line);
      INFO(name << " line " << line << ": every google_specific case needs exactly one decision");
      REQUIRE((follow == nullptr) != (deviate == nullptr));
      ++used_decisions[line];
      if (deviate != nullptr) expected = !google_answer;
    }

    const bool got = Allowed(Str(c.at("robotstxt")), Str(c.at("user_agent")), Str(c.at("url")));
    INFO(name << " (robots_test.cc line " << line << ") agent=" << Str(c.at("user_agent"))
              << " url=" << Str(c.at("url")).substr(0, 120));
    CHECK(got == expected);
    if (got == google_answer) ++agree_with_google;
    if (got == expected && expected != google_answer) ++deviations;
  }
  CHECK(google_specific == 16);
  // Every decision refers to a real google_specific case.
  CHECK(used_decisions.size() == std::size(kFollowGoogle) + std::size(kDeviateFromGoogle));
  CHECK(agree_with_google == 145 - static_cast<int>(std::size(kDeviateFromGoogle)));
  CHECK(deviations == static_cast<int>(std::size(kDeviateFromGoogle)));
}

TEST_CASE("path params and query are extracted like Google's GetPathParamsQuery", "[unit][rfc9309]") {
  const json::value helpers = LoadJson("google_helper_cases.json");
  const json::array& arr = helpers.at("path_params_query").as_array();
  REQUIRE(arr.size() == 19);
  for (const json::value& v : arr) {
    const std::string url = Str(v.at("url"));
    INFO("url=" << url);
    CHECK(robots::GetPathParamsQuery(url) == Str(v.at("path")));
  }
}

TEST_CASE("valid product tokens are non-empty [a-zA-Z_-]", "[unit][rfc9309]") {
  const json::value helpers = LoadJson("google_helper_cases.json");
  const json::array& arr = helpers.at("valid_user_agent").as_array();
  REQUIRE(arr.size() == 11);
  for (const json::value& v : arr) {
    const std::string ua = Str(v.at("user_agent"));
    INFO("user_agent='" << ua << "'");
    CHECK(robots::IsValidUserAgentToken(ua) == v.at("valid").as_bool());
  }
}

TEST_CASE("rule patterns percent-encode non-ASCII and upper-case escapes", "[unit][rfc9309]") {
  const json::value helpers = LoadJson("google_helper_cases.json");
  const json::array& arr = helpers.at("escape_pattern").as_array();
  REQUIRE(arr.size() == 4);
  for (const json::value& v : arr) {
    const std::string pattern = Str(v.at("pattern"));
    INFO("pattern=" << pattern);
    CHECK(robots::NormalizePattern(pattern) == Str(v.at("escaped")));
  }
  // Our addition (RFC 9309 2.2.2): escapes of unreserved characters decode.
  CHECK(robots::NormalizePattern("/%7euser/%62az") == "/~user/baz");
  CHECK(robots::NormalizePattern("/a%2fb%2A") == "/a%2Fb%2A");
  CHECK(robots::NormalizePattern("/a$b$") == "/a%24b$");
}

namespace {

// Like Google's RobotsStatsReporter: counts what the parser reports.
class StatsReporter : public robots::RobotsParseHandler {
 public:
  void HandleUserAgent(int line, std::string_view) override { Valid(line); }
  void HandleAllow(int line, std::string_view) override { Valid(line); }
  void HandleDisallow(int line, std::string_view) override { Valid(line); }
  void HandleSitemap(int line, std::string_view value) override {
    Valid(line);
    sitemap = std::string(value);
  }
  void HandleUnknownAction(int line, std::string_view, std::string_view) override {
    last_line_seen = line;
    ++unknown_directives;
  }
  int valid_directives = 0;
  int unknown_directives = 0;
  int last_line_seen = 0;
  std::string sitemap;

 private:
  void Valid(int line) {
    last_line_seen = line;
    ++valid_directives;
  }
};

std::string FromHex(std::string_view hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

}  // namespace

TEST_CASE("line endings and byte order marks are read as Google reads them", "[unit][rfc9309]") {
  const json::value helpers = LoadJson("google_helper_cases.json");
  const json::array& arr = helpers.at("parse_stats").as_array();
  REQUIRE(arr.size() == 12);
  for (const json::value& v : arr) {
    const std::string body = FromHex(Str(v.at("robotstxt_hex")));
    INFO(Str(v.at("name")) << " hex=" << Str(v.at("robotstxt_hex")).substr(0, 40));
    StatsReporter stats;
    robots::ParseRobotsTxt(body, stats);
    const json::object& expect = v.at("expect").as_object();
    if (expect.contains("valid_directives")) {
      CHECK(stats.valid_directives == expect.at("valid_directives").to_number<int>());
    }
    if (expect.contains("unknown_directives")) {
      CHECK(stats.unknown_directives == expect.at("unknown_directives").to_number<int>());
    }
    if (expect.contains("last_line_seen")) {
      CHECK(stats.last_line_seen == expect.at("last_line_seen").to_number<int>());
    }
    if (expect.contains("sitemap")) CHECK(stats.sitemap == Str(expect.at("sitemap")));
  }
}

// RFC 9309 2.2.2: "/robots.txt" is implicitly allowed.
TEST_CASE("robots.txt itself is always allowed", "[unit][rfc9309]") {
  const auto rules = robots::Parse("User-agent: *\nDisallow: /\n", "CrawlBot");
  CHECK_FALSE(rules.IsAllowed("/"));
  CHECK_FALSE(rules.IsAllowed("/robots.txt.bak"));
  CHECK(rules.IsAllowed("/robots.txt"));
  CHECK(robots::IsAllowedUrl(rules, "https://example.com/robots.txt"));
}

// RFC 9309 2.2.3: "%2A" / "%24" in a rule match a literal "*" / "$".
TEST_CASE("escaped special characters match literally", "[unit][rfc9309]") {
  const auto rules =
      robots::Parse("User-agent: *\nDisallow: /path/file-with-a-%2A.html\nDisallow: /price%24\n", "CrawlBot");
  CHECK_FALSE(rules.IsAllowed("/path/file-with-a-*.html"));
  CHECK(rules.IsAllowed("/path/file-with-a-x.html"));
  CHECK_FALSE(rules.IsAllowed("/price$"));
  CHECK(rules.IsAllowed("/price"));
}

TEST_CASE("several groups for our token merge; the star group is then ignored", "[unit][rfc9309]") {
  const auto rules = robots::Parse(
      "User-agent: *\nDisallow: /\n\nUser-agent: crawlbot\nDisallow: /a\n\n"
      "User-agent: Other\nDisallow: /b\n\nUser-agent: CRAWLBOT\nDisallow: /c\n",
      "CrawlBot");
  CHECK_FALSE(rules.IsAllowed("/a"));
  CHECK(rules.IsAllowed("/b"));
  CHECK_FALSE(rules.IsAllowed("/c"));
  CHECK(rules.IsAllowed("/d"));
  CHECK(rules.rules().size() == 2);
}

// ----------------------------------------------------------------- policy --

TEST_CASE("crawl-delay of the applying group is kept", "[unit][policy]") {
  const std::string body =
      "User-agent: *\nCrawl-delay: 10\nDisallow: /x\n\n"
      "User-agent: CrawlBot\nCrawl-delay: 2.5\nDisallow: /y\n";
  CHECK(robots::Parse(body, "CrawlBot").crawl_delay() == 2.5);
  CHECK(robots::Parse(body, "OtherBot").crawl_delay() == 10.0);
  CHECK(robots::Parse("User-agent: *\nDisallow: /\n", "CrawlBot").crawl_delay() == std::nullopt);

  // Merged groups: the largest delay.
  CHECK(robots::Parse("User-agent: a\nCrawl-delay: 1\nUser-agent: b\nAllow: /\n"
                      "User-agent: a\nCrawl-delay: 3\n",
                      "a")
            .crawl_delay() == 3.0);
  // Invalid values are ignored; junk after a number is.
  for (const char* v : {"abc", "-1", "inf", "nan", "", "1e999"}) {
    INFO("value=" << v);
    CHECK(robots::Parse(std::string("User-agent: *\nCrawl-delay: ") + v + "\n", "a").crawl_delay() ==
          std::nullopt);
  }
  CHECK(robots::Parse("User-agent: *\nCRAWL-DELAY: 5 seconds # slow\n", "a").crawl_delay() == 5.0);
  // Crawl-delay belongs to its group and ends the run of user-agent lines
  // (our choice, robots.h): FooBot's group has a delay and no rules.
  const auto foo =
      robots::Parse("User-agent: FooBot\nCrawl-delay: 5\nUser-agent: *\nDisallow: /\n", "FooBot");
  CHECK(foo.crawl_delay() == 5.0);
  CHECK(foo.IsAllowed("/x"));
}

TEST_CASE("sitemap lines are kept from anywhere in the file", "[unit][policy]") {
  const auto rules = robots::Parse(
      "Sitemap: https://a.example/s1.xml\nUser-agent: Other\nDisallow: /\n"
      "SITEMAP:https://a.example/s2.xml\nSite-map: https://a.example/s1.xml\n"
      "User-agent: *\nsitemap: https://a.example/s3.xml # third\n",
      "CrawlBot");
  CHECK(rules.sitemaps() == std::vector<std::string>{"https://a.example/s1.xml", "https://a.example/s2.xml",
                                                     "https://a.example/s3.xml"});
}

TEST_CASE("only the first 500 KiB of a body are parsed", "[unit][policy]") {
  std::string body = "User-agent: *\nDisallow: /early\n";
  const std::string filler = "# " + std::string(97, 'x') + "\n";  // 100 bytes
  while (body.size() + filler.size() <= robots::kMaxRobotsBodyBytes - 20) body += filler;
  // This line straddles the limit: it must be dropped, not read as "/secr".
  const std::string straddling = "Disallow: /secret-path-that-is-long\n";
  body += std::string(robots::kMaxRobotsBodyBytes - 10 - body.size(), '\n');
  body += straddling;
  body += "Disallow: /late\n";
  REQUIRE(body.size() > robots::kMaxRobotsBodyBytes);

  const auto rules = robots::Parse(body, "CrawlBot");
  CHECK_FALSE(rules.IsAllowed("/early"));
  CHECK(rules.IsAllowed("/late"));
  CHECK(rules.IsAllowed("/secret-path-that-is-long"));
  CHECK(rules.IsAllowed("/secr"));
  CHECK(rules.rules().size() == 1);

  // A rule wholly inside the limit, ending exactly at it, is kept.
  std::string exact = "User-agent: *\n";
  exact += std::string(robots::kMaxRobotsBodyBytes - exact.size() - 13, '\n');
  exact += "Disallow: /z\nDisallow: /after\n";
  REQUIRE(exact.find("/z\n") + 3 == robots::kMaxRobotsBodyBytes);
  const auto r2 = robots::Parse(exact, "a");
  CHECK_FALSE(r2.IsAllowed("/z"));
  CHECK(r2.IsAllowed("/after"));
}

TEST_CASE("fetch outcomes map to allow-all and disallow-all", "[unit][policy]") {
  const auto allow = robots::RobotsRules::AllowAll();
  CHECK(allow.IsAllowed("/"));
  CHECK(allow.IsAllowed("/any/thing?q=1"));
  CHECK(allow == robots::RobotsRules());
  const auto deny = robots::RobotsRules::DisallowAll();
  CHECK_FALSE(deny.IsAllowed("/"));
  CHECK_FALSE(deny.IsAllowed(""));
  CHECK_FALSE(deny.IsAllowed("/any/thing?q=1"));
  CHECK(deny.IsAllowed("/robots.txt"));
  CHECK(robots::Parse("", "a").IsAllowed("/x"));
}

TEST_CASE("rules survive a serialisation roundtrip", "[unit][policy]") {
  const auto rules = robots::Parse(
      "\xEF\xBB\xBFUser-agent: CrawlBot\r\nDisallow: /private\r\nAllow: /private/ok$\r\n"
      "Disallow: /*.pdf$\r\nDisallow: /ツ\r\nCrawl-delay: 0.1\r\n"
      "Sitemap: https://ex.example/site map.xml\r\nSitemap: https://ex.example/b:12\n",
      "CrawlBot");
  REQUIRE(rules.rules().size() == 4);
  REQUIRE(rules.sitemaps().size() == 2);
  const std::string data = rules.Serialize();
  const auto back = robots::RobotsRules::Deserialize(data);
  REQUIRE(back.ok());
  CHECK(*back == rules);
  CHECK(back->crawl_delay() == 0.1);
  CHECK(back->Serialize() == data);
  CHECK_FALSE(back->IsAllowed("/private/x"));
  CHECK(back->IsAllowed("/private/ok"));
  CHECK_FALSE(back->IsAllowed("/%E3%83%84"));

  for (const auto& r : {robots::RobotsRules::AllowAll(), robots::RobotsRules::DisallowAll()}) {
    const auto rt = robots::RobotsRules::Deserialize(r.Serialize());
    REQUIRE(rt.ok());
    CHECK(*rt == r);
  }

  // Every strict prefix (a torn write) and other junk is rejected.
  for (std::size_t n = 0; n < data.size(); ++n) {
    INFO("prefix " << n);
    CHECK_FALSE(robots::RobotsRules::Deserialize(data.substr(0, n)).ok());
  }
  for (const char* junk :
       {"garbage", "crawl-robots-rules 1\nA 5:/a\nE 0:\n", "crawl-robots-rules 1\nX 1:a\nE 0:\n",
        "crawl-robots-rules 1\nA 0:\nE 0:\n", "crawl-robots-rules 1\nC 2:-1\nE 0:\n",
        "crawl-robots-rules 1\nE 0:\nA 2:/a\n", "crawl-robots-rules 1\nA 99999999999999999999:/\nE 0:\n"}) {
    INFO("junk=" << junk);
    const auto r = robots::RobotsRules::Deserialize(junk);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == crawl::StatusCode::kInvalidArgument);
  }
}

TEST_CASE("paths are matched in normal form on both sides", "[unit][policy]") {
  const auto rules = robots::Parse("User-agent: *\nDisallow: /%7Euser/\nDisallow: /caf\xC3\xA9\n", "a");
  CHECK_FALSE(rules.IsAllowed("/~user/page"));
  CHECK_FALSE(rules.IsAllowed("/%7euser/page"));
  CHECK_FALSE(rules.IsAllowed("/caf%C3%A9"));
  CHECK_FALSE(rules.IsAllowed("/caf%c3%a9"));
  CHECK_FALSE(rules.IsAllowed("/caf\xC3\xA9"));
  CHECK(rules.IsAllowed("/cafe"));
  // Params and query count; the fragment does not.
  const auto q = robots::Parse("User-agent: *\nDisallow: /*?sid=\nDisallow: /*;jsessionid\n", "a");
  CHECK_FALSE(robots::IsAllowedUrl(q, "http://h.example/a?sid=1#frag"));
  CHECK_FALSE(robots::IsAllowedUrl(q, "http://h.example/a;jsessionid=9"));
  CHECK(robots::IsAllowedUrl(q, "http://h.example/a#?sid=1"));
}

TEST_CASE("keys are whole words with Google's common typos", "[unit][policy]") {
  CHECK_FALSE(robots::Parse("useragent: a\ndisalow: /\n", "a").IsAllowed("/x"));
  CHECK_FALSE(robots::Parse("User agent: a\nDissallow: /\n", "a").IsAllowed("/x"));
  // Google reads keys by prefix; we do not.
  CHECK(robots::Parse("User-agent: a\nDisallowance: /\n", "a").IsAllowed("/x"));
  // Three tokens without a colon are not a directive.
  CHECK(robots::Parse("User-agent: a\ndisallow / now\n", "a").IsAllowed("/x"));
  // Version suffixes on the user-agent value are ignored.
  CHECK_FALSE(
      robots::Parse("User-agent: CrawlBot/2.1 (+http://x)\nDisallow: /\n", "crawlbot").IsAllowed("/x"));
}

TEST_CASE("garbage input never crashes", "[unit][policy]") {
  std::mt19937 rng(20240611);
  const std::string alphabet =
      std::string("Uuser-agent:*DdisallowAasitemapcrawl-delay$%/#\r\n\t ?=;9A7\xEF\xBB\xBF\xC3\xA9\x80") +
      std::string(1, '\0');
  std::uniform_int_distribution<int> len_dist(0, 600);
  std::uniform_int_distribution<int> byte_dist(0, 255);
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  int allowed = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string body;
    std::string path;
    const int n = len_dist(rng);
    for (int k = 0; k < n; ++k) {
      body.push_back(i % 2 ? static_cast<char>(byte_dist(rng)) : alphabet[pick(rng)]);
    }
    for (int k = 0; k < n / 10; ++k) path.push_back(alphabet[pick(rng)]);
    const auto rules = robots::Parse(body, i % 3 ? "a" : "");
    allowed += rules.IsAllowed(path) ? 1 : 0;
    allowed += robots::IsAllowedUrl(rules, body.substr(0, 80)) ? 1 : 0;
    const auto back = robots::RobotsRules::Deserialize(rules.Serialize());
    REQUIRE(back.ok());
    CHECK(*back == rules);
    CHECK_FALSE(robots::RobotsRules::Deserialize(body).ok());
  }
  CHECK(allowed > 0);

  // NULs inside lines are ordinary bytes.
  const std::string with_nul("User-agent: *\nDisallow: /a\0b\n", 29);
  const auto rules = robots::Parse(with_nul, "x");
  CHECK_FALSE(rules.IsAllowed(std::string("/a\0b", 4)));
  CHECK(rules.IsAllowed("/a"));
}

TEST_CASE("matching pathological wildcard rules stays fast enough to finish", "[unit][policy]") {
  // Greedy matching: no exponential or quadratic blow-up on many stars.
  std::string pattern = "/";
  for (int i = 0; i < 2000; ++i) pattern += "*a";
  const auto rules = robots::Parse("User-agent: *\nDisallow: " + pattern + "b\n", "x");
  const std::string path = "/" + std::string(100000, 'a');
  CHECK(rules.IsAllowed(path));
  CHECK_FALSE(rules.IsAllowed(path + "b"));
}
