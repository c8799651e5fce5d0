// What a queue server remembers about the last fetches of one page URL
// (for recrawls): when it was last fetched, the validators to send on the next
// visit (RFC 9110 8.8: ETag, Last-Modified), until when the answer was fresh
// (RFC 9111 4.2.1), the content digest, and a change history. The store
// keeps one per URL (queueserver/store/queue_store.h, family fetch_state);
// GetSchedule attaches its validators to a revisit, SubmitResults updates it
// in the same commit as the rest of the request, and the recrawl scheduler
// reads it (queueserver/shard/recrawl_scheduler.h).
//
// Pure: no RocksDB, no clock (times come from the fetch records).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "proto/crawl.pb.h"

namespace crawl::queueserver {

struct FetchState {
  // The canonical URL (also guards against two URLs sharing a hash).
  std::string url;
  // The latest fetch attempt: its start (Unix microseconds) and status
  // (HTTP status, or a negative network error).
  int64_t last_fetch_unix_us = 0;
  int32_t last_status = 0;
  // Validators of the latest 2xx or 304 ("" when it sent none).
  std::string etag;
  std::string last_modified;
  // Freshness of the latest 2xx or 304, Unix seconds (0: unknown).
  int64_t expires_unix_s = 0;
  // FetchRecord.content_digest of the current content ("" before any 2xx),
  // and the start of the fetch that first saw it (Unix microseconds): what
  // a WARC revisit record refers to (WARC-Refers-To-Date).
  std::string digest;
  int64_t content_since_unix_us = 0;
  // 2xx/304 fetches in all, and among the revisits (fetches after the
  // first that saw content) those whose content changed and those whose
  // content had not changed (304, or the same digest).
  uint64_t fetches = 0;
  uint64_t times_changed = 0;
  uint64_t times_unchanged = 0;
  // Recrawl (queueserver/revisit_policy.h): the interval the revisit policy
  // chose at the latest fetch (seconds, 0: none yet) and when the page is
  // next due (Unix microseconds; 0: not scheduled, e.g. a crawl without
  // recrawl, or already re-entered into the frontier).
  int64_t revisit_interval_s = 0;
  int64_t next_visit_unix_us = 0;
  // The time the revisits counted in times_changed + times_unchanged
  // covered (microseconds: each adds the time since the fetch before it),
  // for the `optimal` policy's change-rate estimate (change_rate.h).
  int64_t observed_us = 0;

  bool operator==(const FetchState&) const = default;
};

// The state after `record` (a page's fetch record), from `previous` (none
// for a first fetch), and whether the fetch was a revisit of unchanged
// content: REVISIT_NOT_MODIFIED for a 304 to a conditional request
// (record.conditional()), REVISIT_IDENTICAL_DIGEST for a
// 2xx whose content_digest equals the remembered one (decided here, not
// taken from the fetcher's record). A 304 keeps the remembered validators
// it does not replace (RFC 9111 4.3.4) and the digest; a 2xx replaces them
// all; any other status only updates the last fetch time and status.
struct FetchUpdate {
  FetchState state;
  v1::RevisitKind revisit = v1::REVISIT_NONE;
};
[[nodiscard]] FetchUpdate ApplyFetch(const std::optional<FetchState>& previous,
                                     const v1::FetchRecord& record);

// Whether a page's fetch answering `status` takes the page out of search
// (the index follows the web), the previous fetch having answered `previous_status`
// (0: none): a 404 or 410 after a 404 or 410 (one alone may be a slip of
// the site), or a permanent redirect (301, 308: RFC 9110 15.4.2 and 15.4.9,
// the target replaces the URL; a temporary one keeps it, 15.4.3).
[[nodiscard]] bool LeavesSearch(int32_t previous_status, int32_t status);

// Sets the revisit fields of a ScheduledUrl (if_none_match,
// if_modified_since, previous_digest) from a remembered state.
void AttachValidators(const FetchState& state, v1::ScheduledUrl* scheduled);

}  // namespace crawl::queueserver
