// fetcher: downloads schedules leased from queue servers, processes pages
// and ships results (DESIGN.md section 1). Stateless: it can die at any time.
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
#include <iostream>
#include <memory>
#include <thread>
#include <vector>

#include "common/admin_http.h"
#include "common/atomic_file.h"
#include "common/hosts_file.h"
#include "common/cli.h"
#include "common/process.h"
#include "common/security/process_security.h"
#include "fetcher/crawl_worker.h"
#include "fetcher/dns_resolver.h"

int main(int argc, char** argv) {
  crawl::BlockShutdownSignals();
  crawl::LimitMallocArenas();
  CLI::App app{"fetcher: downloads pages for the crawl the name server announces"};
  std::string id;
  std::string nameserver;
  std::string hosts_file_path;
  crawl::LoggingFlags logging;
  crawl::HttpFlags http;
  bool allow_private = false;
  crawl::fetcher::WorkerOptions defaults;
  size_t max_in_flight = defaults.max_in_flight;
  size_t result_buffer_mb = defaults.max_buffered_result_bytes >> 20;
  size_t max_per_ip = 0;
  size_t lanes = 4;
  int poll_ms = 2000;
  int status_ms = 5000;
  std::string dns_servers;
  int dns_min_ttl = static_cast<int>(defaults.dns.min_ttl.count());
  int dns_max_ttl = static_cast<int>(defaults.dns.max_ttl.count());
  int dns_negative_ttl = static_cast<int>(defaults.dns.negative_ttl.count());
  int dns_timeout_ms = static_cast<int>(defaults.dns.try_timeout.count());
  int dns_tries = defaults.dns.tries;
  bool dns_ipv6 = false;
  app.add_option("--id", id, "Fetcher id (default: hostname-pid)");
  app.add_option("--nameserver", nameserver, "Name server host:port")->required();
  app.add_option("--hosts-file", hosts_file_path,
                 "Name overrides, lines 'ADDRESS[:PORT] NAME...' (the synthetic web writes one)");
  app.add_flag("--allow-private", allow_private,
               "Fetch from private, loopback and link-local addresses even if the crawl does not allow it");
  app.add_option("--max-in-flight", max_in_flight,
                 "Requests in flight at once (one per host: hosts downloaded at the same time)")
      ->capture_default_str()
      ->check(CLI::Range(1, 20'000));
  app.add_option("--max-connections-per-ip", max_per_ip,
                 "Most connections to one IP address at a time; 0 = no limit beyond one per host")
      ->capture_default_str()
      ->check(CLI::Range(0, 10'000));
  app.add_option("--result-buffer-mb", result_buffer_mb,
                 "Downloaded bodies waiting for processing, per lane (MiB): past this, downloads pause "
                 "until processing and shipping catch up")
      ->capture_default_str()
      ->check(CLI::Range(1, 65'536));
  app.add_option("--schedules", lanes,
                 "Schedules worked at once, each by its own lane (control thread and HTTP engine); "
                 "1 = one schedule at a time")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  // One per core by default: a one-site crawl works one schedule at a time,
  // and its pages are then processed on every core, not on one lane's thread.
  size_t process_threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 8);
  app.add_option("--process-threads", process_threads,
                 "Threads that process pages for all lanes (default: one per core, at most 8); "
                 "0 = each lane processes its pages on its control thread")
      ->capture_default_str()
      ->check(CLI::Range(0, 64));
  app.add_option("--status-ms", status_ms,
                 "Log a 'fetcher status' line (requests in flight, DNS cache) this often; 0 = never")
      ->capture_default_str()
      ->check(CLI::Range(0, 3'600'000));
  app.add_option("--dns-servers", dns_servers,
                 "DNS servers 'IP[:PORT],...' (default: the system's /etc/resolv.conf)");
  app.add_option("--dns-min-ttl", dns_min_ttl, "Shortest time a DNS answer is cached (s)")
      ->capture_default_str()
      ->check(CLI::Range(0, 86'400));
  app.add_option("--dns-max-ttl", dns_max_ttl, "Longest time a DNS answer is cached (s)")
      ->capture_default_str()
      ->check(CLI::Range(0, 7 * 86'400));
  app.add_option("--dns-negative-ttl", dns_negative_ttl, "How long NXDOMAIN / no-address answers are cached (s)")
      ->capture_default_str()
      ->check(CLI::Range(0, 86'400));
  app.add_option("--dns-timeout-ms", dns_timeout_ms, "DNS timeout per try (ms)")
      ->capture_default_str()
      ->check(CLI::Range(1, 60'000));
  app.add_option("--dns-tries", dns_tries, "DNS tries per server")->capture_default_str()->check(CLI::Range(1, 10));
  app.add_flag("--dns-ipv6", dns_ipv6, "Ask for IPv6 (AAAA) addresses too");
  app.add_option("--poll-ms", poll_ms, "Crawl state polling interval")->capture_default_str()->check(
      CLI::Range(50, 60'000));
  crawl::security::TlsFlags tls;
  crawl::security::AddTlsFlags(app, tls);
  crawl::AddLoggingFlags(app, logging);
  crawl::AddHttpFlags(app, http);
  if (auto exit_code = crawl::ParseCommandLine(app, argc, argv)) return *exit_code;
  auto fail = [](const std::string& message) { return crawl::FailStartup("fetcher", message); };
  if (auto s = crawl::ValidateHostPort(nameserver); !s.ok()) return fail("--nameserver: " + s.message());
  if (dns_min_ttl > dns_max_ttl) return fail("--dns-min-ttl is above --dns-max-ttl");
  if (auto s = crawl::ValidateHttpFlags(http); !s.ok()) return fail(s.message());
  if (auto s = crawl::PrepareProcess("fetcher", logging, ""); !s.ok()) return fail(s.message());
  if (auto s = crawl::security::SetUpTransport("fetcher", tls, true, {}); !s.ok()) return fail(s.message());
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
  options.max_in_flight = max_in_flight;
  options.max_buffered_result_bytes = result_buffer_mb << 20;
  options.max_connections_per_ip = max_per_ip;
  if (process_threads > 0) options.process_pool = std::make_shared<crawl::fetcher::ProcessPool>(process_threads);
  options.poll_interval = std::chrono::milliseconds(poll_ms);
  options.status_interval = std::chrono::milliseconds(status_ms);
  options.dns.servers = dns_servers;
  options.dns.min_ttl = std::chrono::seconds(dns_min_ttl);
  options.dns.max_ttl = std::chrono::seconds(dns_max_ttl);
  options.dns.negative_ttl = std::chrono::seconds(dns_negative_ttl);
  options.dns.try_timeout = std::chrono::milliseconds(dns_timeout_ms);
  options.dns.tries = dns_tries;
  options.dns.ipv6 = dns_ipv6;
  {
    // Bad --dns-servers must fail at startup, not on the first lookup.
    boost::asio::io_context probe;
    auto resolver = crawl::fetcher::DnsResolver::Create(probe, options.dns);
    if (!resolver.ok()) return fail("DNS: " + resolver.status().message());
  }
  // Each lane gets its share of the in-flight and per-IP limits (at least 1).
  lanes = std::min(lanes, max_in_flight);
  std::vector<std::unique_ptr<crawl::fetcher::CrawlWorker>> workers;
  for (size_t lane = 0; lane < lanes; ++lane) {
    crawl::fetcher::WorkerOptions lane_options = options;
    if (lane > 0) lane_options.fetcher_id = id + "." + std::to_string(lane);
    lane_options.max_in_flight = std::max<size_t>(1, max_in_flight / lanes + (lane < max_in_flight % lanes ? 1 : 0));
    if (max_per_ip > 0) lane_options.max_connections_per_ip = std::max<size_t>(1, max_per_ip / lanes);
    // One lane logs the periodic status line; the others would repeat it.
    if (lane > 0) lane_options.status_interval = std::chrono::milliseconds(0);
    workers.push_back(std::make_unique<crawl::fetcher::CrawlWorker>(lane_options));
  }
  crawl::AdminHttpServer http_server;
  crawl::AddStandardRoutes(http_server);
  if (auto s = crawl::StartAdminHttp("fetcher", http, http_server); !s.ok()) return fail(s.message());
  spdlog::info("fetcher {} polling name server {} ({} lanes, {} processing threads)", id, nameserver, lanes, process_threads);

  // Shutdown order: the signal stops the worker, which reports what it
  // fetched and hands the rest back; then the HTTP engine is torn down.
  std::thread signals([&workers, &tls] {
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
