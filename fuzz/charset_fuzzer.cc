// Fuzz target: character encodings (fetcher/page/charset.h): every decoder
// of the WHATWG Encoding Standard, whole and streamed, the HTML prescan, the
// XML declaration, and DecodeBody's sniffing for HTML, XML and plain text.
// Input: one byte choosing the encoding (one more value: no label, the
// sniffing path only), one byte seeding the piece sizes of the streamed
// decode, then the body.
// Checks, besides ASan/UBSan: every output is valid UTF-8 of at most
// 3 * input + 3 bytes (a byte or a pair of bytes gives at most one U+FFFD
// and one ASCII character, or two code points); at most one U+FFFD per
// input byte; the streamed decode equals the whole one; the record's
// charset is the standard's name of the encoding chosen.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/text/utf8.h"
#include "fetcher/page/charset.h"
#include "fuzz/fuzz_check.h"

namespace {

using crawl::fetcher::Encoding;

void CheckText(std::string_view out, std::size_t in, const char* what) {
  FUZZ_CHECK(crawl::text::ValidUtf8Prefix(out) == out.size(), "%s: not valid UTF-8", what);
  FUZZ_CHECK(out.size() <= 3 * in + 3, "%s: %zu bytes out of %zu in", what, out.size(), in);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const int choice = data[0] % (crawl::fetcher::kEncodingCount + 1);
  unsigned seed = data[1];
  const std::string_view body(reinterpret_cast<const char*>(data) + 2, size - 2);

  if (choice < crawl::fetcher::kEncodingCount) {
    const auto encoding = static_cast<Encoding>(choice);
    const std::string name(crawl::fetcher::EncodingName(encoding));
    uint32_t invalid = 0;
    const std::string whole = crawl::fetcher::ToUtf8(body, encoding, &invalid);
    CheckText(whole, body.size(), name.c_str());
    FUZZ_CHECK(invalid <= body.size(), "%s: %u U+FFFD for %zu bytes", name.c_str(), invalid, body.size());

    crawl::fetcher::Decoder decoder(encoding);
    std::string streamed;
    std::size_t at = 0;
    do {
      seed = seed * 1103515245u + 12345u;
      const std::size_t piece = 1 + (seed >> 16) % 17;
      const std::string_view part = body.substr(at, piece);
      at += part.size();
      decoder.Decode(part, at >= body.size(), &streamed);
    } while (at < body.size());
    FUZZ_CHECK(streamed == whole, "%s: streamed decode differs from the whole", name.c_str());
    FUZZ_CHECK(decoder.invalid() == invalid, "%s: streamed %u U+FFFD, whole %u", name.c_str(),
               decoder.invalid(), invalid);

    // Labelled through the header: that encoding, whatever the body says
    // (but a byte order mark).
    const auto labelled = crawl::fetcher::DecodeBody(body, name, crawl::fetcher::BodyKind::kHtml);
    CheckText(labelled.text(), body.size(), "labelled");
    std::size_t bom = 0;
    const auto by_bom = crawl::fetcher::BomEncoding(body, &bom);
    FUZZ_CHECK(labelled.charset == crawl::fetcher::CharsetName(by_bom.value_or(encoding)),
               "labelled %s read as %s", name.c_str(), labelled.charset.c_str());
  }

  (void)crawl::fetcher::PrescanHtml(body);
  (void)crawl::fetcher::XmlDeclaredEncoding(body);
  for (const auto kind :
       {crawl::fetcher::BodyKind::kHtml, crawl::fetcher::BodyKind::kXml, crawl::fetcher::BodyKind::kText}) {
    const auto decoded = crawl::fetcher::DecodeBody(body, "", kind);
    CheckText(decoded.text(), body.size(), "sniffed");
    FUZZ_CHECK(decoded.charset == crawl::fetcher::CharsetName(decoded.encoding), "charset %s is not a name",
               decoded.charset.c_str());
    FUZZ_CHECK(decoded.invalid_bytes <= body.size(), "%u U+FFFD for %zu bytes", decoded.invalid_bytes,
               body.size());
  }
  return 0;
}
