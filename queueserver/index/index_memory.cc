// IndexMemory (index_memory.h): the active partition's order, closed
// partitions' orders read back, and the term lists' chunk appends.
#include "queueserver/index/index_memory.h"

#include <utility>

#include "common/base/varint.h"
#include "queueserver/index/index_records.h"

namespace crawl::queueserver {

void TermList::AppendChunk(std::string_view chunk, uint32_t last_doc, uint32_t chunk_docs,
                           uint64_t chunk_occurrences) {
  size_t pos = 0;
  uint64_t first = 0;
  if (!GetVarint(chunk, &pos, &first)) return;  // callers checked the chunk
  PutVarint(&bytes, first - static_cast<uint64_t>(last + 1));
  bytes.append(chunk.substr(pos));
  last = last_doc;
  docs += chunk_docs;
  occurrences += chunk_occurrences;
}

void IndexMemory::EnsureOrder() {
  if (active.order_valid) return;
  auto at = std::make_shared<const std::vector<uint32_t>>(OrderDocMap(active.keys));
  active.place.assign(at->size(), 0);
  for (uint32_t i = 0; i < at->size(); ++i) active.place[(*at)[i]] = i;
  active.at = std::move(at);
  active.order_valid = true;
}

Status IndexMemory::ClosedOrder(IndexJournal* journal, uint32_t part, bool inverse,
                                std::vector<uint32_t>* out) const {
  const uint32_t n = partitions[part].docs;
  out->assign(n, 0);
  std::string prefix = "r";
  PutU32Be(&prefix, part);
  uint32_t expected = 0;
  bool ok = true;
  Status s = journal->ScanIndex(IndexFamily::kDocMap, prefix, [&](std::string_view k, std::string_view v) {
    const auto place = static_cast<uint32_t>(ReadBe(k.substr(5), 4));
    const auto arrival = v.size() == 4 ? static_cast<uint32_t>(ReadBe(v, 4)) : UINT32_MAX;
    if (k.size() != 9 || place != expected || arrival >= n) return ok = false;
    (*out)[inverse ? arrival : place] = inverse ? place : arrival;
    ++expected;
    return true;
  });
  if (!s.ok()) return s;
  if (!ok || expected != n)
    return Status::Internal("corrupt index doc map of partition " + std::to_string(part));
  return Status::Ok();
}

IndexJournal::Put IndexMemory::GarbagePut() const {
  std::string v;
  PutVarint(&v, garbage);
  PutVarint(&v, compacted);
  return {IndexFamily::kDocMap, "g", std::move(v)};
}

}  // namespace crawl::queueserver
