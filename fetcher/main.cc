// fetcher: downloads schedules leased from queue servers, processes pages
// and ships results (DESIGN.md section 1). Stateless: it can die at any time.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <iostream>
#include <thread>

#include "common/hosts_file.h"
#include "common/cli.h"
#include "common/process.h"
#include "fetcher/crawl_worker.h"

int main(int argc, char** argv) {
  crawl::BlockShutdownSignals();
  CLI::App app{"fetcher: downloads pages for the crawl the name server announces"};
  std::string id;
  std::string nameserver;
  std::string hosts_file_path;
  crawl::LoggingFlags logging;
  bool allow_private = false;
  size_t max_origins = 64;
  int poll_ms = 2000;
  app.add_option("--id", id, "Fetcher id (default: hostname-pid)");
  app.add_option("--nameserver", nameserver, "Name server host:port")->required();
  app.add_option("--hosts-file", hosts_file_path,
                 "Name overrides, lines 'ADDRESS[:PORT] NAME...' (the synthetic web writes one)");
  app.add_flag("--allow-private", allow_private,
               "Fetch from private, loopback and link-local addresses even if the crawl does not allow it");
  app.add_option("--max-origins", max_origins, "Origins downloaded at the same time")
      ->capture_default_str()
      ->check(CLI::Range(1, 10'000));
  app.add_option("--poll-ms", poll_ms, "Crawl state polling interval")->capture_default_str()->check(
      CLI::Range(50, 60'000));
  crawl::AddLoggingFlags(app, logging);
  if (auto exit_code = crawl::ParseCommandLine(app, argc, argv)) return *exit_code;
  auto fail = [](const std::string& message) { return crawl::FailStartup("fetcher", message); };
  if (auto s = crawl::ValidateHostPort(nameserver); !s.ok()) return fail("--nameserver: " + s.message());
  if (auto s = crawl::PrepareProcess("fetcher", logging, ""); !s.ok()) return fail(s.message());
  std::optional<crawl::HostsFile> hosts_file;
  if (!hosts_file_path.empty()) {
    auto loaded = crawl::HostsFile::Load(hosts_file_path);
    if (!loaded.ok()) return fail("--hosts-file: " + loaded.status().message());
    hosts_file.emplace(std::move(*loaded));
  }
  if (id.empty()) {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    id = std::string(host) + "-" + std::to_string(getpid());
  }

  crawl::fetcher::WorkerOptions options;
  options.fetcher_id = id;
  options.nameserver = nameserver;
  options.hosts_file = hosts_file ? &*hosts_file : nullptr;
  options.allow_private = allow_private;
  options.max_origins_in_flight = max_origins;
  options.poll_interval = std::chrono::milliseconds(poll_ms);
  crawl::fetcher::CrawlWorker worker(options);
  spdlog::info("fetcher {} polling name server {}", id, nameserver);

  // Shutdown order: the signal stops the worker, which reports what it
  // fetched and hands the rest back; then the HTTP engine is torn down.
  std::thread signals([&worker] {
    const int sig = crawl::WaitForShutdownSignal();
    spdlog::info("signal {}: finishing the current batch and exiting", sig);
    worker.RequestStop();
  });
  worker.Run();
  if (signals.joinable()) {
    // Run() only returns after a stop request, which the signal thread made.
    signals.join();
  }
  return 0;
}
