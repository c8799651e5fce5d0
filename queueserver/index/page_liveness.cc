// Which page document of a URL answers searches (search_index.h "The index
// follows the web", index_records.h PageLiveness): the doc map's 'u'
// records, written in the request's batch beside the documents they name.
#include "common/base/hash.h"
#include "queueserver/index/index_records.h"
#include "queueserver/index/search_index.h"

namespace crawl::queueserver {

bool SearchIndex::ReadLiveness(uint64_t url_hash, PageLiveness* out) {
  std::string value;
  if (!journal_->GetIndex(IndexFamily::kDocMap, LivenessKey(url_hash), &value).ok()) return false;
  return DecodeLiveness(value, out);
}

void SearchIndex::MakeLive(uint64_t url_hash, uint64_t text_hash) {
  PageLiveness now;
  const bool known = ReadLiveness(url_hash, &now);
  if (known && now.live && now.text_hash == text_hash) return;
  if (known && now.live) ++pages_replaced_;
  // The version the record named is dead (compaction drops it).
  if (known) {
    ++garbage_;
    garbage_changed_ = true;
  }
  journal_->PutIndex(IndexFamily::kDocMap, LivenessKey(url_hash), EncodeLiveness({true, text_hash}));
}

bool SearchIndex::RemovePage(const std::string& url) {
  const uint64_t h = hash::RecurringHash8(url);
  PageLiveness now;
  // No record: no page document of this URL was indexed with one.
  if (!ReadLiveness(h, &now) || !now.live) return false;
  journal_->PutIndex(IndexFamily::kDocMap, LivenessKey(h), EncodeLiveness({false, now.text_hash}));
  ++pages_removed_;
  return true;
}

bool SearchIndex::RevivePage(const std::string& url) {
  const uint64_t h = hash::RecurringHash8(url);
  PageLiveness now;
  if (!ReadLiveness(h, &now) || now.live) return false;
  journal_->PutIndex(IndexFamily::kDocMap, LivenessKey(h), EncodeLiveness({true, now.text_hash}));
  return true;
}

}  // namespace crawl::queueserver
