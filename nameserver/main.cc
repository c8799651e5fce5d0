// nameserver: crawl registry, queue-server membership and admin API
// (DESIGN.md section 1). Serves crawl.v1.NameServer over gRPC.
#include <spdlog/spdlog.h>

#include <iostream>

#include "common/atomic_file.h"
#include "common/grpc_util.h"
#include "common/cli.h"
#include "common/process.h"
#include "nameserver/service.h"

int main(int argc, char** argv) {
  crawl::BlockShutdownSignals();
  CLI::App app{"nameserver: coordinates crawls, queue servers and fetchers"};
  std::string listen = "127.0.0.1:0";
  std::string port_file;
  std::string data_dir;
  crawl::LoggingFlags logging;
  int member_timeout_ms = 10'000;
  int poll_ms = 250;
  app.add_option("--listen", listen, "gRPC listen address host:port (port 0 picks a free one)")
      ->capture_default_str();
  app.add_option("--port-file", port_file, "Write the bound port here once listening (readiness signal)");
  app.add_option("--data-dir", data_dir, "Directory for the name server's data (created if missing)");
  app.add_option("--member-timeout-ms", member_timeout_ms,
                 "Queue servers silent for longer are not given new crawls")
      ->capture_default_str()
      ->check(CLI::Range(100, 3'600'000));
  app.add_option("--poll-ms", poll_ms, "How often the active crawl's queue servers are polled")
      ->capture_default_str()
      ->check(CLI::Range(10, 60'000));
  crawl::AddLoggingFlags(app, logging);
  if (auto exit_code = crawl::ParseCommandLine(app, argc, argv)) return *exit_code;
  auto fail = [](const std::string& message) { return crawl::FailStartup("nameserver", message); };
  if (auto s = crawl::ValidateHostPort(listen); !s.ok()) return fail("--listen: " + s.message());
  if (auto s = crawl::PrepareProcess("nameserver", logging, data_dir); !s.ok()) return fail(s.message());

  crawl::SystemClock clock;
  crawl::nameserver::NameServerServiceImpl::Options options;
  options.member_timeout = std::chrono::milliseconds(member_timeout_ms);
  options.poll_interval = std::chrono::milliseconds(poll_ms);
  crawl::nameserver::NameServerServiceImpl service(options, &clock);
  auto server = crawl::StartGrpcServer(listen, {&service});
  if (!server.ok()) return fail(server.status().message());
  if (!port_file.empty()) {
    if (auto s = crawl::WriteFileAtomically(port_file, std::to_string(server->port) + "\n"); !s.ok())
      return fail(s.message());
  }
  spdlog::info("nameserver listening on {}:{}", listen.substr(0, listen.rfind(':')), server->port);
  service.StartMonitor();

  const int sig = crawl::WaitForShutdownSignal();
  spdlog::info("signal {}: shutting down", sig);
  // Shutdown order: stop polling queue servers, then drain rpcs (2 s grace).
  service.StopMonitor();
  server->server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  return 0;
}
