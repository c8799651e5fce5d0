#include "fetcher/result_batch.h"

#include "common/rendezvous.h"
#include "common/url.h"

namespace crawl::fetcher {

ResultBatcher::ResultBatcher(std::vector<std::string> server_ids) : server_ids_(std::move(server_ids)) {
  batch_.links_by_server.resize(server_ids_.size());
}

void ResultBatcher::Add(ProcessedPage page) {
  batch_.records.push_back(std::move(page.record));
  if (server_ids_.empty()) return;
  for (auto& link : page.links) {
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
