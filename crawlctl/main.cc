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
#include "common/url.h"
#include "fetcher/page_report.h"
#include "crawlctl/crawlctl_format.h"
#include "crawlctl/param_text.h"
#include "crawlctl/search_format.h"
#include "proto/crawl.grpc.pb.h"

namespace {

using crawl::v1::NameServer;
namespace fmt_ = crawl::crawlctl;

struct Failure {
  std::string message;
};

[[noreturn]] void Fail(const std::string& message) { throw Failure{message}; }

// The bearer token every call carries (empty: none; the certificate, or
// nothing on an insecure loopback cluster, identifies the caller).
std::string g_token;

void Authenticate(grpc::ClientContext& ctx) {
  if (!g_token.empty()) ctx.AddMetadata("authorization", "Bearer " + g_token);
}

std::string EnvOr(const char* name, std::string fallback = "") {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::string(value) : fallback;
}

// The token from CRAWL_TOKEN, else from the token file (trailing white
// space dropped). Fails on an unreadable or empty file.
std::string LoadToken(const std::string& token_file) {
  std::string token = EnvOr("CRAWL_TOKEN");
  if (token.empty() && !token_file.empty()) {
    auto text = crawl::ReadFile(token_file);
    if (!text.ok()) Fail("--token-file: " + text.status().message());
    token = *text;
    while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) token.pop_back();
    if (token.empty()) Fail("--token-file " + token_file + " is empty");
  }
  if (token.find_first_of(" \t\r\n") != std::string::npos) Fail("the token holds white space");
  return token;
}

void Check(const grpc::Status& s, const std::string& nameserver) {
  if (s.ok()) return;
  if (s.error_code() == grpc::StatusCode::UNAVAILABLE || s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED)
    Fail("cannot reach name server at " + nameserver + ": " + s.error_message());
  if (s.error_code() == grpc::StatusCode::UNAUTHENTICATED)
    Fail("not authenticated: " + s.error_message() + " (give a certificate with --tls-cert/--tls-key or a token)");
  if (s.error_code() == grpc::StatusCode::PERMISSION_DENIED) Fail("permission denied: " + s.error_message());
  Fail(s.error_message());
}

std::vector<std::string> ReadSeeds(const std::string& path) {
  std::ifstream in(path);
  if (!in) Fail("cannot read seeds file '" + path + "'");
  std::vector<std::string> seeds;
  std::string line;
  while (std::getline(in, line)) {
    const auto b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos || line[b] == '#') continue;
    const auto e = line.find_last_not_of(" \t\r");
    seeds.push_back(line.substr(b, e - b + 1));
  }
  if (seeds.empty()) Fail("seeds file '" + path + "' holds no URL");
  return seeds;
}

crawl::v1::CrawlStatusResponse GetStatus(NameServer::Stub& stub, const std::string& ns, uint64_t crawl_id) {
  grpc::ClientContext ctx;
  Authenticate(ctx);
  crawl::SetTimeout(ctx, std::chrono::seconds(10));
  crawl::v1::CrawlStatusRequest req;
  req.set_crawl_id(crawl_id);
  crawl::v1::CrawlStatusResponse resp;
  Check(stub.CrawlStatus(&ctx, req, &resp), ns);
  return resp;
}

}  // namespace

int main(int argc, char** argv) {
  // stdout is the command's output (JSON for scripts); library messages go
  // to stderr, and only warnings and errors.
  spdlog::set_default_logger(spdlog::stderr_logger_mt("crawlctl"));
  spdlog::set_level(spdlog::level::warn);
  CLI::App app{"crawlctl: start, watch and stop crawls"};
  app.require_subcommand(1);
  std::string nameserver = EnvOr("CRAWL_NAMESERVER", EnvOr("NAMESERVER"));
  app.add_option("--nameserver", nameserver, "Name server host:port (default: $CRAWL_NAMESERVER or $NAMESERVER)");
  crawl::security::TlsFlags tls;
  tls.ca = EnvOr("CRAWL_TLS_CA");
  tls.cert = EnvOr("CRAWL_TLS_CERT");
  tls.key = EnvOr("CRAWL_TLS_KEY");
  crawl::security::AddTlsFlags(app, tls);
  std::string token_file = EnvOr("CRAWL_TOKEN_FILE");
  app.add_option("--token-file", token_file,
                 "Admin or reader token to authenticate with (default: $CRAWL_TOKEN, or the file in "
                 "$CRAWL_TOKEN_FILE); never printed");

  auto* start = app.add_subcommand("start", "Start a crawl");
  std::string seeds_file;
  std::string order = "host_budget";
  std::string wseen_increment, opic_split, scoring_filters;
  uint64_t ram_budget_urls = 0;
  uint32_t structure_load_take = 0;
  uint32_t backoff_base = 0, backoff_max = 0, park_after = 0, park_seconds = 0, max_url_retries = 0;
  uint64_t max_pages = 0;
  bool allow_private = false;
  bool accept_self_signed = false;
  uint32_t schedule_size = 0, lease_seconds = 0;
  uint64_t page_range = 0;
  std::string user_agent;
  start->add_option("--seeds", seeds_file, "File with one seed URL per line")->required();
  start->add_option("--order", order, "Crawl order")
      ->check(CLI::IsMember({"bfs", "host_budget", "opic", "structure"}))
      ->capture_default_str();
  start->add_option("--wseen-increment", wseen_increment, "host_budget weighted-seen increment: log (default) or min")
      ->check(CLI::IsMember({"log", "min"}));
  start->add_option("--opic-split", opic_split, "opic cash split: cld (default) or plain")
      ->check(CLI::IsMember({"cld", "plain"}));
  start->add_option("--scoring-filters", scoring_filters, "Comma-separated ScoringFilter chain (default: the order's)");
  start->add_option("--ram-budget-urls", ram_budget_urls, "opic: queued URLs kept in RAM (default 1000000)");
  start->add_option("--load-take", structure_load_take,
                    "structure: pages one iteration of a site's frontier sends to fetch (default 10)");
  start->add_option("--backoff-base-seconds", backoff_base, "First back-off of a failing host (default 2)");
  start->add_option("--backoff-max-seconds", backoff_max, "Longest back-off and Retry-After honoured (default 600)");
  start->add_option("--park-after-failures", park_after, "Failures in a row that park a host (default 8)");
  start->add_option("--park-seconds", park_seconds, "How long a parked host waits (default 1800)");
  start->add_option("--max-url-retries", max_url_retries, "Times a 429/503 URL is put back (default 5)");
  uint32_t host_error_threshold = 0, error_crawl_delay_ms = 0;
  start->add_option("--host-error-threshold", host_error_threshold,
                    "Host errors (5xx, 429, 408, 403, network failures) in one schedule that crawl-delay a host "
                    "(default 50)");
  start->add_option("--error-crawl-delay-ms", error_crawl_delay_ms,
                    "Spacing of the requests to a host crawl-delayed by errors (default 1000)");
  start->add_option("--max-pages", max_pages, "Stop after this many pages (0: no limit)");
  start->add_flag("--allow-private", allow_private, "Allow private, loopback and link-local addresses");
  start->add_flag("--accept-self-signed", accept_self_signed,
                  "https: accept certificates that do not verify (test hosts); off by default");
  start->add_option("--schedule-size", schedule_size, "URLs per schedule (default 5000)");
  start->add_option("--lease-seconds", lease_seconds, "Schedule lease (default 300)");
  start->add_option("--page-range", page_range, "Range request size in bytes (default 1000000)");
  start->add_option("--user-agent", user_agent, "User-agent product token (default crawlbot)");
  uint32_t max_depth = 0, min_host_delay_ms = 0;
  std::vector<std::string> include_hosts, exclude_hosts;
  start->add_option("--max-depth", max_depth, "Follow links at most this far from the seeds (0: no limit)");
  start->add_option("--include-hosts", include_hosts,
                    "Only crawl hosts matching these globs ('*' any run; e.g. '*.example.com'); comma-separated")
      ->delimiter(',');
  start->add_option("--exclude-hosts", exclude_hosts, "Never crawl hosts matching these globs; comma-separated")
      ->delimiter(',');
  start->add_option("--min-host-delay-ms", min_host_delay_ms,
                    "Politeness floor: requests to one host at least this far apart (robots Crawl-delay still wins)");
  uint32_t max_links_per_page = 0, max_links_after_prune = 0;
  start->add_option("--max-links-per-page", max_links_per_page,
                    "Links taken from a page before pruning (default 300)");
  start->add_option("--max-links-after-prune", max_links_after_prune,
                    "Links a page keeps after pruning by effective terms (default 50; DESIGN.md 6)");
  uint32_t index_partition_docs = 0;
  bool cache_pages = false;
  start->add_flag("--cache-pages", cache_pages, "Keep full pages as WARC files on the queue servers");
  start->add_option("--index-partition-docs", index_partition_docs,
                    "Documents per search-index partition (default 100000)");

  auto* status = app.add_subcommand("status", "Show a crawl's progress");
  bool json = false, follow = false;
  uint64_t crawl_id = 0;
  status->add_flag("--json", json, "One JSON object");
  status->add_flag("--follow", follow, "Print progress every second until the crawl ends, then a summary");
  status->add_option("--crawl", crawl_id, "Crawl id (default: the active or latest one)");

  auto* stop = app.add_subcommand("stop", "Stop the running crawl");
  stop->add_option("--crawl", crawl_id, "Crawl id (default: the active one)");

  auto* resume = app.add_subcommand("resume", "Run a stopped crawl again from where it stopped");
  resume->add_option("--crawl", crawl_id, "Crawl id (default: the latest one)");

  auto* set_param = app.add_subcommand("set-param", "Change a parameter of the running crawl (e.g. max_pages)");
  std::string param_name, param_value;
  set_param->add_option("name", param_name, "CrawlParams field name, e.g. max_pages, fetch_timeout_ms")->required();
  set_param->add_option("value", param_value, "New value")->required();
  set_param->add_option("--crawl", crawl_id, "Crawl id (default: the active or latest one)");

  auto* list = app.add_subcommand("list", "List crawls");
  list->add_flag("--json", json, "JSON output");

  auto* servers = app.add_subcommand("servers", "List registered queue servers");
  servers->add_flag("--json", json, "JSON output");

  auto* search = app.add_subcommand("search", "Search a crawl's index (words, \"phrases\", a | b, site:host)");
  std::string query;
  bool explain = false;
  uint32_t search_limit = 10;
  search->add_option("query", query, "The query")->required();
  search->add_flag("--explain", explain, "Show each result's score parts");
  search->add_option("--limit", search_limit, "Results to show")->capture_default_str();
  search->add_flag("--json", json, "One JSON object with a results array");
  search->add_option("--crawl", crawl_id, "Crawl id (default: the active or latest one)");

  auto* cache = app.add_subcommand("cache", "Print a cached page (crawls started with --cache-pages)");
  std::string cache_url;
  bool cache_info = false;
  cache->add_option("url", cache_url, "The page's URL")->required();
  cache->add_flag("--info", cache_info, "Print status, type, WARC file and offset instead of the body");
  cache->add_option("--crawl", crawl_id, "Crawl id (default: the active or latest one)");

  auto* log = app.add_subcommand("log", "Print the crawl log: one tab-separated line per fetch attempt");
  log->add_option("--crawl", crawl_id, "Crawl id (default: the active or latest one)");

  // Local tools: no name server needed.
  auto* robots_cmd = app.add_subcommand(
      "robots", "Check a URL against a robots.txt file: prints allowed (exit 0) or disallowed (exit 1)");
  std::string robots_file, agent, robots_url;
  robots_cmd->add_option("file", robots_file, "robots.txt file")->required();
  robots_cmd->add_option("agent", agent, "User-agent product token")->required();
  robots_cmd->add_option("url", robots_url, "URL to check")->required();

  auto* url_cmd = app.add_subcommand(
      "url", "Print the canonical form of a URL (resolved against --base), tracking parameters removed as a crawl does");
  std::string url_arg, base;
  std::vector<std::string> tracking_params;
  bool keep_tracking = false;
  url_cmd->add_option("url", url_arg, "URL or reference")->required();
  url_cmd->add_option("--base", base, "Base URL to resolve against");
  url_cmd->add_option("--tracking-params", tracking_params,
                      "Query parameters to remove instead of the default list: names or prefixes ending in '*', "
                      "comma-separated (default: utm_*, gclid, fbclid, ... see common/url.h)")
      ->delimiter(',');
  url_cmd->add_flag("--keep-tracking-params", keep_tracking, "Remove no query parameter");

  auto* cld_cmd = app.add_subcommand("cld", "Print the company level domain of a host");
  std::string host, cld_rule = "psl";
  cld_cmd->add_option("host", host, "Host name")->required();
  cld_cmd->add_option("--rule", cld_rule, "psl (Public Suffix List) or simple")->capture_default_str();

  auto* page_cmd = app.add_subcommand(
      "page", "Process a local file as the fetcher would and print everything extracted as one JSON object");
  crawl::fetcher::LocalPage local_page;
  std::string page_file;
  page_cmd->add_option("--url", local_page.url, "URL the page is taken to come from")->required();
  page_cmd->add_option("--mime", local_page.mime, "Media type (default: from the file extension)");
  page_cmd->add_option("--charset", local_page.charset, "Charset as sent in Content-Type (default: none)");
  page_cmd->add_option("file", page_file, "The page's bytes")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  if (*robots_cmd) {
    auto body = crawl::ReadFile(robots_file);
    if (!body.ok()) {
      std::cerr << "crawlctl: " << body.status().message() << "\n";
      return 2;  // 0 and 1 are answers
    }
    const auto rules = crawl::robots::Parse(*body, agent);
    const bool allowed = crawl::robots::IsAllowedUrl(rules, robots_url);
    std::cout << (allowed ? "allowed" : "disallowed") << "\n";
    return allowed ? 0 : 1;
  }
  if (*page_cmd) {
    auto body = crawl::ReadFile(page_file);
    if (!body.ok()) {
      std::cerr << "crawlctl: " << body.status().message() << "\n";
      return 1;
    }
    local_page.body = std::move(*body);
    local_page.file_name = page_file;
    auto json = crawl::fetcher::PageReportJson(local_page);
    if (!json.ok()) {
      std::cerr << "crawlctl: " << json.status().message() << "\n";
      return 1;
    }
    std::cout << *json << "\n";
    return std::cout.flush() ? 0 : 1;
  }
  if (*url_cmd) {
    crawl::url::TrackingParams tracking;  // none
    if (!keep_tracking) {
      if (tracking_params.empty()) {
        tracking = crawl::url::TrackingParams::Default();
      } else {
        auto list = crawl::url::TrackingParams::FromList(tracking_params);
        if (!list.ok()) {
          std::cerr << "crawlctl: --tracking-params: " << list.status().message() << "\n";
          return 2;
        }
        tracking = std::move(*list);
      }
    }
    auto canonical = base.empty() ? crawl::url::Canonicalize(url_arg) : crawl::url::Resolve(base, url_arg);
    if (!canonical.ok()) {
      std::cerr << "crawlctl: " << canonical.status().message() << "\n";
      return 1;
    }
    std::cout << crawl::url::RemoveTrackingParams(*canonical, tracking) << "\n";
    return 0;
  }
  if (*cld_cmd) {
    auto rule = crawl::ParseCldRule(cld_rule);
    auto cld = rule.ok() ? crawl::CompanyLevelDomain(host, *rule) : crawl::Result<std::string>(rule.status());
    if (!cld.ok()) {
      std::cerr << "crawlctl: " << cld.status().message() << "\n";
      return 1;
    }
    std::cout << *cld << "\n";
    return 0;
  }

  try {
    if (nameserver.empty()) Fail("no name server: pass --nameserver host:port or set CRAWL_NAMESERVER");
    if (auto s = crawl::ValidateHostPort(nameserver); !s.ok()) Fail("--nameserver: " + s.message());
    if (tls.insecure) tls.ca = tls.cert = tls.key = tls.crl = "";
    if (auto s = crawl::security::SetUpTransport("crawlctl", tls, false, {}); !s.ok()) Fail(s.message());
    g_token = LoadToken(token_file);
    auto stub = NameServer::NewStub(crawl::MakeChannel(nameserver, {crawl::security::Role::kNameServer}));

    if (*start) {
      crawl::v1::StartCrawlRequest req;
      for (auto& s : ReadSeeds(seeds_file)) req.add_seeds(std::move(s));
      auto* p = req.mutable_params();
      p->set_order(order);
      p->set_max_pages(max_pages);
      p->set_allow_private_addresses(allow_private);
      p->set_accept_self_signed(accept_self_signed);
      p->set_schedule_size(schedule_size);
      p->set_lease_seconds(lease_seconds);
      p->set_page_range_bytes(page_range);
      p->set_user_agent(user_agent);
      p->set_max_depth(max_depth);
      for (const auto& h : include_hosts) p->add_include_hosts(h);
      for (const auto& h : exclude_hosts) p->add_exclude_hosts(h);
      p->set_min_host_delay_ms(min_host_delay_ms);
      p->set_wseen_increment(wseen_increment);
      p->set_opic_split(opic_split);
      p->set_scoring_filters(scoring_filters);
      p->set_ram_budget_urls(ram_budget_urls);
      p->set_structure_load_take(structure_load_take);
      p->set_backoff_base_seconds(backoff_base);
      p->set_backoff_max_seconds(backoff_max);
      p->set_park_after_failures(park_after);
      p->set_park_seconds(park_seconds);
      p->set_max_url_retries(max_url_retries);
      p->set_host_error_threshold(host_error_threshold);
      p->set_error_crawl_delay_ms(error_crawl_delay_ms);
      p->set_index_partition_docs(index_partition_docs);
      p->set_max_links_per_page(max_links_per_page);
      p->set_max_links_after_prune(max_links_after_prune);
      p->set_keep_page_cache(cache_pages);
      grpc::ClientContext ctx;
      Authenticate(ctx);
      crawl::SetTimeout(ctx, std::chrono::seconds(30));
      crawl::v1::StartCrawlResponse resp;
      Check(stub->StartCrawl(&ctx, req, &resp), nameserver);
      for (const auto& r : resp.rejected_seeds()) std::cerr << "crawlctl: seed rejected: " << r << "\n";
      for (const auto& w : resp.warnings()) std::cerr << "crawlctl: warning: " << w << "\n";
      std::cout << "crawl " << resp.crawl().crawl_id() << " started with " << resp.crawl().seed_count()
                << " seeds on " << resp.crawl().queue_servers_size() << " queue servers\n";
    } else if (*status) {
      if (!follow) {
        auto resp = GetStatus(*stub, nameserver, crawl_id);
        std::cout << (json ? fmt_::StatusJson(resp) : fmt_::StatusText(resp));
        return 0;
      }
      // --follow: a progress line a second while the crawl runs.
      const bool tty = isatty(STDOUT_FILENO);
      auto first = GetStatus(*stub, nameserver, crawl_id);
      const uint64_t id = first.crawl().crawl_id();
      uint64_t last_pages = first.totals().pages_fetched();
      uint64_t last_bytes = first.totals().bytes_fetched();
      auto last_time = std::chrono::steady_clock::now();
      double rate = 0, byte_rate = 0;
      for (uint64_t tick = 0;; ++tick) {
        auto resp = GetStatus(*stub, nameserver, id);
        const auto now = std::chrono::steady_clock::now();
        const double dt = std::chrono::duration<double>(now - last_time).count();
        if (dt > 0.5) {
          // Numbers can step back when a queue server restarts: no negative rates.
          const auto grew = [](uint64_t now_v, uint64_t then_v) {
            return static_cast<double>(now_v > then_v ? now_v - then_v : 0);
          };
          rate = grew(resp.totals().pages_fetched(), last_pages) / dt;
          byte_rate = grew(resp.totals().bytes_fetched(), last_bytes) / dt;
          last_pages = resp.totals().pages_fetched();
          last_bytes = resp.totals().bytes_fetched();
          last_time = now;
        }
        if (tty) {
          std::cout << "\r\033[K" << fmt_::ProgressBarLine(resp, rate, byte_rate, tick) << std::flush;
        } else {
          std::cout << fmt_::ProgressLine(resp, rate) << "\n" << std::flush;
        }
        if (resp.crawl().state() != crawl::v1::CRAWL_STATE_RUNNING) {
          if (tty) std::cout << "\n";
          std::cout << fmt_::StatusText(resp);
          return 0;
        }
        std::this_thread::sleep_for(std::chrono::seconds(1));
      }
    } else if (*stop) {
      grpc::ClientContext ctx;
      Authenticate(ctx);
      crawl::SetTimeout(ctx, std::chrono::seconds(30));
      crawl::v1::StopCrawlRequest req;
      req.set_crawl_id(crawl_id);
      crawl::v1::StopCrawlResponse resp;
      Check(stub->StopCrawl(&ctx, req, &resp), nameserver);
      std::cout << "crawl " << resp.crawl().crawl_id() << " stopped\n";
    } else if (*resume) {
      grpc::ClientContext ctx;
      Authenticate(ctx);
      crawl::SetTimeout(ctx, std::chrono::seconds(30));
      crawl::v1::ResumeCrawlRequest req;
      req.set_crawl_id(crawl_id);
      crawl::v1::ResumeCrawlResponse resp;
      Check(stub->ResumeCrawl(&ctx, req, &resp), nameserver);
      std::cout << "crawl " << resp.crawl().crawl_id() << " resumed\n";
    } else if (*set_param) {
      crawl::v1::SetCrawlParamsRequest req;
      req.set_crawl_id(crawl_id);
      if (auto s = fmt_::SetParamFromText(req.mutable_params(), param_name, param_value); !s.ok()) Fail(s.message());
      req.add_fields(param_name);
      grpc::ClientContext ctx;
      Authenticate(ctx);
      crawl::SetTimeout(ctx, std::chrono::seconds(30));
      crawl::v1::SetCrawlParamsResponse resp;
      Check(stub->SetCrawlParams(&ctx, req, &resp), nameserver);
      std::cout << "crawl " << resp.crawl().crawl_id() << ": " << param_name << " = " << param_value
                << " (params version " << resp.crawl().params_version() << ")\n";
    } else if (*list) {
      grpc::ClientContext ctx;
      Authenticate(ctx);
      crawl::SetTimeout(ctx, std::chrono::seconds(10));
      crawl::v1::ListCrawlsResponse resp;
      Check(stub->ListCrawls(&ctx, crawl::v1::ListCrawlsRequest(), &resp), nameserver);
      std::cout << (json ? fmt_::CrawlListJson(resp) : fmt_::CrawlListText(resp));
    } else if (*servers) {
      grpc::ClientContext ctx;
      Authenticate(ctx);
      crawl::SetTimeout(ctx, std::chrono::seconds(10));
      crawl::v1::ListQueueServersResponse resp;
      Check(stub->ListQueueServers(&ctx, crawl::v1::ListQueueServersRequest(), &resp), nameserver);
      std::cout << (json ? fmt_::ServersJson(resp) : fmt_::ServersText(resp));
    } else if (*search) {
      if (search_limit == 0) Fail("--limit must be at least 1");
      grpc::ClientContext ctx;
      Authenticate(ctx);
      crawl::SetTimeout(ctx, std::chrono::seconds(30));
      crawl::v1::SearchRequest req;
      req.set_crawl_id(crawl_id);
      req.set_query(query);
      req.set_limit(search_limit);
      crawl::v1::SearchResponse resp;
      Check(stub->Search(&ctx, req, &resp), nameserver);
      std::cout << (json ? crawl::crawlctl::SearchJson(resp) : crawl::crawlctl::SearchText(resp, explain));
    } else if (*cache) {
      auto canonical = crawl::url::Canonicalize(cache_url);
      if (!canonical.ok()) Fail("bad URL: " + canonical.status().message());
      grpc::ClientContext ctx;
      Authenticate(ctx);
      crawl::SetTimeout(ctx, std::chrono::seconds(60));
      crawl::v1::CachedPageRequest req;
      req.set_crawl_id(crawl_id);
      req.set_url(*canonical);
      crawl::v1::CachedPageResponse resp;
      Check(stub->GetCachedPage(&ctx, req, &resp), nameserver);
      if (!resp.found()) Fail("no cached page for " + *canonical);
      if (cache_info) {
        std::cout << "url " << resp.url() << "\nstatus " << resp.status() << "\ntype " << resp.mime_type()
                  << "\nbytes " << resp.body().size() << "\nwarc " << resp.warc_file() << " offset "
                  << resp.warc_offset() << "\nqueue server " << resp.queue_server_id() << "\n";
      } else {
        std::cout << resp.body();
      }
    } else if (*log) {
      grpc::ClientContext ctx;
      Authenticate(ctx);
      crawl::v1::GetCrawlLogRequest req;
      req.set_crawl_id(crawl_id);
      auto reader = stub->GetCrawlLog(&ctx, req);
      crawl::v1::CrawlLogChunk chunk;
      while (reader->Read(&chunk)) {
        for (const auto& r : chunk.records()) std::cout << fmt_::LogLine(r) << '\n';
      }
      Check(reader->Finish(), nameserver);
    }
    std::cout.flush();
    if (!std::cout) Fail("cannot write output");
  } catch (const Failure& f) {
    std::cerr << "crawlctl: " << f.message << "\n";
    return 1;
  }
  return 0;
}
