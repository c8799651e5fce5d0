// The WHATWG URL parser tests of web-platform-tests
// (tests/data/conformance/url/urltestdata.json) run through
// crawl::url::Resolve / Canonicalize, for the subset a crawler needs (see the
// README there): cases whose base or expected result is http(s), and failure
// cases without a base whose input starts with an http(s) scheme.
//
// What is compared:
//   - a success case with an http(s) result: our canonical URL must equal the
//     expected href after the crawl's documented canonicalisation (url.h),
//     computed here by CrawlForm() from the WPT href;
//   - a success case whose result has another scheme (ftp:, data:, foo:...):
//     we must reject it, because a crawler follows only http(s) links (our
//     policy, url.h);
//   - a failure case: we must fail.
// Cases we cannot pass are listed in kSkipped with the reason; the test
// checks that exactly those are skipped.
#include <boost/json.hpp>
#include <catch2/catch.hpp>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "common/url/url.h"
#include "common/url/whatwg_url.h"

namespace {

struct Skip {
  const char* input;
  const char* base;  // nullptr for a null base
  const char* reason;
};

// Every case of the subset we do not check, with why.
constexpr Skip kSkipped[] = {
    // Expected "https://xn--n3h". U+2603 SNOWMAN is valid in UTS #46 (status
    // "valid; NV8") but DISALLOWED in IDNA2008, whose rules libidn2 applies
    // on top of the UTS #46 mapping; libidn2 has no flag to lift them.
    {"https://%e2%98%83", nullptr, "libidn2 rejects IDNA2008-disallowed symbols that UTS #46 allows"},
};

bool StartsWithHttpScheme(std::string_view s) {
  // As the README counts: trim C0 controls and spaces, drop tab/CR/LF,
  // ignore case.
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= 0x20) s.remove_prefix(1);
  std::string t;
  for (char c : s.substr(0, 16))
    if (c != '\t' && c != '\n' && c != '\r')
      t.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return t.rfind("http:", 0) == 0 || t.rfind("https:", 0) == 0;
}

bool IsHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// The crawl's canonicalisation applied to a WHATWG href (url.h): fragment
// and userinfo removed; in path and query, "%XX" of an unreserved octet
// decoded, other hex upper-cased, and a '%' that starts no triplet encoded
// as "%25".
std::string CrawlForm(const std::string& href) {
  std::string s = href.substr(0, href.find('#'));
  const size_t authority = s.find("://") + 3;
  const size_t path = s.find('/', authority);
  std::string host = s.substr(authority, path - authority);
  // userinfo ends at the last '@' of the authority (it is percent-encoded).
  if (const size_t at = host.rfind('@'); at != std::string::npos) host.erase(0, at + 1);
  std::string out = s.substr(0, authority) + host;
  const std::string rest = path == std::string::npos ? std::string() : s.substr(path);
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() && IsHex(rest[i + 1]) && IsHex(rest[i + 2])) {
      const int v = std::stoi(rest.substr(i + 1, 2), nullptr, 16);
      const bool unreserved = std::isalnum(v) || v == '-' || v == '.' || v == '_' || v == '~';
      if (unreserved) {
        out.push_back(static_cast<char>(v));
      } else {
        out.push_back('%');
        out.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(rest[i + 1]))));
        out.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(rest[i + 2]))));
      }
      i += 2;
    } else if (rest[i] == '%') {
      out += "%25";
    } else {
      out.push_back(rest[i]);
    }
  }
  return out;
}

boost::json::array LoadCases() {
  std::ifstream in(std::string(CRAWL_CONFORMANCE_DIR) + "/url/urltestdata.json");
  std::stringstream ss;
  ss << in.rdbuf();
  return boost::json::parse(ss.str()).as_array();
}

}  // namespace

TEST_CASE("crawl form of a whatwg href drops fragment and userinfo and normalises escapes", "[unit]") {
  CHECK(CrawlForm("http://u:p@a.test/%7e%2f?%41%3d#x") == "http://a.test/~%2F?A%3D");
  CHECK(CrawlForm("https://a.test") == "https://a.test");
  CHECK(CrawlForm("http://a.test/%zz%?%") == "http://a.test/%25zz%25?%25");
}

TEST_CASE("web-platform-tests url parsing cases for http(s)", "[unit][whatwg]") {
  const boost::json::array cases = LoadCases();
  REQUIRE(cases.size() == 1004);
  std::set<std::pair<std::string, std::string>> skip_keys;
  for (const Skip& s : kSkipped) skip_keys.emplace(s.input, s.base ? s.base : "<null>");

  int selected = 0, passed = 0, rejected_by_policy = 0, failures_checked = 0, skipped = 0;
  for (const auto& v : cases) {
    if (!v.is_object()) continue;  // comments
    const auto& c = v.as_object();
    const std::string input(c.at("input").as_string());
    const bool has_base = !c.at("base").is_null();
    const std::string base = has_base ? std::string(c.at("base").as_string()) : std::string();
    const bool failure = c.contains("failure") && c.at("failure").as_bool();
    const std::string protocol = failure ? std::string() : std::string(c.at("protocol").as_string());
    const bool http_result = protocol == "http:" || protocol == "https:";
    const bool in_subset = (has_base && StartsWithHttpScheme(base)) || http_result ||
                           (failure && !has_base && StartsWithHttpScheme(input));
    if (!in_subset) continue;
    ++selected;
    if (skip_keys.count({input, has_base ? base : "<null>"})) {
      ++skipped;
      continue;
    }
    const crawl::Result<std::string> got =
        has_base ? crawl::url::Resolve(base, input) : crawl::url::Canonicalize(input);
    INFO("input <" << input << "> base <" << (has_base ? base : "null") << ">");
    if (has_base) {  // the one-base-many-links API agrees with Resolve
      auto resolver = crawl::url::Resolver::ForBase(base);
      REQUIRE(resolver.ok());
      auto again = resolver->Resolve(input);
      CHECK(again.ok() == got.ok());
      if (again.ok() && got.ok()) CHECK(*again == *got);
    }
    if (failure) {
      ++failures_checked;
      CHECK_FALSE(got.ok());
      if (!got.ok()) ++passed;
    } else if (!http_result) {
      ++rejected_by_policy;
      CHECK_FALSE(got.ok());
      if (!got.ok()) ++passed;
    } else {
      const std::string expected = CrawlForm(std::string(c.at("href").as_string()));
      INFO("got: " << (got.ok() ? *got : "error: " + got.status().message()));
      CHECK((got.ok() && *got == expected));
      if (got.ok() && *got == expected) ++passed;
    }
  }
  WARN("WPT url subset: " << selected << " selected, " << passed << " passed (" << failures_checked
                          << " failure cases, " << rejected_by_policy << " non-http(s) results rejected), "
                          << skipped << " skipped");
  CHECK(selected == 482);
  CHECK(skipped == static_cast<int>(std::size(kSkipped)));
  CHECK(passed + skipped == selected);
}

// The raw WHATWG href (with fragment and userinfo) for the same subset: the
// parser itself, not only the crawl form, matches the standard.
TEST_CASE("whatwg parser serialises http(s) cases exactly", "[unit][whatwg]") {
  const boost::json::array cases = LoadCases();
  std::set<std::pair<std::string, std::string>> skip_keys;
  for (const Skip& s : kSkipped) skip_keys.emplace(s.input, s.base ? s.base : "<null>");
  int checked = 0;
  for (const auto& v : cases) {
    if (!v.is_object()) continue;
    const auto& c = v.as_object();
    if (c.contains("failure")) continue;
    const std::string protocol(c.at("protocol").as_string());
    if (protocol != "http:" && protocol != "https:") continue;
    const std::string input(c.at("input").as_string());
    const bool has_base = !c.at("base").is_null();
    const std::string base = has_base ? std::string(c.at("base").as_string()) : std::string("<null>");
    if (skip_keys.count({input, base})) continue;
    // A non-http(s) base (which we cannot parse) only occurs with an absolute
    // http(s) input, which ignores the base.
    auto b = has_base ? crawl::whatwg::Parse(base)
                      : crawl::Result<crawl::whatwg::Url>(crawl::Status::NotFound(""));
    auto u = crawl::whatwg::Parse(input, b.ok() ? &*b : nullptr);
    INFO("input <" << input << "> base <" << base << ">");
    REQUIRE(u.ok());
    CHECK(u->Href() == std::string(c.at("href").as_string()));
    CHECK(u->host == std::string(c.at("hostname").as_string()));
    ++checked;
  }
  CHECK(checked > 200);
}
