// Character encodings of fetched pages (docs/DESIGN.md §6: "charset
// handled"), decoded as browsers decode them:
//   - the WHATWG Encoding Standard's encodings and labels, every one
//     ("latin1", "ascii" and "iso-8859-1" are windows-1252, "gb2312" is GBK,
//     "x-sjis" is Shift_JIS ...), from the standard's own encodings.json
//     (fetcher/page/whatwg/, generated into encoding_table.inc);
//   - the HTML Standard's sniffing order: byte order mark, the transport
//     charset (Content-Type), the prescan of the first 1,024 bytes for a
//     <meta> (HTML) or the XML declaration (XML), then a detector for
//     unlabelled bodies that are not valid UTF-8;
//   - decoders: the single-byte encodings by the standard's index tables
//     (ICU's tables differ from the standard in 12 bytes of 4 of them and
//     lack ISO-8859-16), UTF-8 by common/text/utf8.h, x-user-defined and
//     "replacement" as the standard writes them, and the multi-byte ones by
//     the ICU converter that decodes as the standard does (charset.cc).
//
// Never fails: each invalid sequence becomes one U+FFFD and is counted.
// Pure and reentrant (a Decoder is one stream's state).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/text/utf8.h"

namespace crawl::fetcher {

// The encodings of the Encoding Standard, in its order.
enum class Encoding : uint8_t {
#include "fetcher/page/encoding_enum.inc"
};
inline constexpr int kEncodingCount = static_cast<int>(Encoding::kXUserDefined) + 1;

// The standard's "get an encoding": the encoding `label` names (ASCII
// case-insensitive, surrounding ASCII whitespace ignored), or nullopt.
[[nodiscard]] std::optional<Encoding> EncodingForLabel(std::string_view label);

// The standard's name ("Shift_JIS") and the record's form of it, lower case
// ("shift_jis").
[[nodiscard]] std::string_view EncodingName(Encoding encoding);
[[nodiscard]] std::string CharsetName(Encoding encoding);

// True for the 28 legacy single-byte encodings (a byte is a character).
[[nodiscard]] bool IsSingleByte(Encoding encoding);

// The charset parameter of a Content-Type value ("text/html; charset=UTF-8"
// -> "utf-8"), unquoted and lower case; "" if none.
[[nodiscard]] std::string CharsetFromContentType(std::string_view content_type);

// The HTML Standard's "prescan a byte stream to determine its encoding" over
// the first 1,024 bytes of `html`: the encoding of the first <meta charset>
// or <meta http-equiv=content-type content="...charset=..."> that names
// one, UTF-16 read as UTF-8 and x-user-defined as windows-1252; nullopt if
// none.
[[nodiscard]] std::optional<Encoding> PrescanHtml(std::string_view html);

// The encoding the XML declaration (<?xml version="1.0" encoding="..."?>)
// at the start of `xml` names, read as PrescanHtml reads a meta (UTF-16 is
// UTF-8: the declaration was read as ASCII); a body without a BOM that
// starts "<?" in UTF-16 is UTF-16 (XML 1.0 Appendix F). nullopt if none.
[[nodiscard]] std::optional<Encoding> XmlDeclaredEncoding(std::string_view xml);

// The encoding of `body`'s byte order mark and its length, or nullopt.
[[nodiscard]] std::optional<Encoding> BomEncoding(std::string_view body, std::size_t* bom_bytes);

// The encoding an unlabelled `body` is most likely in: UTF-8 when it is
// valid UTF-8 (or only cut inside its last character), else the detector's
// answer over its first bytes (uchardet: see DetectLegacyEncoding), else
// windows-1252.
[[nodiscard]] Encoding GuessEncoding(std::string_view body);

// The detector alone: uchardet's answer over the first kDetectBytes of
// `body`, mapped through the label table; nullopt when it has none or names
// an encoding the standard does not have.
inline constexpr std::size_t kDetectBytes = 64 * 1024;
[[nodiscard]] std::optional<Encoding> DetectLegacyEncoding(std::string_view body);

// Converts a stream of bytes in one encoding to UTF-8, piece by piece (a
// character may straddle pieces). Each invalid sequence becomes U+FFFD.
class Decoder {
 public:
  explicit Decoder(Encoding encoding);
  ~Decoder();
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  // Appends the UTF-8 of `bytes` to *out; `last` on the final piece (an
  // unfinished character there is invalid).
  void Decode(std::string_view bytes, bool last, std::string* out);

  [[nodiscard]] Encoding encoding() const { return encoding_; }
  [[nodiscard]] uint32_t invalid() const { return invalid_; }  // U+FFFDs written

  struct Icu;  // ICU's converter state (charset_decoder.cc; public for its callback)

 private:
  void DecodeSingleByte(std::string_view bytes, std::string* out);
  void DecodeUtf8(std::string_view bytes, bool last, std::string* out);
  void DecodeIcu(std::string_view bytes, bool last, std::string* out);

  Encoding encoding_;
  uint32_t invalid_ = 0;
  bool seen_input_ = false;         // replacement: one U+FFFD for a non-empty stream
  std::string pending_;             // UTF-8: an unfinished character from the last piece
  const uint16_t* high_ = nullptr;  // single-byte: code points of 0x80-0xFF
  std::unique_ptr<Icu> icu_;        // multi-byte and UTF-16
};

// Converts `bytes` from `encoding` to UTF-8 in one piece; adds the number of
// U+FFFDs written to *invalid.
[[nodiscard]] std::string ToUtf8(std::string_view bytes, Encoding encoding, uint32_t* invalid);

// How a body's own label is found: HTML's meta prescan, the XML
// declaration, or none (text/plain); HTML and plain text fall back on
// GuessEncoding, XML on UTF-8 (XML 1.0 4.3.3).
enum class BodyKind : uint8_t { kHtml, kXml, kText };

struct DecodedBody {
  // The text, valid UTF-8. A body read as UTF-8 that is valid already (most
  // pages) is not copied: the text is DecodeBody's `body` itself. So it is
  // valid while both that body and this struct live.
  [[nodiscard]] std::string_view text() const { return converted ? std::string_view(converted_text) : body; }
  Encoding encoding = Encoding::kUtf8;
  std::string charset;         // CharsetName(encoding): "utf-8", "shift_jis", ...
  uint32_t invalid_bytes = 0;  // U+FFFDs written: one per invalid sequence
  std::string_view body;       // the text when !converted
  bool converted = false;
  std::string converted_text;  // the text when converted
};

// Picks the encoding (BOM; then `header_charset` if it names one; then the
// body's own label for `kind`; then the fallback for `kind`) and converts
// `body` where it is not valid UTF-8 already (DecodedBody::text).
[[nodiscard]] DecodedBody DecodeBody(std::string_view body, std::string_view header_charset, BodyKind kind);

// UTF-8 validation is common/text/utf8.h's.
using text::ValidUtf8Prefix;

}  // namespace crawl::fetcher
