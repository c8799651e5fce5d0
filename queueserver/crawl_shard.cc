#include "queueserver/crawl_shard.h"

#include <algorithm>

#include "common/url.h"

namespace crawl::queueserver {
namespace {

FrontierOptions OptionsFor(const v1::CrawlInfo& crawl) {
  FrontierOptions o;
  if (!crawl.params().user_agent().empty()) o.user_agent = crawl.params().user_agent();
  if (crawl.params().lease_seconds() > 0) o.lease_ms = int64_t{crawl.params().lease_seconds()} * 1000;
  return o;
}

UrlKind FromWire(v1::UrlKind k) { return k == v1::URL_KIND_ROBOTS ? UrlKind::kRobots : UrlKind::kPage; }

}  // namespace

CrawlShard::CrawlShard(const v1::CrawlInfo& crawl, const Clock* clock)
    : crawl_(crawl), clock_(clock), frontier_(OptionsFor(crawl)) {
  // Until the name server shares out the page budget, take an even share.
  if (const uint64_t budget = crawl.params().max_pages(); budget > 0) {
    const uint64_t n = std::max(1, crawl.queue_servers_size());
    page_cap_ = (budget + n - 1) / n;
  }
}

void CrawlShard::InjectSeeds(const v1::InjectSeedsRequest& req, v1::InjectSeedsResponse* resp) {
  uint64_t accepted = 0;
  for (const std::string& raw : req.urls()) {
    auto canonical = url::Canonicalize(raw);
    if (!canonical.ok()) continue;  // the name server validated them already
    FrontierEntry e;
    e.url = *canonical;
    if (frontier_.Add(e, clock_->NowUnixMs())) ++accepted;
  }
  resp->set_accepted(accepted);
}

void CrawlShard::GetSchedule(const v1::GetScheduleRequest& req, v1::GetScheduleResponse* resp) {
  if (ended_) return;
  size_t max_urls = req.max_urls();
  const size_t cap = crawl_.params().schedule_size() > 0 ? crawl_.params().schedule_size() : 5000;
  if (max_urls == 0 || max_urls > cap) max_urls = cap;
  size_t max_pages = SIZE_MAX;
  if (page_cap_) {
    const uint64_t committed = pages_fetched_ + frontier_.Counters().leased_urls;
    max_pages = committed >= *page_cap_ ? 0 : static_cast<size_t>(*page_cap_ - committed);
  }
  Schedule s = frontier_.Lease(req.fetcher_id(), max_urls, clock_->NowUnixMs(), max_pages);
  if (s.id == 0) return;
  resp->set_schedule_id(s.id);
  resp->set_lease_deadline_unix_ms(s.lease_deadline_ms);
  for (auto& e : s.entries) {
    v1::ScheduledUrl* u = resp->add_urls();
    u->set_url(std::move(e.url));
    u->set_referrer(std::move(e.referrer));
    u->set_depth(e.depth);
    u->set_kind(e.kind == UrlKind::kRobots ? v1::URL_KIND_ROBOTS : v1::URL_KIND_PAGE);
  }
}

void CrawlShard::AddLink(const v1::DiscoveredLink& link) {
  // Links arrive canonical from fetchers; canonicalise again because this is
  // input from another process and the URL-seen set relies on one spelling.
  auto canonical = url::Canonicalize(link.url());
  if (!canonical.ok()) return;
  FrontierEntry e;
  e.url = *canonical;
  e.referrer = link.referrer();
  e.depth = link.depth();
  frontier_.Add(e, clock_->NowUnixMs());
}

void CrawlShard::SubmitResults(const v1::SubmitResultsRequest& req, v1::SubmitResultsResponse* resp) {
  const std::string key = "s/" + req.fetcher_id() + "/" + std::to_string(req.schedule_id()) + "/" +
                          std::to_string(req.sequence());
  if (!applied_batches_.insert(key).second) {
    resp->set_duplicate(true);
    return;
  }
  const int64_t now = clock_->NowUnixMs();
  for (const v1::FetchRecord& r : req.records()) {
    FetchOutcome outcome;
    outcome.url = r.url();
    outcome.kind = FromWire(r.kind());
    outcome.status = r.status();
    outcome.robots_body = r.robots_body();
    frontier_.Report(req.schedule_id(), outcome, now);
    ++fetch_attempts_;
    if (r.kind() == v1::URL_KIND_PAGE) ++pages_fetched_;
    if (r.status() < 0) ++fetch_errors_;
    bytes_fetched_ += r.bytes();
    v1::FetchRecord& logged = log_.emplace_back(r);
    logged.clear_robots_body();  // rules live in the frontier; keep the log small
  }
  for (const v1::DiscoveredLink& link : req.links()) AddLink(link);
  if (req.final()) frontier_.Complete(req.schedule_id(), now);
}

void CrawlShard::AddUrls(const v1::AddUrlsRequest& req, v1::AddUrlsResponse* resp) {
  const std::string key = "a/" + req.fetcher_id() + "/" + req.batch_id();
  if (!applied_batches_.insert(key).second) {
    resp->set_duplicate(true);
    return;
  }
  const uint64_t before = frontier_.Counters().urls_seen;
  for (const v1::DiscoveredLink& link : req.links()) AddLink(link);
  resp->set_accepted(frontier_.Counters().urls_seen - before);
}

void CrawlShard::End(v1::CrawlState state) {
  ended_ = true;
  crawl_.set_state(state);
}

void CrawlShard::Tick() { frontier_.Tick(clock_->NowUnixMs()); }

void CrawlShard::FillStats(v1::QueueServerStats* stats) const {
  const FrontierCounters c = frontier_.Counters();
  stats->set_crawl_id(crawl_.crawl_id());
  stats->set_frontier_size(c.frontier_size);
  stats->set_leased_urls(c.leased_urls);
  stats->set_outstanding_schedules(c.outstanding_schedules);
  stats->set_pages_fetched(pages_fetched_);
  stats->set_fetch_attempts(fetch_attempts_);
  stats->set_urls_seen(c.urls_seen);
  stats->set_hosts(c.hosts);
  stats->set_robots_disallowed(c.robots_disallowed);
  stats->set_activity_counter(c.activity + log_.size());
  stats->set_bytes_fetched(bytes_fetched_);
  stats->set_fetch_errors(fetch_errors_);
}

void CrawlShard::ReadLog(uint64_t offset, uint32_t limit, v1::CrawlLogChunk* chunk) const {
  if (limit == 0) limit = 10'000;
  const uint64_t end = std::min<uint64_t>(log_.size(), offset + limit);
  for (uint64_t i = offset; i < end; ++i) *chunk->add_records() = log_[i];
  chunk->set_end(end >= log_.size());
}

}  // namespace crawl::queueserver
