// The small HTTP/1.1 server every process runs beside its gRPC port
// (docs/DESIGN.md §9): Prometheus metrics at /metrics, a liveness answer at
// /healthz, and whatever pages the process adds (the name server's status
// page and console). Boost.Beast on one io_context thread, one session object
// per connection, a timeout on every step, GET and HEAD only (and POST to
// /login, /logout and HandleApp routes), request headers (16 KiB), body
// (1 MiB, a seed list) and open connections (kMaxAdminHttpConnections)
// bounded.
//
// Pages added with HandleProtected need a token when the server listens on
// a non-loopback address: "Authorization: Bearer TOKEN", or the cookie that
// the login form sets (/login, /logout: common/net/http_login.h). /metrics and
// /healthz need no token.
//
// Every request but /healthz must name the server in its Host header
// (loopback names, the listen address, AllowHostNames): a DNS-rebinding page
// reaches us under its own name and gets 421. /healthz answers any Host: it
// tells nothing, and probes (kubelet, Docker) use addresses not known in
// advance. Every response carries the headers of DefaultSecurityHeaders
// (common/net/http_security.h) unless the handler sets its own. With UseTls
// the server speaks HTTPS only and cookies are Secure.
//
// Handlers run on the server's thread, one request at a time; they must be
// quick and thread-safe with respect to the rest of the process.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "common/base/status.h"

namespace crawl {

struct HttpReply {
  using Headers = std::vector<std::pair<std::string, std::string>>;
  HttpReply(int status_in = 200, std::string content_type_in = "text/plain; charset=utf-8",
            std::string body_in = {}, Headers headers_in = {})
      : status(status_in),
        content_type(std::move(content_type_in)),
        body(std::move(body_in)),
        headers(std::move(headers_in)) {}
  int status;
  std::string content_type;
  std::string body;
  // Extra response headers (Location, Content-Disposition, ...).
  Headers headers;
};

// A whole request, for applications that read headers and forms (the name
// server's console). Header values are as sent; "" when absent.
struct HttpRequest {
  std::string method;  // "GET", "HEAD" or "POST"
  std::string path;    // without the query
  std::string query;   // after '?', undecoded
  std::string body;
  std::string token;  // bearer header, else the login cookie
  std::string content_type, origin, referer, host;
  std::string cookies;          // the Cookie header
  std::string client;           // the peer's IP address
  bool loopback_server = true;  // the server listens on loopback only
  bool tls = false;             // served over HTTPS: cookies get Secure
  // The token a /logout form must carry for this session ("" without one).
  std::string logout_csrf;
};
using HttpAppHandler = std::function<HttpReply(const HttpRequest&)>;

// The fields of an application/x-www-form-urlencoded body or query ('+' is a
// space, %XX decoded); the first value wins when a name repeats.
[[nodiscard]] std::map<std::string, std::string> ParseForm(std::string_view body);

// `query` is the part after '?', undecoded ("" when none).
using HttpHandler = std::function<HttpReply(const std::string& query)>;
// True if `token` may see protected pages. Called on the server's thread.
using HttpTokenCheck = std::function<bool(std::string_view token)>;

inline constexpr size_t kMaxAdminHttpConnections = 64;
inline constexpr std::string_view kLoginCookie = "crawl_token";

class AdminHttpServer {
 public:
  AdminHttpServer();
  ~AdminHttpServer();  // stops the server
  AdminHttpServer(const AdminHttpServer&) = delete;
  AdminHttpServer& operator=(const AdminHttpServer&) = delete;

  // Routes `path` (exact match, without query) to `handler`. REQUIRES:
  // before Start.
  void Handle(const std::string& path, HttpHandler handler);
  // Routes `path` to a page that needs a token off loopback. REQUIRES:
  // before Start.
  void HandleProtected(const std::string& path, HttpHandler handler);
  // Routes every path under `prefix` ("/console" matches "/console" and
  // "/console/...") to `handler`, for GET, HEAD and POST. The handler checks
  // tokens and roles itself. REQUIRES: before Start.
  void HandleApp(const std::string& prefix, HttpAppHandler handler);
  // How tokens for protected pages are checked. Without it, protected pages
  // off loopback are refused to everyone. REQUIRES: before Start.
  // The same check decides which tokens /login turns into a cookie.
  void RequireTokenOffLoopback(HttpTokenCheck check);
  // Host names (or addresses) requests may name besides loopback and the
  // listen address (--http-host). REQUIRES: before Start.
  void AllowHostNames(std::vector<std::string> names);
  // Serve HTTPS only, with this PEM certificate chain and key. REQUIRES:
  // before Start.
  [[nodiscard]] Status UseTls(const std::string& cert_file, const std::string& key_file);

  // Listens on `listen` ("host:port", port 0 picks one) and serves on a
  // thread of its own. Returns the bound port.
  [[nodiscard]] Result<int> Start(const std::string& listen);

  // Closes the listener and every connection; joins the thread.
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Answers /metrics with the process registry (common/base/metrics.h) and
// /healthz with "ok"; used by every binary.
void AddStandardRoutes(AdminHttpServer& server);

}  // namespace crawl
