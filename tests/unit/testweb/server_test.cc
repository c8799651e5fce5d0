// Tests for the testweb HTTP server (tests/testweb/server.h): a real server
// on loopback, port chosen at run time, driven by a Beast client.
#include "tests/testweb/server.h"

#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <thread>

namespace crawl::testweb {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// Runs a server for two hosts on the given addresses until destroyed.
class RunningServer {
 public:
  RunningServer(std::vector<std::string> addresses, AccessLog* log = nullptr) {
    UniverseOptions o;
    o.seed = 1;
    o.hosts = 2;
    o.pages = 40;
    universe_ = std::make_unique<Universe>(std::move(Universe::Create(o)).value());
    ServerOptions so;
    so.addresses = std::move(addresses);
    so.access_log = log;
    server_ = std::make_unique<Server>(*universe_, so);
    status_ = server_->Start();
    if (status_.ok()) thread_ = std::thread([this] { server_->Run(); });
  }
  ~RunningServer() {
    server_->Stop();
    if (thread_.joinable()) thread_.join();
  }
  const Universe& universe() const { return *universe_; }
  Server& server() { return *server_; }
  const Status& status() const { return status_; }

 private:
  std::unique_ptr<Universe> universe_;
  std::unique_ptr<Server> server_;
  Status status_;
  std::thread thread_;
};

// A keep-alive client connection.
class Client {
 public:
  Client(const std::string& address, uint16_t port) : stream_(ioc_) {
    stream_.connect(tcp::endpoint(asio::ip::make_address(address), port));
  }
  http::response<http::string_body> Get(const std::string& host, const std::string& target) {
    http::request<http::empty_body> req{http::verb::get, target, 11};
    req.set(http::field::host, host);
    http::write(stream_, req);
    http::response<http::string_body> res;
    http::read(stream_, buffer_, res);
    return res;
  }

 private:
  asio::io_context ioc_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
};

TEST_CASE("server answers pages, robots.txt and 404 on one keep-alive connection", "[unit]") {
  RunningServer rs({"127.0.0.1", "127.0.0.1"});
  REQUIRE(rs.status().ok());
  REQUIRE(rs.server().port() != 0);
  Client c("127.0.0.1", rs.server().port());
  const auto root = c.Get("www.site0.test", "/");
  CHECK(root.result() == http::status::ok);
  CHECK(root.body() == rs.universe().RenderPageAt(0, 0));
  const auto robots = c.Get("www.site1.test:" + std::to_string(rs.server().port()), "/robots.txt");
  CHECK(robots.result() == http::status::ok);
  CHECK(robots.body() == rs.universe().RobotsTxt(1));
  const auto page = c.Get("www.site1.test", rs.universe().PagePath(1, 2));
  CHECK(page.result() == http::status::ok);
  CHECK(page.body() == rs.universe().RenderPageAt(1, 2));
  CHECK(c.Get("www.site0.test", "/does-not-exist").result() == http::status::not_found);
}

TEST_CASE("hosts on their own addresses share one port and are found by address", "[unit]") {
  AccessLog log;
  const std::string log_path = "/tmp/testweb_unit_server_" + std::to_string(::getpid()) + ".log";
  std::remove(log_path.c_str());
  REQUIRE(log.Open(log_path).ok());
  {
    RunningServer rs({"127.0.0.1", "127.0.0.2"}, &log);
    REQUIRE(rs.status().ok());
    const auto entries = rs.server().Entries();
    REQUIRE(entries.size() == 2);
    CHECK(entries[1].address == "127.0.0.2");
    CHECK(entries[0].port == entries[1].port);
    Client c("127.0.0.2", rs.server().port());
    const auto res = c.Get("unknown.example", "/");  // no such host: the address decides
    CHECK(res.result() == http::status::ok);
    CHECK(res.body() == rs.universe().RenderPageAt(1, 0));
  }
  std::ifstream in(log_path);
  std::string line;
  REQUIRE(std::getline(in, line));
  CHECK(line.find("\twww.site1.test\t/\t200\t") != std::string::npos);
  std::remove(log_path.c_str());
}

}  // namespace
}  // namespace crawl::testweb
