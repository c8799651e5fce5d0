// Pure helpers for HTTP field values (RFC 9110 5.5): ASCII case and
// whitespace, the media type of a Content-Type, the complete length of a
// Content-Range. Internal to the fetcher.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace crawl::fetcher {

// ASCII lower case.
std::string Lower(std::string_view s);

// Without leading and trailing spaces and tabs (OWS, RFC 9110 5.6.3).
std::string_view Trim(std::string_view s);

// "Text/HTML; charset=UTF-8" -> "text/html".
std::string MimeTypeOf(std::string_view content_type);

// The complete length from "Content-Range: bytes 0-999/5000" (RFC 9110
// 14.4), or nullopt when absent or "*".
std::optional<uint64_t> CompleteLength(std::string_view content_range);

}  // namespace crawl::fetcher
