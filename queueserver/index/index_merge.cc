// PartitionMerger (index_merge.h): closed partitions' postings rewritten
// as blocked lists in doc-map order.
#include "queueserver/index/index_merge.h"

#include <algorithm>
#include <iterator>
#include <string>

#include "queueserver/index/index_records.h"
#include "queueserver/index/postings_codec.h"

namespace crawl::queueserver {
namespace {

// A partition merge writes its lists in batches of about this many bytes:
// a table ingested each. At 32 MiB the batch was a fifth of a 20,000-page
// crawl's queue server heap (docs/BENCHMARKS.md "Memory that fits the work").
constexpr size_t kMergeWriteBytes = 4u << 20;

}  // namespace

bool PartitionMerger::Pending() const {
  for (const IndexMemory::Partition& p : memory_->partitions) {
    if (p.closed && !p.merged) return true;
  }
  return compactor_->Due();
}

Status PartitionMerger::MergeClosed() {
  for (uint32_t part = 0; part < memory_->partitions.size(); ++part) {
    if (!memory_->partitions[part].closed || memory_->partitions[part].merged) continue;
    if (Status s = MergePartition(part); !s.ok()) return s;
  }
  return compactor_->Due() ? compactor_->Compact() : Status::Ok();
}

// The stored term statistics cover the merged partitions: the closing
// partition's terms get theirs less what later, unmerged partitions hold.
void PartitionMerger::MergedTermStats(uint32_t part, const IndexMemory::Closing& closing,
                                      std::vector<IndexJournal::Put>* puts) {
  for (const auto& entry : closing.lists) {
    // Not a structured binding: clang 14 (the sanitizer build) cannot
    // capture one in a lambda.
    const auto& term = entry.first;
    TermStats st = memory_->terms[term];
    auto less = [&](const TermLists& other) {
      auto o = other.find(term);
      if (o == other.end()) return;
      st.docs -= o->second.docs;
      st.occurrences -= o->second.occurrences;
    };
    less(memory_->active_lists);
    if (const TermList* p = pending_->Find(term, memory_->terms)) {
      st.docs -= p->docs;
      st.occurrences -= p->occurrences;
    }
    for (const auto& [later, c] : memory_->closing) {
      if (later > part) less(c.lists);
    }
    std::string k;
    PutU64Be(&k, term);
    std::string v;
    PutVarint(&v, st.docs);
    PutVarint(&v, st.occurrences);
    puts->push_back({IndexFamily::kTerms, std::move(k), std::move(v)});
  }
}

Status PartitionMerger::MergePartition(uint32_t part) {
  auto it = memory_->closing.find(part);
  if (it == memory_->closing.end())
    return Status::Internal("index partition " + std::to_string(part) + " not loaded");
  IndexMemory::Closing& closing = it->second;
  if (closing.place.empty() && memory_->partitions[part].docs > 0) {
    if (Status s = memory_->ClosedOrder(journal_, part, /*inverse=*/true, &closing.place); !s.ok()) return s;
  }
  // The dead documents' postings are left out; their records go in the
  // last write (a merge tried again decides anew: lists emptied by an
  // earlier try are deleted).
  std::vector<bool> keep;
  std::vector<IndexJournal::Key> dead, gone;
  uint64_t dropped = 0;
  if (Status s = compactor_->KeptPlaces(part, &keep, &dead, &dropped); !s.ok()) return s;
  std::vector<IndexJournal::Put> puts;
  size_t bytes = 0;
  FlatPostings flat;
  std::vector<uint32_t> order;
  std::vector<uint64_t> by_doc;
  // In term order, so the lists go out as sorted runs (WriteSortedNow).
  std::vector<uint64_t> terms;
  terms.reserve(closing.lists.size());
  for (const auto& entry : closing.lists) terms.push_back(entry.first);
  std::sort(terms.begin(), terms.end());
  for (const uint64_t term : terms) {
    const TermList& list = closing.lists.find(term)->second;
    flat.clear();
    if (Status d = DecodeAppend(list.bytes, &flat, &closing.place); !d.ok())
      return Status::Internal("corrupt index postings of partition " + std::to_string(part));
    KeptInDocOrder(flat, keep, &order, &by_doc);
    std::string key = "m";
    PutU32Be(&key, part);
    PutU64Be(&key, term);
    bytes += key.size();
    if (order.empty()) {
      gone.push_back({IndexFamily::kPostings, std::move(key)});
    } else {
      std::string value;
      EncodeBlocked(flat, order, &value);
      bytes += value.size();
      puts.push_back({IndexFamily::kPostings, std::move(key), std::move(value)});
    }
    // Bounded memory: write what is merged so far (the segments stay until
    // the last write, so a kill in between merges again after the restart).
    if (bytes >= kMergeWriteBytes) {
      if (Status w = journal_->WriteSortedNow(IndexFamily::kPostings, puts); !w.ok()) return w;
      puts.clear();
      bytes = 0;
    }
  }
  if (Status w = journal_->WriteSortedNow(IndexFamily::kPostings, puts); !w.ok()) return w;
  puts.clear();
  MergedTermStats(part, closing, &puts);
  std::string marker = "m";
  PutU32Be(&marker, part);
  puts.push_back({IndexFamily::kDocMap, marker, ""});
  const uint64_t garbage_before = memory_->garbage, compacted_before = memory_->compacted;
  memory_->garbage -= std::min(memory_->garbage, dropped);
  memory_->compacted += dropped;
  puts.push_back(memory_->GarbagePut());
  gone.insert(gone.end(), std::make_move_iterator(dead.begin()), std::make_move_iterator(dead.end()));
  std::string from = "c", to = "c";
  PutU32Be(&from, part);
  PutU32Be(&to, part + 1);
  if (Status w = journal_->WriteIndexNow(puts, gone, IndexFamily::kPostings, from, to); !w.ok()) {
    memory_->garbage = garbage_before;
    memory_->compacted = compacted_before;
    return w;
  }
  memory_->partitions[part].merged = true;
  memory_->closing.erase(it);
  // Left behind on an error, the segments go at the next Load.
  return journal_->DropSegments(part);
}

}  // namespace crawl::queueserver
