// An in-process HTTP/1.1 (and https) server for fetcher tests: 127.0.0.1,
// port chosen by the kernel, its own thread; a handler maps each request to
// raw response bytes so tests control framing, encodings and failures.
#pragma once

// GCC 12 with -fsanitize=address reports a false -Wmaybe-uninitialized in
// Beast's request parser (boost::optional in basic_parser.hpp), used here by
// the test server only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace crawl::fetcher::testing {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

using Request = http::request<http::string_body>;

struct Reply {
  std::string raw;     // written verbatim
  bool close = false;  // close the connection after writing (whatever the headers say)
  bool hang = false;   // never answer; hold the connection open
};

struct SeenRequest {
  std::string target;
  std::string host;
  std::string range;
  std::string user_agent;
  std::string accept_encoding;
  std::string connection_header;
  int connection = 0;  // 1-based id of the connection it came on
};

// An HTTP/1.1 server on 127.0.0.1:0 running in its own thread; `handler`
// maps each request to raw response bytes.
class TestServer {
 public:
  using Handler = std::function<Reply(const Request&)>;

  // With `tls` (not owned, must outlive the server) it speaks https.
  explicit TestServer(Handler handler, net::ssl::context* tls = nullptr)
      : handler_(std::move(handler)), tls_(tls), acceptor_(ioc_, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0)) {
    port_ = acceptor_.local_endpoint().port();
    net::co_spawn(ioc_, Accept(), net::detached);
    thread_ = std::thread([this] { ioc_.run(); });
  }
  ~TestServer() {
    ioc_.stop();
    thread_.join();
  }

  uint16_t port() const { return port_; }
  std::string base() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int connections() const { return connections_.load(); }
  std::vector<SeenRequest> requests() const {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }

 private:
  net::awaitable<void> Accept() {
    try {
      for (;;) {
        tcp::socket socket = co_await acceptor_.async_accept(net::use_awaitable);
        const int id = ++connections_;
        net::co_spawn(ioc_, Serve(std::move(socket), id), net::detached);
      }
    } catch (const std::exception&) {
    }
  }

  net::awaitable<void> Serve(tcp::socket socket, int id) {
    try {
      if (tls_ == nullptr) {
        co_await ServeStream(socket, socket, id);
      } else {
        net::ssl::stream<tcp::socket> stream(std::move(socket), *tls_);
        co_await stream.async_handshake(net::ssl::stream_base::server, net::use_awaitable);
        co_await ServeStream(stream, stream.next_layer(), id);
      }
    } catch (const std::exception&) {
      // Client went away or failed the handshake: normal in these tests.
    }
  }

  // Closing `socket` without a TLS close_notify is deliberate: many servers
  // do it, and the client must cope.
  template <typename Stream>
  net::awaitable<void> ServeStream(Stream& stream, tcp::socket& socket, int id) {
    beast::flat_buffer buffer;
    for (;;) {
      Request request;
      co_await http::async_read(stream, buffer, request, net::use_awaitable);
      {
        std::lock_guard<std::mutex> lock(mu_);
        requests_.push_back({std::string(request.target()), std::string(request[http::field::host]),
                             std::string(request[http::field::range]),
                             std::string(request[http::field::user_agent]),
                             std::string(request[http::field::accept_encoding]),
                             std::string(request[http::field::connection]), id});
      }
      Reply reply = handler_(request);
      if (reply.hang) {
        net::steady_timer forever(ioc_, std::chrono::hours(1));
        co_await forever.async_wait(net::use_awaitable);
        co_return;
      }
      co_await net::async_write(stream, net::buffer(reply.raw), net::use_awaitable);
      if (reply.close) {
        beast::error_code ec;
        socket.shutdown(tcp::socket::shutdown_both, ec);
        co_return;
      }
    }
  }

  Handler handler_;
  net::ssl::context* tls_;
  net::io_context ioc_;
  tcp::acceptor acceptor_;
  uint16_t port_ = 0;
  std::atomic<int> connections_{0};
  mutable std::mutex mu_;
  std::vector<SeenRequest> requests_;  // GUARDED_BY(mu_)
  std::thread thread_;
};

inline std::string Response(int status, std::string_view body, std::string_view extra_headers = "",
                     std::string_view reason = "X") {
  return "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason) +
         "\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" +
         std::string(extra_headers) + "\r\n" + std::string(body);
}


}  // namespace crawl::fetcher::testing
