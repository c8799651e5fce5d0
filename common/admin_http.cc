#include "common/admin_http.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <spdlog/spdlog.h>

#include <chrono>

#include "common/metrics.h"
#include "common/security/transport.h"

namespace crawl {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

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
  bool protect = false;     // listening off loopback: protected routes need a token
  size_t connections = 0;   // open sessions; only touched on the server's thread
};

constexpr std::string_view kLoginPage = R"(<!doctype html>
<html><head><meta charset="utf-8"><title>crawl: sign in</title></head>
<body><h1>Sign in</h1><p>%MESSAGE%</p>
<form method="post" action="/login"><label>Token <input type="password" name="token" autofocus></label>
<button type="submit">Sign in</button></form></body></html>
)";

HttpReply LoginPage(int status, std::string_view message) {
  std::string body(kLoginPage);
  body.replace(body.find("%MESSAGE%"), 9, message);
  return {status, "text/html; charset=utf-8", std::move(body)};
}

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

std::string Header(const http::request<http::string_body>& req, http::field f) {
  auto it = req.find(f);
  return it == req.end() ? std::string() : std::string(it->value());
}

// The token a request carries: a bearer header, else the login cookie.
std::string_view RequestToken(const http::request<http::string_body>& req) {
  auto auth = req.find(http::field::authorization);
  if (auth != req.end()) {
    std::string_view value(auth->value().data(), auth->value().size());
    if (value.substr(0, 7) == "Bearer ") return value.substr(7);
  }
  auto cookie = req.find(http::field::cookie);
  if (cookie == req.end()) return {};
  std::string_view cookies(cookie->value().data(), cookie->value().size());
  while (!cookies.empty()) {
    const size_t semi = cookies.find(';');
    std::string_view one = cookies.substr(0, semi);
    cookies = semi == std::string_view::npos ? std::string_view() : cookies.substr(semi + 1);
    while (!one.empty() && one.front() == ' ') one.remove_prefix(1);
    if (one.size() > kLoginCookie.size() && one.substr(0, kLoginCookie.size()) == kLoginCookie &&
        one[kLoginCookie.size()] == '=')
      return one.substr(kLoginCookie.size() + 1);
  }
  return {};
}

// A token that can travel in a cookie unchanged.
bool CookieSafe(std::string_view token) {
  if (token.empty() || token.size() > 512) return false;
  for (char c : token) {
    if (c <= ' ' || c >= 127 || c == ';' || c == ',' || c == '"' || c == '\\') return false;
  }
  return true;
}

// One connection: read a request, answer it, repeat while keep-alive.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, ServerState* state) : stream_(std::move(socket)), state_(state) {
    ++state_->connections;
  }
  ~Session() { --state_->connections; }
  void Start() { DoRead(); }

 private:
  void DoRead() {
    parser_.emplace();
    parser_->header_limit(16 * 1024);
    parser_->body_limit(1024 * 1024);  // a console seed list
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
    const std::string target(req.target());
    const size_t q = target.find('?');
    const std::string path = target.substr(0, q);
    const std::string query = q == std::string::npos ? "" : target.substr(q + 1);
    if (path == "/login") {
      Reply(Login(req), req.method() == http::verb::head);
      return;
    }
    if (const HttpAppHandler* app = FindApp(path)) {
      ServeApp(*app, req, path, query);
      return;
    }
    if (req.method() != http::verb::get && req.method() != http::verb::head) {
      Reply({405, "text/plain; charset=utf-8", "only GET and HEAD\n"}, req.method() == http::verb::head);
      return;
    }
    auto it = state_->routes.find(path);
    if (it == state_->routes.end()) {
      Reply({404, "text/plain; charset=utf-8", "not found: " + path + "\n"}, req.method() == http::verb::head);
      return;
    }
    if (it->second.is_protected && !Allowed(RequestToken(req))) {
      Reply(LoginPage(401, "This page needs a reader or admin token."), req.method() == http::verb::head);
      return;
    }
    HttpReply reply;
    try {
      reply = it->second.handler(query);
    } catch (const std::exception& e) {  // a handler bug must not end the process
      spdlog::warn("http handler for {} failed: {}", path, e.what());
      reply = {500, "text/plain; charset=utf-8", "internal error\n"};
    }
    Reply(reply, req.method() == http::verb::head);
  }

  const HttpAppHandler* FindApp(const std::string& path) const {
    for (const auto& [prefix, handler] : state_->apps) {
      if (path == prefix || (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0 &&
                             path[prefix.size()] == '/'))
        return &handler;
    }
    return nullptr;
  }

  void ServeApp(const HttpAppHandler& app, const http::request<http::string_body>& req, const std::string& path,
                const std::string& query) {
    const bool head = req.method() == http::verb::head;
    if (req.method() != http::verb::get && !head && req.method() != http::verb::post) {
      Reply({405, "text/plain; charset=utf-8", "only GET, HEAD and POST\n"}, head);
      return;
    }
    HttpRequest r;
    r.method = head ? "HEAD" : std::string(req.method_string());
    r.path = path;
    r.query = query;
    r.body = req.body();
    r.token = std::string(RequestToken(req));
    r.content_type = Header(req, http::field::content_type);
    r.origin = Header(req, http::field::origin);
    r.referer = Header(req, http::field::referer);
    r.host = Header(req, http::field::host);
    r.loopback_server = !state_->protect;
    HttpReply reply;
    try {
      reply = app(r);
    } catch (const std::exception& e) {  // a handler bug must not end the process
      spdlog::warn("http handler for {} failed: {}", path, e.what());
      reply = {500, "text/plain; charset=utf-8", "internal error\n"};
    }
    Reply(reply, head);
  }

  bool Allowed(std::string_view token) const {
    if (!state_->protect) return true;
    return !token.empty() && state_->token_check && state_->token_check(token);
  }

  // GET /login: the form; POST /login: checks the token and sets the cookie.
  HttpReply Login(const http::request<http::string_body>& req) {
    if (req.method() != http::verb::post) return LoginPage(200, "Sign in with a reader or admin token.");
    const auto form = ParseForm(req.body());
    const auto field = form.find("token");
    const std::string token = field == form.end() ? "" : field->second;
    if (!CookieSafe(token) || !Allowed(token)) return LoginPage(401, "Wrong token.");
    HttpReply reply{303, "text/plain; charset=utf-8", "signed in\n"};
    // Back to the console when the sign-in came from it; never off-site.
    const auto next = form.find("next");
    const bool to_console = next != form.end() && next->second.rfind("/console", 0) == 0 &&
                            next->second.find_first_of("\r\n") == std::string::npos;
    response_.set(http::field::location, to_console ? next->second : "/status");
    response_.set(http::field::set_cookie,
                  std::string(kLoginCookie) + "=" + token + "; Path=/; HttpOnly; SameSite=Strict");
    return reply;
  }

  void Reply(const HttpReply& reply, bool head) {
    response_.result(static_cast<http::status>(reply.status));
    response_.set(http::field::content_type, reply.content_type);
    response_.set(http::field::cache_control, "no-store");
    for (const auto& [name, value] : reply.headers) response_.set(name, value);
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

  void DoAccept() {
    acceptor->async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted || !acceptor->is_open()) return;
      // Past the cap a new connection is closed at once: a flood of idle
      // connections cannot take the memory and descriptors of the process.
      if (!ec && state.connections < kMaxAdminHttpConnections) {
        std::make_shared<Session>(std::move(socket), &state)->Start();
      }
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

void AdminHttpServer::RequireTokenOffLoopback(HttpTokenCheck check) { impl_->state.token_check = std::move(check); }

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
  impl_->state.protect = !address.is_loopback();
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
  server.Handle("/healthz", [](const std::string&) { return HttpReply{200, "text/plain; charset=utf-8", "ok\n"}; });
}

}  // namespace crawl
