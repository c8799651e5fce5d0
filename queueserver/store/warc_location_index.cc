// The page cache's location index in RAM, and the stored value's codec
// (warc_location_index.h).
#include "queueserver/store/warc_location_index.h"

#include "queueserver/store/queue_store_codec.h"

namespace crawl::queueserver {
namespace {
constexpr char kWarcLocationVersion = 1;
}  // namespace

Status MemoryWarcLocationIndex::PutLocations(const std::vector<WarcLocationEntry>& entries) {
  for (const WarcLocationEntry& e : entries) where_[e.url] = e;
  return Status::Ok();
}

Result<std::optional<WarcLocationEntry>> MemoryWarcLocationIndex::GetLocation(const std::string& url) const {
  auto it = where_.find(url);
  if (it == where_.end()) return std::optional<WarcLocationEntry>();
  return std::optional<WarcLocationEntry>(it->second);
}

std::string EncodeWarcLocation(const WarcLocationEntry& e) {
  std::string out;
  out.reserve(1 + 4 + e.url.size() + 4 + 8);
  out.push_back(kWarcLocationVersion);
  store_internal::PutStr(&out, e.url);
  store_internal::PutU32(&out, e.file_number);
  store_internal::PutU64(&out, e.offset);
  return out;
}

bool DecodeWarcLocation(std::string_view d, WarcLocationEntry* e) {
  if (d.empty() || d[0] != kWarcLocationVersion) return false;
  store_internal::Reader r(d.substr(1));
  return r.Str(&e->url) && r.U32(&e->file_number) && r.U64(&e->offset) && r.done();
}

}  // namespace crawl::queueserver
