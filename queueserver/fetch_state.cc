// Per-URL fetch state updates (fetch_state.h).
#include "queueserver/fetch_state.h"

namespace crawl::queueserver {

FetchUpdate ApplyFetch(const std::optional<FetchState>& previous, const v1::FetchRecord& record) {
  FetchUpdate out;
  FetchState& s = out.state;
  if (previous) s = *previous;
  s.url = record.url();
  s.last_fetch_unix_us = record.timestamp_unix_us();
  s.last_status = record.status();
  const int status = record.status();
  // Only a conditional request can be answered "not modified" (an
  // unsolicited 304 is a server error: the attempt is noted, nothing else).
  if (status == 304 && record.conditional()) {
    out.revisit = v1::REVISIT_NOT_MODIFIED;
    // RFC 9111 4.3.4: the stored response takes the 304's header fields;
    // a validator it does not send stays.
    if (!record.etag().empty()) s.etag = record.etag();
    if (!record.last_modified().empty()) s.last_modified = record.last_modified();
    if (record.expires_unix_s() != 0) s.expires_unix_s = record.expires_unix_s();
    ++s.fetches;
    ++s.times_unchanged;
    return out;
  }
  if (status < 200 || status >= 300) return out;
  const bool seen_before = !s.digest.empty();
  ++s.fetches;
  s.etag = record.etag();
  s.last_modified = record.last_modified();
  s.expires_unix_s = record.expires_unix_s();
  if (seen_before && record.content_digest() == s.digest) {
    out.revisit = v1::REVISIT_IDENTICAL_DIGEST;
    ++s.times_unchanged;
    return out;
  }
  if (seen_before) ++s.times_changed;
  s.digest = record.content_digest();
  s.content_since_unix_us = record.timestamp_unix_us();
  return out;
}

bool LeavesSearch(int32_t previous_status, int32_t status) {
  auto gone = [](int32_t s) { return s == 404 || s == 410; };
  return (gone(previous_status) && gone(status)) || status == 301 || status == 308;
}

void AttachValidators(const FetchState& state, v1::ScheduledUrl* scheduled) {
  scheduled->set_if_none_match(state.etag);
  scheduled->set_if_modified_since(state.last_modified);
  scheduled->set_previous_digest(state.digest);
}

}  // namespace crawl::queueserver
