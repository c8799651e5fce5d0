// A tiny forward proxy for fetcher tests: 127.0.0.1, port chosen by the
// kernel, its own thread. It records the first request of each connection
// (method, target, Host, Proxy-Authorization), answers 407 when it requires
// credentials that were not sent, and otherwise relays to one upstream port
// on 127.0.0.1 whatever the request names: a request's bytes as they came
// (absolute-form target included), or for CONNECT a "200" and then a tunnel.
#pragma once

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <cctype>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/base/mutex.h"

namespace crawl::fetcher::testing {

namespace net = boost::asio;
using tcp = net::ip::tcp;

struct ProxySeen {
  std::string method;
  std::string target;
  std::string host;
  std::string authorization;  // Proxy-Authorization as sent ("" if none)
};

class TestProxy {
 public:
  // Relays to 127.0.0.1:`upstream_port`. With `required_authorization`, a
  // request without exactly that Proxy-Authorization gets 407.
  explicit TestProxy(uint16_t upstream_port, std::string required_authorization = "")
      : upstream_port_(upstream_port),
        required_(std::move(required_authorization)),
        acceptor_(ioc_, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0)) {
    port_ = acceptor_.local_endpoint().port();
    net::co_spawn(ioc_, Accept(), net::detached);
    thread_ = std::thread([this] { ioc_.run(); });
  }
  ~TestProxy() {
    ioc_.stop();
    thread_.join();
  }

  uint16_t port() const { return port_; }
  std::vector<ProxySeen> seen() const {
    MutexLock lock(mu_);
    return seen_;
  }

 private:
  using Socket = std::shared_ptr<tcp::socket>;

  net::awaitable<void> Accept() {
    try {
      for (;;) {
        auto socket = std::make_shared<tcp::socket>(co_await acceptor_.async_accept(net::use_awaitable));
        net::co_spawn(ioc_, Serve(socket), net::detached);
      }
    } catch (const std::exception&) {
    }
  }

  static std::string Lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }

  // The first request's line and fields.
  static ProxySeen Parse(const std::string& head) {
    ProxySeen seen;
    size_t line_end = head.find("\r\n");
    const std::string line = head.substr(0, line_end);
    const size_t sp1 = line.find(' ');
    const size_t sp2 = line.find(' ', sp1 + 1);
    seen.method = line.substr(0, sp1);
    seen.target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    while (line_end != std::string::npos && line_end + 2 < head.size()) {
      const size_t start = line_end + 2;
      line_end = head.find("\r\n", start);
      const std::string field = head.substr(start, line_end - start);
      const size_t colon = field.find(':');
      if (colon == std::string::npos) continue;
      const std::string name = Lower(field.substr(0, colon));
      std::string value = field.substr(colon + 1);
      while (!value.empty() && value.front() == ' ') value.erase(0, 1);
      if (name == "host") seen.host = value;
      if (name == "proxy-authorization") seen.authorization = value;
    }
    return seen;
  }

  net::awaitable<void> Serve(Socket client) {
    try {
      std::string data;
      const size_t n = co_await net::async_read_until(*client, net::dynamic_buffer(data, 65536), "\r\n\r\n",
                                                      net::use_awaitable);
      const std::string head = data.substr(0, n);
      const std::string rest = data.substr(n);
      ProxySeen seen = Parse(head);
      {
        MutexLock lock(mu_);
        seen_.push_back(seen);
      }
      if (!required_.empty() && seen.authorization != required_) {
        co_await net::async_write(*client,
                                  net::buffer(std::string("HTTP/1.1 407 Proxy Authentication Required\r\n"
                                                          "Proxy-Authenticate: Basic realm=\"test\"\r\n"
                                                          "Content-Length: 0\r\nConnection: close\r\n\r\n")),
                                  net::use_awaitable);
        co_return;
      }
      auto upstream = std::make_shared<tcp::socket>(ioc_);
      co_await upstream->async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), upstream_port_),
                                       net::use_awaitable);
      if (seen.method == "CONNECT") {
        co_await net::async_write(*client,
                                  net::buffer(std::string("HTTP/1.1 200 Connection established\r\n\r\n")),
                                  net::use_awaitable);
      } else {
        co_await net::async_write(*upstream, net::buffer(head), net::use_awaitable);
      }
      if (!rest.empty()) co_await net::async_write(*upstream, net::buffer(rest), net::use_awaitable);
      net::co_spawn(ioc_, Pump(client, upstream), net::detached);
      co_await Pump(upstream, client);
    } catch (const std::exception&) {
    }
  }

  // Copies `from` to `to` until `from` ends, then ends `to`'s sending side.
  static net::awaitable<void> Pump(Socket from, Socket to) {
    char buffer[16 * 1024];
    try {
      for (;;) {
        const size_t n = co_await from->async_read_some(net::buffer(buffer), net::use_awaitable);
        co_await net::async_write(*to, net::buffer(buffer, n), net::use_awaitable);
      }
    } catch (const std::exception&) {
    }
    boost::system::error_code ignored;
    to->shutdown(tcp::socket::shutdown_send, ignored);
  }

  const uint16_t upstream_port_;
  const std::string required_;
  net::io_context ioc_;
  tcp::acceptor acceptor_;
  uint16_t port_ = 0;
  mutable Mutex mu_;
  std::vector<ProxySeen> seen_ GUARDED_BY(mu_);
  std::thread thread_;
};

}  // namespace crawl::fetcher::testing
