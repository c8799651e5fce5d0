#include "queueserver/shard/shard_ingest.h"

#include <spdlog/spdlog.h>

#include <cmath>
#include <map>

#include "common/base/metrics.h"
#include "common/crawl/fetch_error.h"
#include "queueserver/link_wire.h"

namespace crawl::queueserver {
namespace {

UrlKind FromWire(v1::UrlKind k) { return k == v1::URL_KIND_ROBOTS ? UrlKind::kRobots : UrlKind::kPage; }

CrawlScope ScopeOf(const v1::CrawlParams& p) {
  return CrawlScope(p.max_depth(), {p.include_hosts().begin(), p.include_hosts().end()},
                    {p.exclude_hosts().begin(), p.exclude_hosts().end()});
}

// Adds to crawl_queueserver_over_host_cap_urls_total.
void CountOverHostCap(uint64_t n) {
  static auto& counter = metrics::CounterFamily("crawl_queueserver_over_host_cap_urls_total",
                                                "New URLs refused over their origin's per-crawl cap")
                             .Add({});
  if (n > 0) counter.Increment(static_cast<double>(n));
}

Status CheckSubmit(const v1::SubmitResultsRequest& req) {
  if (Status s = CheckRequestId(req.fetcher_id(), "fetcher id"); !s.ok()) return s;
  if (req.records_size() > kMaxRecordsPerRequest)
    return Status::InvalidArgument("too many records in one request");
  if (req.links_size() > kMaxLinksPerRequest) return Status::InvalidArgument("too many links in one request");
  if (req.host_errors_size() > kMaxRecordsPerRequest)
    return Status::InvalidArgument("too many host error counts in one request");
  for (const v1::HostErrorCount& h : req.host_errors()) {
    if (h.origin().size() > 2048) return Status::InvalidArgument("host error origin too long");
  }
  return Status::Ok();
}

}  // namespace

Status CheckRequestId(const std::string& id, const char* what) {
  if (id.size() > kMaxIdBytes)
    return Status::InvalidArgument(std::string(what) + " longer than " + std::to_string(kMaxIdBytes) +
                                   " bytes");
  return Status::Ok();
}

ShardIngest::ShardIngest(const ShardParts& parts) : shard_(parts), scope_(ScopeOf(parts.crawl.params())) {}

void ShardIngest::ApplyParams(const v1::CrawlParams& params) { scope_ = ScopeOf(params); }

Status ShardIngest::InjectSeeds(const v1::InjectSeedsRequest& req, v1::InjectSeedsResponse* resp) {
  if (req.urls_size() > kMaxSeedsPerRequest) return Status::InvalidArgument("too many seeds in one request");
  uint64_t accepted = 0;
  const int64_t now = shard_.clock->NowUnixMs();
  const uint64_t seeds =
      shard_.crawl.seed_count() > 0 ? shard_.crawl.seed_count() : static_cast<uint64_t>(req.urls_size());
  for (const std::string& raw : req.urls()) {
    if (url::UrlTooLong(raw)) {
      ++too_long_urls_;  // the name server and crawlctl refuse them first
      continue;
    }
    auto canonical = url::Canonicalize(raw);
    if (!canonical.ok()) {
      ++invalid_urls_;  // the name server validated them already
      continue;
    }
    FrontierEntry e;
    e.url = *canonical;
    if (shard_.frontier.Add(e, now, seeds)) ++accepted;
  }
  shard_.frontier.EndRequest();
  resp->set_accepted(accepted);
  return Status::Ok();
}

Status ShardIngest::SubmitResults(const v1::SubmitResultsRequest& req, v1::SubmitResultsResponse* resp) {
  if (Status s = CheckSubmit(req); !s.ok()) return s;
  const std::string key = "s/" + req.fetcher_id() + "/" + std::to_string(req.schedule_id()) + "/" +
                          std::to_string(req.sequence());
  if (AppliedBefore(key)) {
    resp->set_duplicate(true);
    return Status::Ok();
  }
  revisits_.clear();
  index_removals_.clear();
  const int64_t now = shard_.clock->NowUnixMs();
  std::unordered_map<std::string, double> boosts;
  for (const v1::FetchRecord& r : req.records()) {
    if (Status s = ApplyRecord(req.schedule_id(), r, now, &boosts); !s.ok()) return s;
  }
  NoteHostErrors(req);
  const std::vector<std::string_view> referrers = LinkReferrers(req.links());
  AddLinks(req.links(), referrers, now);
  if (req.final()) shard_.frontier.Complete(req.schedule_id(), now);
  shard_.frontier.EndRequest();
  IndexBatch(req.records(), req.links(), referrers, boosts);
  return Status::Ok();
}

Status ShardIngest::ApplyRecord(uint64_t schedule_id, const v1::FetchRecord& r, int64_t now_ms,
                                std::unordered_map<std::string, double>* boosts) {
  FetchOutcome outcome;
  outcome.url = r.url();
  outcome.kind = FromWire(r.kind());
  outcome.status = r.status();
  outcome.robots_body = r.robots_body();
  outcome.retry_after_seconds = r.retry_after_seconds();
  outcome.expires_unix_s = r.expires_unix_s();
  outcome.remote_ip = r.remote_ip();
  outcome.pace_ms = r.pace_ms();
  outcome.fetch_ms = r.fetch_ms();
  // Input from another process: a value no chain could have sent is ignored.
  if (r.has_scoring_datum() && std::isfinite(r.scoring_datum()) &&
      std::abs(r.scoring_datum()) <= kMaxEchoedCash)
    outcome.scoring_datum = r.scoring_datum();
  const ReportResult reported = shard_.frontier.Report(schedule_id, outcome, now_ms);
  ShardCounters& counters = shard_.counters;
  ++counters.fetch_attempts;
  if (r.kind() == v1::URL_KIND_PAGE) ++counters.pages_fetched;
  if (r.status() < 0) ++counters.fetch_errors;
  counters.bytes_fetched += r.bytes();
  // The log keeps what `crawlctl log` and the status page show.
  v1::FetchRecord logged = CrawlLog::EntryFor(r);
  if (r.kind() == v1::URL_KIND_PAGE) {
    // The fetch state; a revisit is marked in the log.
    auto noted = shard_.recrawl.NoteFetch(r, &logged, reported.requeued);
    if (!noted.ok()) return noted.status();
    if (noted->leaves_search) index_removals_.insert(r.url());
    if (noted->revisit != v1::REVISIT_NONE)
      revisits_[r.url()] = RevisitNote{noted->revisit, noted->refers_to_unix_us};
    // A page put back after 429/503 has no score yet: tier -1, cash 0.
    logged.set_order_tier(reported.score.tier);
    logged.set_order_cash(reported.score.cash);
    logged.set_order_importance(reported.score.importance);
    (*boosts)[r.url()] = reported.score.importance;  // the chain's IndexerScore: the index's boost
  }
  shard_.log.Append(std::move(logged));
  return Status::Ok();
}

void ShardIngest::NoteHostErrors(const v1::SubmitResultsRequest& req) {
  // docs/DESIGN.md §5.1: more than the threshold of HTTP errors in one schedule
  // makes a host crawl-delayed. Counted by the fetcher, or here from the
  // records when it sent no counts.
  if (req.host_errors_size() > 0) {
    for (const v1::HostErrorCount& h : req.host_errors())
      shard_.frontier.NoteHostErrors(req.schedule_id(), h.origin(), h.errors());
    return;
  }
  std::map<std::string, uint32_t> errors;
  for (const v1::FetchRecord& r : req.records()) {
    if (!CountsAsHostError(r.status(), r.kind() == v1::URL_KIND_ROBOTS)) continue;
    if (auto origin = url::OriginOf(r.url()); origin.ok()) ++errors[*origin];
  }
  for (const auto& [origin, n] : errors) shard_.frontier.NoteHostErrors(req.schedule_id(), origin, n);
}

Status ShardIngest::AddUrls(const v1::AddUrlsRequest& req, v1::AddUrlsResponse* resp) {
  if (Status s = CheckRequestId(req.fetcher_id(), "fetcher id"); !s.ok()) return s;
  if (Status s = CheckRequestId(req.batch_id(), "batch id"); !s.ok()) return s;
  if (req.links_size() > kMaxLinksPerRequest) return Status::InvalidArgument("too many links in one request");
  if (AppliedBefore("a/" + req.fetcher_id() + "/" + req.batch_id())) {
    resp->set_duplicate(true);
    return Status::Ok();
  }
  const uint64_t before = shard_.frontier.Counters().urls_seen;
  const int64_t now = shard_.clock->NowUnixMs();
  const std::vector<std::string_view> referrers = LinkReferrers(req.links());
  AddLinks(req.links(), referrers, now);
  shard_.frontier.EndRequest();
  resp->set_accepted(shard_.frontier.Counters().urls_seen - before);
  IndexBatch({}, req.links(), referrers, {});
  return Status::Ok();
}

bool ShardIngest::AppliedBefore(const std::string& key) {
  if (applied_batches_.Contains(key)) return true;
  std::vector<std::string> dropped;
  const AppliedBatch added = applied_batches_.Add(key, shard_.clock->NowUnixMs(), &dropped);
  if (!shard_.writer) return false;
  shard_.writer->AddAppliedBatch(added);
  for (const std::string& k : dropped) shard_.writer->DropAppliedBatch(k);
  return false;
}

void ShardIngest::AddLinks(const google::protobuf::RepeatedPtrField<v1::DiscoveredLink>& links,
                           const std::vector<std::string_view>& referrers, int64_t now_ms) {
  std::vector<LinkInput> inputs;
  inputs.reserve(static_cast<size_t>(links.size()));
  for (int i = 0; i < links.size(); ++i) {
    const v1::DiscoveredLink& link = links[i];
    // Links arrive canonical from fetchers; canonicalise again because this
    // is input from another process and the URL-seen set relies on one
    // spelling.
    auto canonical = url::Canonicalize(link.url());
    if (!canonical.ok()) {
      ++invalid_urls_;
      continue;
    }
    if (url::UrlTooLong(*canonical)) {
      ++too_long_urls_;  // fetchers drop them first
      continue;
    }
    if (!scope_.unlimited()) {
      // A page's links mostly share an origin: no scan of it per link.
      std::string_view host = link_origins_.Host(*canonical);
      std::string parsed;
      if (host.empty()) {
        parsed = url::HostOf(*canonical);
        host = parsed;
      }
      if (!scope_.Keeps(host, link.depth())) {
        ++out_of_scope_;
        continue;
      }
    }
    inputs.push_back(LinkFromWire(link, std::move(*canonical), referrers[static_cast<size_t>(i)]));
  }
  const uint64_t before = shard_.frontier.over_host_cap();
  shard_.frontier.AddLinks(std::move(inputs), now_ms);
  CountOverHostCap(shard_.frontier.over_host_cap() - before);
}

void ShardIngest::IndexBatch(const google::protobuf::RepeatedPtrField<v1::FetchRecord>& records,
                             const google::protobuf::RepeatedPtrField<v1::DiscoveredLink>& links,
                             const std::vector<std::string_view>& referrers,
                             const std::unordered_map<std::string, double>& boosts) {
  SearchIndex& index = shard_.index;
  // Link documents are stemmed in their page's language when the page is in
  // this batch (links from AddUrls come without it: English).
  std::unordered_map<std::string_view, std::string_view> language;
  for (const v1::FetchRecord& r : records) {
    if (RemovedOrUnchanged(r)) continue;
    auto boost = boosts.find(r.url());
    const uint64_t rejected = index.pages_rejected();
    (void)index.AddPage(r, boost == boosts.end() ? 0.0 : boost->second);
    if (index.pages_rejected() != rejected)
      spdlog::warn("page {} not indexed: its mini index's postings are malformed", r.url().substr(0, 300));
    if (!r.language().empty()) language[r.url()] = r.language();
  }
  // A page's links come in a run: its language looked up once per run.
  std::string_view run_referrer, run_language;
  bool in_run = false;
  for (int i = 0; i < links.size(); ++i) {
    const v1::DiscoveredLink& link = links[i];
    if (link.sent_elsewhere()) continue;  // indexed by the queue server it went to
    const std::string_view referrer = referrers[static_cast<size_t>(i)];
    if (!in_run || referrer.data() != run_referrer.data() || referrer.size() != run_referrer.size()) {
      in_run = true;
      run_referrer = referrer;
      auto it = language.find(referrer);
      run_language = it == language.end() ? std::string_view() : it->second;
    }
    (void)index.AddLink(link, run_language);
  }
  index.Flush();
}

bool ShardIngest::RemovedOrUnchanged(const v1::FetchRecord& r) {
  const bool ok = r.status() >= 200 && r.status() < 300;
  if (index_removals_.contains(r.url()) || (ok && r.noindex() && r.kind() == v1::URL_KIND_PAGE)) {
    (void)shard_.index.RemovePage(r.url());
    return true;
  }
  if (!revisits_.contains(r.url())) return false;
  (void)shard_.index.RevivePage(r.url());
  return true;
}

}  // namespace crawl::queueserver
