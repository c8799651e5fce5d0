// The fetcher binary's flags (fetcher/main.cc): their definitions, their
// checks, and the WorkerOptions of each lane they give.
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "common/base/cli.h"
#include "common/base/status.h"
#include "common/net/hosts_file.h"
#include "common/security/transport.h"
#include "fetcher/crawl_worker.h"
#include "fetcher/http/dns_resolver.h"
#include "fetcher/http/proxy_config.h"

namespace crawl::fetcher {

// --process-threads' default for a machine of `cores` cores: one per core
// past the first two, at most 8 (see FetcherFlags::process_threads).
[[nodiscard]] constexpr size_t DefaultProcessThreads(size_t cores) {
  return cores <= 2 ? 0 : std::min<size_t>(cores - 2, 8);
}

// The fetcher's flags, with their defaults.
struct FetcherFlags {
  std::string id;  // "": hostname-pid
  std::string nameserver;
  std::string hosts_file_path;
  crawl::LoggingFlags logging;
  crawl::HttpFlags http;
  crawl::security::TlsFlags tls;
  bool allow_private = false;
  size_t max_in_flight = WorkerOptions{}.max_in_flight;
  size_t memory_budget_mb = 0;  // AddFetcherFlags sets this machine's default
  size_t result_buffer_mb = 0;  // 0: ResultBufferMb's share of the budget
  size_t ship_retry_seconds = static_cast<size_t>(
      std::chrono::duration_cast<std::chrono::seconds>(WorkerOptions{}.ship_retry_limit).count());
  size_t max_per_ip = 0;
  size_t h2_streams = FetcherOptions{}.h2_streams;
  size_t lanes = 4;
  // A one-site crawl works one schedule at a time: a pool lets its pages
  // be processed on more cores than its lane's thread. By default one per
  // core past the first two, at most 8: on 2 cores (which the lanes, and
  // in a one-machine cluster the queue and name servers, keep busy) a pool
  // only added thread hand-offs, and crawls ran faster and cheaper without
  // one (docs/BENCHMARKS.md "Cost per page").
  size_t process_threads = DefaultProcessThreads(std::thread::hardware_concurrency());
  int poll_ms = 2000;
  int status_ms = 5000;
  std::string dns_servers;
  int dns_min_ttl = static_cast<int>(crawl::fetcher::DnsOptions{}.min_ttl.count());
  int dns_max_ttl = static_cast<int>(crawl::fetcher::DnsOptions{}.max_ttl.count());
  int dns_negative_ttl = static_cast<int>(crawl::fetcher::DnsOptions{}.negative_ttl.count());
  int dns_timeout_ms = static_cast<int>(crawl::fetcher::DnsOptions{}.try_timeout.count());
  int dns_tries = crawl::fetcher::DnsOptions{}.tries;
  bool dns_ipv6 = false;
  // The document worker (fetcher/document/worker_client.h).
  size_t document_workers = 1;
  int document_timeout_ms = 10'000;
  size_t document_memory_mb = 1024;
  std::string document_seccomp = "kill";
  // Forward proxy (--proxy, --proxy-auth-file, --no-proxy; else the
  // environment, see fetcher/http/proxy_config.h).
  ProxyFlags proxy;
};

// Downloaded bodies a lane may hold waiting for processing, in MiB: an
// eighth of the memory budget shared by the lanes, at least 4 MiB a lane;
// --result-buffer-mb instead when given.
[[nodiscard]] size_t ResultBufferMb(const FetcherFlags& flags);
// The records a lane's result batch holds before it ships, in bytes: a
// 32nd of the memory budget shared by the lanes, at least 1 MiB
// (WorkerOptions::max_batch_bytes).
[[nodiscard]] size_t BatchBytes(const FetcherFlags& flags);

// Every flag of the fetcher, in the order --help lists them.
void AddFetcherFlags(CLI::App& app, FetcherFlags& flags);

// Checks what CLI11's per-flag checks cannot; the first problem, phrased for
// the user.
crawl::Status ValidateFetcherFlags(const FetcherFlags& flags);

// hostname-pid: unique among the fetchers of a cluster.
std::string DefaultFetcherId();

// The options the flags give (before they are shared out between lanes).
// `hosts_file` (may be null) must outlive the workers.
WorkerOptions WorkerOptionsFromFlags(const FetcherFlags& flags, const crawl::HostsFile* hosts_file);

// The proxy settings of the flags and the environment (`getenv`, e.g.
// std::getenv); the auth file is read (and checked) here, at startup.
crawl::Result<ProxySettings> ProxySettingsFromFlags(const FetcherFlags& flags,
                                                    const std::function<const char*(const char*)>& getenv);

// One line for the startup log: where http and https URLs go. Never the
// credentials (only whether there are some).
std::string DescribeProxies(const ProxySettings& proxy);

// Bad --dns-servers must fail at startup, not on the first lookup.
crawl::Status CheckDnsOptions(const crawl::fetcher::DnsOptions& dns);

// The options of each lane (at most `lanes`, at most one per request in
// flight): each gets its share of the in-flight and per-IP limits (at least
// 1), its own id, and only the first logs the status line.
std::vector<WorkerOptions> LaneOptions(const WorkerOptions& options, size_t lanes);

}  // namespace crawl::fetcher
