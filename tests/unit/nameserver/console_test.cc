// The console's checks (nameserver/console/*.h): roles, CSRF tokens, origin,
// escaping, form parsing and the replies of HandleConsole for each kind of
// caller. The browser walk-through is tests/integration/console_browser_test.sh.
#include "nameserver/console/console.h"

#include <boost/json.hpp>
#include <catch2/catch.hpp>

#include "common/base/clock.h"
#include "common/crawl/log_filter.h"
#include "common/net/admin_http.h"
#include "nameserver/console/console_auth.h"
#include "nameserver/console/console_form.h"
#include "nameserver/console/console_html.h"
#include "nameserver/console/console_log.h"
#include "tests/unit/support/temp_dir.h"

namespace {

using crawl::HttpRequest;
using crawl::nameserver::ConsoleAuth;
using crawl::nameserver::ConsoleRole;
using crawl::security::Role;

ConsoleAuth MakeAuth(bool tokens_configured) {
  return ConsoleAuth(
      std::string(32, 'k'),
      [](std::string_view token) -> std::optional<Role> {
        if (token == "admin-token") return Role::kAdmin;
        if (token == "reader-token") return Role::kReader;
        if (token == "fetcher-token") return Role::kFetcher;
        return std::nullopt;
      },
      [tokens_configured] { return tokens_configured; });
}

HttpRequest Req(const std::string& method, const std::string& path, const std::string& token) {
  HttpRequest r;
  r.method = method;
  r.path = path;
  r.token = token;
  r.host = "127.0.0.1:8080";
  r.content_type = "application/x-www-form-urlencoded";
  return r;
}

}  // namespace

TEST_CASE("console roles come from the token, loopback passes only without tokens", "[unit]") {
  const ConsoleAuth with_tokens = MakeAuth(true);
  CHECK(with_tokens.RoleOf(Req("GET", "/console", "admin-token")) == ConsoleRole::kAdmin);
  CHECK(with_tokens.RoleOf(Req("GET", "/console", "reader-token")) == ConsoleRole::kReader);
  CHECK(with_tokens.RoleOf(Req("GET", "/console", "fetcher-token")) == ConsoleRole::kNone);
  CHECK(with_tokens.RoleOf(Req("GET", "/console", "wrong")) == ConsoleRole::kNone);
  CHECK(with_tokens.RoleOf(Req("GET", "/console", "")) == ConsoleRole::kNone);
  const ConsoleAuth open = MakeAuth(false);
  CHECK(open.RoleOf(Req("GET", "/console", "")) == ConsoleRole::kAdmin);
  HttpRequest off_loopback = Req("GET", "/console", "");
  off_loopback.loopback_server = false;
  CHECK(open.RoleOf(off_loopback) == ConsoleRole::kNone);
}

TEST_CASE("a CSRF token belongs to one session and one secret", "[unit]") {
  const ConsoleAuth auth = MakeAuth(true);
  const HttpRequest admin = Req("POST", "/console/stop", "admin-token");
  const std::string token = auth.CsrfToken(admin);
  CHECK(token.size() == 64);
  CHECK(auth.CsrfValid(admin, {{"csrf", token}}));
  CHECK_FALSE(auth.CsrfValid(admin, {}));
  CHECK_FALSE(auth.CsrfValid(admin, {{"csrf", ""}}));
  CHECK_FALSE(auth.CsrfValid(admin, {{"csrf", token.substr(1) + "0"}}));
  CHECK_FALSE(auth.CsrfValid(Req("POST", "/console/stop", "reader-token"), {{"csrf", token}}));
  const ConsoleAuth other("another secret of 32 bytes......", nullptr, nullptr);
  CHECK_FALSE(other.CsrfValid(admin, {{"csrf", token}}));
}

TEST_CASE("a post from another origin is refused, one without Origin or Referer is not", "[unit]") {
  HttpRequest r = Req("POST", "/console/stop", "admin-token");
  CHECK(ConsoleAuth::SameOrigin(r));
  r.origin = "http://127.0.0.1:8080";
  CHECK(ConsoleAuth::SameOrigin(r));
  r.origin = "http://evil.example";
  CHECK_FALSE(ConsoleAuth::SameOrigin(r));
  r.origin = "null";
  CHECK_FALSE(ConsoleAuth::SameOrigin(r));
  r.origin = "";
  r.referer = "http://127.0.0.1:8080/console/crawl?id=1";
  CHECK(ConsoleAuth::SameOrigin(r));
  r.referer = "http://127.0.0.1:8081/console";
  CHECK_FALSE(ConsoleAuth::SameOrigin(r));
}

TEST_CASE("every value put into a page is escaped", "[unit]") {
  using crawl::nameserver::HtmlEscape;
  CHECK(HtmlEscape("<script>alert('x')</script>") == "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
  CHECK(HtmlEscape("a\"b&c") == "a&quot;b&amp;c");
  CHECK(crawl::nameserver::UrlEncode("http://a.b/c?d=e f&g") == "http%3A%2F%2Fa.b%2Fc%3Fd%3De%20f%26g");
  CHECK(crawl::nameserver::Thousands(1234567) == "1,234,567");
  const std::string page = crawl::nameserver::ConsolePage({"<t>", "admin", "<m>", true, 0}, "");
  CHECK(page.find("<t>") == std::string::npos);
  CHECK(page.find("<m>") == std::string::npos);
  CHECK(page.find("<script") == std::string::npos);  // no script without live refresh
}

TEST_CASE("forms decode plus, percent escapes and repeated names", "[unit]") {
  const auto form = crawl::ParseForm(
      "seeds=http%3A%2F%2Fa.test%2F%0D%0Ahttp%3A%2F%2Fb.test%2F&q=a+b&q=second&flag&bad=%zz");
  CHECK(form.at("seeds") == "http://a.test/\r\nhttp://b.test/");
  CHECK(form.at("q") == "a b");
  CHECK(form.at("flag").empty());
  CHECK(form.at("bad") == "%zz");
  CHECK(crawl::ParseForm("").empty());
}

TEST_CASE("the create form's parameters are parsed as set-param parses them", "[unit]") {
  crawl::v1::CrawlParams p;
  REQUIRE(crawl::nameserver::ConsoleParamsFromForm(
              {{"order", "opic"},
               {"max_pages", "500"},
               {"keep_page_cache", "on"},
               {"max_depth", ""},
               {"more", "schedule_size = 50\n\n# comment\nuser_agent=mybot"}},
              &p)
              .ok());
  CHECK(p.order() == "opic");
  CHECK(p.max_pages() == 500);
  CHECK(p.keep_page_cache());
  CHECK(p.max_depth() == 0);
  CHECK(p.schedule_size() == 50);
  CHECK(p.user_agent() == "mybot");
  crawl::v1::CrawlParams q;
  CHECK_FALSE(crawl::nameserver::ConsoleParamsFromForm({{"max_pages", "12x"}}, &q).ok());
  CHECK_FALSE(crawl::nameserver::ConsoleParamsFromForm({{"more", "no_such_param=1"}}, &q).ok());
  CHECK_FALSE(crawl::nameserver::ConsoleParamsFromForm({{"more", "just text"}}, &q).ok());
}

TEST_CASE("the log page's query becomes the queue servers' filters", "[unit]") {
  auto req = crawl::nameserver::ConsoleLogRequest({{"status", "404"},
                                                   {"host", "a.test"},
                                                   {"since", "2026-11-25T12:00"},
                                                   {"until", "2026-11-25T13:00:30"}});
  REQUIRE(req.ok());
  CHECK(req->status() == "404");
  CHECK(req->host() == "a.test");
  CHECK(req->since_unix_us() == 1'795'608'000'000'000);  // 2026-11-25T12:00:00Z
  CHECK(req->until_unix_us() == 1'795'611'630'000'000);
  auto errors = crawl::nameserver::ConsoleLogRequest({{"status", "errors"}});
  REQUIRE(errors.ok());
  auto filter = crawl::LogFilter::Parse(*errors);
  REQUIRE(filter.ok());
  crawl::v1::FetchRecord r;
  r.set_url("http://b.test/x");
  r.set_status(404);
  CHECK(filter->Matches(r));
  r.set_status(-3);  // a network error
  CHECK(filter->Matches(r));
  r.set_status(200);
  CHECK_FALSE(filter->Matches(r));
  CHECK_FALSE(crawl::nameserver::ConsoleLogRequest({{"status", "abc"}}).ok());
  CHECK_FALSE(crawl::nameserver::ConsoleLogRequest({{"since", "yesterday"}}).ok());
  r.set_title("tab\there");
  CHECK(crawl::nameserver::LogRowTsv(r).find("tab here") != std::string::npos);
}

TEST_CASE("a log row in JSON lines is one valid JSON object, whatever the page held", "[unit]") {
  crawl::v1::FetchRecord r;
  r.set_url("http://a.test/\"q\"");
  r.set_status(404);
  r.set_title("tab\there \"quoted\" back\\slash\x01 \xff");
  r.set_error("line\nbreak");
  const std::string line = crawl::nameserver::LogRowJson(r);
  REQUIRE(line.back() == '\n');
  CHECK(line.find('\n') == line.size() - 1);  // one line
  boost::json::error_code ec;
  const boost::json::value v = boost::json::parse(line, ec);
  REQUIRE_FALSE(ec);
  const auto& o = v.as_object();
  CHECK(o.begin()->key() == "time");  // the download's column order
  CHECK(o.at("status").as_int64() == 404);
  CHECK(o.at("url").as_string() == "http://a.test/\"q\"");
  CHECK(o.at("host").as_string() == "a.test");
  CHECK(o.at("title").as_string() == "tab\there \"quoted\" back\\slash\x01 \xef\xbf\xbd");
  CHECK(o.at("error").as_string() == "line\nbreak");
}

namespace {

struct Console {
  crawl::test_support::TempDir dir;
  std::unique_ptr<crawl::nameserver::RegistryStore> store;
  crawl::ManualClock clock;
  std::unique_ptr<crawl::nameserver::NameServerServiceImpl> service;
  ConsoleAuth auth = MakeAuth(true);

  // `stored`: crawls the registry holds before the service loads it.
  explicit Console(const std::vector<crawl::v1::CrawlInfo>& stored = {}) {
    // On disk when crawls are stored first (an in-memory registry keeps none).
    auto opened = crawl::nameserver::RegistryStore::Open(stored.empty() ? "" : dir.path.string());
    REQUIRE(opened.ok());
    store = std::move(*opened);
    for (const auto& c : stored) REQUIRE(store->PutCrawl(c).ok());
    service = std::make_unique<crawl::nameserver::NameServerServiceImpl>(
        crawl::nameserver::NameServerServiceImpl::Options{}, &clock, store.get());
    REQUIRE(service->Load().ok());
  }
  crawl::HttpReply Call(HttpRequest req) {
    return crawl::nameserver::HandleConsole({service.get(), &clock, &auth}, req);
  }
  crawl::HttpReply Post(const std::string& path, const std::string& token, const std::string& body,
                        bool csrf = true) {
    HttpRequest r = Req("POST", path, token);
    r.body = body + (csrf ? "&csrf=" + auth.CsrfToken(r) : "");
    return Call(r);
  }
};

}  // namespace

TEST_CASE("the console asks for a token, and only an admin with a CSRF token acts", "[unit]") {
  Console c;
  const auto anonymous = c.Call(Req("GET", "/console", ""));
  CHECK(anonymous.status == 401);
  CHECK(anonymous.body.find("action=\"/login\"") != std::string::npos);
  CHECK(c.Call(Req("POST", "/console/stop", "")).status == 403);
  const auto wrong = c.Call(Req("GET", "/console", "wrong-token"));
  CHECK(wrong.status == 401);
  CHECK(wrong.body.find("not an admin or reader token") != std::string::npos);

  const auto reader_page = c.Call(Req("GET", "/console", "reader-token"));
  CHECK(reader_page.status == 200);
  CHECK(reader_page.body.find("read-only") != std::string::npos);
  for (const char* path :
       {"/console/create", "/console/stop", "/console/resume", "/console/set-param", "/console/delete"})
    CHECK(c.Post(path, "reader-token", "crawl_id=1&seeds=http%3A%2F%2Fa.test%2F").status == 403);

  CHECK(c.Post("/console/stop", "admin-token", "crawl_id=1", false).status == 403);
  HttpRequest other_site = Req("POST", "/console/stop", "admin-token");
  other_site.origin = "http://evil.example";
  other_site.body = "crawl_id=1&csrf=" + c.auth.CsrfToken(other_site);
  CHECK(c.Call(other_site).status == 403);

  const auto admin_page = c.Call(Req("GET", "/console", "admin-token"));
  CHECK(admin_page.status == 200);
  CHECK(admin_page.body.find(c.auth.CsrfToken(Req("GET", "/console", "admin-token"))) != std::string::npos);
}

TEST_CASE("console actions refuse bad input with the reason and change nothing", "[unit]") {
  Console c;
  const auto bad = c.Post("/console/create", "admin-token", "seeds=%3Cscript%3Ex&max_pages=12x");
  CHECK(bad.status == 400);
  CHECK(bad.body.find("not a whole number") != std::string::npos);
  CHECK(bad.body.find("<script>x") == std::string::npos);  // the pasted text comes back escaped
  CHECK(bad.body.find("&lt;script&gt;x") != std::string::npos);
  CHECK(c.Post("/console/create", "admin-token", "seeds=").status == 400);
  CHECK(c.Post("/console/stop", "admin-token", "crawl_id=abc").status == 400);
  CHECK(c.Post("/console/stop", "admin-token", "crawl_id=7").status == 404);
  CHECK(c.service->TakeSnapshot().crawls.empty());
  HttpRequest bad_id = Req("GET", "/console/crawl", "reader-token");
  bad_id.query = "id=x";
  CHECK(c.Call(bad_id).status == 400);
  HttpRequest bad_log = Req("GET", "/console/log", "reader-token");
  bad_log.query = "status=abc";
  CHECK(c.Call(bad_log).status == 400);
}

TEST_CASE("multipart forms carry the seed file's content", "[unit]") {
  const std::string body =
      "--XyZ\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\nabc\r\n"
      "--XyZ\r\nContent-Disposition: form-data; name=\"seeds_file\"; filename=\"s.txt\"\r\n"
      "Content-Type: text/plain\r\n\r\nhttp://a.test/\nhttp://b.test/\n\r\n--XyZ--\r\n";
  auto form = crawl::nameserver::ParseFormBody("multipart/form-data; boundary=XyZ", body);
  REQUIRE(form.ok());
  CHECK(form->at("csrf") == "abc");
  CHECK(form->at("seeds_file") == "http://a.test/\nhttp://b.test/\n");
  CHECK_FALSE(crawl::nameserver::ParseFormBody("multipart/form-data", body).ok());
  CHECK_FALSE(crawl::nameserver::ParseFormBody("multipart/form-data; boundary=XyZ", "--XyZ\r\nno end").ok());
  CHECK_FALSE(crawl::nameserver::ParseFormBody("text/plain", "a=b").ok());
  CHECK(
      crawl::nameserver::ParseFormBody("application/x-www-form-urlencoded; charset=utf-8", "a=b")->at("a") ==
      "b");
}

TEST_CASE("the console deletes a crawl that does not run, once its box is ticked", "[unit]") {
  crawl::v1::CrawlInfo stopped;
  stopped.set_crawl_id(5);
  stopped.set_state(crawl::v1::CRAWL_STATE_STOPPED);
  Console c({stopped});
  const auto list = c.Call(Req("GET", "/console", "admin-token"));
  REQUIRE(list.status == 200);
  CHECK(list.body.find("id=\"delete-5\"") != std::string::npos);
  CHECK(list.body.find("name=\"confirm\" value=\"yes\" required") != std::string::npos);

  const auto unconfirmed = c.Post("/console/delete", "admin-token", "crawl_id=5");
  CHECK(unconfirmed.status == 400);
  CHECK(unconfirmed.body.find("tick the box") != std::string::npos);
  CHECK(c.service->TakeSnapshot().crawls.count(5) == 1);
  CHECK(c.Post("/console/delete", "reader-token", "crawl_id=5&confirm=yes").status == 403);
  CHECK(c.service->TakeSnapshot().crawls.count(5) == 1);

  const auto deleted = c.Post("/console/delete", "admin-token", "crawl_id=5&confirm=yes");
  CHECK(deleted.status == 303);
  CHECK(c.service->TakeSnapshot().crawls.count(5) == 0);
  const auto again = c.Post("/console/delete", "admin-token", "crawl_id=5&confirm=yes");
  CHECK(again.status == 303);  // gone already: said so, not an error
  bool said = false;
  for (const auto& [name, value] : again.headers)
    if (name == "Location") said = value.find("already%20deleted") != std::string::npos;
  CHECK(said);
}
