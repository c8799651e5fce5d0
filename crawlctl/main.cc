// crawlctl: the admin command line over the name server's gRPC API
// (DESIGN.md section 9). Finds the name server from --nameserver,
// CRAWL_NAMESERVER or NAMESERVER; TLS from --tls-* or CRAWL_TLS_CA,
// CRAWL_TLS_CERT and CRAWL_TLS_KEY; an admin token from CRAWL_TOKEN,
// --token-file or CRAWL_TOKEN_FILE (so `. cluster.env` of
// deploy/local-cluster.sh is all it needs). Every failure is one line on
// stderr and a non-zero exit.
#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cctype>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "common/cld.h"
#include "common/grpc_util.h"
#include "common/process.h"
#include "common/robots.h"
#include "common/security/process_security.h"
#include "common/status.h"
#include "common/url.h"
#include "fetcher/page_report.h"
#include "crawlctl/crawlctl_format.h"
#include "crawlctl/param_text.h"
#include "crawlctl/search_format.h"
#include "proto/crawl.grpc.pb.h"

namespace {

using crawl::Result;
using crawl::Status;
using crawl::v1::NameServer;
namespace fmt_ = crawl::crawlctl;

// ---- local tools: no name server needed ----

struct RobotsOptions {
  std::string file;
  std::string agent;
  std::string url;
};

struct UrlOptions {
  std::string url;
  std::string base;
  std::vector<std::string> tracking_params;
  bool keep_tracking = false;
};

struct CldOptions {
  std::string host;
  std::string rule = "psl";
};

struct PageOptions {
  crawl::fetcher::LocalPage page;
  std::string file;
};

// Prints "allowed" or "disallowed"; the answer is whether `url` is allowed.
Result<bool> RunRobots(const RobotsOptions& options) {
  auto body = crawl::ReadFile(options.file);
  if (!body.ok()) return body.status();
  const auto rules = crawl::robots::Parse(*body, options.agent);
  const bool allowed = crawl::robots::IsAllowedUrl(rules, options.url);
  std::cout << (allowed ? "allowed" : "disallowed") << "\n";
  return allowed;
}

// The query parameters `url` removes: none with --keep-tracking-params,
// else --tracking-params or the default list.
Result<crawl::url::TrackingParams> TrackingParamsFromFlags(const UrlOptions& options) {
  if (options.keep_tracking) return crawl::url::TrackingParams();
  if (options.tracking_params.empty()) return crawl::url::TrackingParams::Default();
  auto list = crawl::url::TrackingParams::FromList(options.tracking_params);
  if (!list.ok()) return Status::InvalidArgument("--tracking-params: " + list.status().message());
  return list;
}

Status RunUrl(const UrlOptions& options, const crawl::url::TrackingParams& tracking) {
  auto canonical =
      options.base.empty() ? crawl::url::Canonicalize(options.url) : crawl::url::Resolve(options.base, options.url);
  if (!canonical.ok()) return canonical.status();
  std::cout << crawl::url::RemoveTrackingParams(*canonical, tracking) << "\n";
  return Status::Ok();
}

Status RunCld(const CldOptions& options) {
  auto rule = crawl::ParseCldRule(options.rule);
  auto cld = rule.ok() ? crawl::CompanyLevelDomain(options.host, *rule) : Result<std::string>(rule.status());
  if (!cld.ok()) return cld.status();
  std::cout << *cld << "\n";
  return Status::Ok();
}

// A failure to write stdout is reported by the exit code alone (a Status
// with no message).
Status RunPage(PageOptions options) {
  auto body = crawl::ReadFile(options.file);
  if (!body.ok()) return body.status();
  options.page.body = std::move(*body);
  options.page.file_name = options.file;
  auto json = crawl::fetcher::PageReportJson(options.page);
  if (!json.ok()) return json.status();
  std::cout << *json << "\n";
  if (!std::cout.flush()) return Status::IoError("");
  return Status::Ok();
}

// ---- the connection to the name server ----

// Where the name server is and how to prove who we are.
struct ConnectionFlags {
  std::string nameserver;
  crawl::security::TlsFlags tls;
  std::string token_file;
};

// A stub to the name server and the bearer token every call carries (empty:
// none; the certificate, or nothing on an insecure loopback cluster,
// identifies the caller).
struct NameServerClient {
  std::string address;
  std::string token;
  std::unique_ptr<NameServer::Stub> stub;

  void Authenticate(grpc::ClientContext& ctx) const {
    if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
  }
  // Authenticates `ctx` and gives the call `timeout`.
  void Prepare(grpc::ClientContext& ctx, std::chrono::seconds timeout) const {
    Authenticate(ctx);
    crawl::SetTimeout(ctx, timeout);
  }
  // A failed call as the one line crawlctl prints.
  [[nodiscard]] Status Check(const grpc::Status& s) const;
};

std::string EnvOr(const char* name, std::string fallback = "") {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::string(value) : fallback;
}

// The token from CRAWL_TOKEN, else from the token file (trailing white
// space dropped). Fails on an unreadable or empty file.
Result<std::string> LoadToken(const std::string& token_file) {
  std::string token = EnvOr("CRAWL_TOKEN");
  if (token.empty() && !token_file.empty()) {
    auto text = crawl::ReadFile(token_file);
    if (!text.ok()) return Status::InvalidArgument("--token-file: " + text.status().message());
    token = *text;
    while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) token.pop_back();
    if (token.empty()) return Status::InvalidArgument("--token-file " + token_file + " is empty");
  }
  if (token.find_first_of(" \t\r\n") != std::string::npos) {
    return Status::InvalidArgument("the token holds white space");
  }
  return token;
}

Status NameServerClient::Check(const grpc::Status& s) const {
  if (s.ok()) return Status::Ok();
  if (s.error_code() == grpc::StatusCode::UNAVAILABLE || s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED)
    return Status::Unavailable("cannot reach name server at " + address + ": " + s.error_message());
  if (s.error_code() == grpc::StatusCode::UNAUTHENTICATED)
    return Status::FailedPrecondition("not authenticated: " + s.error_message() +
                                      " (give a certificate with --tls-cert/--tls-key or a token)");
  if (s.error_code() == grpc::StatusCode::PERMISSION_DENIED)
    return Status::FailedPrecondition("permission denied: " + s.error_message());
  return Status::Internal(s.error_message());
}

// Checks the flags, sets up TLS and loads the token; no call is made yet.
Result<NameServerClient> ConnectToNameServer(ConnectionFlags flags) {
  if (flags.nameserver.empty())
    return Status::InvalidArgument("no name server: pass --nameserver host:port or set CRAWL_NAMESERVER");
  if (auto s = crawl::ValidateHostPort(flags.nameserver); !s.ok())
    return Status::InvalidArgument("--nameserver: " + s.message());
  if (flags.tls.insecure) flags.tls.ca = flags.tls.cert = flags.tls.key = flags.tls.crl = "";
  if (auto s = crawl::security::SetUpTransport("crawlctl", flags.tls, false, {}); !s.ok()) return s;
  auto token = LoadToken(flags.token_file);
  if (!token.ok()) return token.status();
  NameServerClient client;
  client.address = flags.nameserver;
  client.token = std::move(*token);
  client.stub = NameServer::NewStub(crawl::MakeChannel(flags.nameserver, {crawl::security::Role::kNameServer}));
  return client;
}

// ---- crawl commands: start, watch, stop, resume, change, list ----

struct StartOptions {
  std::string seeds_file;
  std::string order = "host_budget";
  std::string wseen_increment, opic_split, scoring_filters;
  uint64_t ram_budget_urls = 0;
  uint32_t structure_load_take = 0;
  uint32_t backoff_base = 0, backoff_max = 0, park_after = 0, park_seconds = 0, max_url_retries = 0;
  uint32_t host_error_threshold = 0, error_crawl_delay_ms = 0;
  uint64_t max_pages = 0;
  bool allow_private = false;
  bool accept_self_signed = false;
  uint32_t schedule_size = 0, lease_seconds = 0;
  uint64_t page_range = 0;
  std::string user_agent;
  uint32_t max_depth = 0, min_host_delay_ms = 0;
  std::vector<std::string> include_hosts, exclude_hosts;
  uint32_t max_links_per_page = 0, max_links_after_prune = 0;
  uint32_t index_partition_docs = 0;
  bool cache_pages = false;
};

struct StatusOptions {
  uint64_t crawl_id = 0;  // 0: the active or latest crawl
  bool json = false;
  bool follow = false;
};

struct SetParamOptions {
  uint64_t crawl_id = 0;
  std::string name;
  std::string value;
};

// `list` and `servers`.
struct ListOptions {
  bool json = false;
};

// `stop`, `resume` and `log`: which crawl.
struct CrawlIdOptions {
  uint64_t crawl_id = 0;
};

// The seed URLs of a seeds file: one a line; blank lines and '#' comments
// skipped.
Result<std::vector<std::string>> ReadSeeds(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::InvalidArgument("cannot read seeds file '" + path + "'");
  std::vector<std::string> seeds;
  std::string line;
  while (std::getline(in, line)) {
    const auto b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos || line[b] == '#') continue;
    const auto e = line.find_last_not_of(" \t\r");
    seeds.push_back(line.substr(b, e - b + 1));
  }
  if (seeds.empty()) return Status::InvalidArgument("seeds file '" + path + "' holds no URL");
  return seeds;
}

void SetStartParams(const StartOptions& o, crawl::v1::CrawlParams* p) {
  p->set_order(o.order);
  p->set_max_pages(o.max_pages);
  p->set_allow_private_addresses(o.allow_private);
  p->set_accept_self_signed(o.accept_self_signed);
  p->set_schedule_size(o.schedule_size);
  p->set_lease_seconds(o.lease_seconds);
  p->set_page_range_bytes(o.page_range);
  p->set_user_agent(o.user_agent);
  p->set_max_depth(o.max_depth);
  for (const auto& h : o.include_hosts) p->add_include_hosts(h);
  for (const auto& h : o.exclude_hosts) p->add_exclude_hosts(h);
  p->set_min_host_delay_ms(o.min_host_delay_ms);
  p->set_wseen_increment(o.wseen_increment);
  p->set_opic_split(o.opic_split);
  p->set_scoring_filters(o.scoring_filters);
  p->set_ram_budget_urls(o.ram_budget_urls);
  p->set_structure_load_take(o.structure_load_take);
  p->set_backoff_base_seconds(o.backoff_base);
  p->set_backoff_max_seconds(o.backoff_max);
  p->set_park_after_failures(o.park_after);
  p->set_park_seconds(o.park_seconds);
  p->set_max_url_retries(o.max_url_retries);
  p->set_host_error_threshold(o.host_error_threshold);
  p->set_error_crawl_delay_ms(o.error_crawl_delay_ms);
  p->set_index_partition_docs(o.index_partition_docs);
  p->set_max_links_per_page(o.max_links_per_page);
  p->set_max_links_after_prune(o.max_links_after_prune);
  p->set_keep_page_cache(o.cache_pages);
}

Status RunStart(const NameServerClient& client, const StartOptions& options) {
  auto seeds = ReadSeeds(options.seeds_file);
  if (!seeds.ok()) return seeds.status();
  crawl::v1::StartCrawlRequest req;
  for (auto& s : *seeds) req.add_seeds(std::move(s));
  SetStartParams(options, req.mutable_params());
  grpc::ClientContext ctx;
  client.Prepare(ctx, std::chrono::seconds(30));
  crawl::v1::StartCrawlResponse resp;
  if (auto s = client.Check(client.stub->StartCrawl(&ctx, req, &resp)); !s.ok()) return s;
  for (const auto& r : resp.rejected_seeds()) std::cerr << "crawlctl: seed rejected: " << r << "\n";
  for (const auto& w : resp.warnings()) std::cerr << "crawlctl: warning: " << w << "\n";
  std::cout << "crawl " << resp.crawl().crawl_id() << " started with " << resp.crawl().seed_count() << " seeds on "
            << resp.crawl().queue_servers_size() << " queue servers\n";
  return Status::Ok();
}

Result<crawl::v1::CrawlStatusResponse> GetStatus(const NameServerClient& client, uint64_t crawl_id) {
  grpc::ClientContext ctx;
  client.Prepare(ctx, std::chrono::seconds(10));
  crawl::v1::CrawlStatusRequest req;
  req.set_crawl_id(crawl_id);
  crawl::v1::CrawlStatusResponse resp;
  if (auto s = client.Check(client.stub->CrawlStatus(&ctx, req, &resp)); !s.ok()) return s;
  return resp;
}

// Pages and bytes a second, measured between status polls at least half a
// second apart.
class FetchRate {
 public:
  explicit FetchRate(const crawl::v1::CrawlStatusResponse& first)
      : last_pages_(first.totals().pages_fetched()),
        last_bytes_(first.totals().bytes_fetched()),
        last_time_(std::chrono::steady_clock::now()) {}

  void Update(const crawl::v1::CrawlStatusResponse& resp) {
    const auto now = std::chrono::steady_clock::now();
    const double dt = std::chrono::duration<double>(now - last_time_).count();
    if (dt <= 0.5) return;
    // Numbers can step back when a queue server restarts: no negative rates.
    const auto grew = [](uint64_t now_v, uint64_t then_v) {
      return static_cast<double>(now_v > then_v ? now_v - then_v : 0);
    };
    pages_per_second_ = grew(resp.totals().pages_fetched(), last_pages_) / dt;
    bytes_per_second_ = grew(resp.totals().bytes_fetched(), last_bytes_) / dt;
    last_pages_ = resp.totals().pages_fetched();
    last_bytes_ = resp.totals().bytes_fetched();
    last_time_ = now;
  }
  [[nodiscard]] double pages_per_second() const { return pages_per_second_; }
  [[nodiscard]] double bytes_per_second() const { return bytes_per_second_; }

 private:
  uint64_t last_pages_;
  uint64_t last_bytes_;
  std::chrono::steady_clock::time_point last_time_;
  double pages_per_second_ = 0;
  double bytes_per_second_ = 0;
};

// --follow: a progress line a second while the crawl runs, then a summary.
Status FollowStatus(const NameServerClient& client, uint64_t crawl_id) {
  const bool tty = isatty(STDOUT_FILENO);
  auto first = GetStatus(client, crawl_id);
  if (!first.ok()) return first.status();
  const uint64_t id = first->crawl().crawl_id();
  FetchRate rate(*first);
  for (uint64_t tick = 0;; ++tick) {
    auto resp = GetStatus(client, id);
    if (!resp.ok()) return resp.status();
    rate.Update(*resp);
    if (tty) {
      std::cout << "\r\033[K"
                << fmt_::ProgressBarLine(*resp, rate.pages_per_second(), rate.bytes_per_second(), tick)
                << std::flush;
    } else {
      std::cout << fmt_::ProgressLine(*resp, rate.pages_per_second()) << "\n" << std::flush;
    }
    if (resp->crawl().state() != crawl::v1::CRAWL_STATE_RUNNING) {
      if (tty) std::cout << "\n";
      std::cout << fmt_::StatusText(*resp);
      return Status::Ok();
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

Status RunStatus(const NameServerClient& client, const StatusOptions& options) {
  if (options.follow) return FollowStatus(client, options.crawl_id);
  auto resp = GetStatus(client, options.crawl_id);
  if (!resp.ok()) return resp.status();
  std::cout << (options.json ? fmt_::StatusJson(*resp) : fmt_::StatusText(*resp));
  return Status::Ok();
}

Status RunStop(const NameServerClient& client, const CrawlIdOptions& options) {
  grpc::ClientContext ctx;
  client.Prepare(ctx, std::chrono::seconds(30));
  crawl::v1::StopCrawlRequest req;
  req.set_crawl_id(options.crawl_id);
  crawl::v1::StopCrawlResponse resp;
  if (auto s = client.Check(client.stub->StopCrawl(&ctx, req, &resp)); !s.ok()) return s;
  std::cout << "crawl " << resp.crawl().crawl_id() << " stopped\n";
  return Status::Ok();
}

Status RunResume(const NameServerClient& client, const CrawlIdOptions& options) {
  grpc::ClientContext ctx;
  client.Prepare(ctx, std::chrono::seconds(30));
  crawl::v1::ResumeCrawlRequest req;
  req.set_crawl_id(options.crawl_id);
  crawl::v1::ResumeCrawlResponse resp;
  if (auto s = client.Check(client.stub->ResumeCrawl(&ctx, req, &resp)); !s.ok()) return s;
  std::cout << "crawl " << resp.crawl().crawl_id() << " resumed\n";
  return Status::Ok();
}

Status RunSetParam(const NameServerClient& client, const SetParamOptions& options) {
  crawl::v1::SetCrawlParamsRequest req;
  req.set_crawl_id(options.crawl_id);
  if (auto s = fmt_::SetParamFromText(req.mutable_params(), options.name, options.value); !s.ok()) return s;
  req.add_fields(options.name);
  grpc::ClientContext ctx;
  client.Prepare(ctx, std::chrono::seconds(30));
  crawl::v1::SetCrawlParamsResponse resp;
  if (auto s = client.Check(client.stub->SetCrawlParams(&ctx, req, &resp)); !s.ok()) return s;
  std::cout << "crawl " << resp.crawl().crawl_id() << ": " << options.name << " = " << options.value
            << " (params version " << resp.crawl().params_version() << ")\n";
  return Status::Ok();
}

Status RunList(const NameServerClient& client, const ListOptions& options) {
  grpc::ClientContext ctx;
  client.Prepare(ctx, std::chrono::seconds(10));
  crawl::v1::ListCrawlsResponse resp;
  if (auto s = client.Check(client.stub->ListCrawls(&ctx, crawl::v1::ListCrawlsRequest(), &resp)); !s.ok()) return s;
  std::cout << (options.json ? fmt_::CrawlListJson(resp) : fmt_::CrawlListText(resp));
  return Status::Ok();
}

Status RunServers(const NameServerClient& client, const ListOptions& options) {
  grpc::ClientContext ctx;
  client.Prepare(ctx, std::chrono::seconds(10));
  crawl::v1::ListQueueServersResponse resp;
  if (auto s = client.Check(client.stub->ListQueueServers(&ctx, crawl::v1::ListQueueServersRequest(), &resp));
      !s.ok())
    return s;
  std::cout << (options.json ? fmt_::ServersJson(resp) : fmt_::ServersText(resp));
  return Status::Ok();
}

// ---- what a crawl gathered: search results, cached pages, the crawl log ----

struct SearchOptions {
  uint64_t crawl_id = 0;
  std::string query;
  bool explain = false;
  uint32_t limit = 10;
  bool json = false;
};

struct CacheOptions {
  uint64_t crawl_id = 0;
  std::string url;
  bool info = false;
};

Status RunSearch(const NameServerClient& client, const SearchOptions& options) {
  if (options.limit == 0) return Status::InvalidArgument("--limit must be at least 1");
  grpc::ClientContext ctx;
  client.Prepare(ctx, std::chrono::seconds(30));
  crawl::v1::SearchRequest req;
  req.set_crawl_id(options.crawl_id);
  req.set_query(options.query);
  req.set_limit(options.limit);
  crawl::v1::SearchResponse resp;
  if (auto s = client.Check(client.stub->Search(&ctx, req, &resp)); !s.ok()) return s;
  std::cout << (options.json ? crawl::crawlctl::SearchJson(resp) : crawl::crawlctl::SearchText(resp, options.explain));
  return Status::Ok();
}

Status RunCache(const NameServerClient& client, const CacheOptions& options) {
  auto canonical = crawl::url::Canonicalize(options.url);
  if (!canonical.ok()) return Status::InvalidArgument("bad URL: " + canonical.status().message());
  grpc::ClientContext ctx;
  client.Prepare(ctx, std::chrono::seconds(60));
  crawl::v1::CachedPageRequest req;
  req.set_crawl_id(options.crawl_id);
  req.set_url(*canonical);
  crawl::v1::CachedPageResponse resp;
  if (auto s = client.Check(client.stub->GetCachedPage(&ctx, req, &resp)); !s.ok()) return s;
  if (!resp.found()) return Status::NotFound("no cached page for " + *canonical);
  if (options.info) {
    std::cout << "url " << resp.url() << "\nstatus " << resp.status() << "\ntype " << resp.mime_type() << "\nbytes "
              << resp.body().size() << "\nwarc " << resp.warc_file() << " offset " << resp.warc_offset()
              << "\nqueue server " << resp.queue_server_id() << "\n";
  } else {
    std::cout << resp.body();
  }
  return Status::Ok();
}

// Streams the log: no deadline, it may be long.
Status RunLog(const NameServerClient& client, const CrawlIdOptions& options) {
  grpc::ClientContext ctx;
  client.Authenticate(ctx);
  crawl::v1::GetCrawlLogRequest req;
  req.set_crawl_id(options.crawl_id);
  auto reader = client.stub->GetCrawlLog(&ctx, req);
  crawl::v1::CrawlLogChunk chunk;
  while (reader->Read(&chunk)) {
    for (const auto& r : chunk.records()) std::cout << fmt_::LogLine(r) << '\n';
  }
  return client.Check(reader->Finish());
}

// ---- flags and dispatch ----

// Every subcommand's flags, filled by CLI11.
struct CommandLine {
  ConnectionFlags connection;
  StartOptions start;
  StatusOptions status;
  CrawlIdOptions stop, resume, log;
  SetParamOptions set_param;
  ListOptions list, servers;
  SearchOptions search;
  CacheOptions cache;
  RobotsOptions robots;
  UrlOptions url;
  CldOptions cld;
  PageOptions page;
};

// The subcommands; after parsing, the one given converts to true.
struct Subcommands {
  CLI::App *start, *status, *stop, *resume, *set_param, *list, *servers, *search, *cache, *log;
  CLI::App *robots, *url, *cld, *page;
};

void AddConnectionFlags(CLI::App& app, ConnectionFlags& c) {
  c.nameserver = EnvOr("CRAWL_NAMESERVER", EnvOr("NAMESERVER"));
  app.add_option("--nameserver", c.nameserver, "Name server host:port (default: $CRAWL_NAMESERVER or $NAMESERVER)");
  c.tls.ca = EnvOr("CRAWL_TLS_CA");
  c.tls.cert = EnvOr("CRAWL_TLS_CERT");
  c.tls.key = EnvOr("CRAWL_TLS_KEY");
  crawl::security::AddTlsFlags(app, c.tls);
  c.token_file = EnvOr("CRAWL_TOKEN_FILE");
  app.add_option("--token-file", c.token_file,
                 "Admin or reader token to authenticate with (default: $CRAWL_TOKEN, or the file in "
                 "$CRAWL_TOKEN_FILE); never printed");
}

// The crawl order and its tuning.
void AddStartOrderFlags(CLI::App* start, StartOptions& o) {
  start->add_option("--order", o.order, "Crawl order")
      ->check(CLI::IsMember({"bfs", "host_budget", "opic", "structure"}))
      ->capture_default_str();
  start->add_option("--wseen-increment", o.wseen_increment, "host_budget weighted-seen increment: log (default) or min")
      ->check(CLI::IsMember({"log", "min"}));
  start->add_option("--opic-split", o.opic_split, "opic cash split: cld (default) or plain")
      ->check(CLI::IsMember({"cld", "plain"}));
  start->add_option("--scoring-filters", o.scoring_filters,
                    "Comma-separated ScoringFilter chain (default: the order's)");
  start->add_option("--ram-budget-urls", o.ram_budget_urls, "opic: queued URLs kept in RAM (default 1000000)");
  start->add_option("--load-take", o.structure_load_take,
                    "structure: pages one iteration of a site's frontier sends to fetch (default 10)");
}

// How failing hosts are backed off, parked and retried.
void AddStartBackoffFlags(CLI::App* start, StartOptions& o) {
  start->add_option("--backoff-base-seconds", o.backoff_base, "First back-off of a failing host (default 2)");
  start->add_option("--backoff-max-seconds", o.backoff_max,
                    "Longest back-off and Retry-After honoured (default 600)");
  start->add_option("--park-after-failures", o.park_after, "Failures in a row that park a host (default 8)");
  start->add_option("--park-seconds", o.park_seconds, "How long a parked host waits (default 1800)");
  start->add_option("--max-url-retries", o.max_url_retries, "Times a 429/503 URL is put back (default 5)");
  start->add_option("--host-error-threshold", o.host_error_threshold,
                    "Host errors (5xx, 429, 408, 403, network failures) in one schedule that crawl-delay a host "
                    "(default 50)");
  start->add_option("--error-crawl-delay-ms", o.error_crawl_delay_ms,
                    "Spacing of the requests to a host crawl-delayed by errors (default 1000)");
}

// Budget, fetching, scope and politeness, links, index and cache.
void AddStartFetchFlags(CLI::App* start, StartOptions& o) {
  start->add_option("--max-pages", o.max_pages, "Stop after this many pages (0: no limit)");
  start->add_flag("--allow-private", o.allow_private, "Allow private, loopback and link-local addresses");
  start->add_flag("--accept-self-signed", o.accept_self_signed,
                  "https: accept certificates that do not verify (test hosts); off by default");
  start->add_option("--schedule-size", o.schedule_size, "URLs per schedule (default 5000)");
  start->add_option("--lease-seconds", o.lease_seconds, "Schedule lease (default 300)");
  start->add_option("--page-range", o.page_range, "Range request size in bytes (default 1000000)");
  start->add_option("--user-agent", o.user_agent, "User-agent product token (default crawlbot)");
  start->add_option("--max-depth", o.max_depth, "Follow links at most this far from the seeds (0: no limit)");
  start->add_option("--include-hosts", o.include_hosts,
                    "Only crawl hosts matching these globs ('*' any run; e.g. '*.example.com'); comma-separated")
      ->delimiter(',');
  start->add_option("--exclude-hosts", o.exclude_hosts, "Never crawl hosts matching these globs; comma-separated")
      ->delimiter(',');
  start->add_option("--min-host-delay-ms", o.min_host_delay_ms,
                    "Politeness floor: requests to one host at least this far apart (robots Crawl-delay still wins)");
  start->add_option("--max-links-per-page", o.max_links_per_page,
                    "Links taken from a page before pruning (default 300)");
  start->add_option("--max-links-after-prune", o.max_links_after_prune,
                    "Links a page keeps after pruning by effective terms (default 50; DESIGN.md 6)");
  start->add_flag("--cache-pages", o.cache_pages, "Keep full pages as WARC files on the queue servers");
  start->add_option("--index-partition-docs", o.index_partition_docs,
                    "Documents per search-index partition (default 100000)");
}

CLI::App* AddStartCommand(CLI::App& app, StartOptions& o) {
  auto* start = app.add_subcommand("start", "Start a crawl");
  start->add_option("--seeds", o.seeds_file, "File with one seed URL per line")->required();
  AddStartOrderFlags(start, o);
  AddStartBackoffFlags(start, o);
  AddStartFetchFlags(start, o);
  return start;
}

// status, stop, resume, set-param, list and servers.
void AddCrawlCommands(CLI::App& app, CommandLine& c, Subcommands& cmd) {
  cmd.status = app.add_subcommand("status", "Show a crawl's progress");
  cmd.status->add_flag("--json", c.status.json, "One JSON object");
  cmd.status->add_flag("--follow", c.status.follow, "Print progress every second until the crawl ends, then a summary");
  cmd.status->add_option("--crawl", c.status.crawl_id, "Crawl id (default: the active or latest one)");

  cmd.stop = app.add_subcommand("stop", "Stop the running crawl");
  cmd.stop->add_option("--crawl", c.stop.crawl_id, "Crawl id (default: the active one)");

  cmd.resume = app.add_subcommand("resume", "Run a stopped crawl again from where it stopped");
  cmd.resume->add_option("--crawl", c.resume.crawl_id, "Crawl id (default: the latest one)");

  cmd.set_param = app.add_subcommand("set-param", "Change a parameter of the running crawl (e.g. max_pages)");
  cmd.set_param->add_option("name", c.set_param.name, "CrawlParams field name, e.g. max_pages, fetch_timeout_ms")
      ->required();
  cmd.set_param->add_option("value", c.set_param.value, "New value")->required();
  cmd.set_param->add_option("--crawl", c.set_param.crawl_id, "Crawl id (default: the active or latest one)");

  cmd.list = app.add_subcommand("list", "List crawls");
  cmd.list->add_flag("--json", c.list.json, "JSON output");

  cmd.servers = app.add_subcommand("servers", "List registered queue servers");
  cmd.servers->add_flag("--json", c.servers.json, "JSON output");
}

// search, cache and log.
void AddCrawlDataCommands(CLI::App& app, CommandLine& c, Subcommands& cmd) {
  cmd.search = app.add_subcommand("search", "Search a crawl's index (words, \"phrases\", a | b, site:host)");
  cmd.search->add_option("query", c.search.query, "The query")->required();
  cmd.search->add_flag("--explain", c.search.explain, "Show each result's score parts");
  cmd.search->add_option("--limit", c.search.limit, "Results to show")->capture_default_str();
  cmd.search->add_flag("--json", c.search.json, "One JSON object with a results array");
  cmd.search->add_option("--crawl", c.search.crawl_id, "Crawl id (default: the active or latest one)");

  cmd.cache = app.add_subcommand("cache", "Print a cached page (crawls started with --cache-pages)");
  cmd.cache->add_option("url", c.cache.url, "The page's URL")->required();
  cmd.cache->add_flag("--info", c.cache.info, "Print status, type, WARC file and offset instead of the body");
  cmd.cache->add_option("--crawl", c.cache.crawl_id, "Crawl id (default: the active or latest one)");

  cmd.log = app.add_subcommand("log", "Print the crawl log: one tab-separated line per fetch attempt");
  cmd.log->add_option("--crawl", c.log.crawl_id, "Crawl id (default: the active or latest one)");
}

// Local tools: no name server needed.
void AddLocalCommands(CLI::App& app, CommandLine& c, Subcommands& cmd) {
  cmd.robots = app.add_subcommand(
      "robots", "Check a URL against a robots.txt file: prints allowed (exit 0) or disallowed (exit 1)");
  cmd.robots->add_option("file", c.robots.file, "robots.txt file")->required();
  cmd.robots->add_option("agent", c.robots.agent, "User-agent product token")->required();
  cmd.robots->add_option("url", c.robots.url, "URL to check")->required();

  cmd.url = app.add_subcommand(
      "url", "Print the canonical form of a URL (resolved against --base), tracking parameters removed as a crawl does");
  cmd.url->add_option("url", c.url.url, "URL or reference")->required();
  cmd.url->add_option("--base", c.url.base, "Base URL to resolve against");
  cmd.url->add_option("--tracking-params", c.url.tracking_params,
                      "Query parameters to remove instead of the default list: names or prefixes ending in '*', "
                      "comma-separated (default: utm_*, gclid, fbclid, ... see common/url.h)")
      ->delimiter(',');
  cmd.url->add_flag("--keep-tracking-params", c.url.keep_tracking, "Remove no query parameter");

  cmd.cld = app.add_subcommand("cld", "Print the company level domain of a host");
  cmd.cld->add_option("host", c.cld.host, "Host name")->required();
  cmd.cld->add_option("--rule", c.cld.rule, "psl (Public Suffix List) or simple")->capture_default_str();

  cmd.page = app.add_subcommand(
      "page", "Process a local file as the fetcher would and print everything extracted as one JSON object");
  cmd.page->add_option("--url", c.page.page.url, "URL the page is taken to come from")->required();
  cmd.page->add_option("--mime", c.page.page.mime, "Media type (default: from the file extension)");
  cmd.page->add_option("--charset", c.page.page.charset, "Charset as sent in Content-Type (default: none)");
  cmd.page->add_option("file", c.page.file, "The page's bytes")->required();
}

// Every flag and subcommand, in the order --help lists them.
Subcommands AddFlags(CLI::App& app, CommandLine& c) {
  Subcommands cmd{};
  AddConnectionFlags(app, c.connection);
  cmd.start = AddStartCommand(app, c.start);
  AddCrawlCommands(app, c, cmd);
  AddCrawlDataCommands(app, c, cmd);
  AddLocalCommands(app, c, cmd);
  return cmd;
}

// The exit code of a finished command: 0, or `failure_code` after printing
// "crawlctl: <message>" (nothing for a failure without a message).
int ExitCode(const Status& status, int failure_code = 1) {
  if (status.ok()) return 0;
  if (!status.message().empty()) std::cerr << "crawlctl: " << status.message() << "\n";
  return failure_code;
}

Status FlushOutput() {
  std::cout.flush();
  if (!std::cout) return Status::IoError("cannot write output");
  return Status::Ok();
}

// robots, url, cld and page: 0 and 1 answer robots, so its failures exit 2,
// as do --tracking-params that do not parse.
int RunLocalCommand(const Subcommands& cmd, const CommandLine& c) {
  if (*cmd.robots) {
    auto allowed = RunRobots(c.robots);
    return allowed.ok() ? (*allowed ? 0 : 1) : ExitCode(allowed.status(), 2);
  }
  if (*cmd.url) {
    auto tracking = TrackingParamsFromFlags(c.url);
    if (!tracking.ok()) return ExitCode(tracking.status(), 2);
    return ExitCode(RunUrl(c.url, *tracking));
  }
  if (*cmd.cld) return ExitCode(RunCld(c.cld));
  return ExitCode(RunPage(c.page));
}

// The commands that call the name server. Output is checked as written
// except for `status`, which writes as it goes.
int RunNameServerCommand(const Subcommands& cmd, const CommandLine& c) {
  auto client = ConnectToNameServer(c.connection);
  if (!client.ok()) return ExitCode(client.status());
  if (*cmd.status) return ExitCode(RunStatus(*client, c.status));
  Status s;
  if (*cmd.start) s = RunStart(*client, c.start);
  else if (*cmd.stop) s = RunStop(*client, c.stop);
  else if (*cmd.resume) s = RunResume(*client, c.resume);
  else if (*cmd.set_param) s = RunSetParam(*client, c.set_param);
  else if (*cmd.list) s = RunList(*client, c.list);
  else if (*cmd.servers) s = RunServers(*client, c.servers);
  else if (*cmd.search) s = RunSearch(*client, c.search);
  else if (*cmd.cache) s = RunCache(*client, c.cache);
  else if (*cmd.log) s = RunLog(*client, c.log);
  if (s.ok()) s = FlushOutput();
  return ExitCode(s);
}

}  // namespace

int main(int argc, char** argv) {
  // stdout is the command's output (JSON for scripts); library messages go
  // to stderr, and only warnings and errors.
  spdlog::set_default_logger(spdlog::stderr_logger_mt("crawlctl"));
  spdlog::set_level(spdlog::level::warn);
  CLI::App app{"crawlctl: start, watch and stop crawls"};
  app.require_subcommand(1);
  CommandLine command_line;
  const Subcommands cmd = AddFlags(app, command_line);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (*cmd.robots || *cmd.url || *cmd.cld || *cmd.page) return RunLocalCommand(cmd, command_line);
  return RunNameServerCommand(cmd, command_line);
}
