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
#include <boost/beast/ssl.hpp>
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <thread>

#include "tests/testweb/politeness.h"

namespace crawl::testweb {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// Runs a server for two hosts on the given addresses until destroyed.
class RunningServer {
 public:
  RunningServer(std::vector<std::string> addresses, AccessLog* log = nullptr,
                const std::string& preset = "clean") {
    UniverseOptions o;
    o.seed = 1;
    o.hosts = addresses.size();
    o.pages = 20 * o.hosts;
    o.preset = preset;
    if (!ApplyPreset(o).ok()) return;
    // The tests name hosts www.site<i>.test.
    o.misbehaviours &= ~(1U << static_cast<uint32_t>(Misbehaviour::kHostNames));
    universe_ = std::make_unique<Universe>(std::move(Universe::Create(o)).value());
    ServerOptions so;
    so.addresses = std::move(addresses);
    so.access_log = log;
    server_ = std::make_unique<Server>(*universe_, so);
    status_ = server_->Start();
    if (status_.ok()) thread_ = std::thread([this] { server_->Run(); });
  }
  ~RunningServer() {
    if (!server_) return;
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

// The lines of `path` once it has at least `n` (or after 10 s): the server
// logs a request when its last byte is written, which can be just after the
// client has read it.
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

// A keep-alive client connection.
class Client {
 public:
  Client(const std::string& address, uint16_t port) : stream_(ioc_) {
    stream_.connect(tcp::endpoint(asio::ip::make_address(address), port));
  }
  http::response<http::string_body> Get(const std::string& host, const std::string& target) {
    beast::error_code ec;
    return Get(host, target, ec);
  }
  http::response<http::string_body> Get(const std::string& host, const std::string& target,
                                        beast::error_code& ec) {
    http::request<http::empty_body> req{http::verb::get, target, 11};
    req.set(http::field::host, host);
    http::write(stream_, req, ec);
    http::response_parser<http::string_body> parser;
    parser.body_limit(16 * 1024 * 1024);
    if (!ec) http::read(stream_, buffer_, parser, ec);
    return parser.release();
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
    const auto lines = WaitForLines(log_path, 1);
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].find("\twww.site1.test\t/\t200\t") != std::string::npos);
  }
  std::remove(log_path.c_str());
}

TEST_CASE("misbehaving transport: closed robots.txt, chunked big pages, slow hosts, logged", "[unit][slow]") {
  AccessLog log;
  const std::string log_path = "/tmp/testweb_unit_server_mis_" + std::to_string(::getpid()) + ".log";
  std::remove(log_path.c_str());
  REQUIRE(log.Open(log_path).ok());
  std::vector<std::string> lines;
  {
    RunningServer rs(std::vector<std::string>(12, "127.0.0.1"), &log, "misbehaving");  // 10, 11: farm
    REQUIRE(rs.status().ok());
    const uint16_t port = rs.server().port();
    {
      // Host 9: robots-unreachable. The connection ends without an answer.
      Client c("127.0.0.1", port);
      beast::error_code ec;
      (void)c.Get("www.site9.test", "/robots.txt", ec);
      CHECK(ec);
    }
    {
      // Host 2: a chunked page over 1 MiB arrives whole.
      Client c("127.0.0.1", port);
      const auto big = c.Get("www.site2.test", "/big-chunked/0.html");
      CHECK(big.result() == http::status::ok);
      CHECK(big.chunked());
      CHECK(big.body() == rs.universe().Serve(2, "/big-chunked/0.html").body);
    }
    {
      // Host 5: slow, but the same bytes in the end.
      Client c("127.0.0.1", port);
      const auto start = std::chrono::steady_clock::now();
      const auto page = c.Get("www.site5.test", "/");
      const auto elapsed = std::chrono::steady_clock::now() - start;
      CHECK(page.result() == http::status::ok);
      CHECK(page.body() == rs.universe().Serve(5, "/").body);
      CHECK(elapsed >= std::chrono::milliseconds(1000));  // a lower bound only: never flaky
      // Keep-alive still works after a trickled answer.
      CHECK(c.Get("www.site5.test", "/robots.txt").result() == http::status::ok);
    }
    lines = WaitForLines(log_path, 4);
  }
  REQUIRE(lines.size() == 4);
  // TIMESTAMP HOST TARGET STATUS BYTES REMOTE DURATION_MS CONNECTION
  CHECK(lines[0].find("\twww.site9.test\t/robots.txt\t0\t0\t") != std::string::npos);
  const auto slow = ParseAccessLine(lines[2]);
  REQUIRE(slow.ok());
  CHECK(slow->host == "www.site5.test");
  CHECK(slow->target == "/");
  CHECK(slow->duration_ms >= 1000.0);
  const auto robots = ParseAccessLine(lines[3]);
  REQUIRE(robots.ok());
  CHECK(robots->connection == slow->connection);  // the same keep-alive connection
  CHECK(ParseAccessLine(lines[1])->connection != slow->connection);
  std::remove(log_path.c_str());
}

TEST_CASE("https hosts speak TLS with a self-signed certificate on the shared port", "[unit]") {
  RunningServer rs(std::vector<std::string>(12, "127.0.0.1"), nullptr, "misbehaving");
  REQUIRE(rs.status().ok());
  const uint16_t port = rs.server().port();
  const Universe& u = rs.universe();
  REQUIRE(u.IsHttps(4));
  const std::string name = u.HostName(4);
  auto tls_get = [&](bool verify, beast::error_code& ec) {
    asio::io_context ioc;
    asio::ssl::context ctx(asio::ssl::context::tls_client);
    ctx.set_verify_mode(verify ? asio::ssl::verify_peer : asio::ssl::verify_none);
    beast::ssl_stream<beast::tcp_stream> stream(ioc, ctx);
    SSL_set_tlsext_host_name(stream.native_handle(), name.c_str());
    beast::get_lowest_layer(stream).connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    http::response<http::string_body> res;
    stream.handshake(asio::ssl::stream_base::client, ec);
    if (ec) return res;
    http::request<http::empty_body> req{http::verb::get, "/", 11};
    req.set(http::field::host, name);
    http::write(stream, req, ec);
    beast::flat_buffer buffer;
    if (!ec) http::read(stream, buffer, res, ec);
    return res;
  };
  beast::error_code ec;
  const auto page = tls_get(false, ec);
  REQUIRE_FALSE(ec);
  CHECK(page.result() == http::status::ok);
  CHECK(page.body() == u.Serve(4, "/").body);
  // A client that verifies certificates refuses this one.
  beast::error_code verify_ec;
  (void)tls_get(true, verify_ec);
  CHECK(verify_ec);
  // The same port answers plain HTTP: a redirect to the https URL.
  Client plain("127.0.0.1", port);
  const auto moved = plain.Get(name, "/");
  CHECK(moved.result() == http::status::moved_permanently);
  CHECK(moved[http::field::location] == "https://" + name + "/");
  // And plain hosts still answer plain HTTP on it.
  CHECK(plain.Get(u.HostName(3), "/").result() == http::status::ok);
}

}  // namespace
}  // namespace crawl::testweb
