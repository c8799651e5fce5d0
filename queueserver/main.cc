// queueserver: owns the URLs of the hosts that hash to it (DESIGN.md
// section 1). Serves crawl.v1.QueueServer over gRPC and keeps itself
// registered with the name server.
#include <spdlog/spdlog.h>

#include <iostream>
#include <memory>

#include "common/admin_http.h"
#include "common/atomic_file.h"
#include "common/grpc_util.h"
#include "common/cli.h"
#include "common/process.h"
#include "common/security/authorizer.h"
#include "common/security/process_security.h"
#include "queueserver/store/queue_store.h"
#include "queueserver/service.h"

int main(int argc, char** argv) {
  crawl::BlockShutdownSignals();
  crawl::LimitMallocArenas();
  CLI::App app{"queueserver: frontier and crawl state for the hosts that hash to it"};
  std::string id = "qs0";
  std::string listen = "127.0.0.1:0";
  std::string advertise;
  std::string port_file;
  std::string nameserver;
  std::string data_dir;
  crawl::LoggingFlags logging;
  crawl::HttpFlags http;
  int heartbeat_ms = 1000;
  uint64_t warc_file_mb = 1000;
  bool sync_writes = false;
  app.add_option("--id", id, "Stable identity; the host partition hashes over these")->capture_default_str();
  app.add_option("--listen", listen, "gRPC listen address host:port (port 0 picks a free one)")
      ->capture_default_str();
  app.add_option("--advertise", advertise,
                 "Address others use to reach this server (default: listen host and the bound port)");
  app.add_option("--port-file", port_file, "Write the bound port here once listening (readiness signal)");
  app.add_option("--nameserver", nameserver, "Name server host:port")->required();
  app.add_option("--data-dir", data_dir,
                 "Directory for this server's data (created if missing); the crawl state is kept in a "
                 "RocksDB under it and survives a restart. Without it, state is in memory only");
  app.add_flag("--sync-writes", sync_writes,
               "fsync the write-ahead log on every change (survives power loss, not only a killed process)");
  app.add_option("--warc-file-mb", warc_file_mb,
                 "Page caches: roll WARC files (under DATA_DIR/warc) at this size in MB")
      ->capture_default_str()
      ->check(CLI::Range(1, 1'000'000));
  app.add_option("--heartbeat-ms", heartbeat_ms, "Heartbeat interval")->capture_default_str()->check(
      CLI::Range(50, 60'000));
  crawl::security::TlsFlags tls;
  crawl::security::AddTlsFlags(app, tls);
  crawl::AddLoggingFlags(app, logging);
  crawl::AddHttpFlags(app, http);
  if (auto exit_code = crawl::ParseCommandLine(app, argc, argv)) return *exit_code;
  auto fail = [](const std::string& message) { return crawl::FailStartup("queueserver", message); };
  if (auto s = crawl::ValidateHostPort(listen); !s.ok()) return fail("--listen: " + s.message());
  if (auto s = crawl::ValidateHostPort(nameserver); !s.ok()) return fail("--nameserver: " + s.message());
  if (auto s = crawl::ValidateHttpFlags(http); !s.ok()) return fail(s.message());
  if (auto s = crawl::PrepareProcess("queueserver", logging, data_dir); !s.ok()) return fail(s.message());
  if (auto s = crawl::security::SetUpTransport("queueserver", tls, true, {{"--listen", listen}}); !s.ok())
    return fail(s.message());
  const crawl::security::Authorizer authorizer(tls.tls(), nullptr);

  std::unique_ptr<crawl::queueserver::QueueStore> store;
  if (!data_dir.empty()) {
    auto opened = crawl::queueserver::QueueStore::Open(data_dir + "/queue-store", {.sync = sync_writes});
    if (!opened.ok()) return fail(opened.status().message());
    store = std::move(*opened);
  } else {
    spdlog::warn("no --data-dir: crawl state is kept in memory only and lost on restart");
  }
  crawl::SystemClock clock;
  crawl::queueserver::QueueServerServiceImpl service(id, &clock, store.get());
  service.SetAuthorizer(&authorizer);
  if (!data_dir.empty()) service.EnableWarc(data_dir + "/warc", warc_file_mb * 1'000'000);
  // Stored crawls are loaded before the port opens, so the first request
  // already sees them.
  if (auto s = service.LoadStoredCrawls(); !s.ok()) return fail("loading the queue store: " + s.message());
  auto server = crawl::StartGrpcServer(listen, {&service});
  if (!server.ok()) return fail(server.status().message());
  const std::string host = listen.substr(0, listen.rfind(':'));
  if (advertise.empty()) advertise = host + ":" + std::to_string(server->port);
  // Metrics before the port file: the port file says "ready" for both.
  crawl::AdminHttpServer http_server;
  crawl::AddStandardRoutes(http_server);
  if (auto s = crawl::StartAdminHttp("queueserver", http, http_server); !s.ok()) return fail(s.message());
  if (!port_file.empty()) {
    if (auto s = crawl::WriteFileAtomically(port_file, std::to_string(server->port) + "\n"); !s.ok())
      return fail(s.message());
  }
  spdlog::info("queueserver {} listening on {}:{}", id, host, server->port);

  crawl::v1::QueueServerInfo self;
  self.set_id(id);
  self.set_address(advertise);
  crawl::queueserver::NameServerLink link(nameserver, self, &service,
                                          std::chrono::milliseconds(heartbeat_ms));
  link.Start();

  const int sig = crawl::WaitForShutdownSignal(crawl::security::ProcessSignalHooks("queueserver", tls));
  spdlog::info("signal {}: shutting down", sig);
  // Shutdown order: stop heartbeats, then drain in-flight rpcs (2 s grace).
  link.Stop();
  server->server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  http_server.Stop();
  return 0;
}
