// queueserver: owns the URLs of the hosts that hash to it (docs/DESIGN.md
// section 1). Serves crawl.v1.QueueServer over gRPC and keeps itself
// registered with the name server.
#include <spdlog/spdlog.h>

#include <iostream>
#include <memory>

#include "common/base/atomic_file.h"
#include "common/base/cli.h"
#include "common/base/memory_budget.h"
#include "common/base/process.h"
#include "common/base/status.h"
#include "common/net/admin_http.h"
#include "common/net/grpc_util.h"
#include "common/security/authorizer.h"
#include "common/security/process_security.h"
#include "queueserver/nameserver_link.h"
#include "queueserver/service.h"
#include "queueserver/store/queue_store.h"

namespace {

// Every flag of the queue server.
struct Flags {
  std::string id = "qs0";
  std::string listen = "127.0.0.1:0";
  std::string advertise;
  std::string port_file;
  std::string nameserver;
  std::string data_dir;
  crawl::LoggingFlags logging;
  crawl::HttpFlags http;
  crawl::security::TlsFlags tls;
  int heartbeat_ms = 1000;
  uint64_t warc_file_mb = 1000;
  bool sync_writes = false;
  size_t memory_budget_mb = 0;
};

void AddFlags(CLI::App& app, Flags& f) {
  app.add_option("--id", f.id, "Stable identity; the host partition hashes over these")
      ->capture_default_str();
  app.add_option("--listen", f.listen, "gRPC listen address host:port (port 0 picks a free one)")
      ->capture_default_str();
  app.add_option("--advertise", f.advertise,
                 "Address others use to reach this server (default: listen host and the bound port)");
  app.add_option("--port-file", f.port_file, "Write the bound port here once listening (readiness signal)");
  app.add_option("--nameserver", f.nameserver, "Name server host:port")->required();
  app.add_option("--data-dir", f.data_dir,
                 "Directory for this server's data (created if missing); the crawl state is kept in a "
                 "RocksDB under it and survives a restart. Without it, state is in memory only");
  app.add_flag("--sync-writes", f.sync_writes,
               "fsync the write-ahead log on every change (survives power loss, not only a killed process)");
  app.add_option("--warc-file-mb", f.warc_file_mb,
                 "Page caches: roll WARC files (under DATA_DIR/warc) at this size in MB")
      ->capture_default_str()
      ->check(CLI::Range(1, 1'000'000));
  app.add_option("--heartbeat-ms", f.heartbeat_ms, "Heartbeat interval")
      ->capture_default_str()
      ->check(CLI::Range(50, 60'000));
  crawl::AddMemoryBudgetFlag(app, crawl::MemoryRole::kQueueServer, &f.memory_budget_mb);
  crawl::security::AddTlsFlags(app, f.tls);
  crawl::AddLoggingFlags(app, f.logging);
  crawl::AddHttpFlags(app, f.http);
}

// Checks the flags, then sets up logging, the data directory and TLS.
crawl::Status CheckFlagsAndPrepareProcess(const Flags& f) {
  if (auto s = crawl::ValidateHostPort(f.listen); !s.ok())
    return crawl::Status::InvalidArgument("--listen: " + s.message());
  if (auto s = crawl::ValidateHostPort(f.nameserver); !s.ok())
    return crawl::Status::InvalidArgument("--nameserver: " + s.message());
  if (auto s = crawl::ValidateHttpFlags(f.http); !s.ok()) return s;
  if (auto s = crawl::PrepareProcess("queueserver", f.logging, f.data_dir); !s.ok()) return s;
  return crawl::security::SetUpTransport("queueserver", f.tls, true, {{"--listen", f.listen}});
}

// The RocksDB store under --data-dir, or none (crawl state in memory only).
crawl::Result<std::unique_ptr<crawl::queueserver::QueueStore>> OpenStore(const Flags& f) {
  if (f.data_dir.empty()) {
    spdlog::warn("no --data-dir: crawl state is kept in memory only and lost on restart");
    return std::unique_ptr<crawl::queueserver::QueueStore>();
  }
  // Half the budget for RocksDB (its cache and memtables, which follow the
  // data stored); the rest is the frontier, the index's active partition
  // and the requests in progress (docs/OPERATIONS.md "Memory").
  auto opened = crawl::queueserver::QueueStore::Open(
      f.data_dir + "/queue-store", {.sync = f.sync_writes, .memory_bytes = (f.memory_budget_mb << 20) / 2});
  if (!opened.ok()) return opened.status();
  return std::move(*opened);
}

}  // namespace

int main(int argc, char** argv) {
  crawl::BlockShutdownSignals();
  crawl::LimitMallocArenas();
  CLI::App app{"queueserver: frontier and crawl state for the hosts that hash to it"};
  Flags flags;
  AddFlags(app, flags);
  if (auto exit_code = crawl::ParseCommandLine(app, argc, argv)) return *exit_code;
  auto fail = [](const std::string& message) { return crawl::FailStartup("queueserver", message); };
  if (auto s = CheckFlagsAndPrepareProcess(flags); !s.ok()) return fail(s.message());
  const crawl::security::Authorizer authorizer(flags.tls.tls(), nullptr);

  auto store = OpenStore(flags);
  if (!store.ok()) return fail(store.status().message());
  crawl::SystemClock clock;
  crawl::queueserver::QueueServerServiceImpl service(flags.id, &clock, store->get());
  service.SetAuthorizer(&authorizer);
  // An eighth of the budget bounds each crawl's active index partition
  // (which starts smaller and grows with the index: IndexOptions).
  service.SetIndexPartitionBytes((uint64_t{flags.memory_budget_mb} << 20) / 8);
  if (!flags.data_dir.empty()) {
    service.EnableWarc(flags.data_dir + "/warc", flags.warc_file_mb * 1'000'000);
    service.EnableSiteReports(flags.data_dir + "/reports");
    if (auto s = service.EnableNearDuplicateStore(flags.data_dir + "/neardup"); !s.ok())
      return fail(s.message());
  }
  // Stored crawls are loaded before the port opens, so the first request
  // already sees them.
  if (auto s = service.LoadStoredCrawls(); !s.ok()) return fail("loading the queue store: " + s.message());
  // Every caller of a queue server is a cluster process or a person with a
  // certificate (it takes no tokens), so the handshake requires one.
  auto server = crawl::StartGrpcServer(flags.listen, {&service},
                                       {.authorizer = &authorizer, .require_client_certificate = true});
  if (!server.ok()) return fail(server.status().message());
  const std::string host = flags.listen.substr(0, flags.listen.rfind(':'));
  if (flags.advertise.empty()) flags.advertise = host + ":" + std::to_string(server->port);
  // Metrics before the port file: the port file says "ready" for both.
  crawl::AdminHttpServer http_server;
  crawl::AddStandardRoutes(http_server);
  if (auto s = crawl::StartAdminHttp("queueserver", flags.http, http_server); !s.ok())
    return fail(s.message());
  if (!flags.port_file.empty()) {
    if (auto s = crawl::WriteFileAtomically(flags.port_file, std::to_string(server->port) + "\n"); !s.ok())
      return fail(s.message());
  }
  spdlog::info("queueserver {} listening on {}:{}", flags.id, host, server->port);

  crawl::v1::QueueServerInfo self;
  self.set_id(flags.id);
  self.set_address(flags.advertise);
  crawl::queueserver::NameServerLink link(flags.nameserver, self, &service,
                                          std::chrono::milliseconds(flags.heartbeat_ms));
  link.Start();
  service.SetIdleHook([&link] { link.Nudge(); });

  const int sig = crawl::WaitForShutdownSignal(crawl::security::ProcessSignalHooks("queueserver", flags.tls));
  spdlog::info("signal {}: shutting down", sig);
  // Shutdown order: stop heartbeats, then drain in-flight rpcs (2 s grace).
  service.SetIdleHook(nullptr);
  link.Stop();
  server->server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  http_server.Stop();
  return 0;
}
