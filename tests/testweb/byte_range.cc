// Single byte-range parsing; see byte_range.h.
#include "tests/testweb/byte_range.h"

#include <cctype>
#include <charconv>
#include <optional>

namespace crawl::testweb {

std::string_view TrimOws(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

namespace {

std::optional<uint64_t> Number(std::string_view s) {
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

ByteRange ParseByteRange(std::string_view header, uint64_t size) {
  ByteRange r;
  header = TrimOws(header);
  constexpr std::string_view kUnit = "bytes=";
  if (header.size() <= kUnit.size()) return r;
  for (size_t i = 0; i < kUnit.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(header[i])) != kUnit[i]) return r;
  }
  const std::string_view spec = TrimOws(header.substr(kUnit.size()));
  if (spec.find(',') != std::string_view::npos) return r;
  const size_t dash = spec.find('-');
  if (dash == std::string_view::npos) return r;
  const std::string_view a = TrimOws(spec.substr(0, dash));
  const std::string_view b = TrimOws(spec.substr(dash + 1));
  uint64_t first = 0, last = 0;
  if (a.empty()) {
    // Suffix range: the last N bytes.
    const auto n = Number(b);
    if (!n) return r;
    if (*n == 0 || size == 0) {
      r.kind = ByteRange::Kind::kUnsatisfiable;
      return r;
    }
    first = *n >= size ? 0 : size - *n;
    last = size - 1;
  } else {
    const auto f = Number(a);
    if (!f) return r;
    std::optional<uint64_t> l = b.empty() ? std::optional<uint64_t>(UINT64_MAX) : Number(b);
    if (!l || *l < *f) return r;  // invalid: ignore the header
    if (*f >= size) {
      r.kind = ByteRange::Kind::kUnsatisfiable;
      return r;
    }
    first = *f;
    last = *l >= size ? size - 1 : *l;
  }
  if (first == 0 && last == size - 1) return r;  // the whole body: plain 200
  r.kind = ByteRange::Kind::kPartial;
  r.first = first;
  r.last = last;
  return r;
}

}  // namespace crawl::testweb
