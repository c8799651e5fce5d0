// gzip for the testweb server (RFC 1952 via zlib) and the Accept-Encoding
// test that decides when to use it (RFC 9110 section 12.5.3).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace crawl::testweb {

// The gzip member of `data` (zlib, default level). Empty only on an
// allocation failure inside zlib.
[[nodiscard]] std::string GzipCompress(std::string_view data);

// One gzip member that decodes to `bytes` zero bytes, made by streaming a
// zeroed buffer through zlib at level 9 (ratio about 1030:1) without
// holding the decoded bytes. Empty only on a zlib failure.
[[nodiscard]] std::string GzipZeros(uint64_t bytes);

// Whether an Accept-Encoding value accepts gzip: "gzip", "x-gzip" or "*"
// listed without q=0.
[[nodiscard]] bool AcceptsGzip(std::string_view accept_encoding);

}  // namespace crawl::testweb
