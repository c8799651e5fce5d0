// CrawlShard's revisits: the per-URL fetch state kept in the
// store (queueserver/fetch_state.h), the validators attached to a page
// leased again, and the not-modified / unchanged marks of the crawl log.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "common/base/hash.h"
#include "queueserver/crawl_shard.h"

namespace crawl::queueserver {

Result<std::optional<FetchState>> CrawlShard::FetchStateOf(const std::string& url) {
  const uint64_t h = hash::RecurringHash8(url);
  if (writer_) return writer_->GetFetchState(h, url);
  auto it = memory_fetch_state_.find(h);
  if (it == memory_fetch_state_.end() || it->second.url != url) return std::optional<FetchState>();
  return std::optional<FetchState>(it->second);
}

Status CrawlShard::NoteFetch(const v1::FetchRecord& r, v1::FetchRecord* logged, bool requeued) {
  auto previous = FetchStateOf(r.url());
  if (!previous.ok()) {
    // A damaged record is replaced by what this fetch says; a store that
    // cannot be read fails the request (nothing of it is written).
    if (previous.status().code() != StatusCode::kInternal) return previous.status();
    spdlog::warn("crawl {}: {}: {}; starting its fetch history again", crawl_.crawl_id(), r.url(),
                 previous.status().message());
    previous = std::optional<FetchState>();
  }
  const int64_t refers_to = *previous ? (*previous)->content_since_unix_us : 0;
  if (LeavesSearch(*previous ? (*previous)->last_status : 0, r.status())) index_removals_.insert(r.url());
  FetchUpdate update = ApplyFetch(*previous, r);
  logged->set_revisit(update.revisit);
  if (update.revisit != v1::REVISIT_NONE) {
    // A 304 confirms the content seen before: the log shows its digest.
    if (!update.state.digest.empty()) logged->set_content_digest(update.state.digest);
    revisits_[r.url()] = RevisitNote{update.revisit, refers_to};
  }
  // Recrawl: when the page is due again (a page put back after 429/503 is
  // queued already and gets its next visit when it is fetched).
  if (update.revisit != v1::REVISIT_NONE) ++revisits_unchanged_;
  if (*previous && update.state.times_changed > (*previous)->times_changed) ++revisits_changed_;
  // The time this revisit covered (the optimal policy's estimate).
  if (*previous && update.state.times_changed + update.state.times_unchanged >
                       (*previous)->times_changed + (*previous)->times_unchanged)
    update.state.observed_us += std::max<int64_t>(0, r.timestamp_unix_us() - (*previous)->last_fetch_unix_us);
  if (!requeued) ScheduleNextVisit(&update.state, update.revisit, *previous ? &**previous : nullptr);
  const uint64_t h = hash::RecurringHash8(r.url());
  if (writer_) {
    writer_->PutFetchState(h, update.state);
  } else {
    memory_fetch_state_[h] = std::move(update.state);
  }
  return Status::Ok();
}

bool CrawlShard::RemovedOrUnchanged(const v1::FetchRecord& r) {
  const bool ok = r.status() >= 200 && r.status() < 300;
  if (index_removals_.contains(r.url()) || (ok && r.noindex() && r.kind() == v1::URL_KIND_PAGE)) {
    (void)index_->RemovePage(r.url());
    return true;
  }
  if (!revisits_.contains(r.url())) return false;
  (void)index_->RevivePage(r.url());
  return true;
}

void CrawlShard::AttachRevisit(v1::ScheduledUrl* u) {
  auto state = FetchStateOf(u->url());
  if (!state.ok()) {
    // No validators: the page is fetched whole, as a first visit.
    spdlog::warn("crawl {}: {}: {}", crawl_.crawl_id(), u->url(), state.status().message());
    return;
  }
  if (*state) AttachValidators(**state, u);
}

}  // namespace crawl::queueserver
