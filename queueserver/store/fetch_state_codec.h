// Encoding of the store's per-URL fetch state (family fetch_state,
// queue_store.h; queueserver/fetch_state.h): a version byte, then the
// fields as fixed-width big-endian numbers and u32-length-prefixed strings
// (queue_store_codec.h). Pure functions; internal to queueserver/store/.
#pragma once

#include <string>
#include <string_view>

#include "queueserver/fetch_state.h"

namespace crawl::queueserver::store_internal {

// Version 1: url, last fetch (8), status (4), etag, last_modified,
// expires (8), digest, content since (8), fetches (8), changed (8),
// unchanged (8). Version 2 (recrawl) appends revisit interval (8) and next
// visit (8); a version 1 record still decodes, with both 0.
std::string EncodeFetchState(const FetchState& s);
// False for an unknown version, a cut or an over-long record; `*s` is then
// unspecified.
[[nodiscard]] bool DecodeFetchState(std::string_view d, FetchState* s);

}  // namespace crawl::queueserver::store_internal
