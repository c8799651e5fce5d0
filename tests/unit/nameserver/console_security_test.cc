// What the console and status pages do against browsers turned on us: a
// CSP that admits only the pages' own inline style and script, the login
// CSRF value on the sign-in form, a sign-out form, and stored pages served
// under a type we chose (nameserver/console/*.h, nameserver/status_page.h).
#include <catch2/catch.hpp>

#include "common/base/clock.h"
#include "common/net/http_security.h"
#include "nameserver/console/console.h"
#include "nameserver/console/console_html.h"
#include "nameserver/registry_store.h"
#include "nameserver/status_page.h"

namespace {

using crawl::HttpRequest;
using crawl::nameserver::ConsoleAuth;
using crawl::security::Role;

struct Console {
  std::unique_ptr<crawl::nameserver::RegistryStore> store;
  crawl::ManualClock clock;
  std::unique_ptr<crawl::nameserver::NameServerServiceImpl> service;
  ConsoleAuth auth{std::string(32, 'k'),
                   [](std::string_view token) -> std::optional<Role> {
                     if (token == "admin-token") return Role::kAdmin;
                     return std::nullopt;
                   },
                   [] { return true; }};
  Console() {
    auto opened = crawl::nameserver::RegistryStore::Open("");
    REQUIRE(opened.ok());
    store = std::move(*opened);
    service = std::make_unique<crawl::nameserver::NameServerServiceImpl>(
        crawl::nameserver::NameServerServiceImpl::Options{}, &clock, store.get());
    REQUIRE(service->Load().ok());
  }
  crawl::HttpReply Get(const std::string& path, const std::string& token,
                       const std::string& logout_csrf = "") {
    HttpRequest r;
    r.method = "GET";
    r.path = path;
    r.token = token;
    r.host = "127.0.0.1:9100";
    r.logout_csrf = logout_csrf;
    return crawl::nameserver::HandleConsole({service.get(), &clock, &auth}, r);
  }
};

std::string HeaderOf(const crawl::HttpReply& r, const std::string& name) {
  for (const auto& [n, v] : r.headers)
    if (n == name) return v;
  return "";
}

// The text of the first `tag` element of `html` ("" when none).
std::string ElementText(const std::string& html, const std::string& tag) {
  const size_t open = html.find("<" + tag + ">");
  if (open == std::string::npos) return "";
  const size_t from = open + tag.size() + 2;
  return html.substr(from, html.find("</" + tag + ">", from) - from);
}

}  // namespace

TEST_CASE("console pages carry a CSP that admits exactly their own style and script", "[unit]") {
  Console c;
  for (const auto& reply :
       {c.Get("/console", "admin-token"), c.Get("/console", ""), c.Get("/console/nope", "admin-token")}) {
    const std::string csp = HeaderOf(reply, "Content-Security-Policy");
    REQUIRE(csp == crawl::nameserver::ConsoleCsp());
    CHECK(csp.find("default-src 'none'") == 0);
    CHECK(csp.find("'unsafe-inline'") == std::string::npos);
    CHECK(csp.find("frame-ancestors 'none'") != std::string::npos);
    CHECK(csp.find(crawl::CspHashSource(ElementText(reply.body, "style"))) != std::string::npos);
    CHECK(reply.body.find(" style=") == std::string::npos);  // inline style attributes would be blocked
  }
  const std::string live = crawl::nameserver::ConsolePage({"crawl 1", "admin", "", false, 2000}, "<p>x</p>");
  CHECK(live.find("data-refresh=\"2000\"") != std::string::npos);
  const std::string script = ElementText(live, "script");
  REQUIRE(!script.empty());
  CHECK(crawl::nameserver::ConsoleCsp().find(crawl::CspHashSource(script)) != std::string::npos);
}

TEST_CASE("the console's sign-in form carries the login CSRF value its reply sets as a cookie", "[unit]") {
  Console c;
  const auto page = c.Get("/console/crawl", "");
  CHECK(page.status == 401);
  const std::string cookie = HeaderOf(page, "Set-Cookie");
  REQUIRE(cookie.find("crawl_login=") == 0);
  const std::string value = cookie.substr(12, cookie.find(';') - 12);
  CHECK(value.size() == 32);
  CHECK(page.body.find("name=\"login_csrf\" value=\"" + value + "\"") != std::string::npos);
  CHECK(cookie.find("SameSite=Strict") != std::string::npos);
}

TEST_CASE("signed-in console pages offer a sign-out form with the session's token", "[unit]") {
  Console c;
  const std::string token(64, 'f');
  const auto page = c.Get("/console", "admin-token", token);
  CHECK(page.status == 200);
  CHECK(page.body.find("action=\"/logout\"") != std::string::npos);
  CHECK(page.body.find("value=\"" + token + "\"") != std::string::npos);
  CHECK(c.Get("/console", "admin-token").body.find("/logout") == std::string::npos);
}

TEST_CASE("the cached view serves a stored page under a type we chose", "[unit]") {
  using crawl::nameserver::CachedPageType;
  // No label: none is invented, so the browser sniffs the page's own (a
  // Shift_JIS page labelled only by its <meta>).
  CHECK(CachedPageType("text/html") == "text/html");
  CHECK(CachedPageType("TEXT/HTML; Charset=ISO-8859-1") == "text/html; charset=iso-8859-1");
  CHECK(CachedPageType("text/html; charset=\"utf-8\"") == "text/html; charset=utf-8");
  CHECK(CachedPageType("text/html; charset=x\"><script>") == "text/html; charset=utf-8");
  CHECK(CachedPageType("text/html; charset=Shift_JIS") == "text/html; charset=shift_jis");
  CHECK(CachedPageType("image/png") == "image/png");
  for (const char* scripted : {"image/svg+xml", "application/xhtml+xml", "text/xml", "application/javascript",
                               "text/html\r\nSet-Cookie: a=b", "application/octet-stream", "", "text/htmlx"})
    CHECK(CachedPageType(scripted) == "text/plain; charset=utf-8");
  CHECK(CachedPageType("text/xml; charset=koi8-r") == "text/plain; charset=koi8-r");
}

TEST_CASE("the status page's CSP admits its own style and script and fetches only from us", "[unit]") {
  const std::string& html = crawl::nameserver::StatusPageHtml();
  const std::string& csp = crawl::nameserver::StatusPageCsp();
  CHECK(csp.find("default-src 'none'") == 0);
  CHECK(csp.find("connect-src 'self'") != std::string::npos);
  CHECK(csp.find("'unsafe-inline'") == std::string::npos);
  CHECK(csp.find(crawl::CspHashSource(ElementText(html, "style"))) != std::string::npos);
  CHECK(csp.find(crawl::CspHashSource(ElementText(html, "script"))) != std::string::npos);
}
