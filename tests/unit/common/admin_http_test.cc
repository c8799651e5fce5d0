#include "common/admin_http.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <catch2/catch.hpp>

#include "common/metrics.h"

namespace {

namespace http = boost::beast::http;

http::response<http::string_body> Get(int port, const std::string& target, http::verb verb = http::verb::get) {
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket socket(io);
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)});
  http::request<http::string_body> req(verb, target, 11);
  req.set(http::field::host, "127.0.0.1");
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
