#include "queueserver/crawl_shard.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "common/text/language_id.h"
#include "common/text/stemmer.h"
#include "common/text/tokenizer.h"
#include "common/url/url.h"

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

IndexOptions IndexOptionsFor(const v1::CrawlInfo& crawl, uint64_t partition_bytes) {
  IndexOptions o;
  o.partition_bytes = partition_bytes;
  if (crawl.params().index_partition_docs() > 0) o.partition_docs = crawl.params().index_partition_docs();
  return o;
}

// An even share of the crawl's page budget (none: no cap), until the name
// server shares it out.
std::optional<uint64_t> EvenPageShare(const v1::CrawlInfo& crawl) {
  const uint64_t budget = crawl.params().max_pages();
  if (budget == 0) return std::nullopt;
  const uint64_t n = std::max(1, crawl.queue_servers_size());
  return (budget + n - 1) / n;
}

}  // namespace

CrawlShard::CrawlShard(const v1::CrawlInfo& crawl, const Clock* clock, std::unique_ptr<ShardWriter> writer,
                       uint64_t index_partition_bytes)
    : crawl_(crawl),
      clock_(clock),
      writer_(std::move(writer)),
      frontier_(OptionsFor(crawl, clock), writer_.get(), writer_.get()),
      page_cap_(EvenPageShare(crawl)),
      index_(std::make_unique<SearchIndex>(IndexOptionsFor(crawl, index_partition_bytes), writer_.get())),
      log_(writer_.get()),
      recrawl_(clock, writer_.get(), frontier_, crawl.crawl_id(), crawl.params()),
      ingest_(ShardParts{crawl_, clock, writer_.get(), frontier_, counters_, log_, recrawl_, *index_}),
      site_reports_(frontier_.order(), crawl.params().site_reports_kept()) {
  frontier_.SetJournal(writer_.get());
}

Result<std::unique_ptr<CrawlShard>> CrawlShard::Load(QueueStore* store, uint64_t crawl_id, const Clock* clock,
                                                     uint64_t index_partition_bytes) {
  auto image = store->Load(crawl_id);
  if (!image.ok()) return image.status();
  auto shard =
      std::make_unique<CrawlShard>(image->crawl, clock, store->NewWriter(crawl_id), index_partition_bytes);
  // Restore without journaling: this is what the store already holds.
  shard->frontier_.SetJournal(nullptr);
  shard->frontier_.Restore(std::move(image->frontier), clock->NowUnixMs());
  shard->frontier_.SetJournal(shard->writer_.get());
  shard->counters_ = image->counters;
  if (Status s = shard->log_.Load(); !s.ok()) return s;
  if (Status s = shard->index_->Load(); !s.ok()) return s;
  if (const uint64_t lost = shard->index_->segment_bytes_lost(); lost > 0) {
    spdlog::warn(
        "crawl {}: {} bytes of postings segments were lost (an OS crash without --sync-writes); "
        "the documents they held are stored but not searchable",
        crawl_id, lost);
  }
  // A partition closed before a kill may not be merged yet.
  (void)shard->index_->MergeClosed();
  shard->ingest_.RestoreAppliedBatches(std::move(image->applied_batches));
  if (Status s = shard->recrawl_.RebuildDueQueue(); !s.ok()) return s;
  return shard;
}

Status CrawlShard::Commit() {
  if (writer_ && writer_->pending() > 0) {
    writer_->PutCounters(counters_, frontier_.Scalars());
    if (Status s = writer_->Commit(); !s.ok()) return s;
    // A partition this request closed: its postings merged, outside the
    // request (a failure leaves it searchable from its chunks and merging is
    // tried again after the next commit).
    if (index_->merge_pending()) (void)index_->MergeClosed();
  }
  // After the commit: a report is filed once its session's end is durable.
  site_reports_.FileEnded(crawl_id());
  return Status::Ok();
}

Status CrawlShard::Create() {
  if (!writer_) return Status::Ok();
  writer_->PutCrawl(crawl_);
  return Commit();
}

Status CrawlShard::InjectSeeds(const v1::InjectSeedsRequest& req, v1::InjectSeedsResponse* resp) {
  if (Status s = ingest_.InjectSeeds(req, resp); !s.ok()) return s;
  return Commit();
}

Status CrawlShard::SubmitResults(const v1::SubmitResultsRequest& req, v1::SubmitResultsResponse* resp) {
  // A duplicate batch changed nothing: nothing to commit.
  if (Status s = ingest_.SubmitResults(req, resp); !s.ok() || resp->duplicate()) return s;
  return Commit();
}

Status CrawlShard::AddUrls(const v1::AddUrlsRequest& req, v1::AddUrlsResponse* resp) {
  if (Status s = ingest_.AddUrls(req, resp); !s.ok() || resp->duplicate()) return s;
  return Commit();
}

Status CrawlShard::GetSchedule(const v1::GetScheduleRequest& req, v1::GetScheduleResponse* resp) {
  if (Status s = CheckRequestId(req.fetcher_id(), "fetcher id"); !s.ok()) return s;
  if (counters_.ended) return Status::Ok();
  size_t max_urls = req.max_urls();
  const size_t cap = crawl_.params().schedule_size() > 0 ? crawl_.params().schedule_size() : 5000;
  if (max_urls == 0 || max_urls > cap) max_urls = cap;
  size_t max_pages = SIZE_MAX;
  if (page_cap_) {
    const uint64_t committed = counters_.pages_fetched + frontier_.Counters().leased_urls;
    max_pages = committed >= *page_cap_ ? 0 : static_cast<size_t>(*page_cap_ - committed);
  }
  recrawl_.ReenterDue(max_urls);
  if (req.lane_started()) {
    if (const size_t back = frontier_.EndLeasesOf(req.fetcher_id(), clock_->NowUnixMs()); back > 0)
      spdlog::info("crawl {}: fetcher lane {} started again: {} URLs it had leased go back to the queue",
                   crawl_.crawl_id(), req.fetcher_id(), back);
  }
  Schedule s = frontier_.Lease(req.fetcher_id(), max_urls, clock_->NowUnixMs(), max_pages);
  frontier_.EndRequest();
  // Commit before answering: a schedule the fetcher sees is always durable.
  if (Status st = Commit(); !st.ok()) return st;
  if (s.id == 0) return Status::Ok();
  resp->set_schedule_id(s.id);
  resp->set_lease_deadline_unix_ms(s.lease_deadline_ms);
  for (auto& e : s.entries) FillScheduledUrl(e, s, resp->add_urls());
  return Status::Ok();
}

void CrawlShard::FillScheduledUrl(FrontierEntry& e, const Schedule& s, v1::ScheduledUrl* u) {
  u->set_url(std::move(e.url));
  u->set_referrer(std::move(e.referrer));
  u->set_depth(e.depth);
  // Echoed back on the page's links to other queue servers (crawl.proto).
  u->set_order_tier(e.tier);
  u->set_order_weight(e.weight);
  u->set_order_cash(e.cash);
  if (e.kind == UrlKind::kPage) {
    // The chain's PassScoreBeforeProcessing; the fetcher echoes it in the FetchRecord.
    u->set_scoring_datum(
        frontier_.order().chain().PassScoreBeforeProcessing(ScoreDatum{e.url, e.depth, e.link_kind, e.cash}));
  }
  u->set_kind(e.kind == UrlKind::kRobots ? v1::URL_KIND_ROBOTS : v1::URL_KIND_PAGE);
  if (e.kind == UrlKind::kPage) recrawl_.AttachRevisit(u);
  if (!s.crawl_delay_ms.empty() || !s.start_pace_ms.empty()) {
    auto origin = url::OriginOf(u->url());
    if (origin.ok()) {
      auto delay = s.crawl_delay_ms.find(*origin);
      if (delay != s.crawl_delay_ms.end()) u->set_crawl_delay_ms(static_cast<uint32_t>(delay->second));
      // Adaptive pacing: the origin's last pace, so a slow host stays slow
      // across schedules (not across a queue server restart).
      auto pace = s.start_pace_ms.find(*origin);
      if (pace != s.start_pace_ms.end()) u->set_start_pace_ms(pace->second);
    }
  }
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

Status CrawlShard::End(v1::CrawlState state) {
  if (counters_.ended && crawl_.state() == state) return Status::Ok();
  counters_.ended = true;
  crawl_.set_state(state);
  // imbWEM's Reporting Engine: every open site session ends with the crawl.
  site_reports_.EndSessions(state);
  if (writer_) writer_->PutCrawl(crawl_);
  return Commit();
}

Status CrawlShard::Update(const v1::CrawlInfo& crawl) {
  if (crawl.params_version() <= crawl_.params_version()) return Status::Ok();
  // A page budget set or changed mid-crawl holds from now on, not from the
  // name server's next share-out (which a name server restart can delay by
  // seconds, while fetchers keep leasing): an even share until then, as at
  // the start. No budget: no cap.
  if (crawl.params().max_pages() != crawl_.params().max_pages()) page_cap_ = EvenPageShare(crawl);
  *crawl_.mutable_params() = crawl.params();
  *crawl_.mutable_queue_servers() = crawl.queue_servers();
  ingest_.ApplyParams(crawl.params());
  frontier_.SetMinHostDelay(crawl.params().min_host_delay_ms());
  frontier_.SetHostCaps(HostCapsOf(crawl.params()));
  recrawl_.ApplyParams(crawl.params());
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
  stats->set_activity_counter(c.activity + log_.size());
  stats->set_bytes_fetched(counters_.bytes_fetched);
  stats->set_fetch_errors(counters_.fetch_errors);
  stats->set_over_budget_urls(c.over_budget);
  stats->set_trap_refused_links(c.trap_refused);
  stats->set_over_host_cap_urls(c.over_host_cap);
  stats->set_too_long_urls(ingest_.too_long_urls());
  recrawl_.FillStats(stats);
  stats->set_index_documents(index_->documents());
  stats->set_index_pages_replaced(index_->pages_replaced());
  stats->set_index_pages_removed(index_->pages_removed());
  stats->set_index_documents_compacted(index_->compacted());
  site_reports_.FillStats(stats);
  for (const auto& [tier, urls] : frontier_.order().QueuedByTier()) {
    auto* t = stats->add_tiers();
    t->set_tier(tier);
    t->set_urls(urls);
  }
  log_.FillStats(stats);
}

Status CrawlShard::ReadLog(uint64_t offset, uint32_t limit, v1::CrawlLogChunk* chunk) const {
  v1::GetCrawlLogRequest req;
  req.set_offset(offset);
  req.set_limit(limit);
  return log_.ReadPage(req, chunk);
}

Status CrawlShard::Search(const v1::SearchRequest& req, v1::SearchResponse* resp) {
  auto job = PrepareSearch(req);
  if (!job.ok()) return job.status();
  return (*job)(resp);
}

namespace {

// The query's words for CLD2: a host name in `site:` is no text of the
// language, and the query syntax is no text at all.
std::string QueryWords(std::string_view query) {
  std::string words;
  std::size_t pos = 0;
  while (pos < query.size()) {
    const std::size_t end = std::min(query.find_first_of(" \t\n\r", pos), query.size());
    std::string_view term = query.substr(pos, end - pos);
    pos = end + 1;
    if (term.size() >= 5 && (term[0] | 0x20) == 's' && (term[1] | 0x20) == 'i' && (term[2] | 0x20) == 't' &&
        (term[3] | 0x20) == 'e' && term[4] == ':')
      continue;
    for (char c : term) words.push_back(c == '"' || c == '|' ? ' ' : c);
    words.push_back(' ');
  }
  return words;
}

}  // namespace

std::string QueryLanguage(const v1::SearchRequest& req) { return QueryLanguages(req)[0]; }

std::vector<std::string> QueryLanguages(const v1::SearchRequest& req) {
  if (std::string named = text::NormalizeLanguageCode(req.language()); !named.empty()) return {named};
  const std::string words = QueryWords(req.query());
  const text::TextLanguage found = text::IdentifyLanguage(words);
  if (found.reliable) {
    // CLD2 cannot tell these apart in a few words (nor always in a page):
    // the sibling's stems are an alternative.
    static constexpr std::pair<std::string_view, std::string_view> kSiblings[] = {
        {"ms", "id"}, {"id", "ms"}, {"nn", "no"}, {"da", "no"}, {"no", "da"}, {"hr", "sr"}, {"bs", "sr"}};
    std::vector<std::string> languages{found.language};
    for (const auto& [language, sibling] : kSiblings) {
      if (language == found.language) languages.emplace_back(sibling);
    }
    return languages;
  }
  // Guesses: CLD2's best effort (which it calls reliable however short the
  // text, so only a guess), then the script's most written language.
  text::LanguageHints best_effort;
  best_effort.best_effort = true;
  const text::TextLanguage guessed = text::IdentifyLanguage(words, best_effort);
  std::vector<std::string> guesses(guessed.top.begin(), guessed.top.end());
  guesses.push_back(text::LanguageOfScript(words));
  // Then every other stemmer: a guess from three words is often wrong ("La
  // mazmorra de Debian" reads as Uzbek), and a reading whose stems equal
  // another's is dropped by PrepareSearch, one whose terms the index lacks
  // costs a lookup.
  for (std::string_view code : text::StemmedLanguages()) guesses.emplace_back(code);
  std::vector<std::string> languages{"en"};
  std::vector<std::string_view> algorithms{text::SnowballAlgorithm("en")};
  for (const std::string& guess : guesses) {
    const std::string_view algorithm = text::SnowballAlgorithm(guess);
    if (guess.empty() || algorithm.empty() ||
        std::find(algorithms.begin(), algorithms.end(), algorithm) != algorithms.end())
      continue;
    algorithms.push_back(algorithm);
    languages.push_back(guess);
  }
  return languages;
}

Result<CrawlShard::SearchJob> CrawlShard::PrepareSearch(const v1::SearchRequest& req) {
  const std::vector<std::string> languages = QueryLanguages(req);
  const std::string& language = languages[0];
  auto query = ParseQuery(req.query(), index_->StemmerFor(language), text::CaseFoldingFor(language));
  if (!query.ok()) return query.status();
  // The other languages' readings become more alternatives, each once.
  for (std::size_t i = 1; i < languages.size(); ++i) {
    auto more = ParseQuery(req.query(), index_->StemmerFor(languages[i]), text::CaseFoldingFor(languages[i]));
    if (!more.ok()) continue;
    for (QueryClause& clause : more->clauses) {
      const bool seen = std::any_of(query->clauses.begin(), query->clauses.end(), [&](const QueryClause& c) {
        return c.terms == clause.terms && c.phrases == clause.phrases && c.sites == clause.sites;
      });
      if (!seen) query->clauses.push_back(std::move(clause));
    }
  }
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
      r->set_canonical_url(h.canonical_url);
      for (const auto& [lang, url] : h.alternates) {
        v1::HreflangAlternate* a = r->add_alternates();
        a->set_language(lang);
        a->set_url(url);
      }
      r->set_near_duplicate_cluster(h.near_duplicate_cluster);
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

Result<std::string> HostOfRequest(std::string_view host) {
  if (host.empty()) return Status::InvalidArgument("host missing: name one as in URLs (www.example.com)");
  const auto refuse = [host] {
    return Status::InvalidArgument("not a host name: \"" + std::string(host.substr(0, 300)) +
                                   "\" (a host as in URLs, without scheme, port or path: www.example.com)");
  };
  // Characters that would make "http://" + host + "/" another URL (a path,
  // a port, userinfo) or that no host name has.
  if (host.size() > 255 || host.find_first_of("/?#@\\%") != std::string_view::npos) return refuse();
  if (std::any_of(host.begin(), host.end(), [](char c) { return static_cast<unsigned char>(c) <= ' '; }))
    return refuse();
  if (host.find(':') != std::string_view::npos && host.front() != '[') return refuse();  // a port
  auto parts = url::Split("http://" + std::string(host) + "/");
  if (!parts.ok() || parts->host.empty() || parts->port != 80) return refuse();
  return parts->host;
}

Status CrawlShard::HostQueue(const std::string& host, const v1::HostQueueRequest& req,
                             v1::HostQueueResponse* resp) const {
  // The scan reads the store as committed: a change not yet committed
  // would be missed. Every request commits (or is discarded) before it
  // answers, so there is none between requests.
  if (writer_ && writer_->pending() > 0)
    return Status::Internal("crawl " + std::to_string(crawl_id()) + " has uncommitted changes");
  const uint64_t max_scan =
      req.max_scan() == 0 ? kDefaultHostQueueScan : std::min(req.max_scan(), kMaxHostQueueScan);
  const size_t sample = std::min(req.sample_urls(), kMaxHostQueueSample);
  auto counts = frontier_.QueueOfHost(host, max_scan, sample);
  if (!counts.ok()) return counts.status();
  for (const auto& [tier, urls] : counts->tiers) {
    v1::HostQueueResponse::TierCount* t = resp->add_tiers();
    t->set_tier(tier);
    t->set_urls(urls);
  }
  resp->set_waiting_for_robots(counts->waiting_for_robots);
  resp->set_urls_added(counts->urls_added);
  resp->set_over_host_cap(counts->over_host_cap);
  resp->set_leased(counts->leased);
  resp->set_scanned(counts->scanned);
  resp->set_truncated(counts->truncated);
  for (std::string& u : counts->sample) resp->add_sample_urls(std::move(u));
  const HostPoliteness p = frontier_.PolitenessOfHost(host, clock_->NowUnixMs());
  resp->set_pace_ms(p.pace_ms);
  resp->set_address(p.address);
  for (uint32_t ms : p.recent_fetch_ms) resp->add_recent_fetch_ms(ms);
  resp->set_consecutive_failures(p.consecutive_failures);
  resp->set_backoff_until_unix_ms(p.backoff_until_ms);
  resp->set_parked(p.parked);
  resp->set_leased_now(p.leased_now);
  return Status::Ok();
}

}  // namespace crawl::queueserver
