// SearchIndex (search_index.h): the facade's calls handed to its parts.
#include "queueserver/index/search_index.h"

#include "queueserver/index/index_load.h"
#include "queueserver/index/search_walk.h"

namespace crawl::queueserver {

IndexOptions SearchIndex::WithDefaults(IndexOptions options) {
  if (options.partition_docs == 0) options.partition_docs = 100'000;
  return options;
}

SearchIndex::SearchIndex(IndexOptions options, IndexJournal* journal)
    : options_(WithDefaults(options)),
      journal_(journal != nullptr ? journal : (own_journal_ = std::make_unique<MemoryIndexJournal>()).get()),
      liveness_(journal_, &memory_),
      builder_(options_, journal_, &memory_, &liveness_),
      compactor_(options_, journal_, &memory_, &liveness_),
      merger_(journal_, &memory_, &compactor_, &builder_.postings()),
      preparer_(options_, journal_, &memory_) {
  memory_.partitions.emplace_back();  // the active one
}

SearchIndex::~SearchIndex() = default;

bool SearchIndex::IsAnchorStopWord(std::string_view word) { return IndexBuilder::IsAnchorStopWord(word); }

bool SearchIndex::AddPage(const v1::FetchRecord& record, double boost) {
  return builder_.AddPage(record, boost);
}

bool SearchIndex::AddLink(const v1::DiscoveredLink& link, std::string_view iso_language) {
  return builder_.AddLink(link, iso_language);
}

void SearchIndex::Flush() { builder_.Flush(); }

Status SearchIndex::Load() {
  builder_.Reset();
  return IndexLoader(journal_, &memory_).Load();
}

Result<SearchOutcome> SearchIndex::Search(const Query& query, const SearchOptions& options,
                                          const Clock& clock, text::Stemmer& stemmer) {
  auto prepared = Prepare(query);
  if (!prepared.ok()) return prepared.status();
  return Run(**prepared, options, clock, stemmer);
}

Result<std::shared_ptr<const PreparedSearch>> SearchIndex::Prepare(const Query& query) {
  Flush();  // documents added since the last Flush are searchable too
  return preparer_.Prepare(query);
}

Result<SearchOutcome> SearchIndex::Run(const PreparedSearch& prepared, const SearchOptions& options,
                                       const Clock& clock, text::Stemmer& stemmer) {
  return SearchWalk(prepared, options, clock, stemmer).Run();
}

Status SearchIndex::MergeClosed() { return merger_.MergeClosed(); }

bool SearchIndex::merge_pending() const { return merger_.Pending(); }

Status SearchIndex::Compact() { return compactor_.Compact(); }

bool SearchIndex::RemovePage(const std::string& url) { return liveness_.Remove(url); }

bool SearchIndex::RevivePage(const std::string& url) { return liveness_.Revive(url); }

}  // namespace crawl::queueserver
