// Summary records of the docs family (doc_summary.h): writing them with
// one reused zlib stream, and reading them back.
#include "queueserver/index/doc_summary.h"

#include "common/zlib_stream.h"
#include "queueserver/index/index_records.h"
#include "queueserver/index/postings_codec.h"

namespace crawl::queueserver {
namespace {

// Summaries start with 'r' (stored raw: short ones, such as link
// documents', where zlib costs more than it saves) or 'z' (varint raw size,
// then zlib level 1).
constexpr size_t kCompressAbove = 256;

Result<std::string> Decompress(std::string_view in) {
  if (!in.empty() && in[0] == 'r') return std::string(in.substr(1));
  if (in.empty() || in[0] != 'z') return Status::InvalidArgument("corrupt summary");
  size_t pos = 1;
  uint64_t raw_size = 0;
  // Summaries are small (title, URL, 2,000 characters of description).
  if (!GetVarint(in, &pos, &raw_size) || raw_size > (64u << 20)) return Status::InvalidArgument("corrupt summary");
  std::string out;
  out.reserve(raw_size);
  auto inflated = Inflate(in.substr(pos), {.format = ZlibFormat::kZlib, .max_output = raw_size}, &out);
  if (!inflated.ok() || !inflated->complete || inflated->capped || out.size() != raw_size)
    return Status::InvalidArgument("corrupt summary");
  return out;
}

}  // namespace

// zlib level 1 from one reused stream (crawl::Deflater keeps the state's
// allocations, which compress2 makes and frees per call).
class SummaryEncoder::Deflater {
 public:
  std::string Compress(const std::string& raw) {
    if (raw.size() <= kCompressAbove) return "r" + raw;
    std::string out = "z";
    PutVarint(&out, raw.size());
    // Raw stays readable if zlib fails (it cannot, short of memory).
    if (!zlib_.Compress(raw, &out).ok()) return "r" + raw;
    return out;
  }

 private:
  crawl::Deflater zlib_{{.format = ZlibFormat::kZlib, .level = 1}};
};

SummaryEncoder::SummaryEncoder() : deflater_(std::make_unique<Deflater>()) {}
SummaryEncoder::~SummaryEncoder() = default;

std::string SummaryEncoder::Encode(const DocSummary& s) {
  std::string raw;
  PutString(&raw, s.url);
  PutString(&raw, s.title);
  PutString(&raw, s.language);
  raw.push_back(static_cast<char>((s.nosnippet ? 1 : 0) | (s.link ? 2 : 0)));
  PutVarint(&raw, s.description.size());
  for (const std::string& d : s.description) PutString(&raw, d);
  return deflater_->Compress(raw);
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
  s.nosnippet = (flags & 1) != 0;
  s.link = (flags & 2) != 0;
  if (!GetVarint(in, &pos, &n) || n > in.size()) return Status::InvalidArgument("corrupt summary");
  for (uint64_t i = 0; i < n; ++i) {
    if (!GetString(in, &pos, &s.description.emplace_back())) return Status::InvalidArgument("corrupt summary");
  }
  return s;
}

}  // namespace crawl::queueserver
