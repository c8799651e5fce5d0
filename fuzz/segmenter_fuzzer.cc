// Fuzz target: word tokens and the segmentation of text without spaces
// (common/text/tokenizer.h). Input: the first byte picks the case folding
// (odd: Turkic), the rest is the text. Checks, besides ASan/UBSan: every
// token is valid UTF-8, non-empty and at most kMaxTokenBytes, and the three
// ways to read tokens (ForEachToken's blocks, NextToken's strings,
// NextTokenView's views) give the same tokens.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/text/tokenizer.h"
#include "fuzz/fuzz_check.h"

namespace {

bool ValidUtf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t len = 0;
    uint32_t cp = 0;
    if (b < 0x80) {
      len = 1;
      cp = b;
    } else if (b >= 0xC2 && b <= 0xDF) {
      len = 2;
      cp = b & 0x1Fu;
    } else if (b >= 0xE0 && b <= 0xEF) {
      len = 3;
      cp = b & 0x0Fu;
    } else if (b >= 0xF0 && b <= 0xF4) {
      len = 4;
      cp = b & 0x07u;
    } else {
      return false;
    }
    if (i + len > s.size()) return false;
    for (std::size_t k = 1; k < len; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (c & 0x3Fu);
    }
    // Overlong forms, surrogates and code points past U+10FFFF.
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += len;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto folding =
      (data[0] & 1) != 0 ? crawl::text::CaseFolding::kTurkic : crawl::text::CaseFolding::kDefault;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);

  std::vector<std::string> each;
  std::string scratch;
  crawl::text::ForEachToken(text, &scratch, folding, [&](std::string_view t) {
    FUZZ_CHECK(!t.empty(), "empty token");
    FUZZ_CHECK(t.size() <= crawl::text::kMaxTokenBytes, "token of %zu bytes", t.size());
    FUZZ_CHECK(ValidUtf8(t), "token not valid UTF-8: '%.*s'", static_cast<int>(t.size()), t.data());
    each.emplace_back(t);
  });

  std::size_t pos = 0, k = 0;
  std::string token;
  while (crawl::text::NextToken(text, &pos, &token, folding)) {
    FUZZ_CHECK(k < each.size(), "NextToken gives more tokens than ForEachToken's %zu", each.size());
    FUZZ_CHECK(token == each[k], "token %zu: NextToken '%s', ForEachToken '%s'", k, token.c_str(),
               each[k].c_str());
    ++k;
  }
  FUZZ_CHECK(k == each.size(), "NextToken gives %zu tokens, ForEachToken %zu", k, each.size());

  pos = k = 0;
  std::string_view view;
  while (crawl::text::NextTokenView(text, &pos, &scratch, &view, folding)) {
    FUZZ_CHECK(k < each.size(), "NextTokenView gives more tokens than ForEachToken's %zu", each.size());
    FUZZ_CHECK(view == each[k], "token %zu: NextTokenView '%.*s', ForEachToken '%s'", k,
               static_cast<int>(view.size()), view.data(), each[k].c_str());
    ++k;
  }
  FUZZ_CHECK(k == each.size(), "NextTokenView gives %zu tokens, ForEachToken %zu", k, each.size());
  return 0;
}
