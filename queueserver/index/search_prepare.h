// Taking a search from the index (SearchIndex::Prepare): what its walk
// needs, copied from an IndexMemory (totals, partitions, the statistics of
// the query's terms and their lists in unmerged partitions, renumbered to
// places), and a snapshot of the stored records.
//
// Not thread-safe: whatever serialises calls to its SearchIndex (the
// service lock) guards it; the PreparedSearch it makes needs no lock.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "common/base/status.h"
#include "queueserver/index/index_journal.h"
#include "queueserver/index/index_memory.h"
#include "queueserver/index/index_options.h"
#include "queueserver/index/search_query.h"

namespace crawl::queueserver {

struct PreparedSearch;

class SearchPreparer {
 public:
  // Everything must outlive the preparer.
  SearchPreparer(const IndexOptions& options, IndexJournal* journal, IndexMemory* memory)
      : options_(options), journal_(journal), memory_(memory) {}

  // REQUIRES: documents added since the last flush are flushed.
  [[nodiscard]] Result<std::shared_ptr<const PreparedSearch>> Prepare(const Query& query);

 private:
  // A term's list in `part` in blocked form, doc numbers being places; ""
  // when the term is not in the partition.
  Status ListOf(uint32_t part, uint64_t term_id, std::string* out);

  const IndexOptions& options_;
  IndexJournal* journal_;
  IndexMemory* memory_;
};

}  // namespace crawl::queueserver
