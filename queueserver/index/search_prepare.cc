// Taking a search from the index (SearchIndex::Prepare): what its walk
// needs, copied from memory, and a snapshot of the stored records.
#include <algorithm>

#include "queueserver/index/index_records.h"
#include "queueserver/index/search_index.h"

namespace crawl::queueserver {

Status SearchIndex::ListOf(uint32_t part, uint64_t term_id, std::string* out) {
  out->clear();
  const Partition& p = partitions_[part];
  if (p.merged) {
    std::string key = "m";
    PutU32Be(&key, part);
    PutU64Be(&key, term_id);
    Status s = journal_->GetIndex(IndexFamily::kPostings, key, out);
    if (s.code() == StatusCode::kNotFound) return Status::Ok();
    return s;
  }
  // Active or not yet merged: the list in memory, renumbered to places and
  // sorted.
  const Lists* lists = &active_lists_;
  const std::vector<uint32_t>* place = nullptr;
  if (!p.closed) {
    EnsureOrder();
    place = &active_.place;
  } else {
    auto it = closing_.find(part);
    if (it == closing_.end()) return Status::Internal("index partition " + std::to_string(part) + " not loaded");
    if (it->second.place.empty()) {
      if (Status s = ClosedOrder(part, /*inverse=*/true, &it->second.place); !s.ok()) return s;
    }
    lists = &it->second.lists;
    place = &it->second.place;
  }
  auto list = lists->find(term_id);
  if (list == lists->end()) return Status::Ok();
  FlatPostings flat;
  if (!DecodeAppend(list->second.bytes, &flat, place).ok())
    return Status::Internal("corrupt index postings of partition " + std::to_string(part));
  std::vector<uint32_t> order(flat.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return flat.doc[a] < flat.doc[b]; });
  EncodeBlocked(flat, order, out);
  return Status::Ok();
}

Result<SearchOutcome> SearchIndex::Search(const Query& query, const SearchOptions& options, const Clock& clock,
                                          text::Stemmer& stemmer) {
  auto prepared = Prepare(query);
  if (!prepared.ok()) return prepared.status();
  return Run(**prepared, options, clock, stemmer);
}

Result<std::shared_ptr<const PreparedSearch>> SearchIndex::Prepare(const Query& query) {
  Flush();  // documents added since the last Flush are searchable too
  auto p = std::make_shared<PreparedSearch>();
  p->query = query;
  p->options = options_;
  p->documents = documents_;
  p->total_length = total_length_;
  p->parts.reserve(partitions_.size());
  for (const Partition& part : partitions_) p->parts.push_back({part.docs, part.closed, part.merged});
  if (!partitions_.back().closed && partitions_.back().docs > 0) {
    EnsureOrder();
    p->active_at = active_.at;
  }
  // The query's terms and title keys: statistics, and their lists in the
  // partitions whose postings are in memory (copied: the index may change
  // them once Prepare returns).
  for (const QueryClause& clause : query.clauses) {
    for (const uint64_t term_id : clause.term_ids) {
      for (const uint64_t id : {term_id, TitleTermId(term_id)}) {
        auto st = terms_.find(id);
        if (st == terms_.end() || p->stats.contains(id)) continue;
        p->stats[id] = {st->second.docs, st->second.occurrences};
        for (uint32_t pi = 0; pi < partitions_.size(); ++pi) {
          if (partitions_[pi].merged || partitions_[pi].docs == 0) continue;
          std::string list;
          if (Status s = ListOf(pi, id, &list); !s.ok()) return s;
          if (!list.empty()) p->memory_lists.emplace(std::make_pair(pi, id), std::move(list));
        }
      }
    }
  }
  p->snapshot = journal_->SnapshotIndex();
  return std::shared_ptr<const PreparedSearch>(std::move(p));
}

}  // namespace crawl::queueserver
