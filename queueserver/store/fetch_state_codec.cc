// Encoding of the per-URL fetch state (fetch_state_codec.h).
#include "queueserver/store/fetch_state_codec.h"

#include "queueserver/store/queue_store_codec.h"

namespace crawl::queueserver::store_internal {
namespace {
constexpr char kFetchStateVersion = 3;
constexpr char kFetchStateVersion1 = 1;  // before recrawl: no interval / next visit
constexpr char kFetchStateVersion2 = 2;  // before the optimal policy: no observed time
}  // namespace

std::string EncodeFetchState(const FetchState& s) {
  std::string out;
  out.reserve(80 + s.url.size() + s.etag.size() + s.last_modified.size() + s.digest.size());
  out.push_back(kFetchStateVersion);
  PutStr(&out, s.url);
  PutU64(&out, static_cast<uint64_t>(s.last_fetch_unix_us));
  PutU32(&out, static_cast<uint32_t>(s.last_status));
  PutStr(&out, s.etag);
  PutStr(&out, s.last_modified);
  PutU64(&out, static_cast<uint64_t>(s.expires_unix_s));
  PutStr(&out, s.digest);
  PutU64(&out, static_cast<uint64_t>(s.content_since_unix_us));
  PutU64(&out, s.fetches);
  PutU64(&out, s.times_changed);
  PutU64(&out, s.times_unchanged);
  PutU64(&out, static_cast<uint64_t>(s.revisit_interval_s));
  PutU64(&out, static_cast<uint64_t>(s.next_visit_unix_us));
  PutU64(&out, static_cast<uint64_t>(s.observed_us));
  return out;
}

bool DecodeFetchState(std::string_view d, FetchState* s) {
  if (d.empty() || (d[0] != kFetchStateVersion && d[0] != kFetchStateVersion1 && d[0] != kFetchStateVersion2))
    return false;
  const bool v1 = d[0] == kFetchStateVersion1;
  uint64_t observed = 0;
  Reader r(d.substr(1));
  uint64_t last_fetch = 0, expires = 0, since = 0, interval = 0, next_visit = 0;
  uint32_t status = 0;
  if (!r.Str(&s->url) || !r.U64(&last_fetch) || !r.U32(&status) || !r.Str(&s->etag) ||
      !r.Str(&s->last_modified) || !r.U64(&expires) || !r.Str(&s->digest) || !r.U64(&since) ||
      !r.U64(&s->fetches) || !r.U64(&s->times_changed) || !r.U64(&s->times_unchanged))
    return false;
  if (!v1 && (!r.U64(&interval) || !r.U64(&next_visit))) return false;
  if (d[0] == kFetchStateVersion && !r.U64(&observed)) return false;
  if (!r.done()) return false;
  s->observed_us = static_cast<int64_t>(observed);
  s->revisit_interval_s = static_cast<int64_t>(interval);
  s->next_visit_unix_us = static_cast<int64_t>(next_visit);
  s->last_fetch_unix_us = static_cast<int64_t>(last_fetch);
  s->last_status = static_cast<int32_t>(status);
  s->expires_unix_s = static_cast<int64_t>(expires);
  s->content_since_unix_us = static_cast<int64_t>(since);
  return true;
}

}  // namespace crawl::queueserver::store_internal
