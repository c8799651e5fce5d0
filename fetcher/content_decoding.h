// Content codings of a response body (RFC 9110 8.4.1): inflating gzip,
// zlib and raw deflate under a cap on the decoded size.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace crawl::fetcher {

enum class InflateStatus { kOk, kIncomplete, kCapped, kDataError };

// Inflates `in` into `out`, keeping at most `cap` bytes. window_bits:
// 15 + 32 detects a zlib or gzip header; -15 is raw deflate. Concatenated
// gzip members (RFC 1952 2.2) are all decoded; garbage after a complete
// member is ignored (some servers pad).
InflateStatus Inflate(std::string_view in, int window_bits, uint64_t cap, std::string& out,
                      std::string& error);

}  // namespace crawl::fetcher
