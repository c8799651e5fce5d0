// Helpers for the fault proxy's tests (fault_proxy_test.cc,
// toxics_test.cc): an echo server on loopback, a proxy running on its own
// thread, and a blocking client with timeouts. Test code only.
#pragma once

#include <poll.h>
#include <sys/socket.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tests/faults/fault_proxy.h"

namespace crawl::faults::testing {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

// Accepts any number of connections; writes back every byte each reads
// until EOF or an error, then closes it.
class EchoServer {
 public:
  EchoServer()
      : acceptor_(ioc_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)),
        port_(acceptor_.local_endpoint().port()) {
    accept_thread_ = std::thread([this] { AcceptLoop(); });
  }
  ~EchoServer() {
    stopping_ = true;
    boost::system::error_code ec;
    tcp::socket poke(ioc_);  // unblocks the accept
    poke.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_), ec);
    poke.close(ec);
    accept_thread_.join();
    for (std::thread& thread : connection_threads_) thread.join();
  }
  uint16_t port() const { return port_; }

 private:
  void AcceptLoop() {
    for (;;) {
      auto socket = std::make_shared<tcp::socket>(ioc_);
      boost::system::error_code ec;
      acceptor_.accept(*socket, ec);
      if (stopping_ || ec) return;
      connection_threads_.emplace_back([socket] {
        boost::system::error_code ec;
        char buffer[16384];
        for (;;) {
          const size_t n = socket->read_some(asio::buffer(buffer), ec);
          if (ec) break;
          asio::write(*socket, asio::buffer(buffer, n), ec);
          if (ec) break;
        }
        socket->close(ec);
      });
    }
  }

  asio::io_context ioc_;
  tcp::acceptor acceptor_;
  const uint16_t port_;
  std::atomic<bool> stopping_{false};
  std::thread accept_thread_;
  std::vector<std::thread> connection_threads_;  // accept thread only, until joined
};

class RunningProxy {
 public:
  explicit RunningProxy(FaultProxyOptions options) : proxy_(std::move(options)) {
    status_ = proxy_.Start();
    if (status_.ok()) thread_ = std::thread([this] { proxy_.Run(); });
    // Wait for Run() so calls from this thread go through the io thread.
    if (!status_.ok()) return;
    std::promise<void> ready;
    asio::post(proxy_.io_context(), [&ready] { ready.set_value(); });
    ready.get_future().wait();
  }
  ~RunningProxy() {
    proxy_.Stop();
    if (thread_.joinable()) thread_.join();
  }
  const Status& status() const { return status_; }
  FaultProxy& proxy() { return proxy_; }

 private:
  FaultProxy proxy_;
  Status status_;
  std::thread thread_;
};

// A blocking client socket on 127.0.0.1:port with reads that time out.
class Client {
 public:
  explicit Client(uint16_t port) : socket_(ioc_) {
    socket_.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), connect_error_);
  }
  const boost::system::error_code& connect_error() const { return connect_error_; }
  int fd() { return socket_.native_handle(); }

  bool Send(const std::string& bytes) {
    boost::system::error_code ec;
    asio::write(socket_, asio::buffer(bytes), ec);
    return !ec;
  }
  // Reads until `n` bytes came, EOF, an error or the timeout; returns what
  // came. *error: 0, or errno of a failed read, or -1 for EOF.
  std::string Read(size_t n, std::chrono::milliseconds timeout, int* error = nullptr) {
    std::string got;
    const Clock::time_point deadline = Clock::now() + timeout;
    int err = 0;
    while (got.size() < n) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      pollfd p{fd(), POLLIN, 0};
      if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
      char buffer[16384];
      const ssize_t r = ::recv(fd(), buffer, std::min(sizeof buffer, n - got.size()), 0);
      if (r <= 0) {
        err = r == 0 ? -1 : errno;
        break;
      }
      got.append(buffer, static_cast<size_t>(r));
    }
    if (error) *error = err;
    return got;
  }
  // Sends `bytes` and reads as many back.
  std::string RoundTrip(const std::string& bytes) {
    if (!Send(bytes)) return "";
    return Read(bytes.size(), std::chrono::seconds(10));
  }

 private:
  asio::io_context ioc_;
  tcp::socket socket_;
  boost::system::error_code connect_error_;
};

inline FaultProxyOptions OptionsFor(const EchoServer& echo) {
  FaultProxyOptions options;
  options.upstream_port = echo.port();
  options.control_port = 0;
  return options;
}

// Waits (up to 10 s) for `done()`; returns its last value.
template <typename F>
bool Eventually(F done) {
  for (int i = 0; i < 1000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

}  // namespace crawl::faults::testing
