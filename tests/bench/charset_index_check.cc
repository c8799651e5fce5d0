// Checks the multi-byte decoders (fetcher/page/charset.h) pointer by pointer
// against the WHATWG Encoding Standard's index files, which are too large to
// keep in the repository (the single-byte ones are, and
// tests/unit/fetcher/charset_test.cc checks those):
//
//   git clone https://github.com/whatwg/encoding /tmp/whatwg-encoding
//   build/bin/charset_index_check /tmp/whatwg-encoding
//   build/bin/charset_index_check /tmp/whatwg-encoding --big5-table
//
// For every two-byte code of Shift_JIS (index-jis0208 and its user-defined
// area), EUC-JP (jis0208, jis0212, half-width katakana), EUC-KR, Big5 and
// gb18030 (two-byte part), followed by an ASCII letter, it builds what the
// standard's decoder gives (the code point, or U+FFFD then the second byte
// again if that is ASCII, then the letter) and compares; then every lone
// byte 0x80-0xFF followed by a space. Prints the differences per encoding
// (the first few of each) and exits 1 if there are any. --big5-table prints
// the rows of charset_decoder.cc's kBig5Unicode instead.
#include <unicode/ucnv.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fetcher/page/charset.h"

namespace {

using crawl::fetcher::Encoding;
using Index = std::map<int, uint32_t>;

Index Load(const std::string& dir, const std::string& name) {
  Index index;
  std::ifstream in(dir + "/index-" + name + ".txt");
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    int pointer = 0;
    std::string code_point;
    fields >> pointer >> code_point;
    index[pointer] = static_cast<uint32_t>(std::stoul(code_point, nullptr, 16));
  }
  return index;
}

std::string Utf8(uint32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out += {static_cast<char>(0xC0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3F))};
  } else if (cp < 0x10000) {
    out += {static_cast<char>(0xE0 | (cp >> 12)), static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
            static_cast<char>(0x80 | (cp & 0x3F))};
  } else {
    out += {static_cast<char>(0xF0 | (cp >> 18)), static_cast<char>(0x80 | ((cp >> 12) & 0x3F)),
            static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), static_cast<char>(0x80 | (cp & 0x3F))};
  }
  return out;
}

const std::string kFffd = "\xEF\xBF\xBD";

struct Tally {
  int checked = 0;
  int differ = 0;
  std::string examples;
};

void Compare(Encoding e, const std::string& bytes, const std::string& want, Tally& t) {
  uint32_t invalid = 0;
  const std::string got = crawl::fetcher::ToUtf8(bytes, e, &invalid);
  ++t.checked;
  if (got == want) return;
  ++t.differ;
  if (t.differ <= 6) {
    char buf[64];
    std::string hex;
    for (unsigned char c : bytes) {
      std::snprintf(buf, sizeof buf, "%02X", c);
      hex += buf;
    }
    t.examples += " " + hex;
  }
}

// The standard's answer for a pair: its code point(s), or an error that
// gives an ASCII second byte back.
std::string Pair(unsigned char trail, const std::string& mapped) {
  if (!mapped.empty()) return mapped + "z";
  return kFffd + (trail < 0x80 ? std::string(1, static_cast<char>(trail)) : std::string()) + "z";
}

void Report(const char* name, const Tally& t, int& failures) {
  std::printf("%-10s %6d codes checked, %4d differ from the standard%s\n", name, t.checked, t.differ,
              t.examples.c_str());
  failures += t.differ;
}

// The Big5 codes ICU (HKSCS-2008) reads as Private Use Area characters and
// the standard as characters: charset_decoder.cc's kBig5Unicode, printed.
int PrintBig5Table(const Index& big5) {
  UErrorCode error = U_ZERO_ERROR;
  UConverter* converter = ucnv_open("Big5-HKSCS", &error);
  if (U_FAILURE(error)) return 2;
  ucnv_setToUCallBack(converter, UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &error);
  for (const auto& [pointer, code_point] : big5) {
    const int lead = pointer / 157 + 0x81;
    const int rest = pointer % 157;
    const int trail = rest + (rest < 0x3F ? 0x40 : 0x62);
    const char in[2] = {static_cast<char>(lead), static_cast<char>(trail)};
    UChar out[4];
    error = U_ZERO_ERROR;
    ucnv_resetToUnicode(converter);
    const int32_t n = ucnv_toUChars(converter, out, 4, in, 2, &error);
    uint32_t got = 0;
    if (U_SUCCESS(error) && n == 1) got = out[0];
    if (U_SUCCESS(error) && n == 2) got = 0x10000 + ((out[0] - 0xD800) << 10) + (out[1] - 0xDC00);
    if (got != code_point) std::printf("{0x%02X%02X, 0x%X},  // ICU: %X\n", lead, trail, code_point, got);
  }
  ucnv_close(converter);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || (argc == 3 && std::string(argv[2]) != "--big5-table") || argc > 3) {
    std::fprintf(stderr, "usage: %s WHATWG_ENCODING_DIR [--big5-table]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const Index jis0208 = Load(dir, "jis0208");
  const Index jis0212 = Load(dir, "jis0212");
  const Index euckr = Load(dir, "euc-kr");
  const Index big5 = Load(dir, "big5");
  const Index gb = Load(dir, "gb18030");
  if (jis0208.empty() || euckr.empty() || big5.empty() || gb.empty()) {
    std::fprintf(stderr, "%s: index files missing\n", dir.c_str());
    return 2;
  }
  if (argc == 3) return PrintBig5Table(big5);
  auto at = [](const Index& index, int pointer) {
    const auto it = index.find(pointer);
    return it == index.end() ? std::string() : Utf8(it->second);
  };
  int failures = 0;
  Tally sjis, eucjp, kr, b5, g;
  for (int lead = 0x81; lead <= 0xFC; ++lead) {
    if (lead > 0x9F && lead < 0xE0) continue;
    for (int trail = 0x40; trail <= 0xFC; ++trail) {
      if (trail == 0x7F) continue;
      const int pointer = (lead - (lead < 0xA0 ? 0x81 : 0xC1)) * 188 + trail - (trail < 0x7F ? 0x40 : 0x41);
      const std::string mapped =
          pointer >= 8836 && pointer <= 10715 ? Utf8(0xE000 + pointer - 8836) : at(jis0208, pointer);
      Compare(Encoding::kShiftJis, {static_cast<char>(lead), static_cast<char>(trail), 'z'},
              Pair(trail, mapped), sjis);
    }
  }
  for (int lead = 0xA1; lead <= 0xFE; ++lead) {
    for (int trail = 0xA1; trail <= 0xFE; ++trail) {
      const int pointer = (lead - 0xA1) * 94 + trail - 0xA1;
      const std::string two = {static_cast<char>(lead), static_cast<char>(trail), 'z'};
      Compare(Encoding::kEucJp, two, Pair(trail, at(jis0208, pointer)), eucjp);
      Compare(Encoding::kEucJp, "\x8F" + two, Pair(trail, at(jis0212, pointer)), eucjp);
    }
  }
  for (int trail = 0xA1; trail <= 0xDF; ++trail) {
    Compare(Encoding::kEucJp, {'\x8E', static_cast<char>(trail), 'z'}, Utf8(0xFF61 + trail - 0xA1) + "z",
            eucjp);
  }
  for (int lead = 0x81; lead <= 0xFE; ++lead) {
    for (int trail = 0x40; trail <= 0xFE; ++trail) {
      const std::string bytes = {static_cast<char>(lead), static_cast<char>(trail), 'z'};
      if (trail >= 0x41)
        Compare(Encoding::kEucKr, bytes, Pair(trail, at(euckr, (lead - 0x81) * 190 + trail - 0x41)), kr);
      if (trail <= 0x7E || trail >= 0xA1) {
        const int pointer = (lead - 0x81) * 157 + trail - (trail < 0x7F ? 0x40 : 0x62);
        std::string mapped = at(big5, pointer);
        if (pointer == 1133) mapped = "\xC3\x8A\xCC\x84";
        if (pointer == 1135) mapped = "\xC3\x8A\xCC\x8C";
        if (pointer == 1164) mapped = "\xC3\xAA\xCC\x84";
        if (pointer == 1166) mapped = "\xC3\xAA\xCC\x8C";
        Compare(Encoding::kBig5, bytes, Pair(trail, mapped), b5);
      }
      if (trail != 0x7F && trail != 0xFF) {
        const int pointer = (lead - 0x81) * 190 + trail - (trail < 0x7F ? 0x40 : 0x41);
        Compare(Encoding::kGb18030, bytes, Pair(trail, at(gb, pointer)), g);
      }
    }
  }
  // Lone bytes 0x80-0xFF before a space (no encoding's second byte).
  for (int b = 0x80; b <= 0xFF; ++b) {
    const std::string bytes = {static_cast<char>(b), ' '};
    const bool sjis_single = b == 0x80 || (b >= 0xA1 && b <= 0xDF);
    Compare(Encoding::kShiftJis, bytes,
            (sjis_single ? Utf8(b == 0x80 ? 0x80 : 0xFF61 + b - 0xA1) : kFffd) + " ", sjis);
    Compare(Encoding::kEucJp, bytes, kFffd + " ", eucjp);
    Compare(Encoding::kEucKr, bytes, kFffd + " ", kr);
    Compare(Encoding::kBig5, bytes, kFffd + " ", b5);
    Compare(Encoding::kGb18030, bytes, (b == 0x80 ? Utf8(0x20AC) : kFffd) + " ", g);
  }
  Report("shift_jis", sjis, failures);
  Report("euc-jp", eucjp, failures);
  Report("euc-kr", kr, failures);
  Report("big5", b5, failures);
  Report("gb18030", g, failures);
  return failures == 0 ? 0 : 1;
}
