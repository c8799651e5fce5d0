// Tests for the delay proxy (tests/testweb/delay_proxy.h): a real proxy on
// loopback in front of an echo server, ports chosen at run time. The delay
// is checked as a lower bound only (a round trip cannot come back sooner
// than the delay it was given), never as a speed.
#include "tests/testweb/delay_proxy.h"

#include <sys/socket.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <catch2/catch.hpp>
#include <chrono>
#include <random>
#include <string>
#include <thread>

namespace crawl::testweb {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

// Accepts one connection and writes back every byte it reads until EOF,
// then closes.
class EchoServer {
 public:
  EchoServer()
      : acceptor_(ioc_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)),
        port_(acceptor_.local_endpoint().port()) {
    thread_ = std::thread([this] {
      boost::system::error_code ec;
      tcp::socket socket(ioc_);
      acceptor_.accept(socket, ec);
      if (ec) return;
      char buffer[16384];
      for (;;) {
        const size_t n = socket.read_some(asio::buffer(buffer), ec);
        if (ec) break;
        asio::write(socket, asio::buffer(buffer, n), ec);
        if (ec) break;
      }
      socket.close(ec);
    });
  }
  ~EchoServer() {
    boost::system::error_code ec;
    // Unblock an accept that never got a connection.
    tcp::socket poke(ioc_);
    poke.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_), ec);
    poke.close(ec);
    thread_.join();
  }
  uint16_t port() const { return port_; }

 private:
  asio::io_context ioc_;
  tcp::acceptor acceptor_;
  const uint16_t port_;
  std::thread thread_;
};

class RunningProxy {
 public:
  explicit RunningProxy(DelayProxyOptions options) : proxy_(std::move(options)) {
    status_ = proxy_.Start();
    if (status_.ok()) thread_ = std::thread([this] { proxy_.Run(); });
  }
  ~RunningProxy() {
    proxy_.Stop();
    if (thread_.joinable()) thread_.join();
  }
  const Status& status() const { return status_; }
  DelayProxy& proxy() { return proxy_; }

 private:
  DelayProxy proxy_;
  Status status_;
  std::thread thread_;
};

std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string bytes(n, '\0');
  for (char& c : bytes) c = static_cast<char>(rng());
  return bytes;
}

// Sends `payload` through the proxy to the echo server (a writer thread, so
// the echo can flow back while we send), half-closes, and reads to EOF.
// Returns what came back; *first_byte is the time to the first echoed byte.
std::string EchoThrough(uint16_t port, const std::string& payload, Clock::duration* first_byte) {
  asio::io_context ioc;
  tcp::socket socket(ioc);
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  const Clock::time_point start = Clock::now();
  // The writer uses the descriptor, not the socket object the reader uses.
  const int fd = socket.native_handle();
  std::thread writer([fd, &payload] {
    for (size_t sent = 0; sent < payload.size();) {
      const ssize_t n = ::send(fd, payload.data() + sent, payload.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;  // the proxy closed: the reader sees it
      sent += static_cast<size_t>(n);
    }
    ::shutdown(fd, SHUT_WR);
  });
  std::string back;
  char buffer[16384];
  boost::system::error_code ec;
  for (;;) {
    const size_t n = socket.read_some(asio::buffer(buffer), ec);
    if (n > 0 && back.empty()) *first_byte = Clock::now() - start;
    back.append(buffer, n);
    if (ec) break;
  }
  writer.join();
  return back;
}

TEST_CASE("delay proxy relays bytes unchanged and no sooner than the round trip", "[unit]") {
  EchoServer echo;
  DelayProxyOptions options;
  options.upstream_port = echo.port();
  options.one_way_delay = std::chrono::milliseconds(20);
  RunningProxy running(options);
  REQUIRE(running.status().ok());
  const std::string payload = RandomBytes(300'000, 1);
  Clock::duration first_byte{};
  CHECK(EchoThrough(running.proxy().port(), payload, &first_byte) == payload);
  // Out and back: two one-way delays.
  CHECK(first_byte >= std::chrono::milliseconds(40));
  CHECK(running.proxy().connections() == 1);
}

TEST_CASE("delay proxy keeps order and loses nothing when its queue is full", "[unit]") {
  EchoServer echo;
  DelayProxyOptions options;
  options.upstream_port = echo.port();
  options.one_way_delay = std::chrono::milliseconds(1);
  options.max_queued_bytes = 4096;  // far below the payload: reading pauses often
  RunningProxy running(options);
  REQUIRE(running.status().ok());
  const std::string payload = RandomBytes(2'000'000, 2);
  Clock::duration first_byte{};
  CHECK(EchoThrough(running.proxy().port(), payload, &first_byte) == payload);
}

TEST_CASE("delay proxy closes the client when the upstream refuses", "[unit]") {
  uint16_t closed_port = 0;
  {
    EchoServer echo;  // take a port, then free it
    closed_port = echo.port();
  }
  DelayProxyOptions options;
  options.upstream_port = closed_port;
  RunningProxy running(options);
  REQUIRE(running.status().ok());
  Clock::duration first_byte{};
  CHECK(EchoThrough(running.proxy().port(), "hello", &first_byte).empty());
}

TEST_CASE("delay proxy rejects an address that does not parse", "[unit]") {
  DelayProxyOptions options;
  options.listen_address = "not-an-address";
  DelayProxy proxy(options);
  const Status status = proxy.Start();
  CHECK(status.code() == StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace crawl::testweb
