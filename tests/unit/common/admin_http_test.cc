#include "common/admin_http.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <catch2/catch.hpp>

#include "common/metrics.h"

#include <thread>
#include <vector>

namespace {

namespace http = boost::beast::http;

http::response<http::string_body> Get(int port, const std::string& target, http::verb verb = http::verb::get,
                                      const std::vector<std::pair<http::field, std::string>>& headers = {},
                                      const std::string& body = "") {
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket socket(io);
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)});
  http::request<http::string_body> req(verb, target, 11);
  req.set(http::field::host, "127.0.0.1");
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
  server.HandleProtected("/status", [](const std::string&) { return crawl::HttpReply{200, "text/plain", "secret"}; });
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
  CHECK(Get(*port, "/status", http::verb::get, {{http::field::authorization, "Bearer bad"}}).result_int() == 401);
  auto bearer = Get(*port, "/status", http::verb::get, {{http::field::authorization, "Bearer good"}});
  CHECK(bearer.result_int() == 200);
  CHECK(bearer.body() == "secret");

  auto wrong = Get(*port, "/login", http::verb::post, {{http::field::content_type, "application/x-www-form-urlencoded"}},
                   "token=bad");
  CHECK(wrong.result_int() == 401);
  CHECK(wrong[http::field::set_cookie].empty());
  auto login = Get(*port, "/login", http::verb::post, {{http::field::content_type, "application/x-www-form-urlencoded"}},
                   "token=go%6Fd");
  CHECK(login.result_int() == 303);
  const std::string cookie(login[http::field::set_cookie]);
  CHECK(cookie.find("crawl_token=good") == 0);
  CHECK(cookie.find("HttpOnly") != std::string::npos);
  auto with_cookie = Get(*port, "/status", http::verb::get, {{http::field::cookie, "a=b; crawl_token=good"}});
  CHECK(with_cookie.result_int() == 200);
  server.Stop();
}

TEST_CASE("protected pages are open on loopback", "[unit]") {
  crawl::AdminHttpServer server;
  server.HandleProtected("/status", [](const std::string&) { return crawl::HttpReply{200, "text/plain", "page"}; });
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
  auto port = server.Start("127.0.0.1:0");
  REQUIRE(port.ok());
  const std::vector<std::pair<http::field, std::string>> form = {
      {http::field::content_type, "application/x-www-form-urlencoded"}};
  auto back = Get(*port, "/login", http::verb::post, form, "token=t&next=%2Fconsole%2Fcrawl%3Fid%3D3");
  CHECK(back.result_int() == 303);
  CHECK(back[http::field::location] == "/console/crawl?id=3");
  auto away = Get(*port, "/login", http::verb::post, form, "token=t&next=http%3A%2F%2Fevil.example%2F");
  CHECK(away[http::field::location] == "/status");
  server.Stop();
}
