// LivenessTracker (page_liveness.h): the URLs' liveness records read and
// written.
#include "queueserver/index/page_liveness.h"

#include "common/base/hash.h"

namespace crawl::queueserver {

bool LivenessTracker::Read(uint64_t url_hash, PageLiveness* out) {
  std::string value;
  if (!journal_->GetIndex(IndexFamily::kDocMap, LivenessKey(url_hash), &value).ok()) return false;
  return DecodeLiveness(value, out);
}

void LivenessTracker::MakeLive(uint64_t url_hash, uint64_t text_hash) {
  PageLiveness now;
  const bool known = Read(url_hash, &now);
  if (known && now.live && now.text_hash == text_hash) return;
  if (known && now.live) ++pages_replaced_;
  // The version the record named is dead (compaction drops it).
  if (known) {
    ++memory_->garbage;
    memory_->garbage_changed = true;
  }
  journal_->PutIndex(IndexFamily::kDocMap, LivenessKey(url_hash), EncodeLiveness({true, text_hash}));
}

bool LivenessTracker::Remove(const std::string& url) {
  const uint64_t h = hash::RecurringHash8(url);
  PageLiveness now;
  // No record: no page document of this URL was indexed with one.
  if (!Read(h, &now) || !now.live) return false;
  journal_->PutIndex(IndexFamily::kDocMap, LivenessKey(h), EncodeLiveness({false, now.text_hash}));
  ++pages_removed_;
  return true;
}

bool LivenessTracker::Revive(const std::string& url) {
  const uint64_t h = hash::RecurringHash8(url);
  PageLiveness now;
  if (!Read(h, &now) || now.live) return false;
  journal_->PutIndex(IndexFamily::kDocMap, LivenessKey(h), EncodeLiveness({true, now.text_hash}));
  return true;
}

}  // namespace crawl::queueserver
