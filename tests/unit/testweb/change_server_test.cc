// The change model through a real server on loopback (server.h with a
// logical ChangeClock): the clock is set over HTTP, a conditional GET gets
// 304 on a keep-alive connection that goes on working, and the access log
// records the 304 (and not the clock request) in a form the politeness
// checker reads.
#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "tests/testweb/politeness.h"
#include "tests/testweb/server.h"

namespace crawl::testweb {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

std::vector<std::string> WaitForLines(const std::string& path, size_t n) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  std::vector<std::string> lines;
  while (true) {
    lines.clear();
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
    if (lines.size() >= n || std::chrono::steady_clock::now() > deadline) return lines;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

TEST_CASE("a served changing web: clock over HTTP, 304 on keep-alive, 304 in the access log", "[unit]") {
  UniverseOptions o;
  o.seed = 4;
  o.hosts = 2;
  o.pages = 40;
  o.change_mean_interval_s = 50;
  auto universe = Universe::Create(o);
  REQUIRE(universe.ok());
  const std::string log_path = "/tmp/testweb_unit_" + std::to_string(::getpid()) + "_change.log";
  std::remove(log_path.c_str());
  AccessLog log;
  REQUIRE(log.Open(log_path).ok());
  ChangeClock clock(ChangeClock::Mode::kLogical);
  ServerOptions so;
  so.addresses = {"127.0.0.1", "127.0.0.1"};
  so.access_log = &log;
  so.clock = &clock;
  Server server(*universe, so);
  REQUIRE(server.Start().ok());
  std::thread runner([&server] { server.Run(); });

  asio::io_context ioc;
  beast::tcp_stream stream(ioc);
  stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server.port()));
  beast::flat_buffer buffer;
  auto call = [&](http::verb verb, const std::string& target, const std::string& if_none_match) {
    http::request<http::empty_body> req{verb, target, 11};
    req.set(http::field::host, "www.site1.test");
    if (!if_none_match.empty()) req.set(http::field::if_none_match, if_none_match);
    http::write(stream, req);
    http::response<http::string_body> res;
    http::read(stream, buffer, res);
    return res;
  };
  CHECK(call(http::verb::post, "/_testweb/clock?t=400", "").body() == "t=400\n");
  CHECK(clock.Now() == 400);
  const std::string path = universe->PagePath(1, 0);
  const auto page = call(http::verb::get, path, "");
  REQUIRE(page.result() == http::status::ok);
  CHECK(page.body() == universe->RenderPageAt(1, 0, 400));
  const std::string etag(page[http::field::etag]);
  CHECK(call(http::verb::get, path, etag).result() == http::status::not_modified);
  CHECK(call(http::verb::get, path, "").body() == page.body());  // the connection goes on

  const auto lines = WaitForLines(log_path, 3);
  server.Stop();
  runner.join();
  REQUIRE(lines.size() == 3);  // no line for the clock
  auto record = ParseAccessLine(lines[1]);
  REQUIRE(record.ok());
  CHECK(record->status == 304);
  CHECK(record->bytes == 0);
  CHECK(record->target == path);
  std::remove(log_path.c_str());
}

}  // namespace
}  // namespace crawl::testweb
