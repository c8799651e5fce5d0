// Tests for the change model over HTTP (request_handler.h, conditional.h,
// ground_truth.h WriteVersions): ETag and Last-Modified, 304 per RFC 9110
// sections 13.1.1-13.1.3 and 13.2.2, the logical clock's endpoint, and
// that `export --at T` agrees with what the server answers at T.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <sstream>
#include <string>

#include "tests/testweb/change_clock.h"
#include "tests/testweb/conditional.h"
#include "tests/testweb/ground_truth.h"
#include "tests/testweb/request_handler.h"

namespace crawl::testweb {
namespace {

namespace http = boost::beast::http;

constexpr double kMean = 100;

Universe MakeWeb(double mean_interval) {
  UniverseOptions o;
  o.seed = 9;
  o.hosts = 3;
  o.pages = 150;
  o.change_mean_interval_s = mean_interval;
  auto u = Universe::Create(o);
  REQUIRE(u.ok());
  return std::move(u).value();
}

Request Get(const Universe& u, uint32_t host, const std::string& target, http::verb verb = http::verb::get) {
  Request req{verb, target, 11};
  req.set(http::field::host, u.HostName(host));
  return req;
}

// A page that changes (a Poisson or slotted page, alive throughout).
uint64_t ChangingPage(const Universe& u, uint32_t host) {
  for (uint64_t p = 0; p < u.PageCount(host); ++p) {
    if (!u.IsMortal(host, p) && u.change_model().MeanInterval(host, p) < 3 * kMean) return p;
  }
  FAIL("no changing page");
  return 0;
}

// RFC 9110 section 13.1.2: weak comparison, lists, "*".
TEST_CASE("If-None-Match matches by weak comparison, in lists and with *", "[unit][rfc9110]") {
  CHECK(IfNoneMatchMatches("\"abc\"", "\"abc\""));
  CHECK(IfNoneMatchMatches("W/\"abc\"", "\"abc\""));
  CHECK(IfNoneMatchMatches(" \"x\" , \"abc\"", "\"abc\""));
  CHECK(IfNoneMatchMatches("*", "\"abc\""));
  CHECK_FALSE(IfNoneMatchMatches("\"abd\"", "\"abc\""));
  CHECK_FALSE(IfNoneMatchMatches("abc", "\"abc\""));
  CHECK_FALSE(IfNoneMatchMatches("", "\"abc\""));
}

// RFC 9110 section 13.2.2: If-None-Match first; If-Modified-Since only without it.
TEST_CASE("If-Modified-Since counts only without If-None-Match, at or after Last-Modified",
          "[unit][rfc9110]") {
  const std::string lm = HttpDate(1000.7);
  CHECK(NotModified("", lm, "\"e\"", 1000.7));
  CHECK(NotModified("", HttpDate(2000), "\"e\"", 1000.7));
  CHECK_FALSE(NotModified("", HttpDate(999), "\"e\"", 1000.7));
  CHECK_FALSE(NotModified("\"other\"", lm, "\"e\"", 1000.7));  // a mismatching If-None-Match wins
  CHECK(NotModified("\"e\"", HttpDate(0), "\"e\"", 1000.7));
  CHECK_FALSE(NotModified("", "yesterday", "\"e\"", 1000.7));  // unparsable: unconditional
  CHECK_FALSE(NotModified("", "", "\"e\"", 1000.7));
}

TEST_CASE("pages carry ETag and Last-Modified; a matching conditional GET or HEAD is 304", "[unit]") {
  const Universe u = MakeWeb(kMean);
  ChangeClock clock(ChangeClock::Mode::kLogical);
  const uint64_t page = ChangingPage(u, 1);
  const std::string path = u.PagePath(1, page);
  clock.Set(kMean);
  const Handled first = HandleRequest(u, Get(u, 1, path), 1, false, &clock);
  REQUIRE(first.response.result() == http::status::ok);
  const std::string etag(first.response[http::field::etag]);
  const std::string last_modified(first.response[http::field::last_modified]);
  const PageState state = u.PageStateAt(1, page, kMean);
  const Universe::Validators validators = u.ValidatorsAt(1, page, kMean);
  CHECK(etag == validators.etag);
  CHECK(last_modified == HttpDate(validators.last_modified));
  CHECK(validators.last_modified >= state.last_modified);

  Request conditional = Get(u, 1, path);
  conditional.set(http::field::if_none_match, etag);
  const Handled not_modified = HandleRequest(u, conditional, 1, false, &clock);
  CHECK(not_modified.response.result() == http::status::not_modified);
  CHECK(not_modified.response.body().empty());
  CHECK(not_modified.body_bytes == 0);
  CHECK(not_modified.response[http::field::etag] == etag);
  CHECK(not_modified.response.find(http::field::content_length) == not_modified.response.end());
  conditional.method(http::verb::head);
  CHECK(HandleRequest(u, conditional, 1, false, &clock).response.result() == http::status::not_modified);

  Request mismatch = Get(u, 1, path);
  mismatch.set(http::field::if_none_match, "\"0000000000000000\"");
  mismatch.set(http::field::if_modified_since, last_modified);  // ignored: If-None-Match is there
  CHECK(HandleRequest(u, mismatch, 1, false, &clock).response.result() == http::status::ok);

  Request since = Get(u, 1, path);
  since.set(http::field::if_modified_since, last_modified);
  CHECK(HandleRequest(u, since, 1, false, &clock).response.result() == http::status::not_modified);
  since.set(http::field::if_modified_since, HttpDate(validators.last_modified - 1));
  CHECK(HandleRequest(u, since, 1, false, &clock).response.result() == http::status::ok);

  // Once the page changes, the old validators no longer match.
  double t = kMean;
  while (u.PageStateAt(1, page, t).version == state.version) t += 1;
  clock.Set(t);
  const Handled changed = HandleRequest(u, conditional, 1, false, &clock);
  CHECK(changed.response.result() == http::status::ok);
  CHECK(changed.response[http::field::etag] != etag);
  CHECK(changed.response.body().empty());  // HEAD
  conditional.method(http::verb::get);
  CHECK(HandleRequest(u, conditional, 1, false, &clock).response.body() == u.RenderPageAt(1, page, t));
}

TEST_CASE("a page whose link target dies changes its ETag and Last-Modified, not its version", "[unit]") {
  const Universe u = MakeWeb(kMean);
  ChangeClock clock(ChangeClock::Mode::kLogical);
  uint64_t checked = 0;
  for (uint32_t h = 0; h < u.HostCount(); ++h) {
    for (uint64_t p = 1; p < u.PageCount(h); ++p) {
      const PageLifetime life = u.change_model().Lifetime(h, p, u.IsMortal(h, p));
      if (std::isinf(life.death)) continue;
      const uint64_t parent = *u.ParentPage(h, p);
      const double before = std::nextafter(life.death, 0.0);
      if (before < life.birth ||
          u.PageStateAt(h, parent, before).version != u.PageStateAt(h, parent, life.death).version)
        continue;
      clock.Set(before);
      const Handled old_page = HandleRequest(u, Get(u, h, u.PagePath(h, parent)), h, false, &clock);
      Request conditional = Get(u, h, u.PagePath(h, parent));
      conditional.set(http::field::if_none_match, old_page.response[http::field::etag]);
      clock.Set(life.death);
      const Handled now = HandleRequest(u, conditional, h, false, &clock);
      CHECK(now.response.result() == http::status::ok);  // the link is gone: the bytes differ
      CHECK(now.response.body() != old_page.response.body());
      CHECK(now.response[http::field::last_modified] == HttpDate(life.death));
      ++checked;
    }
  }
  CHECK(checked > 3);
}

TEST_CASE("byte ranges still work on changing pages and carry the validators", "[unit]") {
  const Universe u = MakeWeb(kMean);
  ChangeClock clock(ChangeClock::Mode::kLogical);
  clock.Set(3 * kMean);
  const uint64_t page = ChangingPage(u, 0);
  Request req = Get(u, 0, u.PagePath(0, page));
  req.set(http::field::range, "bytes=0-99");
  const Handled part = HandleRequest(u, req, 0, false, &clock);
  CHECK(part.response.result() == http::status::partial_content);
  CHECK(part.response.body() == u.RenderPageAt(0, page, 3 * kMean).substr(0, 100));
  CHECK_FALSE(part.response[http::field::etag].empty());
}

TEST_CASE("the clock endpoint: GET reads it, POST sets a logical clock, bad values are refused", "[unit]") {
  const Universe u = MakeWeb(kMean);
  ChangeClock logical(ChangeClock::Mode::kLogical);
  const Handled set =
      HandleRequest(u, Get(u, 0, "/_testweb/clock?t=123.5", http::verb::post), 0, false, &logical);
  CHECK(set.response.result() == http::status::ok);
  CHECK(set.admin);
  CHECK(logical.Now() == 123.5);
  CHECK(HandleRequest(u, Get(u, 2, "/_testweb/clock"), 2, false, &logical).response.body() == "t=123.5\n");
  for (const char* bad : {"/_testweb/clock?t=-1", "/_testweb/clock?t=abc", "/_testweb/clock?t=",
                          "/_testweb/clock", "/_testweb/clock?t=1e400", "/_testweb/clock?t=nan"}) {
    INFO(bad);
    CHECK(HandleRequest(u, Get(u, 0, bad, http::verb::post), 0, false, &logical).response.result() ==
          http::status::bad_request);
  }
  CHECK(logical.Now() == 123.5);
  ChangeClock real;
  const Handled read = HandleRequest(u, Get(u, 0, "/_testweb/clock"), 0, false, &real);
  CHECK(read.response.result() == http::status::ok);
  CHECK(read.response.body().starts_with("t="));
  CHECK(HandleRequest(u, Get(u, 0, "/_testweb/clock?t=5", http::verb::post), 0, false, &real)
            .response.result() == http::status::conflict);
  // With the model off the path is an ordinary (unknown) page, as before.
  const Universe off = MakeWeb(0);
  const Handled plain =
      HandleRequest(off, Get(off, 0, "/_testweb/clock?t=5", http::verb::post), 0, false, &logical);
  CHECK(plain.response.result() == http::status::method_not_allowed);
  CHECK_FALSE(plain.admin);
  CHECK(logical.Now() == 123.5);
}

TEST_CASE("export --at T agrees with what the server answers at T", "[unit]") {
  const Universe u = MakeWeb(kMean);
  ChangeClock clock(ChangeClock::Mode::kLogical);
  for (double t : {0.0, 250.0, 900.0}) {
    clock.Set(t);
    std::ostringstream versions;
    WriteVersions(u, t, versions);
    std::istringstream lines(versions.str());
    std::string line;
    uint64_t rows = 0, gone = 0;
    while (std::getline(lines, line)) {
      ++rows;
      const auto url = u.LookupUrl(line.substr(0, line.find('\t')));
      REQUIRE(url);
      const Handled h =
          HandleRequest(u, Get(u, url->host, u.PagePath(url->host, url->page)), url->host, false, &clock);
      VersionRow served;
      served.url = u.PageUrl(url->host, url->page);
      served.state.status = h.response.result_int();
      served.state.version = u.PageStateAt(url->host, url->page, t).version;
      if (served.state.alive()) {
        served.etag = std::string(h.response[http::field::etag]);
        int64_t lm = 0;
        REQUIRE(ParseHttpDate(h.response[http::field::last_modified], lm));
        served.state.last_modified = static_cast<double>(lm);
        served.digest = ContentDigest(h.response.body());
      } else {
        ++gone;
      }
      CHECK(FormatVersionRow(served) == line + "\n");
    }
    CHECK(rows == u.TotalPages());
    if (t > 0) CHECK(gone > 0);
    // The graph at t lists only pages the server answers 200, and links only them.
    std::set<std::string> listed;
    u.ExportTo([&](const std::string& url, const std::vector<std::string>&) { listed.insert(url); }, t);
    for (const auto& url : listed) {
      const auto ref = u.LookupUrl(url);
      REQUIRE(ref);
      CHECK(u.PageStateAt(ref->host, ref->page, t).alive());
    }
    u.ExportTo(
        [&](const std::string&, const std::vector<std::string>& out) {
          for (const auto& l : out) CHECK(listed.count(l) == 1);
        },
        t);
  }
}

// The clean web of main at 705ccaa (before the change model), digested as
// below (export, truth, GET and HEAD of 40 pages per host with conditional
// headers, POST /_testweb/clock): the model off changes none of it. If the
// web is changed on purpose, recompute the constant.
TEST_CASE("with the model off the clean web serves and exports exactly what it did before", "[unit]") {
  UniverseOptions o;
  o.seed = 5;
  o.hosts = 24;
  o.pages = 600;
  REQUIRE(ApplyPreset(o).ok());
  auto u = Universe::Create(o);
  REQUIRE(u.ok());
  uint64_t h = 0xCBF29CE484222325ULL;
  auto add = [&h](const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * 0x100000001B3ULL;
    h = (h ^ 0xff) * 0x100000001B3ULL;
  };
  u->ExportTo([&](const std::string& url, const std::vector<std::string>& out) {
    add(url);
    for (const auto& l : out) add(l);
  });
  for (const auto& r : GroundTruth(*u)) add(r.url + std::string(r.kind) + std::to_string(r.depth));
  for (uint32_t host = 0; host < u->HostCount(); ++host) {
    for (uint64_t p = 0; p < std::min<uint64_t>(u->PageCount(host), 40); ++p) {
      for (auto verb : {http::verb::get, http::verb::head}) {
        Request req = Get(*u, host, u->PagePath(host, p), verb);
        req.set(http::field::if_none_match, "*");
        req.set(http::field::if_modified_since, "Fri, 01 Jan 2100 00:00:00 GMT");
        const Handled hd = HandleRequest(*u, req, host, true);
        std::string headers;
        for (const auto& f : hd.response)
          headers += std::string(f.name_string()) + ":" + std::string(f.value()) + "\n";
        add(std::to_string(hd.response.result_int()) + headers + hd.response.body());
      }
    }
    const Handled hd = HandleRequest(*u, Request{http::verb::post, "/_testweb/clock?t=5", 11}, host, false);
    add(std::to_string(hd.response.result_int()) + hd.response.body());
  }
  CHECK(h == 0x21b82934c3032251ULL);
}

}  // namespace
}  // namespace crawl::testweb
