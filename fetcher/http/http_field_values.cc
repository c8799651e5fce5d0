// Pure helpers for HTTP field values: see http_field_values.h.
#include "fetcher/http/http_field_values.h"

#include <charconv>

namespace crawl::fetcher {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string MimeTypeOf(std::string_view content_type) {
  return Lower(Trim(content_type.substr(0, content_type.find(';'))));
}

std::optional<uint64_t> CompleteLength(std::string_view content_range) {
  const size_t slash = content_range.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::string_view total = Trim(content_range.substr(slash + 1));
  uint64_t value = 0;
  auto [end, err] = std::from_chars(total.data(), total.data() + total.size(), value);
  if (err != std::errc() || end != total.data() + total.size()) return std::nullopt;
  return value;
}

}  // namespace crawl::fetcher
