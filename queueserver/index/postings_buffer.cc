// PostingsBuffer (postings_buffer.h): a request's postings per term, and
// their segment.
#include "queueserver/index/postings_buffer.h"

#include <string>
#include <utility>

#include "common/base/varint.h"
#include "queueserver/index/index_records.h"
#include "queueserver/index/postings_codec.h"

namespace crawl::queueserver {

const TermList* PostingsBuffer::Find(uint64_t term_id,
                                     const std::unordered_map<uint64_t, TermStats>& terms) const {
  auto it = terms.find(term_id);
  if (it == terms.end()) return nullptr;
  const uint32_t k = it->second.pending;
  return k < used_ && pending_[k].term_id == term_id ? &pending_[k].list : nullptr;
}

void PostingsBuffer::Add(uint64_t term_id, TermStats& st, uint32_t doc, double frequency,
                         const uint32_t* positions, size_t n, uint64_t occurrences, std::string_view gaps) {
  ++st.docs;
  st.occurrences += occurrences;
  if (used_ == 0) segment_first_ = doc;
  if (st.pending >= used_ || pending_[st.pending].term_id != term_id) {
    // The term's first posting in this request: the next slot, its buffer
    // reused.
    if (used_ == pending_.size()) pending_.emplace_back();
    PendingList& slot = pending_[used_];
    slot.term_id = term_id;
    slot.stats = &st;
    slot.list.bytes.clear();
    slot.list.last = -1;
    slot.list.docs = 0;
    slot.list.occurrences = 0;
    st.pending = static_cast<uint32_t>(used_++);
  }
  TermList& p = pending_[st.pending].list;
  std::string& out = p.bytes;
  // The posting's head (doc delta, frequency, position count) and, when
  // they are short (most terms occur once or twice in a page), its gaps in
  // one append, not two of a few bytes each.
  constexpr size_t kShortGaps = 32;
  char head[30 + kShortGaps];
  char* h = head;
  h = WriteVarint(h, static_cast<uint64_t>(static_cast<int64_t>(doc) - p.last - 1));
  h = WriteVarint(h, FrequencyHundredths(frequency));
  h = WriteVarint(h, n);
  p.last = doc;
  ++p.docs;
  p.occurrences += occurrences;
  if (!gaps.empty() && gaps.size() <= kShortGaps) {
    for (const char c : gaps) *h++ = c;
    out.append(head, static_cast<size_t>(h - head));
    return;
  }
  out.append(head, static_cast<size_t>(h - head));
  if (!gaps.empty()) {
    out.append(gaps);
    return;
  }
  uint32_t previous = 0;
  for (size_t i = 0; i < n; ++i) {
    PutVarint(&out, positions[i] - previous);
    previous = positions[i];
  }
}

uint64_t PostingsBuffer::Flush(uint32_t part, TermLists* active_lists, IndexJournal* journal) {
  if (used_ == 0) return 0;
  uint64_t grown = 0;
  // One segment: varint(terms), then per term: id (8), varint(documents),
  // varint(occurrences), varint(bytes), the chunk.
  size_t size = 10;
  for (size_t k = 0; k < used_; ++k) size += 8 + 30 + pending_[k].list.bytes.size();
  std::string segment;
  segment.reserve(size);
  PutVarint(&segment, used_);
  for (size_t k = 0; k < used_; ++k) {
    const uint64_t term_id = pending_[k].term_id;
    const TermList& p = pending_[k].list;
    TermStats& st = *pending_[k].stats;
    if (st.active_part != part) {
      st.active = &(*active_lists)[term_id];
      st.active_part = part;
      grown += TermList::kOverheadBytes;
    }
    PutU64Be(&segment, term_id);
    PutVarint(&segment, p.docs);
    PutVarint(&segment, p.occurrences);
    PutVarint(&segment, p.bytes.size());
    segment += p.bytes;
    const size_t capacity = st.active->bytes.capacity();
    st.active->AppendChunk(p.bytes, static_cast<uint32_t>(p.last), p.docs, p.occurrences);
    grown += st.active->bytes.capacity() - capacity;
  }
  journal->AppendSegment(part, segment_first_, std::move(segment));
  used_ = 0;
  // A request with far more terms than usual leaves no lasting buffers.
  if (pending_.size() > (1u << 16)) pending_.clear();
  return grown;
}

void PostingsBuffer::Clear() {
  pending_.clear();
  used_ = 0;
}

}  // namespace crawl::queueserver
