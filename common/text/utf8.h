// UTF-8 validation and repair (RFC 3629: no overlong forms, no surrogates,
// nothing past U+10FFFF). An ill-formed sequence becomes U+FFFD per maximal
// subpart (Unicode 15, 3.9), as the WHATWG Encoding Standard's decoder does.
// Shared by the fetcher's charset decoding and every JSON the project writes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace crawl::text {

// Length of the well-formed sequence at bytes[i], or 0 when it is
// ill-formed; then *subpart is the length of its maximal subpart (>= 1).
[[nodiscard]] std::size_t Utf8SequenceAt(std::string_view bytes, std::size_t i, std::size_t* subpart);

// Length of the longest prefix of `bytes` that is well-formed UTF-8.
[[nodiscard]] std::size_t ValidUtf8Prefix(std::string_view bytes);

// `bytes` with each maximal ill-formed subpart replaced by U+FFFD; adds the
// number of replacements to *invalid.
[[nodiscard]] std::string Utf8Cleaned(std::string_view bytes, uint32_t* invalid);

}  // namespace crawl::text
