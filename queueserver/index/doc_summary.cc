// Reading the summaries of the docs family (doc_summary.h): 'r' raw or
// 'z' zlib, then the summary's fields.
#include "queueserver/index/doc_summary.h"

#include <zlib.h>

#include "queueserver/index/index_records.h"
#include "queueserver/index/postings_codec.h"

namespace crawl::queueserver {
namespace {

Result<std::string> Decompress(std::string_view in) {
  if (!in.empty() && in[0] == 'r') return std::string(in.substr(1));
  if (in.empty() || in[0] != 'z') return Status::InvalidArgument("corrupt summary");
  size_t pos = 1;
  uint64_t raw_size = 0;
  // Summaries are small (title, URL, 2,000 characters of description).
  if (!GetVarint(in, &pos, &raw_size) || raw_size > (64u << 20)) return Status::InvalidArgument("corrupt summary");
  std::string out(raw_size, '\0');
  uLongf size = static_cast<uLongf>(raw_size);
  if (uncompress(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(in.data() + pos),
                 static_cast<uLong>(in.size() - pos)) != Z_OK ||
      size != raw_size)
    return Status::InvalidArgument("corrupt summary");
  return out;
}

}  // namespace

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
  s.nosnippet = (flags & 1) != 0;
  s.link = (flags & 2) != 0;
  if (!GetVarint(in, &pos, &n) || n > in.size()) return Status::InvalidArgument("corrupt summary");
  for (uint64_t i = 0; i < n; ++i) {
    if (!GetString(in, &pos, &s.description.emplace_back())) return Status::InvalidArgument("corrupt summary");
  }
  return s;
}

}  // namespace crawl::queueserver
