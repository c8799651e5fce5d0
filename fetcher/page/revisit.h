// What a fetch says about the freshness of a page, and whether it is a
// revisit of unchanged content (continuous crawls; RFC 9110 8.8 validators, 13.1
// conditional requests; RFC 9111 4.2.1 freshness lifetime, 5.2.2.1
// max-age, 5.3 Expires).
//
// A 304 Not Modified answer, or a 2xx whose content digest equals the one
// the queue server remembered (ScheduledUrl.previous_digest), is a revisit
// of unchanged content: the fetcher does no processing for it (no parse, no
// links, no summary, no mini index: the page's index entries at the queue
// server stay as they are). Deliberate choice for the same-digest 2xx: the
// body is still shipped when the crawl keeps page caches, because the WARC
// revisit record (identical-payload-digest) carries its SHA-1 payload digest.
//
// Pure functions: no I/O, the fetch time is a parameter.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "fetcher/http/http_fetcher.h"
#include "proto/crawl.pb.h"

namespace crawl::fetcher {

// The validator as a FetchRecord keeps it: verbatim if it is printable
// ASCII (space and obs-text excluded) of at most kMaxValidatorBytes, else ""
// (a validator that cannot be sent back verbatim is worth nothing).
[[nodiscard]] std::string KeepableValidator(std::string_view v);

// The Cache-Control max-age in seconds (RFC 9111 5.2.2.1; the first
// max-age directive, quoted or not; s-maxage is for shared caches and is
// ignored), or -1 when there is none or it is not a number.
[[nodiscard]] int64_t MaxAgeSeconds(std::string_view cache_control);

// When the response stops being fresh, Unix seconds: fetch start plus
// max-age when given, else the Expires HTTP-date; 0 when neither is valid
// (RFC 9111 4.2.1 order: max-age wins over Expires).
[[nodiscard]] int64_t ExpiresUnixSeconds(std::string_view cache_control, std::string_view expires,
                                         int64_t fetch_start_unix_s);

// Fills `record`'s etag, last_modified, expires_unix_s and conditional from
// `result`, and its revisit kind: REVISIT_NOT_MODIFIED for a 304 to a
// conditional request for a page URL, REVISIT_IDENTICAL_DIGEST for a 2xx page whose content_digest
// (already set) equals scheduled.previous_digest(). A 304's content_digest
// becomes the previous digest (the content it confirms). Returns true for a
// revisit: the caller then does no page processing.
bool NoteValidators(const v1::ScheduledUrl& scheduled, const FetchResult& result, v1::FetchRecord* record);

}  // namespace crawl::fetcher
