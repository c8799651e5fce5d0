// gzip for the testweb server (RFC 1952 via zlib) and the Accept-Encoding
// test that decides when to use it (RFC 9110 section 12.5.3).
#pragma once

#include <string>
#include <string_view>

namespace crawl::testweb {

// The gzip member of `data` (zlib, default level). Empty only on an
// allocation failure inside zlib.
[[nodiscard]] std::string GzipCompress(std::string_view data);

// Whether an Accept-Encoding value accepts gzip: "gzip", "x-gzip" or "*"
// listed without q=0.
[[nodiscard]] bool AcceptsGzip(std::string_view accept_encoding);

}  // namespace crawl::testweb
