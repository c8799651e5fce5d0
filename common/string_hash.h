// Hash of std::string keys that also takes string_views, so a lookup by a
// view needs no temporary string (C++20 heterogeneous lookup; pair it with
// std::equal_to<>, as StringMap does).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace crawl {

struct StringViewHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

template <typename Value>
using StringMap = std::unordered_map<std::string, Value, StringViewHash, std::equal_to<>>;

}  // namespace crawl
