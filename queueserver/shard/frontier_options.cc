#include "queueserver/shard/frontier_options.h"

#include <algorithm>

#include "queueserver/shard/recrawl_scheduler.h"
#include "queueserver/structure_params.h"

namespace crawl::queueserver {

HostCaps HostCapsOf(const v1::CrawlParams& p) {
  HostCaps caps;
  if (p.max_urls_per_host() > 0) caps.max_urls = p.max_urls_per_host();
  if (p.max_urls_per_seed_host() > 0) caps.max_urls_seed = p.max_urls_per_seed_host();
  if (p.max_sitemap_urls_per_host() > 0) caps.max_sitemap_urls = p.max_sitemap_urls_per_host();
  return caps;
}

Result<FrontierOptions> FrontierOptionsFor(const v1::CrawlParams& p) {
  FrontierOptions o;
  if (!p.user_agent().empty()) o.user_agent = p.user_agent();
  if (p.lease_seconds() > 0) o.lease_ms = int64_t{p.lease_seconds()} * 1000;
  auto kind = ParseOrder(p.order());
  if (!kind.ok()) return kind.status();
  o.order.kind = *kind;
  auto wseen = ParseWseenIncrement(p.wseen_increment());
  if (!wseen.ok()) return wseen.status();
  o.order.wseen = *wseen;
  if (!p.cld_rule().empty()) {
    auto rule = ParseCldRule(p.cld_rule());
    if (!rule.ok()) return rule.status();
    o.order.cld_rule = *rule;
  }
  o.order.budget.enabled = !p.no_cld_budget();
  if (p.cld_budget_base() > 0) o.order.budget.base = p.cld_budget_base();
  if (p.cld_budget_per_win() > 0) o.order.budget.per_win = p.cld_budget_per_win();
  if (p.cld_budget_per_in_cld() > 0) o.order.budget.per_in_cld = p.cld_budget_per_in_cld();
  auto budget_rule = ParseCldBudgetRule(p.cld_budget_rule());
  if (!budget_rule.ok()) return budget_rule.status();
  o.order.budget.rule = *budget_rule;
  auto tier_rule = ParseTierRule(p.tier_rule());
  if (!tier_rule.ok()) return tier_rule.status();
  o.order.tier_rule = *tier_rule;
  if (p.beast_unit() > 0) o.order.beast_unit = p.beast_unit();
  o.host_caps = HostCapsOf(p);
  o.trap_rules.enabled = !p.no_trap_rules();
  if (p.trap_max_hops() > 0) o.trap_rules.max_hops = p.trap_max_hops();
  auto split = ParseCashSplit(p.opic_split());
  if (!split.ok()) return split.status();
  o.order.split = *split;
  o.order.scoring_filters = p.scoring_filters();
  o.order.scoring_params.assign(p.scoring_params().begin(), p.scoring_params().end());
  if (p.ram_budget_urls() > 0) o.order.ram_budget_urls = static_cast<size_t>(p.ram_budget_urls());
  if (p.structure_load_take() > 0) {
    if (p.structure_load_take() > 100'000) return Status::InvalidArgument("structure_load_take above 100000");
    o.order.structure_load_take = p.structure_load_take();
  }
  auto site_control = SiteControlFor(p);
  if (!site_control.ok()) return site_control.status();
  o.order.site_control = std::move(*site_control);
  if (p.tier_window_urls() > 0) o.order.tier_window_urls = static_cast<size_t>(p.tier_window_urls());
  if (auto revisit = RecrawlScheduler::PolicyFor(p); !revisit.ok()) return revisit.status();
  o.order.opic_revisits = p.recrawl();
  // The chain and its settings must parse (an unknown filter or key fails the crawl's start).
  if (auto order = MakeOrder(o.order, nullptr); !order.ok()) return order.status();
  if (p.backoff_base_seconds() > 0) o.backoff.base_ms = int64_t{p.backoff_base_seconds()} * 1000;
  if (p.backoff_max_seconds() > 0) o.backoff.max_ms = int64_t{p.backoff_max_seconds()} * 1000;
  if (o.backoff.base_ms > o.backoff.max_ms)
    return Status::InvalidArgument("backoff_base_seconds above backoff_max_seconds");
  if (p.park_after_failures() > 0) o.backoff.park_after = p.park_after_failures();
  if (p.park_seconds() > 0) o.backoff.park_ms = int64_t{p.park_seconds()} * 1000;
  if (p.max_url_retries() > 0) o.backoff.max_url_retries = p.max_url_retries();
  if (p.host_error_threshold() > 0) o.host_error_threshold = p.host_error_threshold();
  if (p.robots_max_age_s() > 86'400)
    return Status::InvalidArgument("robots_max_age_s above 86400 (RFC 9309 2.4)");
  if (p.robots_max_age_s() > 0) {
    o.robots_max_age_ms = int64_t{p.robots_max_age_s()} * 1000;
    o.robots_min_age_ms = std::min(o.robots_min_age_ms, o.robots_max_age_ms);
  }
  o.min_host_delay_ms = std::min<int64_t>(p.min_host_delay_ms(), 60'000);
  if (p.error_crawl_delay_ms() > 0)
    o.error_crawl_delay_ms = std::min<int64_t>(p.error_crawl_delay_ms(), 60'000);
  return o;
}

}  // namespace crawl::queueserver
