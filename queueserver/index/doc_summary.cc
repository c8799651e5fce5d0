// Summary records of the docs family (doc_summary.h): writing them, and
// reading them back (zlib-compressed ones of older stores too).
#include "queueserver/index/doc_summary.h"

#include <algorithm>
#include <cstdint>

#include "common/base/zlib_stream.h"
#include "queueserver/index/index_records.h"
#include "queueserver/index/postings_codec.h"

namespace crawl::queueserver {
namespace {

// Summaries start with 'r' (the fields as they are) or, written by older
// versions, 'z' (varint raw size, then the fields in zlib).
Result<std::string> Decompress(std::string_view in) {
  if (!in.empty() && in[0] == 'r') return std::string(in.substr(1));
  if (in.empty() || in[0] != 'z') return Status::InvalidArgument("corrupt summary");
  size_t pos = 1;
  uint64_t raw_size = 0;
  // Summaries are small (title, URL, 2,000 characters of description).
  if (!GetVarint(in, &pos, &raw_size) || raw_size > (64u << 20))
    return Status::InvalidArgument("corrupt summary");
  std::string out;
  out.reserve(raw_size);
  auto inflated = Inflate(in.substr(pos), {.format = ZlibFormat::kZlib, .max_output = raw_size}, &out);
  if (!inflated.ok() || !inflated->complete || inflated->capped || out.size() != raw_size)
    return Status::InvalidArgument("corrupt summary");
  return out;
}

// Flag bits of the byte after the language.
constexpr uint8_t kNosnippet = 1, kLink = 2, kDirectives = 4, kNearDuplicate = 8;
constexpr uint64_t kMaxAlternates = 1000;  // a bound for reading; fetchers send at most 50

bool HasDirectives(const DocSummary& s) {
  return !s.canonical_url.empty() || s.unavailable_after_unix_s > 0 || !s.alternates.empty();
}

// After the description, with kDirectives: varint unavailable_after, the
// canonical URL, varint count, then (hreflang, url) pairs.
void PutDirectives(std::string* raw, const DocSummary& s) {
  PutVarint(raw, static_cast<uint64_t>(std::max<int64_t>(s.unavailable_after_unix_s, 0)));
  PutString(raw, s.canonical_url);
  PutVarint(raw, s.alternates.size());
  for (const auto& [lang, url] : s.alternates) {
    PutString(raw, lang);
    PutString(raw, url);
  }
}

bool GetDirectives(std::string_view in, size_t* pos, DocSummary* s) {
  uint64_t when = 0, n = 0;
  if (!GetVarint(in, pos, &when) || when > INT64_MAX || !GetString(in, pos, &s->canonical_url) ||
      !GetVarint(in, pos, &n) || n > kMaxAlternates)
    return false;
  s->unavailable_after_unix_s = static_cast<int64_t>(when);
  for (uint64_t i = 0; i < n; ++i) {
    auto& [lang, url] = s->alternates.emplace_back();
    if (!GetString(in, pos, &lang) || !GetString(in, pos, &url)) return false;
  }
  return true;
}

}  // namespace

std::string EncodeSummary(const DocSummary& s) {
  std::string raw = "r";
  PutString(&raw, s.url);
  PutString(&raw, s.title);
  PutString(&raw, s.language);
  const bool directives = HasDirectives(s);
  raw.push_back(static_cast<char>((s.nosnippet ? kNosnippet : 0) | (s.link ? kLink : 0) |
                                  (directives ? kDirectives : 0) |
                                  (s.near_duplicate_cluster != 0 ? kNearDuplicate : 0)));
  PutVarint(&raw, s.description.size());
  for (const std::string& d : s.description) PutString(&raw, d);
  if (directives) PutDirectives(&raw, s);
  // With kNearDuplicate, last: varint near_duplicate_cluster.
  if (s.near_duplicate_cluster != 0) PutVarint(&raw, s.near_duplicate_cluster);
  return raw;
}

Result<DocSummary> ParseSummary(std::string_view bytes) {
  auto raw = Decompress(bytes);
  if (!raw.ok()) return raw.status();
  const std::string_view in = *raw;
  DocSummary s;
  size_t pos = 0;
  uint64_t n = 0;
  if (!GetString(in, &pos, &s.url) || !GetString(in, &pos, &s.title) || !GetString(in, &pos, &s.language) ||
      pos >= in.size())
    return Status::InvalidArgument("corrupt summary");
  const auto flags = static_cast<uint8_t>(in[pos++]);
  s.nosnippet = (flags & kNosnippet) != 0;
  s.link = (flags & kLink) != 0;
  if (!GetVarint(in, &pos, &n) || n > in.size()) return Status::InvalidArgument("corrupt summary");
  for (uint64_t i = 0; i < n; ++i) {
    if (!GetString(in, &pos, &s.description.emplace_back()))
      return Status::InvalidArgument("corrupt summary");
  }
  if ((flags & kDirectives) != 0 && !GetDirectives(in, &pos, &s))
    return Status::InvalidArgument("corrupt summary");
  if ((flags & kNearDuplicate) != 0 && !GetVarint(in, &pos, &s.near_duplicate_cluster))
    return Status::InvalidArgument("corrupt summary");
  return s;
}

}  // namespace crawl::queueserver
