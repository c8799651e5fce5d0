// The Beast server; see server.h. Per connection: do_read -> on_read ->
// (HandleRequest) -> do_write -> on_write -> do_read again while keep-alive.
#include "tests/testweb/server.h"

#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/detect_ssl.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <optional>
#include <sstream>
#include <thread>
#include <type_traits>
#include <unordered_map>

#include "tests/testweb/h2_session.h"
#include "tests/testweb/request_handler.h"
#include "tests/testweb/server_context.h"
#include "tests/testweb/tls_cert.h"

namespace crawl::testweb {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

constexpr uint32_t kHeaderLimit = 16 * 1024;
constexpr uint64_t kBodyLimit = 64 * 1024;

}  // namespace

namespace {

// One connection over Stream (beast::tcp_stream, or an ssl_stream over one
// for https). Owns itself through the handlers it has pending; all of its
// handlers run on its strand (the socket's executor).
template <class Stream>
class Session : public std::enable_shared_from_this<Session<Stream>> {
 public:
  Session(Stream&& stream, beast::flat_buffer&& buffer, std::shared_ptr<const ServerContext> context)
      : stream_(std::move(stream)),
        buffer_(std::move(buffer)),
        context_(std::move(context)),
        connection_(++context_->connections) {}

  // REQUIRES: for TLS, the handshake is done.
  void Run() {
    beast::error_code ec;
    const auto local = Socket().local_endpoint(ec);
    if (!ec) {
      const auto it = context_->host_by_address.find(local.address().to_string());
      if (it != context_->host_by_address.end()) fallback_host_ = it->second;
    }
    const auto remote = Socket().remote_endpoint(ec);
    remote_ = ec ? "-" : remote.address().to_string() + ":" + std::to_string(remote.port());
    asio::dispatch(stream_.get_executor(),
                   beast::bind_front_handler(&Session::DoRead, this->shared_from_this()));
  }

 private:
  static constexpr bool kTls = !std::is_same_v<Stream, beast::tcp_stream>;

  tcp::socket& Socket() { return beast::get_lowest_layer(stream_).socket(); }
  void Expire(std::chrono::milliseconds after) { beast::get_lowest_layer(stream_).expires_after(after); }

  void DoRead() {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(kBodyLimit);
    Expire(context_->read_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&Session::OnRead, this->shared_from_this()));
  }

  void OnRead(beast::error_code ec, std::size_t /*bytes*/) {
    if (ec == http::error::end_of_stream) return DoClose();
    if (ec) return;  // timeout, reset or a malformed request: drop the connection
    started_wall_ = std::chrono::system_clock::now();
    started_ = std::chrono::steady_clock::now();
    const Request request = parser_->release();
    handled_ = HandleRequest(*context_->universe, request, fallback_host_, kTls, context_->clock,
                             context_->robots_control);
    target_.assign(request.target().data(), request.target().size());
    if (handled_.close) {
      // robots-unreachable: the request is read, then the connection dies.
      Log(0, 0);
      beast::error_code ignored;
      Socket().shutdown(tcp::socket::shutdown_both, ignored);
      Socket().close(ignored);
      return;
    }
    if (handled_.stream != Served::Stream::kNone) return StartStream();
    response_ = std::move(handled_.response);
    if (context_->degrading != nullptr)
      handled_.first_byte_delay += context_->degrading->Delay(handled_.host, started_);
    if (handled_.first_byte_delay.count() > 0 || handled_.trickle_pieces > 1) {
      std::ostringstream raw;
      raw << response_;  // the exact bytes async_write would send
      raw_ = std::move(raw).str();
      raw_sent_ = 0;
      timer_.expires_after(handled_.first_byte_delay);
      timer_.async_wait(beast::bind_front_handler(&Session::DoWriteRawPiece, this->shared_from_this()));
      return;
    }
    DoWrite();
  }

  void DoWrite() {
    Expire(context_->write_timeout);
    http::async_write(stream_, response_,
                      beast::bind_front_handler(&Session::OnWrite, this->shared_from_this()));
  }

  // Slow hosts: the serialized response in trickle_pieces pieces, with a
  // pause before each (the first pause is the first-byte delay).
  void DoWriteRawPiece(beast::error_code ec) {
    if (ec) return;
    const size_t pieces = static_cast<size_t>(std::max(1, handled_.trickle_pieces));
    const size_t piece = (raw_.size() + pieces - 1) / pieces;
    const size_t n = std::min(piece, raw_.size() - raw_sent_);
    Expire(context_->write_timeout);
    asio::async_write(stream_, asio::buffer(raw_.data() + raw_sent_, n),
                      beast::bind_front_handler(&Session::OnWriteRawPiece, this->shared_from_this()));
  }

  void OnWriteRawPiece(beast::error_code ec, std::size_t bytes) {
    if (ec) return;
    raw_sent_ += bytes;
    if (raw_sent_ < raw_.size()) {
      timer_.expires_after(handled_.trickle_interval);
      timer_.async_wait(beast::bind_front_handler(&Session::DoWriteRawPiece, this->shared_from_this()));
      return;
    }
    raw_.clear();
    OnWrite(ec, bytes);
  }

  // Hostile answers that never end (request_handler.h): they stop only
  // when the client goes away, which fails a write.
  void StartStream() {
    stream_sent_ = 0;
    stream_cycle_ = 0;
    piece_ = handled_.stream == Served::Stream::kSlowloris ? kSlowlorisStatusLine : kEndlessHeader;
    DoWriteStreamPiece();
  }

  void DoWriteStreamPiece() {
    Expire(context_->write_timeout);
    asio::async_write(stream_, asio::buffer(piece_.data(), piece_.size()),
                      beast::bind_front_handler(&Session::OnWriteStreamPiece, this->shared_from_this()));
  }

  void OnWriteStreamPiece(beast::error_code ec, std::size_t bytes) {
    stream_sent_ += bytes;
    if (ec) return Log(200, stream_sent_);
    if (handled_.stream == Served::Stream::kSlowloris) {
      piece_ = kSlowlorisCycle.substr(stream_cycle_++ % kSlowlorisCycle.size(), 1);
      timer_.expires_after(kSlowlorisInterval);
      timer_.async_wait([self = this->shared_from_this()](beast::error_code wait_ec) {
        if (!wait_ec) self->DoWriteStreamPiece();
      });
      return;
    }
    piece_ = EndlessChunk();
    DoWriteStreamPiece();
  }

  void OnWrite(beast::error_code ec, std::size_t /*bytes*/) {
    if (ec) return;
    Log(response_.result_int(), handled_.body_bytes);
    if (!response_.keep_alive()) return DoClose();
    DoRead();
  }

  // One access-log line: start time, and the duration until the last byte
  // was written (or the connection closed).
  void Log(unsigned status, uint64_t bytes) {
    if (context_->access_log == nullptr || handled_.admin) return;
    const auto elapsed = std::chrono::steady_clock::now() - started_;
    context_->access_log->Write(started_wall_, handled_.host, target_, status, bytes, remote_,
                                std::chrono::duration<double, std::milli>(elapsed).count(), connection_);
  }

  void DoClose() {
    if constexpr (kTls) {
      // close_notify, then the socket goes when the last handler does.
      Expire(context_->write_timeout);
      stream_.async_shutdown([self = this->shared_from_this()](beast::error_code) {});
    } else {
      beast::error_code ec;
      Socket().shutdown(tcp::socket::shutdown_send, ec);
    }
  }

  Stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  Response response_;
  std::shared_ptr<const ServerContext> context_;
  std::optional<uint32_t> fallback_host_;
  std::string remote_;
  asio::steady_timer timer_{stream_.get_executor()};
  Handled handled_;
  std::string target_;
  std::string raw_;  // slow hosts: the response bytes, sent piecewise
  size_t raw_sent_ = 0;
  std::string_view piece_;  // streams: the bytes being written (static storage)
  uint64_t stream_sent_ = 0;
  uint64_t stream_cycle_ = 0;
  std::chrono::system_clock::time_point started_wall_;
  std::chrono::steady_clock::time_point started_;
  uint64_t connection_;
};

// The first bytes of a new connection: a TLS ClientHello starts a TLS
// session (when the server has a TLS context), anything else plain HTTP.
// So every address serves http and https on one port, and the hosts file
// needs one "IP:PORT NAME" line per host whatever its scheme.
class Detector : public std::enable_shared_from_this<Detector> {
 public:
  Detector(tcp::socket&& socket, std::shared_ptr<const ServerContext> context)
      : stream_(std::move(socket)), context_(std::move(context)) {}

  void Run() {
    asio::dispatch(stream_.get_executor(),
                   beast::bind_front_handler(&Detector::DoDetect, shared_from_this()));
  }

 private:
  void DoDetect() {
    stream_.expires_after(context_->read_timeout);
    beast::async_detect_ssl(stream_, buffer_,
                            beast::bind_front_handler(&Detector::OnDetect, shared_from_this()));
  }

  void OnDetect(beast::error_code ec, bool tls) {
    if (ec) return;
    if (!tls || !context_->tls) return SniffH2();
    tls_.emplace(std::move(stream_), *context_->tls);
    beast::get_lowest_layer(*tls_).expires_after(context_->read_timeout);
    tls_->async_handshake(ssl::stream_base::server, buffer_.data(),
                          beast::bind_front_handler(&Detector::OnHandshake, shared_from_this()));
  }

  // A plain connection that opens with the HTTP/2 preface is h2c (prior
  // knowledge, h2_session.h); anything else is HTTP/1.1 (or TLS without a
  // TLS context: the HTTP parser rejects the bytes and drops the connection).
  void SniffH2() {
    const auto data = buffer_.data();
    const std::string_view seen(static_cast<const char*>(data.data()), data.size());
    const size_t n = std::min(seen.size(), kH2Preface.size());
    if (seen.substr(0, n) != kH2Preface.substr(0, n)) {
      std::make_shared<Session<beast::tcp_stream>>(std::move(stream_), std::move(buffer_), context_)->Run();
      return;
    }
    if (n == kH2Preface.size()) return ServeH2(std::move(stream_), std::move(buffer_), context_);
    stream_.async_read_some(buffer_.prepare(1024),
                            [self = shared_from_this()](beast::error_code ec, size_t bytes) {
                              if (ec) return;
                              self->buffer_.commit(bytes);
                              self->SniffH2();
                            });
  }

  void OnHandshake(beast::error_code ec, std::size_t used) {
    if (ec) return;  // a client that refused the self-signed certificate, or garbage
    buffer_.consume(used);
    std::make_shared<Session<beast::ssl_stream<beast::tcp_stream>>>(std::move(*tls_), std::move(buffer_),
                                                                    context_)
        ->Run();
  }

  beast::tcp_stream stream_;
  std::optional<beast::ssl_stream<beast::tcp_stream>> tls_;
  beast::flat_buffer buffer_;
  std::shared_ptr<const ServerContext> context_;
};

}  // namespace

// Accepts connections on one address and starts a Session for each.
class ServerListener : public std::enable_shared_from_this<ServerListener> {
 public:
  ServerListener(asio::io_context& ioc, std::shared_ptr<const ServerContext> context)
      : ioc_(ioc),
        acceptor_(asio::make_strand(ioc)),
        retry_(acceptor_.get_executor()),
        context_(std::move(context)) {}

  [[nodiscard]] beast::error_code Bind(const tcp::endpoint& endpoint) {
    beast::error_code ec;
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    return ec;
  }

  [[nodiscard]] uint16_t port() const {
    beast::error_code ec;
    return acceptor_.local_endpoint(ec).port();
  }

  void Start() {
    asio::dispatch(acceptor_.get_executor(),
                   beast::bind_front_handler(&ServerListener::DoAccept, shared_from_this()));
  }

  void Close() {
    asio::post(acceptor_.get_executor(), [self = shared_from_this()] {
      beast::error_code ec;
      self->acceptor_.close(ec);
      self->retry_.cancel();
    });
  }

 private:
  void DoAccept() {
    acceptor_.async_accept(asio::make_strand(ioc_),
                           beast::bind_front_handler(&ServerListener::OnAccept, shared_from_this()));
  }

  void OnAccept(beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
    if (ec) {
      // Out of file descriptors and the like: pause instead of spinning.
      spdlog::warn("accept failed: {}", ec.message());
      retry_.expires_after(std::chrono::milliseconds(50));
      retry_.async_wait([self = shared_from_this()](beast::error_code wait_ec) {
        if (!wait_ec) self->DoAccept();
      });
      return;
    }
    std::make_shared<Detector>(std::move(socket), context_)->Run();
    DoAccept();
  }

  asio::io_context& ioc_;
  tcp::acceptor acceptor_;
  asio::steady_timer retry_;
  std::shared_ptr<const ServerContext> context_;
};

Server::Server(const Universe& universe, ServerOptions options) : options_(std::move(options)) {
  auto context = std::make_shared<ServerContext>();
  context->universe = &universe;
  context->access_log = options_.access_log;
  context->clock = options_.clock;
  context->robots_control = options_.robots_control;
  context->degrading = options_.degrading;
  context->read_timeout = options_.read_timeout;
  context->write_timeout = options_.write_timeout;
  for (uint32_t i = 0; i < options_.addresses.size(); ++i)
    context->host_by_address.emplace(options_.addresses[i], i);
  context_ = std::move(context);
}

Server::~Server() {
  for (auto& l : listeners_) l->Close();
  ioc_.stop();
}

Status Server::Start() {
  if (options_.addresses.size() != context_->universe->HostCount())
    return Status::InvalidArgument("need one address per host");
  if (context_->universe->options().Has(Misbehaviour::kHttps)) {
    auto tls = MakeSelfSignedServerContext({});
    if (!tls.ok()) return tls.status();
    context_->tls = std::move(tls).value();
  }
  // Distinct addresses, in host order.
  std::vector<asio::ip::address> addresses;
  for (const auto& text : options_.addresses) {
    beast::error_code ec;
    const auto address = asio::ip::make_address(text, ec);
    if (ec) return Status::InvalidArgument("bad listen address '" + text + "'");
    if (std::find(addresses.begin(), addresses.end(), address) == addresses.end())
      addresses.push_back(address);
  }
  const int attempts = options_.port == 0 ? std::max(1, options_.port_attempts) : 1;
  std::string last_error;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    listeners_.clear();
    uint16_t port = options_.port;
    bool ok = true;
    for (const auto& address : addresses) {
      auto listener = std::make_shared<ServerListener>(ioc_, context_);
      if (const auto ec = listener->Bind({address, port})) {
        last_error = address.to_string() + ":" + std::to_string(port) + ": " + ec.message();
        ok = false;
        break;
      }
      if (port == 0) port = listener->port();
      listeners_.push_back(std::move(listener));
    }
    if (ok) {
      port_ = port;
      for (auto& l : listeners_) l->Start();
      return Status::Ok();
    }
  }
  listeners_.clear();
  return Status::Unavailable("cannot listen on " + last_error);
}

std::vector<HostsEntry> Server::Entries() const {
  std::vector<HostsEntry> entries;
  entries.reserve(options_.addresses.size());
  for (uint32_t i = 0; i < options_.addresses.size(); ++i) {
    entries.push_back({options_.addresses[i], port_, context_->universe->HostName(i)});
  }
  return entries;
}

void Server::Run(int threads) {
  std::vector<std::thread> extra;
  for (int i = 1; i < threads; ++i) extra.emplace_back([this] { ioc_.run(); });
  ioc_.run();
  for (auto& t : extra) t.join();
}

void Server::Stop() { ioc_.stop(); }

}  // namespace crawl::testweb
