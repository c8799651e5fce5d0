// The small HTTP/1.1 server every process runs beside its gRPC port
// (DESIGN.md section 9): Prometheus metrics at /metrics, a liveness answer at
// /healthz, and whatever pages the process adds (the name server's status
// page). Boost.Beast on one io_context thread, one session object per
// connection, a timeout on every step, GET and HEAD only, request headers
// and body bounded.
//
// Handlers run on the server's thread, one request at a time; they must be
// quick and thread-safe with respect to the rest of the process.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
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

class AdminHttpServer {
 public:
  AdminHttpServer();
  ~AdminHttpServer();  // stops the server
  AdminHttpServer(const AdminHttpServer&) = delete;
  AdminHttpServer& operator=(const AdminHttpServer&) = delete;

  // Routes `path` (exact match, without query) to `handler`. REQUIRES:
  // before Start.
  void Handle(const std::string& path, HttpHandler handler);

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
