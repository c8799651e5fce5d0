// The browser-facing checks of the admin HTTP server (common/net/http_security.h,
// common/net/login_throttle.h, common/net/http_login.h), without sockets.
#include "common/net/http_security.h"

#include <catch2/catch.hpp>

#include "common/base/cli.h"
#include "common/base/clock.h"
#include "common/net/http_login.h"
#include "common/net/login_throttle.h"

namespace {

using crawl::HostPolicy;
using crawl::HttpRequest;

}  // namespace

// DNS rebinding: a page of evil.example whose name now resolves to
// 127.0.0.1 reaches the server with "Host: evil.example:PORT".
TEST_CASE("hosts: loopback names and the listen address pass, other names do not", "[unit]") {
  const HostPolicy loopback("127.0.0.1", {});
  for (const char* host : {"localhost", "localhost:9100", "LOCALHOST", "localhost.", "127.0.0.1",
                           "127.0.0.1:9100", "127.8.9.10:1", "[::1]", "[::1]:9100", ""})
    CHECK(loopback.Allows(host));
  for (const char* host : {"evil.example", "evil.example:9100", "localhost.evil.example", "10.0.0.5:9100",
                           "[::2]:9100", "127.0.0.1@evil", "[::1", "::1]:80"})
    CHECK_FALSE(loopback.Allows(host));

  const HostPolicy listen("10.1.2.3", {"crawl.example", "Prom.Internal", "[fd00::1]"});
  CHECK(listen.Allows("10.1.2.3:9100"));
  CHECK(listen.Allows("crawl.example"));
  CHECK(listen.Allows("prom.internal:9100"));
  CHECK(listen.Allows("[fd00::1]:9100"));
  CHECK(listen.Allows("localhost:9100"));
  CHECK_FALSE(listen.Allows("10.1.2.4:9100"));

  // A wildcard listen says nothing about the machine's names.
  const HostPolicy wildcard("0.0.0.0", {});
  CHECK(wildcard.Allows("127.0.0.1:9100"));
  CHECK_FALSE(wildcard.Allows("0.0.0.0:9100"));
  CHECK_FALSE(wildcard.Allows("10.1.2.3:9100"));
  CHECK_FALSE(HostPolicy("[::]", {}).Allows("[::]:9100"));
}

TEST_CASE("hosts: a refused host is told which flag admits it", "[unit]") {
  const crawl::HttpReply r = crawl::MisdirectedReply("evil.example:9100\r\nX: y");
  CHECK(r.status == 421);
  CHECK(r.body.find("--http-host") != std::string::npos);
  CHECK(r.body.find('\r') == std::string::npos);
}

TEST_CASE("every response gets CSP, framing, sniffing and referrer headers", "[unit]") {
  std::map<std::string, std::string> h(crawl::DefaultSecurityHeaders().begin(),
                                       crawl::DefaultSecurityHeaders().end());
  CHECK(h["Content-Security-Policy"].find("default-src 'none'") == 0);
  CHECK(h["Content-Security-Policy"].find("frame-ancestors 'none'") != std::string::npos);
  CHECK(h["X-Frame-Options"] == "DENY");
  CHECK(h["X-Content-Type-Options"] == "nosniff");
  CHECK(h["Referrer-Policy"] == "same-origin");
}

TEST_CASE("a CSP hash source is the base64 SHA-256 of the element's text", "[unit]") {
  CHECK(crawl::CspHashSource("") == "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
  CHECK(crawl::CspHashSource("abc") == "'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='");
}

TEST_CASE("session cookies are HttpOnly, SameSite=Strict, expire, and Secure over TLS", "[unit]") {
  const std::string plain = crawl::SessionCookie("tok", false);
  CHECK(plain.find("crawl_token=tok;") == 0);
  for (const char* attr : {"HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=43200"})
    CHECK(plain.find(attr) != std::string::npos);
  CHECK(plain.find("Secure") == std::string::npos);
  CHECK(crawl::SessionCookie("tok", true).find("; Secure") != std::string::npos);
  CHECK(crawl::ClearedSessionCookie(false).find("crawl_token=;") == 0);
  CHECK(crawl::ClearedSessionCookie(false).find("Max-Age=0") != std::string::npos);
  CHECK(crawl::CookieValue("a=b; crawl_token=x1; c=d", "crawl_token") == "x1");
  CHECK(crawl::CookieValue("xcrawl_token=x1", "crawl_token").empty());
}

TEST_CASE("same origin: Origin, else Referer, must name the Host", "[unit]") {
  CHECK(crawl::SameOriginRequest("", "", "127.0.0.1:80"));
  CHECK(crawl::SameOriginRequest("https://127.0.0.1:80", "", "127.0.0.1:80"));
  CHECK(crawl::SameOriginRequest("", "http://LOCALHOST:80/console", "localhost:80"));
  CHECK_FALSE(crawl::SameOriginRequest("http://evil.example", "http://127.0.0.1:80/", "127.0.0.1:80"));
  CHECK_FALSE(crawl::SameOriginRequest("null", "", "127.0.0.1:80"));
  CHECK_FALSE(crawl::SameOriginRequest("", "http://127.0.0.1:80.evil.example/", "127.0.0.1:80"));
}

TEST_CASE("login CSRF: the form's value must equal its cookie", "[unit]") {
  const crawl::LoginCsrf a = crawl::NewLoginCsrf(false), b = crawl::NewLoginCsrf(true);
  CHECK(a.value.size() == 32);
  CHECK(a.value != b.value);
  CHECK(a.set_cookie.find("crawl_login=" + a.value + ";") == 0);
  CHECK(a.set_cookie.find("SameSite=Strict") != std::string::npos);
  CHECK(a.set_cookie.find("Path=/login") != std::string::npos);
  CHECK(b.set_cookie.find("; Secure") != std::string::npos);
  CHECK(crawl::LoginCsrfValid(a.value, a.value));
  CHECK_FALSE(crawl::LoginCsrfValid(a.value, b.value));
  CHECK_FALSE(crawl::LoginCsrfValid("", ""));
  CHECK_FALSE(crawl::LoginCsrfValid(a.value, ""));
}

TEST_CASE("CSRF keys bind a token to a purpose, a session and a secret", "[unit]") {
  const crawl::CsrfKey key(std::string(32, 'k')), other(std::string(32, 'o'));
  const std::string t = key.Token("logout", "session");
  CHECK(key.Valid("logout", "session", t));
  CHECK_FALSE(key.Valid("logout", "another", t));
  CHECK_FALSE(key.Valid("login", "session", t));
  CHECK_FALSE(other.Valid("logout", "session", t));
  CHECK_FALSE(key.Valid("logout", "session", ""));
}

TEST_CASE("login throttle: a client's failures run out, then refill with time", "[unit]") {
  crawl::ManualClock clock;
  crawl::LoginThrottle::Options o;
  o.client_burst = 3;
  o.client_refill_ms = 10'000;
  o.global_burst = 100;
  crawl::LoginThrottle t(&clock, o);
  for (int i = 0; i < 3; ++i) {
    CHECK(t.RetryAfterMs("10.0.0.1") == 0);
    t.Failed("10.0.0.1");
  }
  CHECK(t.RetryAfterMs("10.0.0.1") == 10'000);
  CHECK(t.RetryAfterMs("10.0.0.2") == 0);  // others are not held back
  clock.Advance(std::chrono::milliseconds(4'000));
  CHECK(t.RetryAfterMs("10.0.0.1") == 6'000);
  clock.Advance(std::chrono::milliseconds(6'000));
  CHECK(t.RetryAfterMs("10.0.0.1") == 0);
  t.Failed("10.0.0.1");
  CHECK(t.RetryAfterMs("10.0.0.1") > 0);
}

TEST_CASE("login throttle: failures from many addresses hit the global bucket", "[unit]") {
  crawl::ManualClock clock;
  crawl::LoginThrottle::Options o;
  o.global_burst = 10;
  o.global_refill_ms = 1'000;
  o.max_clients = 4;  // forgetting clients does not reset the global bucket
  crawl::LoginThrottle t(&clock, o);
  for (int i = 0; i < 10; ++i) t.Failed("10.0.1." + std::to_string(i));
  CHECK(t.RetryAfterMs("10.0.2.1") == 1'000);
  clock.Advance(std::chrono::milliseconds(1'000));
  CHECK(t.RetryAfterMs("10.0.2.1") == 0);
}

namespace {

// A browser's POST /login from our own page: Origin, the CSRF cookie and field.
HttpRequest LoginPost(const std::string& token, const std::string& client = "10.0.0.9") {
  HttpRequest r;
  r.method = "POST";
  r.path = "/login";
  r.host = "127.0.0.1:9100";
  r.origin = "http://127.0.0.1:9100";
  r.client = client;
  const std::string csrf(32, 'a');
  r.cookies = "crawl_login=" + csrf;
  r.body = "token=" + token + "&login_csrf=" + csrf + "&next=%2Fconsole";
  return r;
}

std::vector<std::string> Cookies(const crawl::HttpReply& r) {
  std::vector<std::string> out;
  for (const auto& [name, value] : r.headers)
    if (name == "Set-Cookie") out.push_back(value);
  return out;
}

std::string HeaderOf(const crawl::HttpReply& r, const std::string& name) {
  for (const auto& [n, v] : r.headers)
    if (n == name) return v;
  return "";
}

TEST_CASE("HtmlEscape makes text safe in HTML text and quoted attributes", "[unit]") {
  CHECK(crawl::HtmlEscape("<script>alert('x')</script>") ==
        "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
  CHECK(crawl::HtmlEscape("a\"b&c") == "a&quot;b&amp;c");
  CHECK(crawl::HtmlEscape("plain text, é") == "plain text, é");
}

}  // namespace

TEST_CASE("login: a good token from our own form sets the session cookie", "[unit]") {
  crawl::ManualClock clock;
  crawl::LoginThrottle throttle(&clock);
  const crawl::CsrfKey key(std::string(32, 'k'));
  const crawl::LoginContext ctx{[](std::string_view t) { return t == "good"; }, &throttle, &key};
  const auto ok = crawl::HandleLogin(ctx, LoginPost("good"));
  CHECK(ok.status == 303);
  CHECK(HeaderOf(ok, "Location") == "/console");
  REQUIRE(!Cookies(ok).empty());
  CHECK(Cookies(ok)[0] == crawl::SessionCookie("good", false));

  HttpRequest tls = LoginPost("good");
  tls.tls = true;
  CHECK(Cookies(crawl::HandleLogin(ctx, tls))[0].find("; Secure") != std::string::npos);

  HttpRequest get;
  get.method = "GET";
  get.path = "/login";
  const auto form = crawl::HandleLogin(ctx, get);
  CHECK(form.status == 200);
  REQUIRE(Cookies(form).size() == 1);
  const std::string value = Cookies(form)[0].substr(12, 32);
  CHECK(form.body.find("name=\"login_csrf\" value=\"" + value + "\"") != std::string::npos);
}

TEST_CASE("login: cross-site posts and posts without the CSRF value set no cookie", "[unit]") {
  crawl::ManualClock clock;
  crawl::LoginThrottle throttle(&clock);
  const crawl::CsrfKey key(std::string(32, 'k'));
  const crawl::LoginContext ctx{[](std::string_view t) { return t == "good"; }, &throttle, &key};
  HttpRequest cross = LoginPost("good");
  cross.origin = "http://evil.example";
  CHECK(crawl::HandleLogin(ctx, cross).status == 403);
  HttpRequest referer = LoginPost("good");
  referer.origin.clear();
  referer.referer = "http://evil.example/page";
  CHECK(crawl::HandleLogin(ctx, referer).status == 403);
  HttpRequest no_cookie = LoginPost("good");
  no_cookie.cookies.clear();  // a cross-site post: the SameSite cookie stays home
  const auto refused = crawl::HandleLogin(ctx, no_cookie);
  CHECK(refused.status == 403);
  for (const auto& c : Cookies(refused)) CHECK(c.find("crawl_token=") != 0);
  HttpRequest no_field = LoginPost("good");
  no_field.body = "token=good";
  CHECK(crawl::HandleLogin(ctx, no_field).status == 403);
  CHECK(crawl::HandleLogin(ctx, LoginPost("bad")).status == 401);
  for (const auto& c : Cookies(crawl::HandleLogin(ctx, LoginPost("bad")))) CHECK(c.find("crawl_token=") != 0);
  const crawl::LoginContext no_check{{}, &throttle, &key};  // no tokens: nothing to sign in with
  CHECK(crawl::HandleLogin(no_check, LoginPost("anything", "10.0.0.8")).status == 401);
}

TEST_CASE("login: wrong tokens are rate limited per client with Retry-After", "[unit]") {
  crawl::ManualClock clock;
  crawl::LoginThrottle throttle(&clock);
  const crawl::CsrfKey key(std::string(32, 'k'));
  const crawl::LoginContext ctx{[](std::string_view t) { return t == "good"; }, &throttle, &key};
  for (int i = 0; i < 5; ++i)
    CHECK(crawl::HandleLogin(ctx, LoginPost("guess" + std::to_string(i))).status == 401);
  const auto limited = crawl::HandleLogin(ctx, LoginPost("good"));
  CHECK(limited.status == 429);
  CHECK(std::stoi(HeaderOf(limited, "Retry-After")) > 0);
  CHECK(crawl::HandleLogin(ctx, LoginPost("good", "10.0.0.10")).status == 303);
  clock.Advance(std::chrono::seconds(60));
  CHECK(crawl::HandleLogin(ctx, LoginPost("good")).status == 303);
}

TEST_CASE("logout needs our origin and the session's token, and clears the cookie", "[unit]") {
  const crawl::CsrfKey key(std::string(32, 'k'));
  const crawl::LoginContext ctx{{}, nullptr, &key};
  HttpRequest r;
  r.method = "POST";
  r.path = "/logout";
  r.host = "127.0.0.1:9100";
  r.token = "good";
  r.body = "csrf=" + key.Token("logout", "good");
  const auto out = crawl::HandleLogout(ctx, r);
  CHECK(out.status == 303);
  REQUIRE(Cookies(out).size() == 1);
  CHECK(Cookies(out)[0] == crawl::ClearedSessionCookie(false));
  HttpRequest forged = r;
  forged.body = "csrf=" + key.Token("logout", "other");
  CHECK(crawl::HandleLogout(ctx, forged).status == 403);
  HttpRequest cross = r;
  cross.origin = "http://evil.example";
  CHECK(crawl::HandleLogout(ctx, cross).status == 403);
  HttpRequest get = r;
  get.method = "GET";
  CHECK(crawl::HandleLogout(ctx, get).status == 405);
}

TEST_CASE("http-host flag values are checked; an empty one (an unset unit variable) adds nothing", "[unit]") {
  crawl::HttpFlags flags;
  flags.hosts = {"crawl.example", "10.0.0.1", ""};
  CHECK(crawl::ValidateHttpFlags(flags).ok());
  flags.hosts = {"evil.example/x"};
  CHECK_FALSE(crawl::ValidateHttpFlags(flags).ok());
  flags.hosts = {};
  flags.tls_cert = "cert.pem";
  CHECK_FALSE(crawl::ValidateHttpFlags(flags).ok());  // a certificate needs its key
  CHECK(HostPolicy("127.0.0.1", {""}).Allows("localhost"));
}
