// s.find_first_of(set, from) for the short, literal sets of hot URL code.
// libstdc++'s find_first_of calls memchr over the set once per byte of s;
// here the set's few comparisons are inlined (a link's path passes several
// of these scans on its way from the page to the frontier).
#pragma once

#include <cstddef>
#include <string_view>

namespace crawl {

inline std::size_t FindAnyOf(std::string_view s, std::string_view set, std::size_t from = 0) {
  for (std::size_t i = from; i < s.size(); ++i) {
    for (const char c : set) {
      if (s[i] == c) return i;
    }
  }
  return std::string_view::npos;
}

}  // namespace crawl
