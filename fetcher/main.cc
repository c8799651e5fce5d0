// fetcher: downloads schedules leased from queue servers, processes pages
// and ships results (docs/DESIGN.md §1). Stateless: it can die at any time.
//
// Lanes (--schedules N): a CrawlWorker works one schedule at a time, and a
// schedule ends only when its slowest host has been fetched (a slow or
// crawl-delayed host holds it for seconds to minutes while the other hosts
// are done), and it processes pages on its one control thread. So the
// process runs N workers ("lanes", ids ID, ID.1, ... ID.(N-1)), each with its
// own control thread, HTTP engine and schedule; --max-in-flight and
// --max-connections-per-ip are shared out between them. Politeness holds as
// between N fetchers: a queue server leases an origin to one schedule at a
// time (tests/bench/crawl_throughput.sh and docs/BENCHMARKS.md measure it).
// Pages are processed by a pool of --process-threads threads shared by the
// lanes (fetcher/process_pool.h).
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <thread>
#include <vector>

#include "common/base/atomic_file.h"
#include "common/base/cli.h"
#include "common/base/process.h"
#include "common/net/admin_http.h"
#include "common/net/hosts_file.h"
#include "common/security/process_security.h"
#include "fetcher/crawl_worker.h"
#include "fetcher/document/worker_process.h"
#include "fetcher/fetcher_flags.h"
#include "fetcher/http/dns_resolver.h"

namespace {

using crawl::fetcher::CrawlWorker;
using crawl::fetcher::WorkerOptions;
using namespace crawl::fetcher;

int Fail(const std::string& message) { return crawl::FailStartup("fetcher", message); }

// Starts the admin HTTP endpoint and runs the lanes until a shutdown signal.
int Serve(const FetcherFlags& flags, std::vector<std::unique_ptr<CrawlWorker>>& workers) {
  crawl::AdminHttpServer http_server;
  crawl::AddStandardRoutes(http_server);
  if (auto s = crawl::StartAdminHttp("fetcher", flags.http, http_server); !s.ok()) return Fail(s.message());
  spdlog::info("fetcher {} polling name server {} ({} lanes, {} processing threads)", flags.id,
               flags.nameserver, workers.size(), flags.process_threads);

  // Shutdown order: the signal stops the worker, which reports what it
  // fetched and hands the rest back; then the HTTP engine is torn down.
  std::thread signals([&workers, &tls = flags.tls] {
    const int sig = crawl::WaitForShutdownSignal(crawl::security::ProcessSignalHooks("fetcher", tls));
    spdlog::info("signal {}: finishing the current batch and exiting", sig);
    for (auto& w : workers) w->RequestStop();
  });
  {
    std::vector<std::thread> lane_threads;
    for (size_t lane = 1; lane < workers.size(); ++lane)
      lane_threads.emplace_back([w = workers[lane].get()] { w->Run(); });
    workers[0]->Run();
    for (auto& t : lane_threads) t.join();
  }
  http_server.Stop();
  if (signals.joinable()) {
    // Run() only returns after a stop request, which the signal thread made.
    signals.join();
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // The document worker is this binary started again by the fetcher
  // (fetcher/document/worker_process.h): it must not set up anything else.
  if (crawl::fetcher::IsDocumentWorkerCommand(argc, argv))
    return crawl::fetcher::RunDocumentWorker(argc, argv);
  crawl::BlockShutdownSignals();
  crawl::LimitMallocArenas();
  CLI::App app{"fetcher: downloads pages for the crawl the name server announces"};
  FetcherFlags flags;
  AddFetcherFlags(app, flags);
  if (auto exit_code = crawl::ParseCommandLine(app, argc, argv)) return *exit_code;
  if (auto s = ValidateFetcherFlags(flags); !s.ok()) return Fail(s.message());
  if (auto s = crawl::PrepareProcess("fetcher", flags.logging, ""); !s.ok()) return Fail(s.message());
  if (auto s = crawl::security::SetUpTransport("fetcher", flags.tls, true, {}); !s.ok())
    return Fail(s.message());
  std::optional<crawl::HostsFile> hosts_file;
  if (!flags.hosts_file_path.empty()) {
    auto loaded = crawl::HostsFile::Load(flags.hosts_file_path);
    if (!loaded.ok()) return Fail("--hosts-file: " + loaded.status().message());
    hosts_file.emplace(std::move(*loaded));
  }
  if (flags.id.empty()) flags.id = DefaultFetcherId();

  WorkerOptions options = WorkerOptionsFromFlags(flags, hosts_file ? &*hosts_file : nullptr);
  auto proxy = ProxySettingsFromFlags(flags, [](const char* name) { return std::getenv(name); });
  if (!proxy.ok()) return Fail(proxy.status().message());
  options.proxy = std::move(proxy).value();
  if (options.proxy.any()) spdlog::info("fetcher: {}", DescribeProxies(options.proxy));
  if (auto s = CheckDnsOptions(options.dns); !s.ok()) return Fail("DNS: " + s.message());
  std::vector<std::unique_ptr<CrawlWorker>> workers;
  for (WorkerOptions& lane_options : LaneOptions(options, flags.lanes))
    workers.push_back(std::make_unique<CrawlWorker>(std::move(lane_options)));
  return Serve(flags, workers);
}
