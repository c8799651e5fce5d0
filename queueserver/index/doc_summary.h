// The summary kept per document in the docs family (doc id -> summary
// record): writing the record and reading it back.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/base/status.h"

namespace crawl::queueserver {

// The summary kept per document (compressed in the docs family).
struct DocSummary {
  std::string url;
  std::string title;
  std::vector<std::string> description;  // sentences
  std::string language;
  bool nosnippet = false;
  bool link = false;
  // A page's directives (FetchRecord fields 31-33); written only when one is
  // set, behind a flag bit, so summaries of older stores read as none.
  std::string canonical_url;  // "" : the page names no other canonical
  int64_t unavailable_after_unix_s = 0;
  std::vector<std::pair<std::string, std::string>> alternates;  // (hreflang, url)
  // FetchRecord.near_duplicate_cluster (0: none). Written last, behind a
  // flag bit; summaries of older stores read as 0.
  uint64_t near_duplicate_cluster = 0;
};

// A summary record: 'r' and the fields. Not compressed here: the docs
// family compresses its tables with zstd (queueserver/store/queue_store.cc).
// zlib per record costs more CPU, and a compacted store is smaller with
// zstd over whole blocks (docs/BENCHMARKS.md "Cost per page").
[[nodiscard]] std::string EncodeSummary(const DocSummary& s);

// A summary record ('r' raw or 'z' zlib, then the fields) back to its
// summary; corrupt records are an InvalidArgument error.
[[nodiscard]] Result<DocSummary> ParseSummary(std::string_view bytes);

}  // namespace crawl::queueserver
