// Collects processed pages of one schedule into batches (docs/DESIGN.md §3
// step 6): fetch records go to the schedule's queue server, discovered links
// to the queue server that owns each link's host (rendezvous hash over the
// crawl's frozen server list), with the crawl's tracking parameters removed
// from every link (common/url/url.h), and host error counts per origin
// (docs/DESIGN.md §5.1). A link whose referrer is the previous link's in its
// server's list leaves it out (DiscoveredLink.same_referrer). Pure; not
// thread-safe.
#pragma once

#include <google/protobuf/repeated_ptr_field.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/url/url.h"
#include "fetcher/page/page_processor.h"

namespace crawl::fetcher {

// Repeated fields, as the requests hold them: shipping swaps each list into
// its request whole (one heap message per link, never moved again).
struct ResultBatch {
  google::protobuf::RepeatedPtrField<v1::FetchRecord> records;
  // links_by_server[i]: links owned by server i of the crawl's list.
  std::vector<google::protobuf::RepeatedPtrField<v1::DiscoveredLink>> links_by_server;
  // Origin ("scheme://host[:port]") -> errors in this batch.
  std::map<std::string, uint32_t> host_errors;
  // Sitemap gate holds of the pages in the batch (ProcessedPage.hold): let
  // go when the batch is destroyed, after it was shipped.
  std::vector<std::shared_ptr<void>> holds;
};

// Whether a fetch outcome counts as an error of its host (SubmitResults
// host_errors): common/crawl/fetch_error.h's CountsAsHostError on its status.
[[nodiscard]] bool CountsAsHostError(const v1::FetchRecord& record);

class ResultBatcher {
 public:
  // `server_ids`: the crawl's queue server ids, in the crawl's order.
  // `tracking`: parameters removed from links (not owned; must outlive the
  // batcher; null for none).
  // `home`: the index of the queue server that scheduled the pages (none:
  // SIZE_MAX, links are only routed to their owners).
  explicit ResultBatcher(std::vector<std::string> server_ids, const url::TrackingParams* tracking = nullptr,
                         size_t home = SIZE_MAX);

  // A link without a referrer (ProcessFetch leaves it out) gets the page's
  // URL (record.url()) where its list needs it.
  // `scheduled`: the page's entry in the schedule (null: unknown). A link
  // owned by a queue server other than `home` carries the page's order data
  // from it (DiscoveredLink 20-23) and s, the page's links within its CLD;
  // `home` gets a sent_elsewhere copy of it, to book the cash share it gave
  // away (docs/DESIGN.md §5.2 across queue servers).
  void Add(ProcessedPage page, const v1::ScheduledUrl* scheduled = nullptr);
  // Pages added since the last Take.
  [[nodiscard]] size_t pages() const { return batch_.records.size(); }
  // Links added since the last Take, to every queue server.
  [[nodiscard]] size_t links() const { return links_; }
  // Serialized size of the records added since the last Take (links not
  // counted: max_batch_links bounds them).
  [[nodiscard]] size_t record_bytes() const { return record_bytes_; }
  // Hands over what was collected and starts a new batch.
  ResultBatch Take();

 private:
  // Appends `link` to server `owner`'s list with `referrer` (the link's
  // own when it names one); a link whose referrer is the previous one's in
  // that list says so (`same_referrer`) instead of carrying it again. The
  // lists go into requests whole and in order.
  void Append(size_t owner, v1::DiscoveredLink&& link, std::string_view referrer);

  std::vector<std::string> server_ids_;
  const url::TrackingParams* tracking_;
  size_t home_;
  ResultBatch batch_;
  std::vector<std::string> last_referrer_;  // by server: of the last link in its list
  size_t links_ = 0;
  size_t record_bytes_ = 0;
};

}  // namespace crawl::fetcher
