// crawlctl's crawl commands: start, status (and --follow), wait, stop, resume,
// set-param, list and servers; each one name-server call and its output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/base/status.h"
#include "crawlctl/nameserver_client.h"

namespace crawl::crawlctl {

struct StartOptions {
  std::string seeds_file;
  std::string order = "host_budget";
  std::string wseen_increment, opic_split, scoring_filters;
  std::vector<std::string> scoring_params;  // --scoring-param filter.key=value
  uint64_t ram_budget_urls = 0;
  uint32_t structure_load_take = 0;
  // structure: imbWEM's Objectives, control and passive rules (CrawlParams 81-87).
  uint64_t site_max_pages = 0;
  uint32_t site_max_seconds = 0, site_max_path_depth = 0, site_reports_kept = 0;
  std::vector<std::string> site_exclude, site_dismiss, keywords;
  uint32_t backoff_base = 0, backoff_max = 0, park_after = 0, park_seconds = 0, max_url_retries = 0;
  uint32_t host_error_threshold = 0, error_crawl_delay_ms = 0;
  uint64_t max_pages = 0;
  bool allow_private = false;
  bool accept_self_signed = false;
  bool h2_prior_knowledge = false;
  uint32_t schedule_size = 0, lease_seconds = 0;
  uint64_t page_range = 0;
  // Document types read ("" all, "none", or a list; common/crawl/document_types.h)
  // and their range size and body cap (0: 20,000,000).
  std::string document_types;
  uint64_t max_document_bytes = 0;
  // Politeness per address and pacing (common/crawl/politeness_params.h);
  // -1: the scope's default.
  uint32_t max_connections_per_address = 0;
  int64_t address_gap_ms = -1, pace_floor_ms = -1, pace_ceiling_ms = -1;
  std::string pacing;
  uint32_t pace_factor_percent = 0;
  std::string user_agent;
  uint32_t max_depth = 0, min_host_delay_ms = 0;
  uint32_t robots_max_age_s = 0;  // 0: 86400
  std::vector<std::string> include_hosts, exclude_hosts;
  uint32_t max_links_per_page = 0, max_links_after_prune = 0;
  std::string link_pruning;  // "" or auto, all, offsite, none (common/crawl/link_pruning_mode.h)
  uint32_t index_partition_docs = 0;
  bool cache_pages = false;
  // host_budget (CrawlParams 90-93).
  std::string cld_rule;
  bool no_cld_budget = false;
  uint32_t cld_budget_base = 0, cld_budget_per_win = 0, cld_budget_per_in_cld = 0;
  std::string cld_budget_rule, tier_rule;
  uint32_t beast_unit = 0;
  bool no_trap_rules = false;
  uint32_t trap_max_hops = 0;
  // Near-duplicates (CrawlParams 133-134).
  uint32_t near_duplicate_bits = 0;
  bool no_near_duplicates = false;
  // Recrawl (CrawlParams 120-124): a continuous crawl and its revisit policy.
  bool recrawl = false;
  std::string revisit_policy, revisit_bounds;
  uint32_t revisit_interval_s = 0, recrawl_share_percent = 0;
};

struct StatusOptions {
  uint64_t crawl_id = 0;  // 0: the active or latest crawl
  bool json = false;
  bool follow = false;
};

// `wait`: until the crawl is no longer running.
struct WaitOptions {
  uint64_t crawl_id = 0;  // 0: the active or latest crawl
  double timeout_s = 0;   // 0: no limit
  uint32_t interval_ms = 100;
  bool json = false;
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
[[nodiscard]] Result<std::vector<std::string>> ReadSeeds(const std::string& path);

[[nodiscard]] Status RunStart(const NameServerClient& client, const StartOptions& options);

[[nodiscard]] Status RunStatus(const NameServerClient& client, const StatusOptions& options);

// `wait`: polls the crawl's status every interval until it is no longer
// running, then prints its final status (text, or JSON). Ok when it ended
// done; an error naming the state when it ended otherwise (stopped); and
// when the timeout passes first, an error with *timed_out set. A name server
// that cannot be reached is asked again until the timeout.
[[nodiscard]] Status RunWait(const NameServerClient& client, const WaitOptions& options, bool* timed_out);

// `sites`: the structure order's per-site reports (text, or JSON).
[[nodiscard]] Status RunSites(const NameServerClient& client, const StatusOptions& options);

[[nodiscard]] Status RunStop(const NameServerClient& client, const CrawlIdOptions& options);

[[nodiscard]] Status RunResume(const NameServerClient& client, const CrawlIdOptions& options);

// `delete CRAWL`: the crawl leaves the name server and its queue servers.
[[nodiscard]] Status RunDelete(const NameServerClient& client, const CrawlIdOptions& options);

[[nodiscard]] Status RunSetParam(const NameServerClient& client, const SetParamOptions& options);

[[nodiscard]] Status RunList(const NameServerClient& client, const ListOptions& options);

[[nodiscard]] Status RunServers(const NameServerClient& client, const ListOptions& options);

}  // namespace crawl::crawlctl
