#include "fetcher/result_batch.h"

#include <unordered_set>

#include "common/rendezvous.h"
#include "common/url.h"
#include "fetcher/fetch_error.h"

namespace crawl::fetcher {

bool CountsAsHostError(const v1::FetchRecord& record) {
  const int status = record.status();
  if (status == kCancelled || status == kBadUrl || status == kBlockedAddress) return false;
  if (status < 0) return true;
  if (record.kind() == v1::URL_KIND_ROBOTS) return status >= 500;
  return status >= 400;
}

ResultBatcher::ResultBatcher(std::vector<std::string> server_ids, const url::TrackingParams* tracking)
    : server_ids_(std::move(server_ids)), tracking_(tracking) {
  batch_.links_by_server.resize(server_ids_.size());
}

void ResultBatcher::Add(ProcessedPage page) {
  if (CountsAsHostError(page.record)) {
    auto origin = url::OriginOf(page.record.url());
    if (origin.ok()) ++batch_.host_errors[*origin];
  }
  const bool strip = tracking_ != nullptr && !tracking_->empty();
  if (strip && !page.record.redirect_url().empty()) {
    page.record.set_redirect_url(url::RemoveTrackingParams(page.record.redirect_url(), *tracking_));
  }
  batch_.records.push_back(std::move(page.record));
  if (server_ids_.empty()) return;
  // Links that differ only in tracking parameters are one link.
  std::unordered_set<std::string> seen;
  for (auto& link : page.links) {
    if (strip) {
      link.set_url(url::RemoveTrackingParams(link.url(), *tracking_));
      if (!seen.insert(link.url()).second) continue;
    }
    const size_t owner = OwnerIndex(server_ids_, url::HostOf(link.url()));
    batch_.links_by_server[owner].push_back(std::move(link));
  }
}

ResultBatch ResultBatcher::Take() {
  ResultBatch out = std::move(batch_);
  batch_ = ResultBatch();
  batch_.links_by_server.resize(server_ids_.size());
  return out;
}

}  // namespace crawl::fetcher
