// crawlctl's crawl commands: start, status, stop, resume, set-param, list
// and servers.
#include "crawlctl/crawl_commands.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "common/crawl/param_text.h"
#include "common/url/url.h"
#include "crawlctl/crawlctl_format.h"
#include "crawlctl/site_report_format.h"

namespace crawl::crawlctl {

Result<std::vector<std::string>> ReadSeeds(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::InvalidArgument("cannot read seeds file '" + path + "'");
  std::vector<std::string> seeds;
  std::string line;
  size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    const auto b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos || line[b] == '#') continue;
    const auto e = line.find_last_not_of(" \t\r");
    if (e - b + 1 > url::kMaxUrlBytes)
      return Status::InvalidArgument("seeds file '" + path + "' line " + std::to_string(number) +
                                     ": URL of " + std::to_string(e - b + 1) + " bytes, over the limit of " +
                                     std::to_string(url::kMaxUrlBytes));
    seeds.push_back(line.substr(b, e - b + 1));
  }
  if (seeds.empty()) return Status::InvalidArgument("seeds file '" + path + "' holds no URL");
  return seeds;
}

namespace {

void SetStartParams(const StartOptions& o, crawl::v1::CrawlParams* p) {
  p->set_order(o.order);
  p->set_max_pages(o.max_pages);
  p->set_allow_private_addresses(o.allow_private);
  p->set_accept_self_signed(o.accept_self_signed);
  p->set_h2_prior_knowledge(o.h2_prior_knowledge);
  p->set_schedule_size(o.schedule_size);
  p->set_lease_seconds(o.lease_seconds);
  p->set_page_range_bytes(o.page_range);
  p->set_user_agent(o.user_agent);
  p->set_max_depth(o.max_depth);
  for (const auto& h : o.include_hosts) p->add_include_hosts(h);
  for (const auto& h : o.exclude_hosts) p->add_exclude_hosts(h);
  p->set_min_host_delay_ms(o.min_host_delay_ms);
  p->set_robots_max_age_s(o.robots_max_age_s);
  p->set_wseen_increment(o.wseen_increment);
  p->set_opic_split(o.opic_split);
  p->set_scoring_filters(o.scoring_filters);
  for (const auto& sp : o.scoring_params) p->add_scoring_params(sp);
  p->set_ram_budget_urls(o.ram_budget_urls);
  p->set_structure_load_take(o.structure_load_take);
  p->set_site_max_pages(o.site_max_pages);
  p->set_site_max_seconds(o.site_max_seconds);
  for (const auto& g : o.site_exclude) p->add_site_exclude_patterns(g);
  for (const auto& g : o.site_dismiss) p->add_site_dismiss_patterns(g);
  p->set_site_max_path_depth(o.site_max_path_depth);
  for (const auto& k : o.keywords) p->add_site_keywords(k);
  p->set_site_reports_kept(o.site_reports_kept);
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
  p->set_link_pruning(o.link_pruning);
  p->set_document_types(o.document_types);
  p->set_max_document_bytes(o.max_document_bytes);
  p->set_max_connections_per_address(o.max_connections_per_address);
  if (o.address_gap_ms >= 0) p->set_address_gap_ms(static_cast<uint32_t>(o.address_gap_ms));
  p->set_pacing(o.pacing);
  p->set_pace_factor_percent(o.pace_factor_percent);
  if (o.pace_floor_ms >= 0) p->set_pace_floor_ms(static_cast<uint32_t>(o.pace_floor_ms));
  if (o.pace_ceiling_ms >= 0) p->set_pace_ceiling_ms(static_cast<uint32_t>(o.pace_ceiling_ms));
  p->set_keep_page_cache(o.cache_pages);
  p->set_cld_rule(o.cld_rule);
  p->set_no_cld_budget(o.no_cld_budget);
  p->set_cld_budget_base(o.cld_budget_base);
  p->set_cld_budget_per_win(o.cld_budget_per_win);
  p->set_cld_budget_rule(o.cld_budget_rule);
  p->set_cld_budget_per_in_cld(o.cld_budget_per_in_cld);
  p->set_tier_rule(o.tier_rule);
  p->set_beast_unit(o.beast_unit);
  p->set_no_trap_rules(o.no_trap_rules);
  p->set_trap_max_hops(o.trap_max_hops);
  p->set_near_duplicate_bits(o.near_duplicate_bits);
  p->set_no_near_duplicates(o.no_near_duplicates);
  p->set_recrawl(o.recrawl);
  p->set_revisit_policy(o.revisit_policy);
  p->set_revisit_interval_s(o.revisit_interval_s);
  p->set_recrawl_share_percent(o.recrawl_share_percent);
  p->set_revisit_bounds(o.revisit_bounds);
}

}  // namespace

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
  std::cout << "crawl " << resp.crawl().crawl_id() << " started with " << resp.crawl().seed_count()
            << " seeds on " << resp.crawl().queue_servers_size() << " queue servers\n";
  return Status::Ok();
}

namespace {

// `wait`: how long the name server may hold the answer while the crawl runs
// (CrawlStatusRequest.wait_ms; 0: answer at once).
Result<crawl::v1::CrawlStatusResponse> GetStatus(const NameServerClient& client, uint64_t crawl_id,
                                                 std::chrono::milliseconds wait = {}) {
  grpc::ClientContext ctx;
  client.Prepare(ctx, std::chrono::seconds(11));  // 10 s for the call, past the longest hold (1 s)
  crawl::v1::CrawlStatusRequest req;
  req.set_crawl_id(crawl_id);
  req.set_wait_ms(static_cast<uint32_t>(wait.count()));
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
                << ProgressBarLine(*resp, rate.pages_per_second(), rate.bytes_per_second(), tick)
                << std::flush;
    } else {
      std::cout << ProgressLine(*resp, rate.pages_per_second()) << "\n" << std::flush;
    }
    if (resp->crawl().state() != crawl::v1::CRAWL_STATE_RUNNING) {
      if (tty) std::cout << "\n";
      std::cout << StatusText(*resp);
      return Status::Ok();
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

}  // namespace

Status RunStatus(const NameServerClient& client, const StatusOptions& options) {
  if (options.follow) return FollowStatus(client, options.crawl_id);
  auto resp = GetStatus(client, options.crawl_id);
  if (!resp.ok()) return resp.status();
  std::cout << (options.json ? StatusJson(*resp) : StatusText(*resp));
  return Status::Ok();
}

Status RunWait(const NameServerClient& client, const WaitOptions& options, bool* timed_out) {
  using SteadyClock = std::chrono::steady_clock;
  *timed_out = false;
  const auto start = SteadyClock::now();
  const auto interval = std::chrono::milliseconds(std::max<uint32_t>(1, options.interval_ms));
  uint64_t id = options.crawl_id;
  Status unreachable;
  for (;;) {
    // The name server holds each ask up to a second and answers the moment
    // the crawl ends; one that answers at once (an older one) is asked
    // again after the interval.
    auto long_poll = std::chrono::milliseconds(1000);
    if (options.timeout_s > 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          std::chrono::duration<double>(options.timeout_s) - (SteadyClock::now() - start));
      long_poll = std::clamp(left, std::chrono::milliseconds(0), long_poll);
    }
    const auto asked = SteadyClock::now();
    auto resp = GetStatus(client, id, long_poll);
    if (resp.ok()) {
      id = resp->crawl().crawl_id();  // the crawl first seen, even if another starts
      if (resp->crawl().state() != crawl::v1::CRAWL_STATE_RUNNING) {
        std::cout << (options.json ? StatusJson(*resp) : StatusText(*resp));
        if (resp->crawl().state() == crawl::v1::CRAWL_STATE_DONE) return Status::Ok();
        return Status::FailedPrecondition("crawl " + std::to_string(id) + " ended " +
                                          StateName(resp->crawl().state()) + ", not done");
      }
    } else if (resp.status().code() == StatusCode::kUnavailable) {
      unreachable = resp.status();  // a restarting name server: ask again
    } else {
      return resp.status();  // waiting will not change it
    }
    const double waited = std::chrono::duration<double>(SteadyClock::now() - start).count();
    if (options.timeout_s > 0 && waited >= options.timeout_s) {
      *timed_out = true;
      std::ostringstream what;
      what << (id == 0 ? std::string("the crawl") : "crawl " + std::to_string(id))
           << (unreachable.ok() ? " still running" : " unknown") << " after " << options.timeout_s << " s";
      if (!unreachable.ok()) what << " (" << unreachable.message() << ")";
      return Status::Unavailable(what.str());
    }
    unreachable = Status::Ok();
    if (const auto took = SteadyClock::now() - asked; took < interval)
      std::this_thread::sleep_for(interval - took);
  }
}

Status RunSites(const NameServerClient& client, const StatusOptions& options) {
  auto resp = GetStatus(client, options.crawl_id);
  if (!resp.ok()) return resp.status();
  std::cout << (options.json ? SitesJson(*resp) : SitesText(*resp));
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

Status RunDelete(const NameServerClient& client, const CrawlIdOptions& options) {
  if (options.crawl_id == 0)
    return Status::InvalidArgument("name the crawl to delete (its id, from crawlctl list)");
  grpc::ClientContext ctx;
  client.Prepare(ctx, std::chrono::seconds(120));
  crawl::v1::DeleteCrawlRequest req;
  req.set_crawl_id(options.crawl_id);
  crawl::v1::DeleteCrawlResponse resp;
  if (auto s = client.Check(client.stub->DeleteCrawl(&ctx, req, &resp)); !s.ok()) return s;
  std::cout << "crawl " << options.crawl_id
            << (resp.existed() ? " deleted" : " is not in the registry (a delete still pending was retried)")
            << "\n";
  if (resp.pending_queue_servers_size() > 0) {
    std::cout << "not reached yet (deleted when they are back):";
    for (const auto& id : resp.pending_queue_servers()) std::cout << " " << id;
    std::cout << "\n";
  }
  return Status::Ok();
}

Status RunSetParam(const NameServerClient& client, const SetParamOptions& options) {
  crawl::v1::SetCrawlParamsRequest req;
  req.set_crawl_id(options.crawl_id);
  if (auto s = SetParamFromText(req.mutable_params(), options.name, options.value); !s.ok()) return s;
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
  if (auto s = client.Check(client.stub->ListCrawls(&ctx, crawl::v1::ListCrawlsRequest(), &resp)); !s.ok())
    return s;
  std::cout << (options.json ? CrawlListJson(resp) : CrawlListText(resp));
  return Status::Ok();
}

Status RunServers(const NameServerClient& client, const ListOptions& options) {
  grpc::ClientContext ctx;
  client.Prepare(ctx, std::chrono::seconds(10));
  crawl::v1::ListQueueServersResponse resp;
  if (auto s = client.Check(client.stub->ListQueueServers(&ctx, crawl::v1::ListQueueServersRequest(), &resp));
      !s.ok())
    return s;
  std::cout << (options.json ? ServersJson(resp) : ServersText(resp));
  return Status::Ok();
}

}  // namespace crawl::crawlctl
