// The small HTTP/1.1 server every process runs beside its gRPC port
// (DESIGN.md section 9): Prometheus metrics at /metrics, a liveness answer at
// /healthz, and whatever pages the process adds (the name server's status
// page). Boost.Beast on one io_context thread, one session object per
// connection, a timeout on every step, GET and HEAD only (and POST /login),
// request headers (16 KiB), body (64 KiB) and open connections
// (kMaxAdminHttpConnections) bounded.
//
// Pages added with HandleProtected need a token when the server listens on
// a non-loopback address (issue 18): "Authorization: Bearer TOKEN", or the
// cookie that the login form (/login, POST token=TOKEN) sets. /metrics and
// /healthz stay open.
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

#include "common/status.h"

namespace crawl {

struct HttpReply {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

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
  // How tokens for protected pages are checked. Without it, protected pages
  // off loopback are refused to everyone. REQUIRES: before Start.
  void RequireTokenOffLoopback(HttpTokenCheck check);

  // Listens on `listen` ("host:port", port 0 picks one) and serves on a
  // thread of its own. Returns the bound port.
  [[nodiscard]] Result<int> Start(const std::string& listen);

  // Closes the listener and every connection; joins the thread.
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Answers /metrics with the process registry (common/metrics.h) and
// /healthz with "ok"; used by every binary.
void AddStandardRoutes(AdminHttpServer& server);

}  // namespace crawl
