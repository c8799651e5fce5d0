// Character encodings of fetched pages (docs/DESIGN.md §6: "charset
// handled"): which encoding a body is in, after the WHATWG Encoding standard's
// order (a byte order mark, then the HTTP Content-Type charset, then a
// <meta charset> / <meta http-equiv="content-type"> in the first 1,024
// bytes), and conversion to UTF-8.
//
// Supported: UTF-8 and windows-1252. As in the Encoding standard, the labels
// iso-8859-1, latin1, us-ascii, ascii, cp1252, l1 ... all mean windows-1252.
// Other labels (UTF-16, Shift_JIS, KOI8-R, ...) are reported as written and
// the body is read as UTF-8. With no label, a body that is valid UTF-8 is
// UTF-8 and any other is read as windows-1252 (the browsers' default for
// unlabelled western pages).
//
// Never fails: each byte that is not valid in the chosen encoding becomes
// U+FFFD, and the count is reported. Pure and reentrant.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/text/utf8.h"

namespace crawl::fetcher {

enum class Encoding { kUtf8, kWindows1252, kUnsupported };

// The encoding a label names (case-insensitive, surrounding whitespace and
// quotes ignored); "" and unknown labels give kUnsupported.
[[nodiscard]] Encoding EncodingForLabel(std::string_view label);

// The charset parameter of a Content-Type value ("text/html; charset=UTF-8"
// -> "UTF-8"), unquoted; "" if none.
[[nodiscard]] std::string CharsetFromContentType(std::string_view content_type);

// The charset a <meta> in the first 1,024 bytes of `html` declares
// (<meta charset="..."> or <meta http-equiv="Content-Type"
// content="...; charset=...">), comments skipped; "" if none.
[[nodiscard]] std::string SniffMetaCharset(std::string_view html);

struct DecodedBody {
  // The text, valid UTF-8. A body read as UTF-8 that is valid already (most
  // pages) is not copied: the text is DecodeBody's `body` itself. So it is
  // valid while both that body and this struct live.
  [[nodiscard]] std::string_view text() const { return converted ? std::string_view(converted_text) : body; }
  std::string charset;         // "utf-8", "windows-1252", or the unsupported label (lower-case)
  uint32_t invalid_bytes = 0;  // bytes replaced by U+FFFD
  std::string_view body;       // the text when !converted
  bool converted = false;
  std::string converted_text;  // the text when converted
};

// Picks the encoding (BOM, then `header_charset`, then, when `is_html`, the
// meta prescan; then the unlabelled rule above) and converts `body` where
// it is not valid UTF-8 already (DecodedBody::text).
[[nodiscard]] DecodedBody DecodeBody(std::string_view body, std::string_view header_charset, bool is_html);

// Converts `bytes` from `encoding` to UTF-8 (kUnsupported reads as UTF-8),
// replacing invalid sequences by U+FFFD; adds their count to *invalid.
[[nodiscard]] std::string ToUtf8(std::string_view bytes, Encoding encoding, uint32_t* invalid);

// UTF-8 validation is common/text/utf8.h's.
using text::ValidUtf8Prefix;

}  // namespace crawl::fetcher
