#include "common/net/admin_http.h"

#include <spdlog/spdlog.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <chrono>
#include <type_traits>

#include "common/base/clock.h"
#include "common/base/metrics.h"
#include "common/net/http_login.h"
#include "common/net/http_security.h"
#include "common/net/login_throttle.h"

namespace crawl {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using Request = http::request<http::string_body>;

struct Route {
  HttpHandler handler;
  bool is_protected = false;
};
using Routes = std::map<std::string, Route>;
using Apps = std::map<std::string, HttpAppHandler>;

// What every session of one server shares (lives in AdminHttpServer::Impl).
struct ServerState {
  Routes routes;
  Apps apps;  // by path prefix
  HttpTokenCheck token_check;
  std::vector<std::string> host_names;  // --http-host
  HostPolicy hosts;                     // set by Start
  std::optional<ssl::context> tls;      // HTTPS only when set
  SystemClock clock;
  LoginThrottle throttle{&clock};
  CsrfKey csrf_key{RandomHex(32)};
  bool protect = false;    // listening off loopback: protected routes need a token
  size_t connections = 0;  // open sessions; only touched on the server's thread
};

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string FormDecode(std::string_view v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '+') {
      out += ' ';
    } else if (v[i] == '%' && i + 2 < v.size() && HexDigit(v[i + 1]) >= 0 && HexDigit(v[i + 2]) >= 0) {
      out += static_cast<char>(HexDigit(v[i + 1]) * 16 + HexDigit(v[i + 2]));
      i += 2;
    } else {
      out += v[i];
    }
  }
  return out;
}

std::string Header(const Request& req, http::field f) {
  auto it = req.find(f);
  return it == req.end() ? std::string() : std::string(it->value());
}

// The token a request carries: a bearer header, else the login cookie.
std::string RequestToken(const Request& req) {
  const std::string auth = Header(req, http::field::authorization);
  if (auth.rfind("Bearer ", 0) == 0) return auth.substr(7);
  return std::string(CookieValue(Header(req, http::field::cookie), kLoginCookie));
}

HttpReply Text(int status, std::string body) {
  return {status, "text/plain; charset=utf-8", std::move(body)};
}

// The request as handlers see it.
HttpRequest ToHttpRequest(const ServerState& state, const Request& req, const std::string& target,
                          const std::string& client) {
  HttpRequest r;
  const bool head = req.method() == http::verb::head;
  r.method = head ? "HEAD" : std::string(req.method_string());
  const size_t q = target.find('?');
  r.path = target.substr(0, q);
  r.query = q == std::string::npos ? "" : target.substr(q + 1);
  r.body = req.body();
  r.token = RequestToken(req);
  r.content_type = Header(req, http::field::content_type);
  r.origin = Header(req, http::field::origin);
  r.referer = Header(req, http::field::referer);
  r.host = Header(req, http::field::host);
  r.cookies = Header(req, http::field::cookie);
  r.client = client;
  r.loopback_server = !state.protect;
  r.tls = state.tls.has_value();
  if (!r.token.empty()) r.logout_csrf = state.csrf_key.Token("logout", r.token);
  return r;
}

const HttpAppHandler* FindApp(const ServerState& state, const std::string& path) {
  for (const auto& [prefix, handler] : state.apps) {
    if (path == prefix || (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0 &&
                           path[prefix.size()] == '/'))
      return &handler;
  }
  return nullptr;
}

bool Allowed(const ServerState& state, std::string_view token) {
  if (!state.protect) return true;
  return !token.empty() && state.token_check && state.token_check(token);
}

// A handler bug must not end the process.
template <class F>
HttpReply Guarded(const std::string& path, F&& f) {
  try {
    return f();
  } catch (const std::exception& e) {
    spdlog::warn("http handler for {} failed: {}", path, e.what());
    return Text(500, "internal error\n");
  }
}

// The answer to one request.
HttpReply Dispatch(ServerState& state, const Request& req, const std::string& client) {
  const HttpRequest r = ToHttpRequest(state, req, std::string(req.target()), client);
  if (r.path != "/healthz" && !state.hosts.Allows(r.host)) return MisdirectedReply(r.host);
  const LoginContext login{state.token_check, &state.throttle, &state.csrf_key};
  if (r.path == "/login") return HandleLogin(login, r);
  if (r.path == "/logout") return HandleLogout(login, r);
  const bool get = req.method() == http::verb::get || req.method() == http::verb::head;
  if (const HttpAppHandler* app = FindApp(state, r.path)) {
    if (!get && req.method() != http::verb::post) return Text(405, "only GET, HEAD and POST\n");
    return Guarded(r.path, [&] { return (*app)(r); });
  }
  if (!get) return Text(405, "only GET and HEAD\n");
  auto it = state.routes.find(r.path);
  if (it == state.routes.end()) return Text(404, "not found: " + r.path + "\n");
  if (it->second.is_protected && !Allowed(state, r.token))
    return LoginFormReply(401, "This page needs a reader or admin token.", "", r.tls);
  return Guarded(r.path, [&] { return it->second.handler(r.query); });
}

// One connection: (TLS handshake,) read a request, answer it, repeat while
// keep-alive. Stream is beast::tcp_stream or an ssl_stream over one.
template <class Stream>
class Session : public std::enable_shared_from_this<Session<Stream>> {
  static constexpr bool kTls = !std::is_same_v<Stream, beast::tcp_stream>;

 public:
  Session(Stream stream, std::string client, ServerState* state)
      : stream_(std::move(stream)), client_(std::move(client)), state_(state) {
    ++state_->connections;
  }
  ~Session() { --state_->connections; }

  void Start() {
    if constexpr (kTls) {
      beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(10));
      stream_.async_handshake(ssl::stream_base::server,
                              [self = this->shared_from_this()](beast::error_code ec) {
                                if (!ec) self->DoRead();
                              });
    } else {
      DoRead();
    }
  }

 private:
  void DoRead() {
    parser_.emplace();
    parser_->header_limit(16 * 1024);
    parser_->body_limit(1024 * 1024);  // a console seed list
    beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(30));
    http::async_read(stream_, buffer_, *parser_,
                     [self = this->shared_from_this()](beast::error_code ec, size_t) { self->OnRead(ec); });
  }

  void OnRead(beast::error_code ec) {
    if (ec) return;  // closed, timed out or malformed: drop the connection
    const auto& req = parser_->get();
    response_ = {};
    response_.version(req.version());
    response_.keep_alive(req.keep_alive());
    response_.set(http::field::server, "crawl-admin");
    Reply(Dispatch(*state_, req, client_), req.method() == http::verb::head);
  }

  void Reply(const HttpReply& reply, bool head) {
    response_.result(static_cast<http::status>(reply.status));
    response_.set(http::field::content_type, reply.content_type);
    response_.set(http::field::cache_control, "no-store");
    for (const auto& [name, value] : DefaultSecurityHeaders()) response_.set(name, value);
    for (const auto& [name, value] : reply.headers) {
      if (beast::iequals(name, "Set-Cookie")) {
        response_.insert(name, value);  // one header per cookie
      } else {
        response_.set(name, value);
      }
    }
    if (head) {
      response_.content_length(reply.body.size());
    } else {
      response_.body() = reply.body;
      response_.prepare_payload();
    }
    beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(30));
    http::async_write(stream_, response_, [self = this->shared_from_this()](beast::error_code ec, size_t) {
      if (ec || !self->response_.keep_alive()) {
        self->Close();
        return;
      }
      self->DoRead();
    });
  }

  void Close() {
    if constexpr (kTls) {
      beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(5));
      stream_.async_shutdown([self = this->shared_from_this()](beast::error_code) {});
    } else {
      beast::error_code ignored;
      stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    }
  }

  Stream stream_;
  std::string client_;
  ServerState* state_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> response_;
};

}  // namespace

struct AdminHttpServer::Impl {
  ServerState state;
  asio::io_context io;
  std::optional<tcp::acceptor> acceptor;
  std::thread thread;

  void StartSession(tcp::socket socket) {
    beast::error_code ec;
    const auto peer = socket.remote_endpoint(ec);
    std::string client = ec ? std::string() : peer.address().to_string();
    if (state.tls) {
      using Tls = beast::ssl_stream<beast::tcp_stream>;
      std::make_shared<Session<Tls>>(Tls(beast::tcp_stream(std::move(socket)), *state.tls), std::move(client),
                                     &state)
          ->Start();
    } else {
      std::make_shared<Session<beast::tcp_stream>>(beast::tcp_stream(std::move(socket)), std::move(client),
                                                   &state)
          ->Start();
    }
  }

  void DoAccept() {
    acceptor->async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted || !acceptor->is_open()) return;
      // Past the cap a new connection is closed at once: a flood of idle
      // connections cannot take the memory and descriptors of the process.
      if (!ec && state.connections < kMaxAdminHttpConnections) StartSession(std::move(socket));
      DoAccept();
    });
  }
};

AdminHttpServer::AdminHttpServer() : impl_(std::make_unique<Impl>()) {}
AdminHttpServer::~AdminHttpServer() { Stop(); }

void AdminHttpServer::Handle(const std::string& path, HttpHandler handler) {
  impl_->state.routes[path] = Route{std::move(handler), false};
}

void AdminHttpServer::HandleProtected(const std::string& path, HttpHandler handler) {
  impl_->state.routes[path] = Route{std::move(handler), true};
}

void AdminHttpServer::HandleApp(const std::string& prefix, HttpAppHandler handler) {
  impl_->state.apps[prefix] = std::move(handler);
}

void AdminHttpServer::RequireTokenOffLoopback(HttpTokenCheck check) {
  impl_->state.token_check = std::move(check);
}

void AdminHttpServer::AllowHostNames(std::vector<std::string> names) {
  impl_->state.host_names = std::move(names);
}

Status AdminHttpServer::UseTls(const std::string& cert_file, const std::string& key_file) {
  ssl::context ctx(ssl::context::tls_server);
  beast::error_code ec;
  ctx.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                      ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use,
                  ec);
  if (!ec) ctx.use_certificate_chain_file(cert_file, ec);
  if (ec)
    return Status::InvalidArgument("cannot read the HTTPS certificate " + cert_file + ": " + ec.message());
  ctx.use_private_key_file(key_file, ssl::context::pem, ec);
  if (ec) return Status::InvalidArgument("cannot read the HTTPS key " + key_file + ": " + ec.message());
  impl_->state.tls.emplace(std::move(ctx));
  return Status::Ok();
}

Result<int> AdminHttpServer::Start(const std::string& listen) {
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos)
    return Status::InvalidArgument("http listen address must be host:port: " + listen);
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
  impl_->state.protect = !address.is_loopback();
  impl_->state.hosts = HostPolicy(host, impl_->state.host_names);
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

std::map<std::string, std::string> ParseForm(std::string_view body) {
  std::map<std::string, std::string> out;
  while (!body.empty()) {
    const size_t amp = body.find('&');
    const std::string_view pair = body.substr(0, amp);
    body = amp == std::string_view::npos ? std::string_view() : body.substr(amp + 1);
    const size_t eq = pair.find('=');
    if (pair.empty()) continue;
    std::string name = FormDecode(pair.substr(0, eq));
    std::string value = eq == std::string_view::npos ? "" : FormDecode(pair.substr(eq + 1));
    out.emplace(std::move(name), std::move(value));
  }
  return out;
}

void AddStandardRoutes(AdminHttpServer& server) {
  server.Handle("/metrics", [](const std::string&) {
    return HttpReply{200, "text/plain; version=0.0.4; charset=utf-8", metrics::Exposition()};
  });
  server.Handle("/healthz", [](const std::string&) {
    return HttpReply{200, "text/plain; charset=utf-8", "ok\n"};
  });
}

}  // namespace crawl
