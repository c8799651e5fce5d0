#include "common/url/glob.h"

namespace crawl {
namespace {

// ASCII case folding, as std::tolower in the "C" locale, without its call
// per byte: a crawl scoped by --include-hosts matches every link's host
// (a library call per byte is costly at that rate).
constexpr unsigned char FoldAscii(char c) {
  const auto u = static_cast<unsigned char>(c);
  return static_cast<unsigned char>(u - 'A') < 26 ? static_cast<unsigned char>(u | 0x20) : u;
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view text, bool fold_case) {
  auto same = [fold_case](char a, char b) { return fold_case ? FoldAscii(a) == FoldAscii(b) : a == b; };
  size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (p < pattern.size() && same(pattern[p], text[t])) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace crawl
