#include "queueserver/crawl_shard.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <map>

#include "common/crawl/fetch_error.h"
#include "common/url/url.h"
#include "queueserver/frontier/structure_order.h"
#include "queueserver/structure_params.h"

#include <google/protobuf/descriptor.h>
#include <spdlog/spdlog.h>
#include <google/protobuf/message.h>

namespace crawl::queueserver {
namespace {

FrontierOptions OptionsFor(const v1::CrawlInfo& crawl, const Clock* clock) {
  auto o = CrawlShard::FrontierOptionsFor(crawl.params());
  // The service checked the parameters before creating the shard; a stored
  // crawl from before an option existed gets the defaults.
  FrontierOptions options = o.ok() ? *o : FrontierOptions{};
  options.order.clock = clock;  // structure: time per site, report times
  return options;
}

IndexOptions IndexOptionsFor(const v1::CrawlInfo& crawl) {
  IndexOptions o;
  if (crawl.params().index_partition_docs() > 0) o.partition_docs = crawl.params().index_partition_docs();
  return o;
}

UrlKind FromWire(v1::UrlKind k) { return k == v1::URL_KIND_ROBOTS ? UrlKind::kRobots : UrlKind::kPage; }

Status CheckId(const std::string& id, const char* what) {
  if (id.size() > kMaxIdBytes)
    return Status::InvalidArgument(std::string(what) + " longer than " + std::to_string(kMaxIdBytes) + " bytes");
  return Status::Ok();
}

CrawlScope ScopeOf(const v1::CrawlParams& p) {
  return CrawlScope(p.max_depth(), {p.include_hosts().begin(), p.include_hosts().end()},
                    {p.exclude_hosts().begin(), p.exclude_hosts().end()});
}


// The fields of a FetchRecord the crawl log does not keep: robots rules live
// in the frontier, the description and mini index went to the search index,
// the body to the WARC writer. Kept, they made each log entry (in RAM and in
// RocksDB) larger than the page itself: 54-64 KB per 25 KB testweb page
// (docs/BENCHMARKS.md).
// 16 KiB: a log chunk of 10,000 robots.txt records stays under the channels'
// 256 MiB message limit (common/net/grpc_util.cc).
constexpr size_t kLoggedRobotsBytes = 16 * 1024;

bool LogLeavesOut(const google::protobuf::FieldDescriptor* f) {
  return f->number() == v1::FetchRecord::kRobotsBodyFieldNumber ||
         f->number() == v1::FetchRecord::kMiniIndexFieldNumber ||
         f->number() == v1::FetchRecord::kDescriptionFieldNumber || f->number() == v1::FetchRecord::kBodyFieldNumber;
}

// The crawl log's copy of a fetch record: every field but LogLeavesOut's.
// Copying the whole record and clearing those fields afterwards cost the
// queue server a copy and a free of every page's mini index (a tenth of its
// CPU on rust-doc; docs/BENCHMARKS.md).
v1::FetchRecord LogCopy(const v1::FetchRecord& r) {
  using google::protobuf::FieldDescriptor;
  static const std::vector<const FieldDescriptor*> kept = [] {
    std::vector<const FieldDescriptor*> fields;
    const auto* d = v1::FetchRecord::descriptor();
    for (int i = 0; i < d->field_count(); ++i)
      if (!LogLeavesOut(d->field(i))) fields.push_back(d->field(i));
    return fields;
  }();
  v1::FetchRecord out;
  const auto* refl = v1::FetchRecord::GetReflection();
  for (const FieldDescriptor* f : kept) {
    if (f->is_repeated() || f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      // Not in today's record: the general (slower) path for such a field.
      if (f->is_repeated() ? refl->FieldSize(r, f) > 0 : refl->HasField(r, f)) {
        v1::FetchRecord whole = r;
        const auto* d = v1::FetchRecord::descriptor();
        for (int i = 0; i < d->field_count(); ++i)
          if (LogLeavesOut(d->field(i))) refl->ClearField(&whole, d->field(i));
        return whole;
      }
      continue;
    }
    if (!refl->HasField(r, f)) continue;  // proto3: at its default
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32: refl->SetInt32(&out, f, refl->GetInt32(r, f)); break;
      case FieldDescriptor::CPPTYPE_INT64: refl->SetInt64(&out, f, refl->GetInt64(r, f)); break;
      case FieldDescriptor::CPPTYPE_UINT32: refl->SetUInt32(&out, f, refl->GetUInt32(r, f)); break;
      case FieldDescriptor::CPPTYPE_UINT64: refl->SetUInt64(&out, f, refl->GetUInt64(r, f)); break;
      case FieldDescriptor::CPPTYPE_DOUBLE: refl->SetDouble(&out, f, refl->GetDouble(r, f)); break;
      case FieldDescriptor::CPPTYPE_FLOAT: refl->SetFloat(&out, f, refl->GetFloat(r, f)); break;
      case FieldDescriptor::CPPTYPE_BOOL: refl->SetBool(&out, f, refl->GetBool(r, f)); break;
      case FieldDescriptor::CPPTYPE_ENUM: refl->SetEnumValue(&out, f, refl->GetEnumValue(r, f)); break;
      case FieldDescriptor::CPPTYPE_STRING: refl->SetString(&out, f, refl->GetString(r, f)); break;
      case FieldDescriptor::CPPTYPE_MESSAGE: break;  // handled above
    }
  }
  return out;
}
}  // namespace

CrawlShard::CrawlShard(const v1::CrawlInfo& crawl, const Clock* clock, std::unique_ptr<ShardWriter> writer)
    : crawl_(crawl), clock_(clock), writer_(std::move(writer)),
      frontier_(OptionsFor(crawl, clock), writer_.get(), writer_.get()),
      site_reports_(crawl.params().site_reports_kept()) {
  structure_ = dynamic_cast<StructureOrder*>(&frontier_.order());
  // Without a store the due window is the only copy: never drop from it.
  if (!writer_) due_.set_capacity(SIZE_MAX);
  ApplyRecrawlParams(crawl.params());
  frontier_.SetJournal(writer_.get());
  scope_ = ScopeOf(crawl.params());
  index_ = std::make_unique<SearchIndex>(IndexOptionsFor(crawl), writer_.get());
  // Until the name server shares out the page budget, take an even share.
  if (const uint64_t budget = crawl.params().max_pages(); budget > 0) {
    const uint64_t n = std::max(1, crawl.queue_servers_size());
    page_cap_ = (budget + n - 1) / n;
  }
}

Result<std::unique_ptr<CrawlShard>> CrawlShard::Load(QueueStore* store, uint64_t crawl_id, const Clock* clock) {
  auto image = store->Load(crawl_id);
  if (!image.ok()) return image.status();
  auto shard = std::make_unique<CrawlShard>(image->crawl, clock, store->NewWriter(crawl_id));
  // Restore without journaling: this is what the store already holds.
  shard->frontier_.SetJournal(nullptr);
  shard->frontier_.Restore(std::move(image->frontier));
  shard->frontier_.SetJournal(shard->writer_.get());
  shard->counters_ = image->counters;
  // The status page's per-host counts and recent errors, from the log on
  // disk, one record at a time.
  if (Status s = shard->writer_->ScanLog(0, 0, [&](v1::FetchRecord&& r) { shard->NoteForStatus(r); },
                                         &shard->log_size_);
      !s.ok())
    return s;
  if (Status s = shard->index_->Load(); !s.ok()) return s;
  if (const uint64_t lost = shard->index_->segment_bytes_lost(); lost > 0) {
    spdlog::warn("crawl {}: {} bytes of postings segments were lost (an OS crash without --sync-writes); "
                 "the documents they held are stored but not searchable",
                 crawl_id, lost);
  }
  // A partition closed before a kill may not be merged yet.
  (void)shard->index_->MergeClosed();
  shard->applied_batches_.Restore(std::move(image->applied_batches));
  if (Status s = shard->RebuildDueQueue(); !s.ok()) return s;
  return shard;
}

Status CrawlShard::Commit() {
  if (!writer_) return DrainSiteReports();
  if (writer_->pending() == 0) return DrainSiteReports();
  writer_->PutCounters(counters_, frontier_.Scalars());
  if (Status s = writer_->Commit(); !s.ok()) return s;
  // A partition this request closed: its postings merged, outside the
  // request (a failure leaves it searchable from its chunks and merging is
  // tried again after the next commit).
  if (index_->merge_pending()) (void)index_->MergeClosed();
  return DrainSiteReports();
}

Status CrawlShard::DrainSiteReports() {
  // After the commit: a report is filed once its session's end is durable.
  if (!structure_) return Status::Ok();
  if (Status s = site_reports_.Add(structure_->TakeReports()); !s.ok()) {
    spdlog::warn("crawl {}: {}", crawl_.crawl_id(), s.message());
  }
  return Status::Ok();
}

Status CrawlShard::Create() {
  if (!writer_) return Status::Ok();
  writer_->PutCrawl(crawl_);
  return Commit();
}

Status CrawlShard::InjectSeeds(const v1::InjectSeedsRequest& req, v1::InjectSeedsResponse* resp) {
  if (req.urls_size() > kMaxSeedsPerRequest) return Status::InvalidArgument("too many seeds in one request");
  uint64_t accepted = 0;
  const int64_t now = clock_->NowUnixMs();
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
    if (frontier_.Add(e, now, crawl_.seed_count() > 0 ? crawl_.seed_count() : static_cast<uint64_t>(req.urls_size())))
      ++accepted;
  }
  frontier_.EndRequest();
  resp->set_accepted(accepted);
  return Commit();
}

Status CrawlShard::GetSchedule(const v1::GetScheduleRequest& req, v1::GetScheduleResponse* resp) {
  if (Status s = CheckId(req.fetcher_id(), "fetcher id"); !s.ok()) return s;
  if (counters_.ended) return Status::Ok();
  size_t max_urls = req.max_urls();
  const size_t cap = crawl_.params().schedule_size() > 0 ? crawl_.params().schedule_size() : 5000;
  if (max_urls == 0 || max_urls > cap) max_urls = cap;
  size_t max_pages = SIZE_MAX;
  if (page_cap_) {
    const uint64_t committed = counters_.pages_fetched + frontier_.Counters().leased_urls;
    max_pages = committed >= *page_cap_ ? 0 : static_cast<size_t>(*page_cap_ - committed);
  }
  ReenterDue(max_urls);
  Schedule s = frontier_.Lease(req.fetcher_id(), max_urls, clock_->NowUnixMs(), max_pages);
  frontier_.EndRequest();
  // Commit before answering: a schedule the fetcher sees is always durable.
  if (Status st = Commit(); !st.ok()) return st;
  if (s.id == 0) return Status::Ok();
  resp->set_schedule_id(s.id);
  resp->set_lease_deadline_unix_ms(s.lease_deadline_ms);
  for (auto& e : s.entries) {
    v1::ScheduledUrl* u = resp->add_urls();
    u->set_url(std::move(e.url));
    u->set_referrer(std::move(e.referrer));
    u->set_depth(e.depth);
    // Echoed back on the page's links to other queue servers (crawl.proto).
    u->set_order_tier(e.tier);
    u->set_order_weight(e.weight);
    u->set_order_cash(e.cash);
    if (e.kind == UrlKind::kPage) {
      // The chain's PassScoreBeforeProcessing; the fetcher echoes it in the FetchRecord.
      u->set_scoring_datum(frontier_.order().chain().PassScoreBeforeProcessing(
          ScoreDatum{e.url, e.depth, e.link_kind, e.cash}));
    }
    u->set_kind(e.kind == UrlKind::kRobots ? v1::URL_KIND_ROBOTS : v1::URL_KIND_PAGE);
    if (e.kind == UrlKind::kPage) AttachRevisit(u);
    if (!s.crawl_delay_ms.empty()) {
      auto origin = url::OriginOf(u->url());
      if (origin.ok()) {
        auto delay = s.crawl_delay_ms.find(*origin);
        if (delay != s.crawl_delay_ms.end()) u->set_crawl_delay_ms(static_cast<uint32_t>(delay->second));
      }
    }
  }
  return Status::Ok();
}

void CrawlShard::IndexBatch(const google::protobuf::RepeatedPtrField<v1::FetchRecord>& records,
                            const google::protobuf::RepeatedPtrField<v1::DiscoveredLink>& links,
                            const std::vector<std::string_view>& referrers,
                            const std::unordered_map<std::string, double>& boosts) {
  // Link documents are stemmed in their page's language when the page is in
  // this batch (links from AddUrls come without it: English).
  std::unordered_map<std::string_view, std::string_view> language;
  for (const v1::FetchRecord& r : records) {
    if (RemovedOrUnchanged(r)) continue;
    auto boost = boosts.find(r.url());
    const uint64_t rejected = index_->pages_rejected();
    (void)index_->AddPage(r, boost == boosts.end() ? 0.0 : boost->second);
    if (index_->pages_rejected() != rejected)
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
    (void)index_->AddLink(link, run_language);
  }
  index_->Flush();
}

Status CrawlShard::Search(const v1::SearchRequest& req, v1::SearchResponse* resp) {
  auto job = PrepareSearch(req);
  if (!job.ok()) return job.status();
  return (*job)(resp);
}

Result<CrawlShard::SearchJob> CrawlShard::PrepareSearch(const v1::SearchRequest& req) {
  const std::string language = req.language().empty() ? "en" : req.language();
  auto query = ParseQuery(req.query(), index_->StemmerFor(language));
  if (!query.ok()) return query.status();
  auto prepared = index_->Prepare(*query);
  if (!prepared.ok()) return prepared.status();
  SearchOptions options;
  options.max_matches = req.limit() == 0 ? 200 : std::min<uint32_t>(req.limit(), 10'000);
  const int64_t timeout = req.timeout_ms() == 0 ? 1000 : std::min<uint32_t>(req.timeout_ms(), 60'000);
  options.deadline_unix_ms = clock_->NowUnixMs() + timeout;
  // The job holds copies, not the shard: the service runs it unlocked.
  return SearchJob([prepared = std::move(*prepared), options, language, clock = clock_,
                    crawl_id = crawl_.crawl_id()](v1::SearchResponse* resp) -> Status {
    // Its own stemmer: the index's are in use by indexing meanwhile.
    text::Stemmer stemmer(language);
    auto searched = SearchIndex::Run(*prepared, options, *clock, stemmer);
    if (!searched.ok()) return searched.status();
    const SearchOutcome& outcome = *searched;
    resp->set_crawl_id(crawl_id);
    resp->set_matches(outcome.matches);
    resp->set_timed_out(outcome.timed_out);
    resp->set_documents(prepared->documents);
    for (const SearchHit& h : outcome.hits) {
      v1::SearchResult* r = resp->add_results();
      r->set_url(h.url);
      r->set_title(h.title);
      r->set_snippet(h.snippet);
      r->set_url_hash(h.url_hash);
      r->set_text_hash(h.text_hash);
      r->set_link_only(h.link);
      r->set_language(h.language);
      v1::ScoreParts* s = r->mutable_score();
      s->set_doc_rank(h.doc_rank);
      s->set_bonus(h.bonus);
      s->set_relevance(h.relevance);
      s->set_proximity(h.proximity);
      s->set_total(h.total());
    }
    return Status::Ok();
  });
}

void CrawlShard::AddLinks(const google::protobuf::RepeatedPtrField<v1::DiscoveredLink>& links,
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
  const uint64_t before = frontier_.over_host_cap();
  frontier_.AddLinks(std::move(inputs), now_ms);
  CountOverHostCap(frontier_.over_host_cap() - before);
}

Status CrawlShard::SubmitResults(const v1::SubmitResultsRequest& req, v1::SubmitResultsResponse* resp) {
  if (Status s = CheckId(req.fetcher_id(), "fetcher id"); !s.ok()) return s;
  if (req.records_size() > kMaxRecordsPerRequest) return Status::InvalidArgument("too many records in one request");
  if (req.links_size() > kMaxLinksPerRequest) return Status::InvalidArgument("too many links in one request");
  if (req.host_errors_size() > kMaxRecordsPerRequest)
    return Status::InvalidArgument("too many host error counts in one request");
  for (const v1::HostErrorCount& h : req.host_errors()) {
    if (h.origin().size() > 2048) return Status::InvalidArgument("host error origin too long");
  }
  const std::string key = "s/" + req.fetcher_id() + "/" + std::to_string(req.schedule_id()) + "/" +
                          std::to_string(req.sequence());
  if (applied_batches_.Contains(key)) {
    resp->set_duplicate(true);
    return Status::Ok();
  }
  NoteApplied(key);
  revisits_.clear();
  index_removals_.clear();
  const int64_t now = clock_->NowUnixMs();
  std::unordered_map<std::string, double> boosts;
  for (const v1::FetchRecord& r : req.records()) {
    FetchOutcome outcome;
    outcome.url = r.url();
    outcome.kind = FromWire(r.kind());
    outcome.status = r.status();
    outcome.robots_body = r.robots_body();
    outcome.retry_after_seconds = r.retry_after_seconds();
    outcome.expires_unix_s = r.expires_unix_s();
    // Input from another process: a value no chain could have sent is ignored.
    if (r.has_scoring_datum() && std::isfinite(r.scoring_datum()) && std::abs(r.scoring_datum()) <= kMaxEchoedCash)
      outcome.scoring_datum = r.scoring_datum();
    const ReportResult reported = frontier_.Report(req.schedule_id(), outcome, now);
    ++counters_.fetch_attempts;
    if (r.kind() == v1::URL_KIND_PAGE) ++counters_.pages_fetched;
    if (r.status() < 0) ++counters_.fetch_errors;
    counters_.bytes_fetched += r.bytes();
    // The log keeps what `crawlctl log` and the status page show.
    v1::FetchRecord logged = LogCopy(r);
    // A robots.txt keeps its first 16 KiB in the log: the console's host
    // page shows it (one small record per host and day, unlike page bodies).
    if (r.kind() == v1::URL_KIND_ROBOTS) logged.set_robots_body(r.robots_body().substr(0, kLoggedRobotsBytes));
    if (r.kind() == v1::URL_KIND_PAGE) {
      // The fetch state; a revisit is marked in the log.
      if (Status s = NoteFetch(r, &logged, reported.requeued); !s.ok()) return s;
      // A page put back after 429/503 has no score yet: tier -1, cash 0.
      logged.set_order_tier(reported.score.tier);
      logged.set_order_cash(reported.score.cash);
      logged.set_order_importance(reported.score.importance);
      boosts[r.url()] = reported.score.importance;  // the chain's IndexerScore: the index's boost
    }
    NoteForStatus(logged);
    if (writer_) {
      writer_->AppendLog(log_size_, logged);
    } else {
      memory_log_.push_back(std::move(logged));
    }
    ++log_size_;
  }
  // DESIGN.md 5.1: more than the threshold of HTTP errors in one schedule
  // makes a host crawl-delayed. Counted by the fetcher, or here from the
  // records when it sent no counts.
  if (req.host_errors_size() > 0) {
    for (const v1::HostErrorCount& h : req.host_errors())
      frontier_.NoteHostErrors(req.schedule_id(), h.origin(), h.errors());
  } else {
    std::map<std::string, uint32_t> errors;
    for (const v1::FetchRecord& r : req.records()) {
      if (!CountsAsHostError(r.status(), r.kind() == v1::URL_KIND_ROBOTS)) continue;
      if (auto origin = url::OriginOf(r.url()); origin.ok()) ++errors[*origin];
    }
    for (const auto& [origin, n] : errors) frontier_.NoteHostErrors(req.schedule_id(), origin, n);
  }
  const std::vector<std::string_view> referrers = LinkReferrers(req.links());
  AddLinks(req.links(), referrers, now);
  if (req.final()) frontier_.Complete(req.schedule_id(), now);
  frontier_.EndRequest();
  IndexBatch(req.records(), req.links(), referrers, boosts);
  return Commit();
}

Status CrawlShard::AddUrls(const v1::AddUrlsRequest& req, v1::AddUrlsResponse* resp) {
  if (Status s = CheckId(req.fetcher_id(), "fetcher id"); !s.ok()) return s;
  if (Status s = CheckId(req.batch_id(), "batch id"); !s.ok()) return s;
  if (req.links_size() > kMaxLinksPerRequest) return Status::InvalidArgument("too many links in one request");
  const std::string key = "a/" + req.fetcher_id() + "/" + req.batch_id();
  if (applied_batches_.Contains(key)) {
    resp->set_duplicate(true);
    return Status::Ok();
  }
  NoteApplied(key);
  const uint64_t before = frontier_.Counters().urls_seen;
  const int64_t now = clock_->NowUnixMs();
  const std::vector<std::string_view> referrers = LinkReferrers(req.links());
  AddLinks(req.links(), referrers, now);
  frontier_.EndRequest();
  resp->set_accepted(frontier_.Counters().urls_seen - before);
  IndexBatch({}, req.links(), referrers, {});
  return Commit();
}

void CrawlShard::NoteApplied(const std::string& key) {
  std::vector<std::string> dropped;
  const AppliedBatch added = applied_batches_.Add(key, clock_->NowUnixMs(), &dropped);
  if (!writer_) return;
  writer_->AddAppliedBatch(added);
  for (const std::string& k : dropped) writer_->DropAppliedBatch(k);
}

Status CrawlShard::End(v1::CrawlState state) {
  if (counters_.ended && crawl_.state() == state) return Status::Ok();
  counters_.ended = true;
  crawl_.set_state(state);
  // imbWEM's Reporting Engine: every open site session ends with the crawl.
  if (structure_) structure_->EndSessions(state == v1::CRAWL_STATE_STOPPED ? "crawl stopped" : "crawl ended");
  if (!writer_) return DrainSiteReports();
  writer_->PutCrawl(crawl_);
  return Commit();
}

Status CrawlShard::Update(const v1::CrawlInfo& crawl) {
  if (crawl.params_version() <= crawl_.params_version()) return Status::Ok();
  if (const uint64_t budget = crawl.params().max_pages(); budget != crawl_.params().max_pages()) {
    // A page budget set or changed mid-crawl holds from now on, not from the
    // name server's next share-out (which a name server restart can delay by
    // seconds, while fetchers keep leasing): an even share until then, as at
    // the start. No budget: no cap.
    if (budget > 0) {
      const uint64_t n = std::max(1, crawl.queue_servers_size());
      page_cap_ = (budget + n - 1) / n;
    } else {
      page_cap_.reset();
    }
  }
  *crawl_.mutable_params() = crawl.params();
  *crawl_.mutable_queue_servers() = crawl.queue_servers();
  scope_ = ScopeOf(crawl.params());
  frontier_.SetMinHostDelay(crawl.params().min_host_delay_ms());
  frontier_.SetHostCaps(HostCapsOf(crawl.params()));
  ApplyRecrawlParams(crawl.params());
  crawl_.set_params_version(crawl.params_version());
  if (crawl.state() == v1::CRAWL_STATE_RUNNING && counters_.ended) {
    counters_.ended = false;
    crawl_.set_state(v1::CRAWL_STATE_RUNNING);
  }
  if (!writer_) return Status::Ok();
  writer_->PutCrawl(crawl_);
  writer_->PutCounters(counters_, frontier_.Scalars());
  return Commit();
}

Status CrawlShard::ReturnSchedule(uint64_t schedule_id) {
  frontier_.Complete(schedule_id, clock_->NowUnixMs());
  frontier_.EndRequest();
  return Commit();
}

Status CrawlShard::Tick() {
  frontier_.Tick(clock_->NowUnixMs());
  frontier_.EndRequest();
  return Commit();
}

void CrawlShard::NoteForStatus(const v1::FetchRecord& r) {
  if (r.kind() != v1::URL_KIND_PAGE) return;
  if (r.status() < 0 || r.status() >= 400) {
    recent_errors_.push_front(r);
    if (recent_errors_.size() > 20) recent_errors_.pop_back();
  }
  const std::string host = url::HostOf(r.url());
  if (!host.empty()) ++host_pages_[host];
}

void CrawlShard::FillStats(v1::QueueServerStats* stats) const {
  const FrontierCounters c = frontier_.Counters();
  stats->set_crawl_id(crawl_.crawl_id());
  stats->set_frontier_size(c.frontier_size);
  stats->set_leased_urls(c.leased_urls);
  stats->set_outstanding_schedules(c.outstanding_schedules);
  stats->set_pages_fetched(counters_.pages_fetched);
  stats->set_fetch_attempts(counters_.fetch_attempts);
  stats->set_urls_seen(c.urls_seen);
  stats->set_hosts(c.hosts);
  stats->set_robots_disallowed(c.robots_disallowed);
  stats->set_activity_counter(c.activity + log_size_);
  stats->set_bytes_fetched(counters_.bytes_fetched);
  stats->set_fetch_errors(counters_.fetch_errors);
  stats->set_over_budget_urls(c.over_budget);
  stats->set_trap_refused_links(c.trap_refused);
  stats->set_over_host_cap_urls(c.over_host_cap);
  stats->set_too_long_urls(too_long_urls_);
  stats->set_due_pages(due_.size());
  stats->set_revisits_entered(revisits_entered_);
  stats->set_revisits_unchanged(revisits_unchanged_);
  stats->set_revisits_changed(revisits_changed_);
  stats->set_due_refills(due_refills_);
  stats->set_index_documents(index_->documents());
  stats->set_index_pages_replaced(index_->pages_replaced());
  stats->set_index_pages_removed(index_->pages_removed());
  stats->set_index_documents_compacted(index_->compacted());
  site_reports_.Fill(stats);
  for (const auto& [tier, urls] : frontier_.order().QueuedByTier()) {
    auto* t = stats->add_tiers();
    t->set_tier(tier);
    t->set_urls(urls);
  }
  // Top 10 hosts by pages: a partial sort of the per-host counts.
  std::vector<std::pair<uint64_t, const std::string*>> hosts;
  hosts.reserve(host_pages_.size());
  for (const auto& [host, pages] : host_pages_) hosts.emplace_back(pages, &host);
  const size_t top = std::min<size_t>(10, hosts.size());
  std::partial_sort(hosts.begin(), hosts.begin() + static_cast<std::ptrdiff_t>(top), hosts.end(),
                    [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : *a.second < *b.second; });
  for (size_t i = 0; i < top; ++i) {
    auto* h = stats->add_top_hosts();
    h->set_host(*hosts[i].second);
    h->set_pages(hosts[i].first);
  }
  for (const auto& r : recent_errors_) {
    auto* e = stats->add_recent_errors();
    e->set_url(r.url());
    e->set_status(r.status());
    e->set_error(r.error());
    e->set_timestamp_unix_us(r.timestamp_unix_us());
  }
}

}  // namespace crawl::queueserver
