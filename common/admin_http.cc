#include "common/admin_http.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <spdlog/spdlog.h>

#include <chrono>

#include "common/metrics.h"

namespace crawl {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

using Routes = std::map<std::string, HttpHandler>;

// One connection: read a request, answer it, repeat while keep-alive.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, const Routes* routes) : stream_(std::move(socket)), routes_(routes) {}
  void Start() { DoRead(); }

 private:
  void DoRead() {
    parser_.emplace();
    parser_->header_limit(16 * 1024);
    parser_->body_limit(64 * 1024);
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, size_t) { self->OnRead(ec); });
  }

  void OnRead(beast::error_code ec) {
    if (ec) return;  // closed, timed out or malformed: drop the connection
    const auto& req = parser_->get();
    response_ = {};
    response_.version(req.version());
    response_.keep_alive(req.keep_alive());
    response_.set(http::field::server, "crawl-admin");
    if (req.method() != http::verb::get && req.method() != http::verb::head) {
      Reply({405, "text/plain; charset=utf-8", "only GET and HEAD\n"}, req.method() == http::verb::head);
      return;
    }
    const std::string target(req.target());
    const size_t q = target.find('?');
    const std::string path = target.substr(0, q);
    const std::string query = q == std::string::npos ? "" : target.substr(q + 1);
    auto it = routes_->find(path);
    if (it == routes_->end()) {
      Reply({404, "text/plain; charset=utf-8", "not found: " + path + "\n"}, req.method() == http::verb::head);
      return;
    }
    HttpReply reply;
    try {
      reply = it->second(query);
    } catch (const std::exception& e) {  // a handler bug must not end the process
      spdlog::warn("http handler for {} failed: {}", path, e.what());
      reply = {500, "text/plain; charset=utf-8", "internal error\n"};
    }
    Reply(reply, req.method() == http::verb::head);
  }

  void Reply(const HttpReply& reply, bool head) {
    response_.result(static_cast<http::status>(reply.status));
    response_.set(http::field::content_type, reply.content_type);
    response_.set(http::field::cache_control, "no-store");
    if (head) {
      response_.content_length(reply.body.size());
    } else {
      response_.body() = reply.body;
      response_.prepare_payload();
    }
    stream_.expires_after(std::chrono::seconds(30));
    http::async_write(stream_, response_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec || !self->response_.keep_alive()) {
        beast::error_code ignored;
        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        return;
      }
      self->DoRead();
    });
  }

  beast::tcp_stream stream_;
  const Routes* routes_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> response_;
};

}  // namespace

struct AdminHttpServer::Impl {
  Routes routes;
  asio::io_context io;
  std::optional<tcp::acceptor> acceptor;
  std::thread thread;

  void DoAccept() {
    acceptor->async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted || !acceptor->is_open()) return;
      if (!ec) std::make_shared<Session>(std::move(socket), &routes)->Start();
      DoAccept();
    });
  }
};

AdminHttpServer::AdminHttpServer() : impl_(std::make_unique<Impl>()) {}
AdminHttpServer::~AdminHttpServer() { Stop(); }

void AdminHttpServer::Handle(const std::string& path, HttpHandler handler) {
  impl_->routes[path] = std::move(handler);
}

Result<int> AdminHttpServer::Start(const std::string& listen) {
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos) return Status::InvalidArgument("http listen address must be host:port: " + listen);
  std::string host = listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  beast::error_code ec;
  const auto address = asio::ip::make_address(host, ec);
  if (ec) return Status::InvalidArgument("http listen address is not an IP address: " + listen);
  int port = 0;
  try {
    port = std::stoi(listen.substr(colon + 1));
  } catch (const std::exception&) {
    return Status::InvalidArgument("http listen port is not a number: " + listen);
  }
  if (port < 0 || port > 65535) return Status::InvalidArgument("http listen port out of range: " + listen);
  tcp::endpoint endpoint(address, static_cast<unsigned short>(port));
  impl_->acceptor.emplace(impl_->io);
  impl_->acceptor->open(endpoint.protocol(), ec);
  if (!ec) impl_->acceptor->set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) impl_->acceptor->bind(endpoint, ec);
  if (!ec) impl_->acceptor->listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return Status::Unavailable("cannot listen for http on " + listen + ": " + ec.message());
  const int bound = impl_->acceptor->local_endpoint().port();
  impl_->DoAccept();
  impl_->thread = std::thread([this] { impl_->io.run(); });
  return bound;
}

void AdminHttpServer::Stop() {
  if (!impl_ || !impl_->thread.joinable()) return;
  asio::post(impl_->io, [this] {
    beast::error_code ignored;
    impl_->acceptor->close(ignored);
    impl_->io.stop();
  });
  impl_->thread.join();
}

void AddStandardRoutes(AdminHttpServer& server) {
  server.Handle("/metrics", [](const std::string&) {
    return HttpReply{200, "text/plain; version=0.0.4; charset=utf-8", metrics::Exposition()};
  });
  server.Handle("/healthz", [](const std::string&) { return HttpReply{200, "text/plain; charset=utf-8", "ok\n"}; });
}

}  // namespace crawl
