// A closed partition's postings merge (SearchIndex::MergeClosed): its
// chunks rewritten as one blocked list per term in doc-map order, with the
// term statistics of the merged partitions.
#include <algorithm>
#include <iterator>

#include "queueserver/index/index_records.h"
#include "queueserver/index/postings_codec.h"
#include "queueserver/index/search_index.h"

namespace crawl::queueserver {
namespace {

// A partition merge writes its lists in batches of about this many bytes.
constexpr size_t kMergeWriteBytes = 32u << 20;

}  // namespace

bool SearchIndex::merge_pending() const {
  for (const Partition& p : partitions_) {
    if (p.closed && !p.merged) return true;
  }
  return CompactDue();
}

Status SearchIndex::MergeClosed() {
  for (uint32_t part = 0; part < partitions_.size(); ++part) {
    if (!partitions_[part].closed || partitions_[part].merged) continue;
    if (Status s = MergePartition(part); !s.ok()) return s;
  }
  return CompactDue() ? Compact() : Status::Ok();
}

Status SearchIndex::ClosedOrder(uint32_t part, bool inverse, std::vector<uint32_t>* out) {
  const uint32_t n = partitions_[part].docs;
  out->assign(n, 0);
  std::string prefix = "r";
  PutU32Be(&prefix, part);
  uint32_t expected = 0;
  bool ok = true;
  Status s = journal_->ScanIndex(IndexFamily::kDocMap, prefix, [&](std::string_view k, std::string_view v) {
    const auto place = static_cast<uint32_t>(ReadBe(k.substr(5), 4));
    const auto arrival = v.size() == 4 ? static_cast<uint32_t>(ReadBe(v, 4)) : UINT32_MAX;
    if (k.size() != 9 || place != expected || arrival >= n) return ok = false;
    (*out)[inverse ? arrival : place] = inverse ? place : arrival;
    ++expected;
    return true;
  });
  if (!s.ok()) return s;
  if (!ok || expected != n) return Status::Internal("corrupt index doc map of partition " + std::to_string(part));
  return Status::Ok();
}

// The stored term statistics cover the merged partitions: the closing
// partition's terms get theirs less what later, unmerged partitions hold.
void SearchIndex::MergedTermStats(uint32_t part, const Closing& closing, std::vector<IndexJournal::Put>* puts) {
  for (const auto& entry : closing.lists) {
    // Not a structured binding: clang 14 (the sanitizer build) cannot
    // capture one in a lambda.
    const auto& term = entry.first;
    TermStats st = terms_[term];
    auto less = [&](const Lists& other) {
      auto o = other.find(term);
      if (o == other.end()) return;
      st.docs -= o->second.docs;
      st.occurrences -= o->second.occurrences;
    };
    less(active_lists_);
    if (const TermList* p = PendingOf(term)) {
      st.docs -= p->docs;
      st.occurrences -= p->occurrences;
    }
    for (const auto& [later, c] : closing_) {
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

Status SearchIndex::MergePartition(uint32_t part) {
  auto it = closing_.find(part);
  if (it == closing_.end()) return Status::Internal("index partition " + std::to_string(part) + " not loaded");
  Closing& closing = it->second;
  if (closing.place.empty() && partitions_[part].docs > 0) {
    if (Status s = ClosedOrder(part, /*inverse=*/true, &closing.place); !s.ok()) return s;
  }
  // The dead documents' postings are left out; their records go in the
  // last write (a merge tried again decides anew: lists emptied by an
  // earlier try are deleted).
  std::vector<bool> keep;
  std::vector<IndexJournal::Key> dead, gone;
  uint64_t dropped = 0;
  if (Status s = KeptPlaces(part, &keep, &dead, &dropped); !s.ok()) return s;
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
  const uint64_t garbage_before = garbage_, compacted_before = compacted_;
  garbage_ -= std::min(garbage_, dropped);
  compacted_ += dropped;
  puts.push_back(GarbagePut());
  gone.insert(gone.end(), std::make_move_iterator(dead.begin()), std::make_move_iterator(dead.end()));
  std::string from = "c", to = "c";
  PutU32Be(&from, part);
  PutU32Be(&to, part + 1);
  if (Status w = journal_->WriteIndexNow(puts, gone, IndexFamily::kPostings, from, to); !w.ok()) {
    garbage_ = garbage_before;
    compacted_ = compacted_before;
    return w;
  }
  partitions_[part].merged = true;
  closing_.erase(it);
  // Left behind on an error, the segments go at the next Load.
  return journal_->DropSegments(part);
}

}  // namespace crawl::queueserver
