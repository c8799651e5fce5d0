// IndexCompactor (index_compact.h): dead documents found and dropped from
// closed partitions.
#include "queueserver/index/index_compact.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "queueserver/index/index_records.h"
#include "queueserver/index/postings_codec.h"

namespace crawl::queueserver {
namespace {

// A partition's doc map entry "a" part arrival -> document id (24 bytes)...
struct ArrivalEntry {
  enum : uint8_t { kAbsent, kPresent, kShort } state = kAbsent;
  std::array<char, 24> id{};
};

// The partition's arrival entries for arrivals below out->size(), in one
// scan of their prefix: the same records point lookups would find (the scan
// sees the pending batch too), without a skip-list search per document.
Status ReadArrivals(IndexJournal* journal, uint32_t part, std::vector<ArrivalEntry>* out) {
  std::string prefix = "a";
  PutU32Be(&prefix, part);
  return journal->ScanIndex(IndexFamily::kDocMap, prefix, [&](std::string_view k, std::string_view v) {
    if (k.size() != 9) return true;  // not an arrival key: never looked up
    const auto arrival = static_cast<uint32_t>(ReadBe(k.substr(5), 4));
    if (arrival >= out->size()) return true;
    ArrivalEntry& e = (*out)[arrival];
    e.state = v.size() < 24 ? ArrivalEntry::kShort : ArrivalEntry::kPresent;
    if (e.state == ArrivalEntry::kPresent) std::copy_n(v.data(), 24, e.id.data());
    return true;
  });
}

// One arrival entry by point lookup.
Status LookUpArrival(IndexJournal* journal, const std::string& akey, ArrivalEntry* out) {
  std::string entry;
  Status s = journal->GetIndex(IndexFamily::kDocMap, akey, &entry);
  if (s.code() == StatusCode::kNotFound) return Status::Ok();
  if (!s.ok()) return s;
  out->state = entry.size() < 24 ? ArrivalEntry::kShort : ArrivalEntry::kPresent;
  if (out->state == ArrivalEntry::kPresent) std::copy_n(entry.data(), 24, out->id.data());
  return Status::Ok();
}

}  // namespace

bool IndexCompactor::Due() const {
  if (memory_->garbage == 0 || !std::isfinite(options_.compact_share)) return false;
  bool merged = false;
  for (const IndexMemory::Partition& p : memory_->partitions) merged = merged || p.merged;
  const uint64_t live = memory_->documents > memory_->compacted ? memory_->documents - memory_->compacted : 0;
  return merged &&
         static_cast<double>(memory_->garbage) >= options_.compact_share * static_cast<double>(live);
}

Status IndexCompactor::KeptPlaces(uint32_t part, std::vector<bool>* keep,
                                  std::vector<IndexJournal::Key>* deletes, uint64_t* dropped) {
  keep->assign(memory_->partitions[part].docs, false);
  // The doc map's places still stored (a compacted document has none).
  std::vector<std::pair<uint32_t, uint32_t>> places;  // (place, arrival)
  std::string prefix = "r";
  PutU32Be(&prefix, part);
  bool ok = true;
  Status s = journal_->ScanIndex(IndexFamily::kDocMap, prefix, [&](std::string_view k, std::string_view v) {
    if (k.size() != 9 || v.size() != 4) return ok = false;
    places.emplace_back(static_cast<uint32_t>(ReadBe(k.substr(5), 4)), static_cast<uint32_t>(ReadBe(v, 4)));
    return ok = places.back().first < keep->size();
  });
  if (!s.ok()) return s;
  if (!ok) return Status::Internal("corrupt index doc map of partition " + std::to_string(part));
  // Arrivals are below the partition's size; one that is not (a damaged
  // record) is looked up alone.
  std::vector<ArrivalEntry> arrivals(keep->size());
  if (s = ReadArrivals(journal_, part, &arrivals); !s.ok()) return s;
  for (const auto& [place, arrival] : places) {
    std::string rkey = "r", akey = "a";
    PutU32Be(&rkey, part);
    PutU32Be(&rkey, place);
    PutU32Be(&akey, part);
    PutU32Be(&akey, arrival);
    ArrivalEntry found;
    if (arrival < arrivals.size()) {
      found = arrivals[arrival];
    } else if (Status g = LookUpArrival(journal_, akey, &found); !g.ok()) {
      return g;
    }
    if (found.state == ArrivalEntry::kShort) return Status::Internal("corrupt index doc map entry");
    const std::string_view entry(found.id.data(), found.id.size());
    bool dead = found.state == ArrivalEntry::kAbsent;
    // A page document (the id's type byte) whose URL's record names
    // another version.
    PageLiveness l;
    if (!dead && entry[8] == 'p' && liveness_->Read(ReadBe(entry, 8), &l))
      dead = l.text_hash != ReadBe(entry.substr(9), 7);
    if (!dead) {
      (*keep)[place] = true;
      continue;
    }
    deletes->push_back({IndexFamily::kDocMap, rkey});
    if (found.state == ArrivalEntry::kPresent) {
      deletes->push_back({IndexFamily::kDocMap, akey});
      deletes->push_back({IndexFamily::kDocs, std::string(entry)});
      ++*dropped;
    }
  }
  return Status::Ok();
}

Status IndexCompactor::CompactPartition(uint32_t part) {
  std::vector<bool> keep;
  std::vector<IndexJournal::Key> deletes;
  uint64_t dropped = 0;
  if (Status s = KeptPlaces(part, &keep, &deletes, &dropped); !s.ok()) return s;
  // Each compaction is one write, so no list holds a compacted document.
  if (deletes.empty()) return Status::Ok();
  std::vector<IndexJournal::Put> puts;
  std::string prefix = "m";
  PutU32Be(&prefix, part);
  bool ok = true;
  FlatPostings flat;
  Status s = journal_->ScanIndex(IndexFamily::kPostings, prefix, [&](std::string_view k, std::string_view v) {
    BlockedReader r;
    bool any = r.Open(v) && r.Seek(0);
    bool cut = false;
    flat.clear();
    for (; any; any = r.Next()) {
      const Posting& p = r.current();
      if (p.doc >= keep.size() || !keep[p.doc]) {
        cut = true;
        continue;
      }
      flat.Add(p.doc, static_cast<uint32_t>(std::llround(p.frequency * 100.0)), p.positions);
    }
    if (r.corrupt()) return ok = false;
    if (!cut) return true;
    if (flat.size() == 0) {
      deletes.push_back({IndexFamily::kPostings, std::string(k)});
      return true;
    }
    std::vector<uint32_t> order(flat.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::string value;
    EncodeBlocked(flat, order, &value);
    puts.push_back({IndexFamily::kPostings, std::string(k), std::move(value)});
    return true;
  });
  if (!s.ok()) return s;
  if (!ok) return Status::Internal("corrupt index postings of partition " + std::to_string(part));
  const uint64_t garbage_before = memory_->garbage, compacted_before = memory_->compacted;
  memory_->garbage -= std::min(memory_->garbage, dropped);
  memory_->compacted += dropped;
  puts.push_back(memory_->GarbagePut());
  if (Status w = journal_->WriteIndexNow(puts, deletes, IndexFamily::kPostings, "", ""); !w.ok()) {
    memory_->garbage = garbage_before;
    memory_->compacted = compacted_before;
    return w;
  }
  return Status::Ok();
}

Status IndexCompactor::Compact() {
  for (uint32_t part = 0; part < memory_->partitions.size(); ++part) {
    if (!memory_->partitions[part].merged) continue;
    if (Status s = CompactPartition(part); !s.ok()) return s;
  }
  // What is still counted waits in partitions not merged yet (their merge
  // drops it) or was brought back.
  const uint64_t before = memory_->garbage;
  memory_->garbage = 0;
  if (Status w = journal_->WriteIndexNow({memory_->GarbagePut()}, {}, IndexFamily::kPostings, "", "");
      !w.ok()) {
    memory_->garbage = before;
    return w;
  }
  return Status::Ok();
}

}  // namespace crawl::queueserver
