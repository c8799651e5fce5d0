// nameserver: crawl registry, queue-server membership and admin API
// (docs/DESIGN.md §1). Serves crawl.v1.NameServer over gRPC. This file only
// parses flags and wires the objects together.
#include <spdlog/spdlog.h>

#include <iostream>

#include "common/base/atomic_file.h"
#include "common/base/cli.h"
#include "common/base/memory_budget.h"
#include "common/base/process.h"
#include "common/net/admin_http.h"
#include "common/net/grpc_util.h"
#include "common/security/admin_tokens.h"
#include "common/security/authorizer.h"
#include "common/security/process_security.h"
#include "nameserver/console/console.h"
#include "nameserver/registry_store.h"
#include "nameserver/service.h"
#include "nameserver/status_page.h"

namespace {

struct Flags {
  std::string listen = "127.0.0.1:0";
  std::string port_file;
  std::string data_dir;
  crawl::LoggingFlags logging;
  crawl::HttpFlags http;
  int member_timeout_ms = 10'000;
  int poll_ms = 250;
  crawl::security::TlsFlags tls;
  std::string admin_tokens_path;
  size_t memory_budget_mb = 0;
};

void AddFlags(CLI::App& app, Flags& f) {
  app.add_option("--listen", f.listen, "gRPC listen address host:port (port 0 picks a free one)")
      ->capture_default_str();
  app.add_option("--port-file", f.port_file, "Write the bound port here once listening (readiness signal)");
  app.add_option(
      "--data-dir", f.data_dir,
      "Directory for the crawl registry (created if missing); without it nothing survives a restart");
  app.add_option("--member-timeout-ms", f.member_timeout_ms,
                 "Queue servers silent for longer are not given new crawls")
      ->capture_default_str()
      ->check(CLI::Range(100, 3'600'000));
  app.add_option("--poll-ms", f.poll_ms, "How often the active crawl's queue servers are polled")
      ->capture_default_str()
      ->check(CLI::Range(10, 60'000));
  crawl::security::AddTlsFlags(app, f.tls);
  app.add_option("--admin-tokens", f.admin_tokens_path,
                 "Tokens people may use instead of a certificate: lines 'role sha256hex name' (role admin or "
                 "reader; deploy/certs.sh token adds one); re-read on SIGHUP");
  crawl::AddMemoryBudgetFlag(app, crawl::MemoryRole::kNameServer, &f.memory_budget_mb);
  crawl::AddLoggingFlags(app, f.logging);
  crawl::AddHttpFlags(app, f.http);
}

// Status page and metrics: /status (HTML), /status.json, /metrics. The
// status pages need a reader or admin token unless bound to loopback.
void AddStatusRoutes(crawl::AdminHttpServer& http_server, const crawl::security::Authorizer& authorizer,
                     crawl::nameserver::NameServerServiceImpl& service, const crawl::Clock& clock) {
  crawl::AddStandardRoutes(http_server);
  http_server.RequireTokenOffLoopback(
      [&authorizer](std::string_view token) { return authorizer.MatchToken(token).has_value(); });
  http_server.HandleProtected("/status.json", [&service, &clock](const std::string&) {
    return crawl::HttpReply{200, "application/json",
                            crawl::nameserver::StatusPageJson(service.TakeSnapshot(), clock.NowUnixMs())};
  });
  auto page = [](const std::string&) {
    return crawl::HttpReply{200,
                            "text/html; charset=utf-8",
                            crawl::nameserver::StatusPageHtml(),
                            {{"Content-Security-Policy", crawl::nameserver::StatusPageCsp()}}};
  };
  http_server.HandleProtected("/status", page);
  http_server.HandleProtected("/", page);
}

// Re-reads the admin tokens (on SIGHUP), keeping the old ones on error.
void ReloadAdminTokens(crawl::security::AdminTokens& admin_tokens, const std::string& path) {
  if (path.empty()) return;
  if (auto s = admin_tokens.Reload(); !s.ok()) {
    spdlog::error("{}", s.message());
  } else {
    spdlog::info("{} admin tokens reloaded from {}", admin_tokens.size(), path);
  }
}

}  // namespace

int main(int argc, char** argv) {
  crawl::BlockShutdownSignals();
  crawl::LimitMallocArenas();
  CLI::App app{"nameserver: coordinates crawls, queue servers and fetchers"};
  Flags f;
  AddFlags(app, f);
  if (auto exit_code = crawl::ParseCommandLine(app, argc, argv)) return *exit_code;
  auto fail = [](const std::string& message) { return crawl::FailStartup("nameserver", message); };
  if (auto s = crawl::ValidateHostPort(f.listen); !s.ok()) return fail("--listen: " + s.message());
  if (auto s = crawl::ValidateHttpFlags(f.http); !s.ok()) return fail(s.message());
  if (auto s = crawl::PrepareProcess("nameserver", f.logging, f.data_dir); !s.ok()) return fail(s.message());
  if (auto s = crawl::security::SetUpTransport("nameserver", f.tls, true, {{"--listen", f.listen}}); !s.ok())
    return fail(s.message());
  crawl::security::AdminTokens admin_tokens;
  if (!f.admin_tokens_path.empty()) {
    if (auto s = admin_tokens.Load(f.admin_tokens_path); !s.ok()) return fail(s.message());
    spdlog::info("{} admin tokens from {}", admin_tokens.size(), f.admin_tokens_path);
  }
  const crawl::security::Authorizer authorizer(f.tls.tls(), &admin_tokens);

  crawl::SystemClock clock;
  crawl::nameserver::NameServerServiceImpl::Options options;
  options.member_timeout = std::chrono::milliseconds(f.member_timeout_ms);
  options.poll_interval = std::chrono::milliseconds(f.poll_ms);
  auto store = crawl::nameserver::RegistryStore::Open(f.data_dir, f.memory_budget_mb << 20);
  if (!store.ok()) return fail(store.status().message());
  crawl::nameserver::NameServerServiceImpl service(options, &clock, store->get());
  service.SetAuthorizer(&authorizer);
  if (auto s = service.Load(); !s.ok()) return fail(s.message());
  crawl::AdminHttpServer http_server;
  AddStatusRoutes(http_server, authorizer, service, clock);
  const crawl::nameserver::ConsoleAuth console_auth(
      crawl::nameserver::ConsoleAuth::NewSecret(),
      [&authorizer](std::string_view token) -> std::optional<crawl::security::Role> {
        auto match = authorizer.MatchToken(token);
        if (!match) return std::nullopt;
        return match->role;
      },
      [&admin_tokens] { return admin_tokens.size() > 0; });
  crawl::nameserver::AddConsoleRoutes(http_server, {&service, &clock, &console_auth});
  // People may call with a token instead of a certificate, so the
  // handshake lets them in and the gate checks each call before reading it.
  auto server = crawl::StartGrpcServer(
      f.listen, {&service},
      {.max_request_bytes = crawl::kMaxNameServerRequestBytes, .authorizer = &authorizer});
  if (!server.ok()) return fail(server.status().message());
  // HTTP first: the gRPC port file is the readiness signal for both.
  if (auto s = crawl::StartAdminHttp("nameserver", f.http, http_server); !s.ok()) return fail(s.message());
  if (!f.port_file.empty()) {
    if (auto s = crawl::WriteFileAtomically(f.port_file, std::to_string(server->port) + "\n"); !s.ok())
      return fail(s.message());
  }
  spdlog::info("nameserver listening on {}:{}", f.listen.substr(0, f.listen.rfind(':')), server->port);

  service.StartMonitor();

  const int sig = crawl::WaitForShutdownSignal(crawl::security::ProcessSignalHooks(
      "nameserver", f.tls, [&] { ReloadAdminTokens(admin_tokens, f.admin_tokens_path); }));
  spdlog::info("signal {}: shutting down", sig);
  // Shutdown order: stop polling queue servers, then drain rpcs (2 s grace).
  service.StopMonitor();
  http_server.Stop();
  server->server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  return 0;
}
