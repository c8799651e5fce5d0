// crawlctl: the admin command line over the name server's gRPC API
// (docs/DESIGN.md §9). Finds the name server from --nameserver,
// CRAWL_NAMESERVER or NAMESERVER; TLS from --tls-* or CRAWL_TLS_CA,
// CRAWL_TLS_CERT and CRAWL_TLS_KEY; an admin token from CRAWL_TOKEN,
// --token-file or CRAWL_TOKEN_FILE (so `. cluster.env` of
// deploy/local-cluster.sh is all it needs). Every failure is one line on
// stderr and a non-zero exit.
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "common/base/status.h"
#include "common/security/transport.h"
#include "crawlctl/crawl_commands.h"
#include "crawlctl/crawl_data_commands.h"
#include "crawlctl/local_commands.h"
#include "crawlctl/nameserver_client.h"

namespace crawl::crawlctl {
namespace {

// Every subcommand's flags, filled by CLI11.
struct CommandLine {
  ConnectionFlags connection;
  StartOptions start;
  StatusOptions status, sites;
  CrawlIdOptions stop, resume;
  LogOptions log;
  SetParamOptions set_param;
  ListOptions list, servers;
  SearchOptions search;
  NearDuplicatesOptions near_duplicates;
  CacheOptions cache;
  RobotsOptions robots;
  UrlOptions url;
  CldOptions cld;
  PageOptions page;
  CrawlIdOptions del;
  WaitOptions wait;
};

// The subcommands; after parsing, the one given converts to true.
struct Subcommands {
  CLI::App *start, *status, *sites, *stop, *resume, *set_param, *list, *servers, *search, *cache, *log;
  CLI::App *robots, *url, *cld, *page;
  CLI::App* del = nullptr;
  CLI::App* wait = nullptr;
  CLI::App* near_duplicates = nullptr;
};

void AddConnectionFlags(CLI::App& app, ConnectionFlags& c) {
  c.nameserver = EnvOr("CRAWL_NAMESERVER", EnvOr("NAMESERVER"));
  app.add_option("--nameserver", c.nameserver,
                 "Name server host:port (default: $CRAWL_NAMESERVER or $NAMESERVER)");
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
  start
      ->add_option("--wseen-increment", o.wseen_increment,
                   "host_budget weighted-seen increment: log (default) or min")
      ->check(CLI::IsMember({"log", "min"}));
  start->add_option("--opic-split", o.opic_split, "opic cash split: cld (default) or plain")
      ->check(CLI::IsMember({"cld", "plain"}));
  start->add_option("--scoring-filters", o.scoring_filters,
                    "Comma-separated ScoringFilter chain run by every order (built in: opic, depth, "
                    "link-kind; default: opic for the opic order, none else). bfs serves the chain's "
                    "classes (floor of -sort value) in turn, host_budget adds them to the tier, "
                    "structure ranks a site's targets by the sort value");
  start
      ->add_option("--scoring-param", o.scoring_params,
                   "A filter's setting, filter.key=value (repeatable), e.g. opic.score_power=0.5, "
                   "opic.split=plain, opic.sitemap=page, depth.weight=0.5, depth.free_depth=2, "
                   "link-kind.nav=0.5, link-kind.sort_bias=0")
      ->expected(1)
      ->take_all();
  start->add_option("--ram-budget-urls", o.ram_budget_urls,
                    "opic: queued URLs kept in RAM (default 1000000)");
  start->add_option("--load-take", o.structure_load_take,
                    "structure: pages one iteration of a site's frontier sends to fetch (default 10)");
}

// host_budget's company level domains and per-CLD budgets (Yioop 9, IRLbot).
void AddStartBudgetFlags(CLI::App* start, StartOptions& o) {
  start
      ->add_option("--cld-rule", o.cld_rule,
                   "Company level domain rule: psl (default, Public Suffix List) or simple (Yioop's: "
                   "x.2chars.2chars keeps three labels, else two)")
      ->check(CLI::IsMember({"psl", "simple"}));
  start->add_flag("--no-cld-budget", o.no_cld_budget,
                  "host_budget: no per-CLD URL budgets (by default, as IRLbot, a CLD queues new URLs while "
                  "SEEN <= base + per-in-cld x the distinct other CLDs linking to it, so traps and link "
                  "farms end)");
  start
      ->add_option("--cld-budget-rule", o.cld_budget_rule,
                   "host_budget: in-clds (default, IRLbot: budget from the distinct other CLDs linking in) "
                   "or win (from Yioop's weighted incoming links, which CLDs linking each other raise)")
      ->check(CLI::IsMember({"in-clds", "win"}));
  start->add_option(
      "--cld-budget-base", o.cld_budget_base,
      "host_budget: URLs every CLD the crawl discovers may queue (default 1000; the seeds' CLDs "
      "have no budget)");
  start->add_option("--cld-budget-per-in-cld", o.cld_budget_per_in_cld,
                    "host_budget, rule in-clds: more URLs per distinct other CLD linking in (default 100, "
                    "counted up to 256 CLDs)");
  start
      ->add_option("--tier-rule", o.tier_rule,
                   "host_budget: yioop (default: tiers from weighted seen minus weighted incoming links, "
                   "served round robin) or beast (IRLbot: a CLD's URLs past beast-unit x (1 + CLDs linking "
                   "in) go to queues read less and less often)")
      ->check(CLI::IsMember({"yioop", "beast"}));
  start->add_option("--beast-unit", o.beast_unit,
                    "host_budget, tier rule beast: URLs per budget unit (default 10)");
  start->add_option("--cld-budget-per-win", o.cld_budget_per_win,
                    "host_budget, rule win: more URLs per unit of weighted incoming links (default 100)");
  start->add_flag("--no-trap-rules", o.no_trap_rules,
                  "Follow every link: no trap rules (by default, as Heritrix: a link is refused when a path "
                  "segment repeats 3 times in a row, the path has more than 20 segments, or it is more than "
                  "--trap-max-hops links from the seeds)");
  start->add_option("--trap-max-hops", o.trap_max_hops, "Trap rules: most links from the seeds (default 20)");
  start
      ->add_option(
          "--near-duplicate-bits", o.near_duplicate_bits,
          "Pages whose simhashes differ in at most this many bits are near-duplicates (0-3; default 3)")
      ->check(CLI::Range(0, 3));
  start->add_flag("--no-near-duplicates", o.no_near_duplicates,
                  "No near-duplicate detection (no fingerprint look-ups)");
}

// structure: imbWEM's Objectives, target control rules and passive rule
// (queueserver/frontier/site_control.h).
void AddStartSiteFlags(CLI::App* start, StartOptions& o) {
  start->add_option(
      "--site-max-pages", o.site_max_pages,
      "structure: a site's session ends after this many of its pages were loaded (0: no limit)");
  start->add_option("--site-max-seconds", o.site_max_seconds,
                    "structure: a site's session ends this long after its first iteration (0: no limit)");
  start
      ->add_option(
          "--site-exclude", o.site_exclude,
          "structure: URL globs ('*' any run, whole URL, case-sensitive) of targets kept but never loaded; "
          "comma-separated")
      ->delimiter(',');
  start
      ->add_option("--site-dismiss", o.site_dismiss,
                   "structure: URL globs of targets dismissed from their site's crawl, e.g. '*/calendar/*'; "
                   "comma-separated")
      ->delimiter(',');
  start->add_option("--site-max-path-depth", o.site_max_path_depth,
                    "structure: dismiss targets with more folders in their URL path than this (0: no limit)");
  start
      ->add_option(
          "--keywords", o.keywords,
          "structure: targets whose URL or anchor text holds more of these words rank first in their "
          "layer; comma-separated")
      ->delimiter(',');
  start->add_option(
      "--site-reports-kept", o.site_reports_kept,
      "structure: finished-site reports each queue server keeps for `crawlctl sites` (default 100; "
      "all go to DATA_DIR/reports/crawl-ID-sites.jsonl)");
}

// How failing hosts are backed off, parked and retried.
void AddStartBackoffFlags(CLI::App* start, StartOptions& o) {
  start->add_option("--backoff-base-seconds", o.backoff_base, "First back-off of a failing host (default 2)");
  start->add_option("--backoff-max-seconds", o.backoff_max,
                    "Longest back-off and Retry-After honoured (default 600)");
  start->add_option("--park-after-failures", o.park_after, "Failures in a row that park a host (default 8)");
  start->add_option("--park-seconds", o.park_seconds, "How long a parked host waits (default 1800)");
  start->add_option("--max-url-retries", o.max_url_retries, "Times a 429/503 URL is put back (default 5)");
  start->add_option(
      "--host-error-threshold", o.host_error_threshold,
      "Host errors (5xx, 429, 408, 403, network failures) in one schedule that crawl-delay a host "
      "(default 50)");
  start->add_option("--error-crawl-delay-ms", o.error_crawl_delay_ms,
                    "Spacing of the requests to a host crawl-delayed by errors (default 1000)");
}

// Budget, fetching, scope and politeness, links, index and cache.
void AddStartFetchFlags(CLI::App* start, StartOptions& o) {
  start->add_option("--max-pages", o.max_pages, "Stop after this many pages (0: no limit)");
  start->add_flag("--allow-private", o.allow_private, "Allow private, loopback and link-local addresses");
  start->add_flag(
      "--recrawl", o.recrawl,
      "Continuous crawl: fetched pages are fetched again when due (revisit policy), and the crawl "
      "does not end when its frontier empties (only on stop or --max-pages)");
  start
      ->add_option(
          "--revisit-policy", o.revisit_policy,
          "recrawl: fixed (default: every --revisit-interval), expires (the page's Expires/max-age "
          "within --revisit-bounds), adaptive (Nutch: x0.8 when changed, x1.4 when not, within "
          "--revisit-bounds) or optimal (Cho & Garcia-Molina: each page's estimated change rate, "
          "intervals that maximise freshness at one fetch per page per --revisit-interval on average)")
      ->check(CLI::IsMember({"fixed", "expires", "adaptive", "optimal"}));
  start->add_option(
      "--revisit-interval", o.revisit_interval_s,
      "recrawl: seconds between visits, where adaptive starts, and optimal's mean (default 86400)");
  start
      ->add_option("--recrawl-share", o.recrawl_share_percent,
                   "recrawl: at most this percent of a schedule are due pages (default 50)")
      ->check(CLI::Range(0, 100));
  start->add_option(
      "--revisit-bounds", o.revisit_bounds,
      "recrawl, expires, adaptive and optimal: MIN:MAX seconds between visits (default 60:2592000)");
  start->add_flag("--accept-self-signed", o.accept_self_signed,
                  "https: accept certificates that do not verify (test hosts); off by default");
  start->add_flag("--h2-prior-knowledge", o.h2_prior_knowledge,
                  "http: speak HTTP/2 from the first byte to every host (servers known to take h2 "
                  "cleartext; no HTTP/1.1 fallback); https negotiates h2 by ALPN anyway");
  start->add_option("--schedule-size", o.schedule_size, "URLs per schedule (default 5000)");
  start->add_option("--lease-seconds", o.lease_seconds, "Schedule lease (default 300)");
  start->add_option(
      "--page-range", o.page_range,
      "Range request size in bytes (default 1000000; 10000000 with --include-hosts, to read whole "
      "pages as wget2 does)");
  start->add_option("--user-agent", o.user_agent, "User-agent product token (default crawlbot)");
  start->add_option("--max-depth", o.max_depth, "Follow links at most this far from the seeds (0: no limit)");
  start
      ->add_option(
          "--include-hosts", o.include_hosts,
          "Only crawl hosts matching these globs ('*' any run; e.g. '*.example.com'); comma-separated")
      ->delimiter(',');
  start
      ->add_option("--exclude-hosts", o.exclude_hosts,
                   "Never crawl hosts matching these globs; comma-separated")
      ->delimiter(',');
  start
      ->add_option(
          "--robots-max-age", o.robots_max_age_s,
          "Fetch a host's robots.txt again after at most this many seconds, or its own cache lifetime "
          "if shorter (default and most 86400, RFC 9309)")
      ->check(CLI::Range(1, 86400));
  start->add_option(
      "--min-host-delay-ms", o.min_host_delay_ms,
      "Politeness floor: requests to one host at least this far apart (robots Crawl-delay still wins)");
  start->add_option(
      "--max-links-per-page", o.max_links_per_page,
      "Links taken from a page before pruning (default 300 with --link-pruning all, else 100000)");
  start->add_option("--max-links-after-prune", o.max_links_after_prune,
                    "Links a page keeps after pruning by effective terms (default 50; docs/DESIGN.md §6)");
  start
      ->add_option(
          "--link-pruning", o.link_pruning,
          "Which links of a page are pruned to --max-links-after-prune: all (Yioop: every page, which "
          "bounds what a web-scale crawl queues), offsite (only links leaving the page's host), none. "
          "Default auto: none when --include-hosts scopes the crawl (the scope bounds it, and pruning "
          "to 50 found 3,626 of rust-doc's 21,635 pages), offsite for the structure order (it crawls "
          "whole sites), else all")
      ->check(CLI::IsMember({"auto", "all", "offsite", "none"}));
  start->add_flag("--cache-pages", o.cache_pages, "Keep full pages as WARC files on the queue servers");
  start->add_option("--index-partition-docs", o.index_partition_docs,
                    "Documents per search-index partition (default 100000)");
}

// Documents besides HTML and plain text (common/crawl/document_types.h).
void AddStartDocumentFlags(CLI::App* start, StartOptions& o) {
  start->add_option(
      "--document-types", o.document_types,
      "Document types read besides HTML and text: a comma list of pdf, docx, xlsx, pptx, odt, ods, "
      "odp, epub, rtf, feed (RSS and Atom); default all, 'none' for none. Links whose extension names "
      "a type read are not ranked down as non-HTML");
  start->add_option("--max-document-bytes", o.max_document_bytes,
                    "Range request size and body cap for documents whose URL extension names a type "
                    "read (default 20000000, at most 100000000); other responses keep --page-range");
}

// Politeness per address and pacing (common/crawl/politeness_params.h).
void AddStartPolitenessFlags(CLI::App* start, StartOptions& o) {
  start->add_option("--max-connections-per-address", o.max_connections_per_address,
                    "Most connections open at once to one IP address across the whole cluster (default 4)");
  start
      ->add_option("--address-gap-ms", o.address_gap_ms,
                   "Per-address pace: the cluster starts requests to one address about this far apart "
                   "(default 10; 0 with --include-hosts)")
      ->check(CLI::Range(0, 60000));
  start
      ->add_option("--pacing", o.pacing,
                   "Gap before a host's next request: adaptive (grows with its response times and "
                   "errors) or fixed (Crawl-delay only); default adaptive, fixed with --include-hosts")
      ->check(CLI::IsMember({"adaptive", "fixed"}));
  start->add_option("--pace-factor", o.pace_factor_percent,
                    "Adaptive pacing: the gap is this percent of the last response time (default 200)");
  start->add_option("--pace-floor-ms", o.pace_floor_ms, "Adaptive pacing: smallest gap (default 10)")
      ->check(CLI::Range(0, 120000));
  start->add_option("--pace-ceiling-ms", o.pace_ceiling_ms, "Adaptive pacing: largest gap (default 30000)")
      ->check(CLI::Range(0, 120000));
}

CLI::App* AddStartCommand(CLI::App& app, StartOptions& o) {
  auto* start = app.add_subcommand("start", "Start a crawl");
  start->add_option("--seeds", o.seeds_file, "File with one seed URL per line")->required();
  AddStartOrderFlags(start, o);
  AddStartBudgetFlags(start, o);
  AddStartSiteFlags(start, o);
  AddStartBackoffFlags(start, o);
  AddStartFetchFlags(start, o);
  AddStartDocumentFlags(start, o);
  AddStartPolitenessFlags(start, o);
  return start;
}

// status, stop, resume, set-param, list and servers.
void AddCrawlCommands(CLI::App& app, CommandLine& c, Subcommands& cmd) {
  cmd.status = app.add_subcommand("status", "Show a crawl's progress");
  cmd.status->add_flag("--json", c.status.json, "One JSON object");
  cmd.status->add_flag("--follow", c.status.follow,
                       "Print progress every second until the crawl ends, then a summary");
  cmd.status->add_option("--crawl", c.status.crawl_id, "Crawl id (default: the active or latest one)");

  cmd.wait = app.add_subcommand("wait",
                                "Wait until a crawl is no longer running, then show its status "
                                "(exit 0: done; 1: stopped or an error; 2: still running at --timeout)");
  cmd.wait->add_option("--crawl", c.wait.crawl_id, "Crawl id (default: the active or latest one)");
  cmd.wait->add_option("--timeout", c.wait.timeout_s, "Give up after this many seconds (0: never)")
      ->check(CLI::Range(0.0, 1e9));
  cmd.wait
      ->add_option("--interval-ms", c.wait.interval_ms,
                   "Least time between two asks (the name server holds each up to a second and "
                   "answers the moment the crawl ends; an older one answers at once)")
      ->capture_default_str()
      ->check(CLI::Range(10, 60'000));
  cmd.wait->add_flag("--json", c.wait.json, "The final status as one JSON object");

  cmd.sites =
      app.add_subcommand("sites", "Show the structure order's per-site reports (latest finished sites)");
  cmd.sites->add_flag("--json", c.sites.json, "One JSON object");
  cmd.sites->add_option("--crawl", c.sites.crawl_id, "Crawl id (default: the active or latest one)");

  cmd.stop = app.add_subcommand("stop", "Stop the running crawl");
  cmd.stop->add_option("--crawl", c.stop.crawl_id, "Crawl id (default: the active one)");

  cmd.resume = app.add_subcommand("resume", "Run a stopped crawl again from where it stopped");
  cmd.resume->add_option("--crawl", c.resume.crawl_id, "Crawl id (default: the latest one)");

  cmd.set_param = app.add_subcommand("set-param", "Change a parameter of the running crawl (e.g. max_pages)");
  cmd.set_param
      ->add_option("name", c.set_param.name, "CrawlParams field name, e.g. max_pages, fetch_timeout_ms")
      ->required();
  cmd.set_param->add_option("value", c.set_param.value, "New value")->required();
  cmd.set_param->add_option("--crawl", c.set_param.crawl_id, "Crawl id (default: the active or latest one)");

  cmd.list = app.add_subcommand("list", "List crawls");
  cmd.list->add_flag("--json", c.list.json, "JSON output");

  cmd.servers = app.add_subcommand("servers", "List registered queue servers");
  cmd.servers->add_flag("--json", c.servers.json, "JSON output");

  cmd.del = app.add_subcommand("delete",
                               "Delete a crawl that is not running: its data and WARC files on every "
                               "queue server (cannot be undone)");
  cmd.del->add_option("crawl", c.del.crawl_id, "Crawl id (see crawlctl list)")->required();
}

// search, cache and log.
void AddCrawlDataCommands(CLI::App& app, CommandLine& c, Subcommands& cmd) {
  cmd.search = app.add_subcommand("search", "Search a crawl's index (words, \"phrases\", a | b, site:host)");
  cmd.search->add_option("query", c.search.query, "The query")->required();
  cmd.search->add_flag("--explain", c.search.explain, "Show each result's score parts");
  cmd.search->add_option("--limit", c.search.limit, "Results to show")->capture_default_str();
  cmd.search->add_flag("--json", c.search.json, "One JSON object with a results array");
  cmd.search->add_option("--crawl", c.search.crawl_id, "Crawl id (default: the active or latest one)");

  cmd.near_duplicates = app.add_subcommand("near-duplicates", "The largest clusters of near-duplicate pages");
  cmd.near_duplicates->add_option("--limit", c.near_duplicates.limit, "Clusters to show")
      ->capture_default_str();
  cmd.near_duplicates->add_flag("--json", c.near_duplicates.json, "One JSON object with a clusters array");
  cmd.near_duplicates->add_option("--crawl", c.near_duplicates.crawl_id,
                                  "Crawl id (default: the active or latest one)");

  cmd.cache = app.add_subcommand("cache", "Print a cached page (crawls started with --cache-pages)");
  cmd.cache->add_option("url", c.cache.url, "The page's URL")->required();
  cmd.cache->add_flag("--info", c.cache.info, "Print status, type, WARC file and offset instead of the body");
  cmd.cache->add_option("--crawl", c.cache.crawl_id, "Crawl id (default: the active or latest one)");

  cmd.log = app.add_subcommand("log", "Print the crawl log: one tab-separated line per fetch attempt");
  cmd.log->add_option("--crawl", c.log.crawl_id, "Crawl id (default: the active or latest one)");
  cmd.log->add_option("--status", c.log.status,
                      "Only these statuses: codes, classes, error kinds (404,5xx,error,timeout)");
  cmd.log->add_option("--host", c.log.host, "Only this host or host glob (*.example.test)");
  cmd.log->add_option("--since", c.log.since,
                      "Only fetches at or after this time (2026-11-25T12:00:00Z or Unix seconds)");
  cmd.log->add_option("--until", c.log.until, "Only fetches before this time");
  cmd.log
      ->add_option("--format", c.log.format, "tsv (one tab-separated line) or jsonl (one JSON object a line)")
      ->check(CLI::IsMember({"tsv", "jsonl"}))
      ->capture_default_str();
}

// Local tools: no name server needed.
void AddLocalCommands(CLI::App& app, CommandLine& c, Subcommands& cmd) {
  cmd.robots = app.add_subcommand(
      "robots", "Check a URL against a robots.txt file: prints allowed (exit 0) or disallowed (exit 1)");
  cmd.robots->add_option("file", c.robots.file, "robots.txt file")->required();
  cmd.robots->add_option("agent", c.robots.agent, "User-agent product token")->required();
  cmd.robots->add_option("url", c.robots.url, "URL to check")->required();

  cmd.url = app.add_subcommand("url",
                               "Print the canonical form of a URL (resolved against --base), tracking "
                               "parameters removed as a crawl does");
  cmd.url->add_option("url", c.url.url, "URL or reference")->required();
  cmd.url->add_option("--base", c.url.base, "Base URL to resolve against");
  cmd.url
      ->add_option("--tracking-params", c.url.tracking_params,
                   "Query parameters to remove instead of the default list: names or prefixes ending in '*', "
                   "comma-separated (default: utm_*, gclid, fbclid, ... see common/url/url.h)")
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

// The commands that call the name server. After one that succeeded, a
// stdout that could not be written is a failure ("cannot write output");
// `status` has never had that check and still returns without it.
int RunNameServerCommand(const Subcommands& cmd, const CommandLine& c) {
  auto client = ConnectToNameServer(c.connection);
  if (!client.ok()) return ExitCode(client.status());
  if (*cmd.status) return ExitCode(RunStatus(*client, c.status));
  if (*cmd.wait) {
    bool timed_out = false;
    Status s = RunWait(*client, c.wait, &timed_out);
    if (s.ok()) s = FlushOutput();
    return ExitCode(s, timed_out ? 2 : 1);
  }
  Status s;
  if (*cmd.start)
    s = RunStart(*client, c.start);
  else if (*cmd.sites)
    s = RunSites(*client, c.sites);
  else if (*cmd.stop)
    s = RunStop(*client, c.stop);
  else if (*cmd.resume)
    s = RunResume(*client, c.resume);
  else if (*cmd.set_param)
    s = RunSetParam(*client, c.set_param);
  else if (*cmd.list)
    s = RunList(*client, c.list);
  else if (*cmd.servers)
    s = RunServers(*client, c.servers);
  else if (*cmd.search)
    s = RunSearch(*client, c.search);
  else if (*cmd.near_duplicates)
    s = RunNearDuplicates(*client, c.near_duplicates);
  else if (*cmd.cache)
    s = RunCache(*client, c.cache);
  else if (*cmd.log)
    s = RunLog(*client, c.log, std::cout);
  else if (*cmd.del)
    s = RunDelete(*client, c.del);
  if (s.ok()) s = FlushOutput();
  return ExitCode(s);
}

}  // namespace
}  // namespace crawl::crawlctl

int main(int argc, char** argv) {
  // stdout is the command's output (JSON for scripts); library messages go
  // to stderr, and only warnings and errors.
  spdlog::set_default_logger(spdlog::stderr_logger_mt("crawlctl"));
  spdlog::set_level(spdlog::level::warn);
  CLI::App app{"crawlctl: start, watch and stop crawls"};
  app.require_subcommand(1);
  crawl::crawlctl::CommandLine command_line;
  const crawl::crawlctl::Subcommands cmd = crawl::crawlctl::AddFlags(app, command_line);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (*cmd.robots || *cmd.url || *cmd.cld || *cmd.page)
    return crawl::crawlctl::RunLocalCommand(cmd, command_line);
  return crawl::crawlctl::RunNameServerCommand(cmd, command_line);
}
