#include "common/net/admin_http.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <catch2/catch.hpp>
#include <thread>
#include <vector>

#include "common/base/metrics.h"

namespace {

namespace http = boost::beast::http;

http::response<http::string_body> Get(int port, const std::string& target, http::verb verb = http::verb::get,
                                      const std::vector<std::pair<http::field, std::string>>& headers = {},
                                      const std::string& body = "", const std::string& host = "127.0.0.1") {
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket socket(io);
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)});
  http::request<http::string_body> req(verb, target, 11);
  if (!host.empty()) req.set(http::field::host, host);
  for (const auto& [field, value] : headers) req.set(field, value);
  req.body() = body;
  req.prepare_payload();
  http::write(socket, req);
  boost::beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  if (verb == http::verb::head) parser.skip(true);
  http::read(socket, buffer, parser);
  return parser.release();
}

// A sign-in as the form posts it: the login CSRF value in cookie and field.
const std::string kLoginCsrf(32, 'c');
const std::vector<std::pair<http::field, std::string>> kLoginForm = {
    {http::field::content_type, "application/x-www-form-urlencoded"},
    {http::field::cookie, "crawl_login=" + kLoginCsrf}};

http::response<http::string_body> Login(int port, const std::string& fields) {
  return Get(port, "/login", http::verb::post, kLoginForm, fields + "&login_csrf=" + kLoginCsrf);
}

}  // namespace

TEST_CASE("admin http serves routes, metrics and health, and 404s the rest", "[unit]") {
  auto& family = crawl::metrics::CounterFamily("crawl_test_requests_total", "Requests seen by the test");
  family.Add({{"kind", "unit"}}).Increment(3);
  crawl::AdminHttpServer server;
  crawl::AddStandardRoutes(server);
  server.Handle("/echo", [](const std::string& query) { return crawl::HttpReply{200, "text/plain", query}; });
  auto port = server.Start("127.0.0.1:0");
  REQUIRE(port.ok());

  auto health = Get(*port, "/healthz");
  CHECK(health.result_int() == 200);
  CHECK(health.body() == "ok\n");
  auto metrics = Get(*port, "/metrics");
  CHECK(metrics.result_int() == 200);
  CHECK(metrics.body().find("crawl_test_requests_total{kind=\"unit\"} 3") != std::string::npos);
  CHECK(Get(*port, "/echo?a=1&b=2").body() == "a=1&b=2");
  CHECK(Get(*port, "/nothing").result_int() == 404);
  CHECK(Get(*port, "/healthz", http::verb::post).result_int() == 405);
  auto head = Get(*port, "/healthz", http::verb::head);
  CHECK(head.result_int() == 200);
  CHECK(head.body().empty());
  server.Stop();
}

TEST_CASE("admin http refuses bad listen addresses clearly", "[unit]") {
  crawl::AdminHttpServer server;
  CHECK_FALSE(server.Start("no-port").ok());
  CHECK_FALSE(server.Start("not-an-ip:80").ok());
  CHECK_FALSE(server.Start("127.0.0.1:99999").ok());
}

TEST_CASE("protected pages need a token off loopback; the login form sets a cookie", "[unit]") {
  crawl::AdminHttpServer server;
  crawl::AddStandardRoutes(server);
  server.HandleProtected("/status", [](const std::string&) {
    return crawl::HttpReply{200, "text/plain", "secret"};
  });
  server.RequireTokenOffLoopback([](std::string_view token) { return token == "good"; });
  // Any address: not loopback, so protected pages need a token (the test
  // still connects over 127.0.0.1).
  auto port = server.Start("0.0.0.0:0");
  REQUIRE(port.ok());
  CHECK(Get(*port, "/healthz").result_int() == 200);
  CHECK(Get(*port, "/metrics").result_int() == 200);
  auto refused = Get(*port, "/status");
  CHECK(refused.result_int() == 401);
  CHECK(refused.body().find("secret") == std::string::npos);
  CHECK(refused.body().find("action=\"/login\"") != std::string::npos);
  CHECK(Get(*port, "/status", http::verb::get, {{http::field::authorization, "Bearer bad"}}).result_int() ==
        401);
  auto bearer = Get(*port, "/status", http::verb::get, {{http::field::authorization, "Bearer good"}});
  CHECK(bearer.result_int() == 200);
  CHECK(bearer.body() == "secret");

  auto wrong = Login(*port, "token=bad");
  CHECK(wrong.result_int() == 401);
  for (const auto& f : wrong) CHECK(f.value().find("crawl_token=") != 0);
  auto login = Login(*port, "token=go%6Fd");
  CHECK(login.result_int() == 303);
  const std::string cookie(login[http::field::set_cookie]);
  CHECK(cookie.find("crawl_token=good") == 0);
  CHECK(cookie.find("HttpOnly") != std::string::npos);
  CHECK(cookie.find("Max-Age=") != std::string::npos);
  auto with_cookie = Get(*port, "/status", http::verb::get, {{http::field::cookie, "a=b; crawl_token=good"}});
  CHECK(with_cookie.result_int() == 200);
  server.Stop();
}

TEST_CASE("protected pages are open on loopback", "[unit]") {
  crawl::AdminHttpServer server;
  server.HandleProtected("/status", [](const std::string&) {
    return crawl::HttpReply{200, "text/plain", "page"};
  });
  server.RequireTokenOffLoopback([](std::string_view) { return false; });
  auto port = server.Start("127.0.0.1:0");
  REQUIRE(port.ok());
  CHECK(Get(*port, "/status").result_int() == 200);
  server.Stop();
}

TEST_CASE("admin http closes connections past its cap", "[unit]") {
  crawl::AdminHttpServer server;
  crawl::AddStandardRoutes(server);
  auto port = server.Start("127.0.0.1:0");
  REQUIRE(port.ok());
  boost::asio::io_context io;
  std::vector<boost::asio::ip::tcp::socket> idle;
  for (size_t i = 0; i < crawl::kMaxAdminHttpConnections; ++i) {
    idle.emplace_back(io);
    idle.back().connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(*port)});
  }
  // Wait until the server has taken every idle connection: a request on
  // one of them is answered in order, after the accepts before it.
  boost::asio::ip::tcp::socket extra(io);
  extra.connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(*port)});
  char byte = 0;
  boost::system::error_code ec;
  extra.read_some(boost::asio::buffer(&byte, 1), ec);
  CHECK(ec);  // closed by the server without an answer
  idle.clear();
  // With the idle connections gone, requests are served again.
  bool served = false;
  for (int attempt = 0; attempt < 50 && !served; ++attempt) {
    try {
      served = Get(*port, "/healthz").result_int() == 200;
    } catch (const std::exception&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  CHECK(served);
  server.Stop();
}

TEST_CASE("app routes get the whole request under their prefix, POST included, and set headers", "[unit]") {
  crawl::AdminHttpServer server;
  crawl::HttpRequest seen;
  server.HandleApp("/app", [&seen](const crawl::HttpRequest& req) {
    seen = req;
    return crawl::HttpReply{200, "text/plain", "ok", {{"X-Test", "yes"}}};
  });
  auto port = server.Start("127.0.0.1:0");
  REQUIRE(port.ok());
  auto posted = Get(*port, "/app/do?x=1", http::verb::post,
                    {{http::field::cookie, "a=b; crawl_token=tok123"},
                     {http::field::content_type, "application/x-www-form-urlencoded"},
                     {http::field::origin, "http://127.0.0.1"}},
                    "k=v");
  CHECK(posted.result_int() == 200);
  CHECK(posted[boost::beast::string_view("X-Test")] == "yes");
  CHECK(seen.method == "POST");
  CHECK(seen.path == "/app/do");
  CHECK(seen.query == "x=1");
  CHECK(seen.body == "k=v");
  CHECK(seen.token == "tok123");
  CHECK(seen.origin == "http://127.0.0.1");
  CHECK(seen.host == "127.0.0.1");
  CHECK(seen.loopback_server);
  CHECK(Get(*port, "/app").result_int() == 200);
  CHECK(Get(*port, "/application").result_int() == 404);  // a prefix is a whole path segment
  CHECK(Get(*port, "/app", http::verb::put).result_int() == 405);
  server.Stop();
}

TEST_CASE("the login form goes back to the console page it came from, never elsewhere", "[unit]") {
  crawl::AdminHttpServer server;
  server.RequireTokenOffLoopback([](std::string_view token) { return token == "t"; });
  auto port = server.Start("127.0.0.1:0");
  REQUIRE(port.ok());
  auto back = Login(*port, "token=t&next=%2Fconsole%2Fcrawl%3Fid%3D3");
  CHECK(back.result_int() == 303);
  CHECK(back[http::field::location] == "/console/crawl?id=3");
  auto away = Login(*port, "token=t&next=http%3A%2F%2Fevil.example%2F");
  CHECK(away[http::field::location] == "/status");
  server.Stop();
}

// On loopback every token used to get a cookie; now only valid ones do,
// and only from a form with its login CSRF value, from our own origin.
TEST_CASE("login on loopback: only a valid token, from our own form, gets a cookie", "[unit]") {
  crawl::AdminHttpServer server;
  server.RequireTokenOffLoopback([](std::string_view token) { return token == "good"; });
  auto port = server.Start("127.0.0.1:0");
  REQUIRE(port.ok());
  auto any = Login(*port, "token=anything");
  CHECK(any.result_int() == 401);
  CHECK(std::string(any[http::field::set_cookie]).find("crawl_token=") != 0);
  auto no_csrf = Get(*port, "/login", http::verb::post,
                     {{http::field::content_type, "application/x-www-form-urlencoded"}}, "token=good");
  CHECK(no_csrf.result_int() == 403);
  auto cross = Get(*port, "/login", http::verb::post,
                   {{http::field::content_type, "application/x-www-form-urlencoded"},
                    {http::field::cookie, "crawl_login=" + kLoginCsrf},
                    {http::field::origin, "http://evil.example"}},
                   "token=good&login_csrf=" + kLoginCsrf);
  CHECK(cross.result_int() == 403);
  CHECK(Login(*port, "token=good").result_int() == 303);
  server.Stop();
}

TEST_CASE("admin http answers only the Host names it knows; /healthz any", "[unit]") {
  crawl::AdminHttpServer server;
  crawl::AddStandardRoutes(server);
  server.HandleProtected("/status", [](const std::string&) {
    return crawl::HttpReply{200, "text/plain", "page"};
  });
  server.HandleApp("/app", [](const crawl::HttpRequest&) {
    return crawl::HttpReply{200, "text/plain", "app"};
  });
  server.AllowHostNames({"crawl.example"});
  auto port = server.Start("127.0.0.1:0");
  REQUIRE(port.ok());
  const std::string p = ":" + std::to_string(*port);
  for (const char* path : {"/metrics", "/status", "/app", "/login", "/nothing"}) {
    const auto refused = Get(*port, path, http::verb::get, {}, "", "evil.example" + p);
    CHECK(refused.result_int() == 421);
    CHECK(refused.body().find("--http-host") != std::string::npos);
    CHECK(refused.body().find("page") == std::string::npos);
  }
  CHECK(Get(*port, "/healthz", http::verb::get, {}, "", "evil.example" + p).result_int() == 200);
  for (const std::string& host :
       {"127.0.0.1" + p, "localhost" + p, "[::1]" + p, "crawl.example" + p, std::string()})
    CHECK(Get(*port, "/status", http::verb::get, {}, "", host).result_int() == 200);
  server.Stop();
}

TEST_CASE("admin http sends the security headers on every answer, errors included", "[unit]") {
  crawl::AdminHttpServer server;
  crawl::AddStandardRoutes(server);
  server.Handle("/own", [](const std::string&) {
    return crawl::HttpReply{
        200, "text/html", "<p>x</p>", {{"Content-Security-Policy", "default-src 'self'"}}};
  });
  auto port = server.Start("127.0.0.1:0");
  REQUIRE(port.ok());
  for (const char* path : {"/healthz", "/metrics", "/login", "/nothing"}) {
    const auto r = Get(*port, path);
    CHECK(r[boost::beast::string_view("Content-Security-Policy")].starts_with("default-src 'none'"));
    CHECK(r[boost::beast::string_view("X-Frame-Options")] == "DENY");
    CHECK(r[boost::beast::string_view("X-Content-Type-Options")] == "nosniff");
    CHECK(r[boost::beast::string_view("Referrer-Policy")] == "same-origin");
  }
  CHECK(Get(*port, "/own")[boost::beast::string_view("Content-Security-Policy")] == "default-src 'self'");
  server.Stop();
}

TEST_CASE("logout clears the cookie only for a form of this session", "[unit]") {
  crawl::AdminHttpServer server;
  crawl::HttpRequest seen;
  server.HandleApp("/app", [&seen](const crawl::HttpRequest& req) {
    seen = req;
    return crawl::HttpReply{200, "text/plain", "ok"};
  });
  auto port = server.Start("127.0.0.1:0");
  REQUIRE(port.ok());
  REQUIRE(Get(*port, "/app", http::verb::get, {{http::field::cookie, "crawl_token=tok"}}).result_int() ==
          200);
  REQUIRE(seen.logout_csrf.size() == 64);
  const std::vector<std::pair<http::field, std::string>> form = {
      {http::field::content_type, "application/x-www-form-urlencoded"},
      {http::field::cookie, "crawl_token=tok"}};
  CHECK(Get(*port, "/logout", http::verb::post, form, "csrf=" + std::string(64, '0')).result_int() == 403);
  auto out = Get(*port, "/logout", http::verb::post, form, "csrf=" + seen.logout_csrf);
  CHECK(out.result_int() == 303);
  const std::string cookie(out[http::field::set_cookie]);
  CHECK(cookie.find("crawl_token=;") == 0);
  CHECK(cookie.find("Max-Age=0") != std::string::npos);
  server.Stop();
}
