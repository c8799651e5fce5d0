// Content codings of a response body (RFC 9110 8.4.1): decoding a fetched
// body by its Content-Encoding, inflating gzip, zlib and raw deflate under a
// cap on the decoded size (through common/base/zlib_stream.h).
#pragma once

#include <cstdint>
#include <string>

#include "fetcher/http/http_fetcher.h"

namespace crawl::fetcher {

// Decodes `raw`, the body as received, into result.body by
// result.content_encoding: none or identity (kept as is), gzip, x-gzip or
// deflate (zlib-wrapped, or raw as some servers send it). At most `cap`
// decoded bytes are kept: more sets result.truncated with a note in
// result.error; a body that ends early (expected after a cut) keeps what
// decoded and sets truncated. An unknown coding or corrupt data makes
// result.status kBodyError with the reason in result.error. Pure.
void DecodeBody(std::string raw, uint64_t cap, FetchResult& result);

}  // namespace crawl::fetcher
