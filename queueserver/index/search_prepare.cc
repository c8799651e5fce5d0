// SearchPreparer (search_prepare.h): a search's walk material copied from
// the index's memory, and a snapshot of the stored records.
#include "queueserver/index/search_prepare.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "queueserver/index/index_records.h"
#include "queueserver/index/postings_codec.h"
#include "queueserver/index/search_index.h"

namespace crawl::queueserver {

Status SearchPreparer::ListOf(uint32_t part, uint64_t term_id, std::string* out) {
  out->clear();
  const IndexMemory::Partition& p = memory_->partitions[part];
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
  const TermLists* lists = &memory_->active_lists;
  const std::vector<uint32_t>* place = nullptr;
  if (!p.closed) {
    memory_->EnsureOrder();
    place = &memory_->active.place;
  } else {
    auto it = memory_->closing.find(part);
    if (it == memory_->closing.end())
      return Status::Internal("index partition " + std::to_string(part) + " not loaded");
    if (it->second.place.empty()) {
      if (Status s = memory_->ClosedOrder(journal_, part, /*inverse=*/true, &it->second.place); !s.ok())
        return s;
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

Result<std::shared_ptr<const PreparedSearch>> SearchPreparer::Prepare(const Query& query) {
  auto p = std::make_shared<PreparedSearch>();
  p->query = query;
  p->options = options_;
  p->documents = memory_->documents;
  p->total_length = memory_->total_length;
  p->parts.reserve(memory_->partitions.size());
  for (const IndexMemory::Partition& part : memory_->partitions)
    p->parts.push_back({part.docs, part.closed, part.merged});
  if (!memory_->partitions.back().closed && memory_->partitions.back().docs > 0) {
    memory_->EnsureOrder();
    p->active_at = memory_->active.at;
  }
  // The query's terms and title keys: statistics, and their lists in the
  // partitions whose postings are in memory (copied: the index may change
  // them once Prepare returns).
  for (const QueryClause& clause : query.clauses) {
    for (const uint64_t term_id : clause.term_ids) {
      for (const uint64_t id : {term_id, TitleTermId(term_id)}) {
        auto st = memory_->terms.find(id);
        if (st == memory_->terms.end() || p->stats.contains(id)) continue;
        p->stats[id] = {st->second.docs, st->second.occurrences};
        for (uint32_t pi = 0; pi < memory_->partitions.size(); ++pi) {
          if (memory_->partitions[pi].merged || memory_->partitions[pi].docs == 0) continue;
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
