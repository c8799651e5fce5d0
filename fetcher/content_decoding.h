// Content codings of a response body (RFC 9110 8.4.1): decoding a fetched
// body by its Content-Encoding, inflating gzip, zlib and raw deflate under a
// cap on the decoded size.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "fetcher/http_fetcher.h"

namespace crawl::fetcher {

enum class InflateStatus { kOk, kIncomplete, kCapped, kDataError };

// Inflates `in` into `out`, keeping at most `cap` bytes. window_bits:
// 15 + 32 detects a zlib or gzip header; -15 is raw deflate. Concatenated
// gzip members (RFC 1952 2.2) are all decoded; garbage after a complete
// member is ignored (some servers pad).
InflateStatus Inflate(std::string_view in, int window_bits, uint64_t cap, std::string& out,
                      std::string& error);

// Decodes `raw`, the body as received, into result.body by
// result.content_encoding: none or identity (kept as is), gzip, x-gzip or
// deflate (zlib-wrapped, or raw as some servers send it). At most `cap`
// decoded bytes are kept: more sets result.truncated with a note in
// result.error; a body that ends early (expected after a cut) keeps what
// decoded and sets truncated. An unknown coding or corrupt data makes
// result.status kBodyError with the reason in result.error. Pure.
void DecodeBody(std::string raw, uint64_t cap, FetchResult& result);

}  // namespace crawl::fetcher
