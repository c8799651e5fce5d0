// Collects processed pages of one schedule into batches (DESIGN.md section 3
// step 6): fetch records go to the schedule's queue server, discovered links
// to the queue server that owns each link's host (rendezvous hash over the
// crawl's frozen server list). Pure; not thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "fetcher/page_processor.h"

namespace crawl::fetcher {

struct ResultBatch {
  std::vector<v1::FetchRecord> records;
  // links_by_server[i]: links owned by server i of the crawl's list.
  std::vector<std::vector<v1::DiscoveredLink>> links_by_server;
};

class ResultBatcher {
 public:
  // `server_ids`: the crawl's queue server ids, in the crawl's order.
  explicit ResultBatcher(std::vector<std::string> server_ids);

  void Add(ProcessedPage page);
  // Pages added since the last Take.
  [[nodiscard]] size_t pages() const { return batch_.records.size(); }
  // Hands over what was collected and starts a new batch.
  ResultBatch Take();

 private:
  std::vector<std::string> server_ids_;
  ResultBatch batch_;
};

}  // namespace crawl::fetcher
