// IndexLoader (index_load.h): an index's memory read back from its
// journal.
#include "queueserver/index/index_load.h"

#include <string>
#include <string_view>

#include "common/base/varint.h"
#include "queueserver/index/index_records.h"
#include "queueserver/index/postings_codec.h"

namespace crawl::queueserver {

Status IndexLoader::LoadSegments(uint32_t part, TermLists* lists) {
  bool ok = true;
  uint64_t lost = 0;
  Status s = journal_->ScanSegments(
      part,
      [&](uint32_t, std::string_view v) {
        size_t pos = 0;
        uint64_t terms = 0;
        if (!GetVarint(v, &pos, &terms)) return ok = false;
        for (uint64_t i = 0; i < terms; ++i) {
          uint64_t docs = 0, occurrences = 0, bytes = 0;
          if (v.size() - pos < 8) return ok = false;
          const uint64_t term_id = ReadBe(v.substr(pos), 8);
          pos += 8;
          if (!GetVarint(v, &pos, &docs) || !GetVarint(v, &pos, &occurrences) ||
              !GetVarint(v, &pos, &bytes) || bytes > v.size() - pos || docs > UINT32_MAX)
            return ok = false;
          const std::string_view chunk = v.substr(pos, bytes);
          pos += bytes;
          // Checked here once: every later decode of the list may trust it.
          FlatPostings check;
          TermList& list = (*lists)[term_id];
          if (!DecodeAppend(chunk, &check).ok() || check.size() != docs || docs == 0 ||
              list.last >= static_cast<int64_t>(check.doc.front()) ||
              check.doc.back() >= memory_->partitions[part].docs)
            return ok = false;
          list.AppendChunk(chunk, check.doc.back(), static_cast<uint32_t>(docs), occurrences);
          TermStats& st = memory_->terms[term_id];
          st.docs += docs;
          st.occurrences += occurrences;
        }
        return ok = pos == v.size();
      },
      &lost);
  if (!s.ok()) return s;
  memory_->segment_bytes_lost += lost;
  if (!ok) return Status::Internal("corrupt index postings segment in partition " + std::to_string(part));
  return Status::Ok();
}

// The totals ('s') and the compaction counters ('g') of the doc map.
Status IndexLoader::LoadCounters() {
  auto corrupt = [](const char* what) {
    return Status::Internal(std::string("corrupt index ") + what + " record");
  };
  std::string totals;
  Status s = journal_->GetIndex(IndexFamily::kDocMap, "s", &totals);
  if (s.ok()) {
    size_t pos = 0;
    if (!GetVarint(totals, &pos, &memory_->documents) || !GetVarint(totals, &pos, &memory_->total_length))
      return corrupt("totals");
  } else if (s.code() != StatusCode::kNotFound) {
    return s;
  } else {
    bool any = false;
    s = journal_->ScanIndex(IndexFamily::kDocMap, "",
                            [&](std::string_view, std::string_view) { return !(any = true); });
    if (!s.ok()) return s;
    if (any)
      return Status::Internal(
          "the index was written by an older version (no totals record); start a new crawl");
  }
  memory_->garbage = memory_->compacted = 0;
  memory_->garbage_changed = false;
  std::string counters;
  s = journal_->GetIndex(IndexFamily::kDocMap, "g", &counters);
  if (s.ok()) {
    size_t pos = 0;
    if (!GetVarint(counters, &pos, &memory_->garbage) || !GetVarint(counters, &pos, &memory_->compacted))
      return corrupt("compaction");
  } else if (s.code() != StatusCode::kNotFound) {
    return s;
  }
  return Status::Ok();
}

Status IndexLoader::Load() {
  auto corrupt = [](const char* what) {
    return Status::Internal(std::string("corrupt index ") + what + " record");
  };
  memory_->partitions.clear();
  memory_->active = IndexMemory::Active{};
  memory_->active_lists.clear();
  memory_->closing.clear();
  memory_->terms.clear();
  memory_->documents = memory_->total_length = 0;
  Status s = LoadCounters();
  if (!s.ok()) return s;
  bool ok = true;
  s = journal_->ScanIndex(IndexFamily::kDocMap, "c", [&](std::string_view k, std::string_view v) {
    size_t pos = 0;
    uint64_t n = 0;
    if (k.size() != 5 || ReadBe(k.substr(1), 4) != memory_->partitions.size() || !GetVarint(v, &pos, &n) ||
        n == 0 || n > UINT32_MAX)
      return ok = false;
    memory_->partitions.push_back({static_cast<uint32_t>(n), true, false});
    return true;
  });
  if (!s.ok()) return s;
  if (!ok) return corrupt("partition");
  s = journal_->ScanIndex(IndexFamily::kDocMap, "m", [&](std::string_view k, std::string_view) {
    const uint64_t part = k.size() == 5 ? ReadBe(k.substr(1), 4) : UINT64_MAX;
    if (part >= memory_->partitions.size()) return ok = false;
    memory_->partitions[part].merged = true;
    return true;
  });
  if (!s.ok()) return s;
  if (!ok) return corrupt("merge marker");
  const auto active = static_cast<uint32_t>(memory_->partitions.size());
  memory_->partitions.emplace_back();
  std::string prefix = "a";
  PutU32Be(&prefix, active);
  s = journal_->ScanIndex(IndexFamily::kDocMap, prefix, [&](std::string_view k, std::string_view v) {
    if (k.size() != 9 || ReadBe(k.substr(5), 4) != memory_->active.keys.size() || v.size() < 24 + 3)
      return ok = false;
    memory_->active.keys.push_back({ReadBe(v, 8), ReadBe(v.substr(9), 7)});
    return true;
  });
  if (!s.ok()) return s;
  if (!ok) return corrupt("doc map");
  memory_->partitions.back().docs = static_cast<uint32_t>(memory_->active.keys.size());
  s = journal_->ScanIndex(IndexFamily::kTerms, "", [&](std::string_view k, std::string_view v) {
    size_t pos = 0;
    TermStats st;
    if (k.size() != 8 || !GetVarint(v, &pos, &st.docs) || !GetVarint(v, &pos, &st.occurrences))
      return ok = false;
    memory_->terms[ReadBe(k, 8)] = st;
    return true;
  });
  if (!s.ok()) return s;
  if (!ok) return corrupt("term");
  // Unmerged partitions: their postings (and statistics) from their segments.
  // Merged ones: their segments, if a kill came between the merge and
  // their removal.
  memory_->segment_bytes_lost = 0;
  for (uint32_t part = 0; part < memory_->partitions.size(); ++part) {
    if (memory_->partitions[part].merged) {
      if (Status d = journal_->DropSegments(part); !d.ok()) return d;
      continue;
    }
    TermLists* lists = part == active ? &memory_->active_lists : &memory_->closing[part].lists;
    if (Status ls = LoadSegments(part, lists); !ls.ok()) return ls;
  }
  // The active partition's size in memory, as the builder counts it.
  memory_->active_bytes = 0;
  for (const auto& [term_id, list] : memory_->active_lists)
    memory_->active_bytes += list.bytes.capacity() + TermList::kOverheadBytes;
  return Status::Ok();
}

}  // namespace crawl::queueserver
