// The fetcher binary's flags (see fetcher_flags.h).
#include "fetcher/fetcher_flags.h"

#include <unistd.h>

#include "common/base/memory_budget.h"
#include "common/base/process.h"

namespace crawl::fetcher {
namespace {

// The flags of the crawl worker: identity, name server, limits and lanes.
void AddWorkerFlags(CLI::App& app, FetcherFlags& flags) {
  app.add_option("--id", flags.id,
                 "Fetcher id, unique in the cluster (default: hostname-pid); a fetcher started again under "
                 "its id takes back at once the hosts its earlier process had leased");
  app.add_option("--nameserver", flags.nameserver, "Name server host:port")->required();
  app.add_option("--hosts-file", flags.hosts_file_path,
                 "Name overrides, lines 'ADDRESS[:PORT] NAME...' (the synthetic web writes one)");
  app.add_flag("--allow-private", flags.allow_private,
               "Fetch from private, loopback and link-local addresses even if the crawl does not allow it");
  app.add_option("--max-in-flight", flags.max_in_flight,
                 "Requests in flight at once (one per host: hosts downloaded at the same time)")
      ->capture_default_str()
      ->check(CLI::Range(1, 20'000));
  app.add_option("--max-connections-per-ip", flags.max_per_ip,
                 "Most connections to one IP address at a time; 0 = no limit beyond one per host")
      ->capture_default_str()
      ->check(CLI::Range(0, 10'000));
  app.add_option("--h2-streams", flags.h2_streams,
                 "HTTP/2: most requests in flight on a host's one connection (also bounded by the "
                 "server's SETTINGS_MAX_CONCURRENT_STREAMS); h2 is used when a https server picks it "
                 "by ALPN, or on http when the crawl asks for prior knowledge")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  crawl::AddMemoryBudgetFlag(app, crawl::MemoryRole::kFetcher, &flags.memory_budget_mb);
  app.add_option("--result-buffer-mb", flags.result_buffer_mb,
                 "Downloaded bodies waiting for processing, per lane (MiB): past this, downloads pause "
                 "until processing and shipping catch up; 0 = an eighth of --memory-budget-mb shared "
                 "by the lanes, at least 4")
      ->capture_default_str()
      ->check(CLI::Range(0, 65'536));
  app.add_option("--ship-retry-seconds", flags.ship_retry_seconds,
                 "How long a result batch is retried while its queue server cannot be reached; then it "
                 "is dropped and its pages are fetched again when their lease ends")
      ->capture_default_str()
      ->check(CLI::Range(1, 86'400));
  app.add_option("--schedules", flags.lanes,
                 "Schedules worked at once, each by its own lane (control thread and HTTP engine); "
                 "1 = one schedule at a time")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  app.add_option("--process-threads", flags.process_threads,
                 "Threads that process a lane's large pages, or its pages when it falls behind, for "
                 "all lanes (default: one per core past the first two, at most 8); "
                 "0 = each lane processes all its pages on its control thread")
      ->capture_default_str()
      ->check(CLI::Range(0, 64));
  app.add_option("--status-ms", flags.status_ms,
                 "Log a 'fetcher status' line (requests in flight, DNS cache) this often; 0 = never")
      ->capture_default_str()
      ->check(CLI::Range(0, 3'600'000));
  app.add_option("--document-workers", flags.document_workers,
                 "Document worker processes (PDF, Office, EPUB, RTF parsed at once, each confined)")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  app.add_option("--document-timeout-ms", flags.document_timeout_ms,
                 "Wall-clock time a document may take in its worker before the worker is killed")
      ->capture_default_str()
      ->check(CLI::Range(100, 600'000));
  app.add_option("--document-memory-mb", flags.document_memory_mb,
                 "Address space of each document worker (RLIMIT_AS)")
      ->capture_default_str()
      ->check(CLI::Range(64, 65536));
  app.add_option("--document-seccomp", flags.document_seccomp,
                 "Document worker's system call filter: kill (forbidden call kills it), trap (same, "
                 "naming the call on stderr), off (resource limits only)")
      ->capture_default_str()
      ->check(CLI::IsMember({"kill", "trap", "off"}));
}

// The DNS resolver's flags.
void AddDnsFlags(CLI::App& app, FetcherFlags& flags) {
  app.add_option("--dns-servers", flags.dns_servers,
                 "DNS servers 'IP[:PORT],...' (default: the system's /etc/resolv.conf)");
  app.add_option("--dns-min-ttl", flags.dns_min_ttl, "Shortest time a DNS answer is cached (s)")
      ->capture_default_str()
      ->check(CLI::Range(0, 86'400));
  app.add_option("--dns-max-ttl", flags.dns_max_ttl, "Longest time a DNS answer is cached (s)")
      ->capture_default_str()
      ->check(CLI::Range(0, 7 * 86'400));
  app.add_option("--dns-negative-ttl", flags.dns_negative_ttl,
                 "How long NXDOMAIN / no-address answers are cached (s)")
      ->capture_default_str()
      ->check(CLI::Range(0, 86'400));
  app.add_option("--dns-timeout-ms", flags.dns_timeout_ms, "DNS timeout per try (ms)")
      ->capture_default_str()
      ->check(CLI::Range(1, 60'000));
  app.add_option("--dns-tries", flags.dns_tries, "DNS tries per server")
      ->capture_default_str()
      ->check(CLI::Range(1, 10));
  app.add_flag("--dns-ipv6", flags.dns_ipv6, "Ask for IPv6 (AAAA) addresses too");
}

// The forward proxy's flags (fetcher/http/proxy_config.h).
void AddProxyFlags(CLI::App& app, FetcherFlags& flags) {
  app.add_option("--proxy", flags.proxy.proxy,
                 "Send every request through this HTTP proxy, http://HOST:PORT (https by CONNECT); "
                 "default: the environment as curl reads it (http_proxy, https_proxy/HTTPS_PROXY, "
                 "all_proxy/ALL_PROXY, no_proxy/NO_PROXY). No credentials in the URL: see "
                 "--proxy-auth-file");
  app.add_option("--proxy-auth-file", flags.proxy.auth_file,
                 "File holding one line 'user:password' for the proxy (sent as Proxy-Authorization: "
                 "Basic; never logged)");
  app.add_option_function<std::string>(
      "--no-proxy", [&flags](const std::string& list) { flags.proxy.no_proxy = list; },
      "Hosts that never go through the proxy, comma-separated: '*', host suffixes (example.com "
      "matches its subdomains), IP addresses and CIDR; overrides no_proxy/NO_PROXY");
}

}  // namespace

// Every flag of the fetcher, in the order --help lists them.
void AddFetcherFlags(CLI::App& app, FetcherFlags& flags) {
  AddWorkerFlags(app, flags);
  AddDnsFlags(app, flags);
  AddProxyFlags(app, flags);
  app.add_option("--poll-ms", flags.poll_ms, "Crawl state polling interval")
      ->capture_default_str()
      ->check(CLI::Range(50, 60'000));
  crawl::security::AddTlsFlags(app, flags.tls);
  crawl::AddLoggingFlags(app, flags.logging);
  crawl::AddHttpFlags(app, flags.http);
}

// Checks what CLI11's per-flag checks cannot; the first problem, phrased for
// the user.
crawl::Status ValidateFetcherFlags(const FetcherFlags& flags) {
  if (auto s = crawl::ValidateHostPort(flags.nameserver); !s.ok())
    return crawl::Status::InvalidArgument("--nameserver: " + s.message());
  if (flags.dns_min_ttl > flags.dns_max_ttl)
    return crawl::Status::InvalidArgument("--dns-min-ttl is above --dns-max-ttl");
  return crawl::ValidateHttpFlags(flags.http);
}

size_t ResultBufferMb(const FetcherFlags& flags) {
  if (flags.result_buffer_mb > 0) return flags.result_buffer_mb;
  return std::max<size_t>(4, flags.memory_budget_mb / 8 / std::max<size_t>(1, flags.lanes));
}

size_t BatchBytes(const FetcherFlags& flags) {
  return std::max<size_t>(size_t{1} << 20,
                          (flags.memory_budget_mb << 20) / 32 / std::max<size_t>(1, flags.lanes));
}

// hostname-pid: unique among the fetchers of a cluster.
std::string DefaultFetcherId() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return std::string(host) + "-" + std::to_string(getpid());
}

// The options the flags give (before they are shared out between lanes).
// `hosts_file` (may be null) must outlive the workers.
WorkerOptions WorkerOptionsFromFlags(const FetcherFlags& flags, const crawl::HostsFile* hosts_file) {
  WorkerOptions options;
  options.fetcher_id = flags.id;
  options.nameserver = flags.nameserver;
  options.hosts_file = hosts_file;
  options.allow_private = flags.allow_private;
  options.max_in_flight = flags.max_in_flight;
  options.max_buffered_result_bytes = ResultBufferMb(flags) << 20;
  options.max_batch_bytes = BatchBytes(flags);
  options.ship_retry_limit = std::chrono::seconds(flags.ship_retry_seconds);
  options.max_connections_per_ip = flags.max_per_ip;
  options.h2_streams = flags.h2_streams;
  if (flags.process_threads > 0)
    options.process_pool = std::make_shared<crawl::fetcher::ProcessPool>(flags.process_threads);
  options.sitemap_pool = std::make_shared<crawl::fetcher::ProcessPool>(1);
  options.sitemap_gate = std::make_shared<crawl::fetcher::SitemapGate>();
  crawl::fetcher::DocumentParserOptions documents;
  documents.workers = flags.document_workers;
  documents.timeout = std::chrono::milliseconds(flags.document_timeout_ms);
  documents.memory_bytes = flags.document_memory_mb << 20;
  documents.seccomp = flags.document_seccomp;
  options.document_parser = std::make_shared<const crawl::fetcher::DocumentParser>(std::move(documents));
  options.poll_interval = std::chrono::milliseconds(flags.poll_ms);
  options.status_interval = std::chrono::milliseconds(flags.status_ms);
  options.dns.servers = flags.dns_servers;
  options.dns.min_ttl = std::chrono::seconds(flags.dns_min_ttl);
  options.dns.max_ttl = std::chrono::seconds(flags.dns_max_ttl);
  options.dns.negative_ttl = std::chrono::seconds(flags.dns_negative_ttl);
  options.dns.try_timeout = std::chrono::milliseconds(flags.dns_timeout_ms);
  options.dns.tries = flags.dns_tries;
  options.dns.ipv6 = flags.dns_ipv6;
  return options;
}

crawl::Result<ProxySettings> ProxySettingsFromFlags(const FetcherFlags& flags,
                                                    const std::function<const char*(const char*)>& getenv) {
  return ResolveProxySettings(flags.proxy, getenv);
}

std::string DescribeProxies(const ProxySettings& proxy) {
  auto one = [](const std::optional<ProxyEndpoint>& p) {
    if (!p) return std::string("direct");
    return "via proxy " + ProxyName(*p) + (p->authorization.empty() ? "" : " (with credentials)");
  };
  return "http " + one(proxy.http) + ", https " + one(proxy.https) +
         (proxy.no_proxy.empty() ? "" : ", some hosts direct (no_proxy)");
}

// Bad --dns-servers must fail at startup, not on the first lookup.
crawl::Status CheckDnsOptions(const crawl::fetcher::DnsOptions& dns) {
  boost::asio::io_context probe;
  auto resolver = crawl::fetcher::DnsResolver::Create(probe, dns);
  if (!resolver.ok()) return resolver.status();
  return crawl::Status::Ok();
}

// The options of each lane (at most `lanes`, at most one per request in
// flight): each gets its share of the in-flight and per-IP limits (at least
// 1), its own id, and only the first logs the status line.
std::vector<WorkerOptions> LaneOptions(const WorkerOptions& options, size_t lanes) {
  const size_t max_in_flight = options.max_in_flight;
  const size_t max_per_ip = options.max_connections_per_ip;
  lanes = std::min(lanes, max_in_flight);
  std::vector<WorkerOptions> result;
  for (size_t lane = 0; lane < lanes; ++lane) {
    WorkerOptions lane_options = options;
    if (lane > 0) lane_options.fetcher_id = options.fetcher_id + "." + std::to_string(lane);
    lane_options.max_in_flight =
        std::max<size_t>(1, max_in_flight / lanes + (lane < max_in_flight % lanes ? 1 : 0));
    if (max_per_ip > 0) lane_options.max_connections_per_ip = std::max<size_t>(1, max_per_ip / lanes);
    // One lane logs the periodic status line; the others would repeat it.
    if (lane > 0) lane_options.status_interval = std::chrono::milliseconds(0);
    lane_options.idle_poll_offset =
        IdlePollPeriod(options.poll_interval) * static_cast<int64_t>(lane) / static_cast<int64_t>(lanes);
    result.push_back(std::move(lane_options));
  }
  return result;
}

}  // namespace crawl::fetcher
