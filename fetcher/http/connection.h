// Connection: one client connection of a FetchSession, TCP or TLS over TCP.
// FetchSession opens it (fetch_session_connect.cc) and speaks HTTP/1.1 on
// it, or hands it to an H2Session for HTTP/2; whoever uses it runs on the
// session's strand. Internal to the fetcher.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <cstdint>
#include <optional>
#include <string>

namespace crawl::fetcher {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace ssl = boost::asio::ssl;
using tcp = net::ip::tcp;
using Strand = net::strand<net::io_context::executor_type>;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

// Where a connection goes: a URL's scheme, host and port.
struct Origin {
  std::string scheme;
  std::string host;
  uint16_t port = 0;
  bool operator==(const Origin&) const = default;
};

class Connection {
 public:
  // A stream of either kind exists (open, or closed and not yet dropped).
  [[nodiscard]] bool exists() const { return plain_.has_value() || tls_.has_value(); }

  // Makes the stream, replacing none. REQUIRES: !exists().
  beast::tcp_stream& MakePlain(Strand& strand) { return plain_.emplace(strand); }
  TlsStream& MakeTls(Strand& strand, ssl::context& context) { return tls_.emplace(strand, context); }

  // The TLS stream, or null over plain TCP.
  [[nodiscard]] TlsStream* tls() { return tls_ ? &*tls_ : nullptr; }

  // REQUIRES: exists().
  beast::tcp_stream& Tcp() { return tls_ ? beast::get_lowest_layer(*tls_) : *plain_; }

  // Calls f with the stream to read and write: the TLS stream, or the TCP
  // one. REQUIRES: exists().
  template <typename F>
  void WithStream(F&& f) {
    if (tls_) {
      f(*tls_);
    } else {
      f(*plain_);
    }
  }

  // Shuts the socket down and closes it: pending operations end with
  // operation_aborted. The stream stays until Drop(). REQUIRES: exists().
  void Close() {
    beast::error_code ignored;
    Tcp().socket().shutdown(tcp::socket::shutdown_both, ignored);
    Tcp().close();
  }

  // Destroys the stream. REQUIRES: no operation pending on it.
  void Drop() {
    tls_.reset();
    plain_.reset();
  }

 private:
  // At most one of the two.
  std::optional<beast::tcp_stream> plain_;
  std::optional<TlsStream> tls_;
};

}  // namespace crawl::fetcher
