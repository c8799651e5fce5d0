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

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <atomic>
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
#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/base/mutex.h"

namespace crawl::fetcher::testing {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

using Request = http::request<http::string_body>;

struct Reply {
  std::string raw;                       // written verbatim
  bool close = false;                    // close the connection after writing (whatever the headers say)
  bool hang = false;                     // never answer; hold the connection open
  std::chrono::milliseconds delay{0};    // wait this long before the first byte
  std::chrono::milliseconds trickle{0};  // > 0: write one byte, then wait this long, ...
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
      : handler_(std::move(handler)),
        tls_(tls),
        acceptor_(ioc_, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0)) {
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
    MutexLock lock(mu_);
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
        MutexLock lock(mu_);
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
      if (reply.delay.count() > 0) {
        net::steady_timer wait(ioc_, reply.delay);
        co_await wait.async_wait(net::use_awaitable);
      }
      if (reply.trickle.count() > 0) {
        for (size_t i = 0; i < reply.raw.size(); ++i) {
          co_await net::async_write(stream, net::buffer(reply.raw.data() + i, 1), net::use_awaitable);
          net::steady_timer wait(ioc_, reply.trickle);
          co_await wait.async_wait(net::use_awaitable);
        }
      } else {
        co_await net::async_write(stream, net::buffer(reply.raw), net::use_awaitable);
      }
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
  mutable Mutex mu_;
  std::vector<SeenRequest> requests_ GUARDED_BY(mu_);
  std::thread thread_;
};

inline std::string Response(int status, std::string_view body, std::string_view extra_headers = "",
                            std::string_view reason = "X") {
  return "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason) +
         "\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\n" + std::string(extra_headers) + "\r\n" + std::string(body);
}

// A self-signed certificate for https test servers.
struct Certificate {
  std::string cert_pem;
  std::string key_pem;
};

inline std::string BioToString(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<size_t>(size));
}

// A self-signed P-256 certificate for `name` (CN and subjectAltName), valid
// for an hour.
inline Certificate MakeSelfSigned(const std::string& name) {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  REQUIRE(key != nullptr);
  X509* x509 = X509_new();
  X509_set_version(x509, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(x509), 1);
  X509_gmtime_adj(X509_getm_notBefore(x509), -60);
  X509_gmtime_adj(X509_getm_notAfter(x509), 3600);
  X509_set_pubkey(x509, key);
  X509_NAME* subject = X509_get_subject_name(x509);
  X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(name.c_str()), -1, -1, 0);
  X509_set_issuer_name(x509, subject);
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, x509, x509, nullptr, nullptr, 0);
  const std::string san = "DNS:" + name;
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, NID_subject_alt_name, san.c_str());
  REQUIRE(ext != nullptr);
  X509_add_ext(x509, ext, -1);
  X509_EXTENSION_free(ext);
  X509_EXTENSION* ca = X509V3_EXT_conf_nid(nullptr, &ctx, NID_basic_constraints, "critical,CA:TRUE");
  X509_add_ext(x509, ca, -1);
  X509_EXTENSION_free(ca);
  REQUIRE(X509_sign(x509, key, EVP_sha256()) > 0);

  Certificate out;
  BIO* cert_bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(cert_bio, x509);
  out.cert_pem = BioToString(cert_bio);
  BIO_free(cert_bio);
  BIO* key_bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(key_bio, key, nullptr, nullptr, 0, nullptr, nullptr);
  out.key_pem = BioToString(key_bio);
  BIO_free(key_bio);
  X509_free(x509);
  EVP_PKEY_free(key);
  return out;
}

inline std::unique_ptr<net::ssl::context> ServerContext(const Certificate& certificate) {
  auto context = std::make_unique<net::ssl::context>(net::ssl::context::tls_server);
  context->use_certificate_chain(net::buffer(certificate.cert_pem));
  context->use_private_key(net::buffer(certificate.key_pem), net::ssl::context::pem);
  return context;
}

// A file in the temp directory, removed at scope exit.
}  // namespace crawl::fetcher::testing
