// Summary records of the docs family (doc_summary.h): writing them with
// one reused zlib stream, and reading them back.
#include "queueserver/index/doc_summary.h"

#include <zlib.h>

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
  std::string out(raw_size, '\0');
  uLongf size = static_cast<uLongf>(raw_size);
  if (uncompress(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(in.data() + pos),
                 static_cast<uLong>(in.size() - pos)) != Z_OK ||
      size != raw_size)
    return Status::InvalidArgument("corrupt summary");
  return out;
}

}  // namespace

// zlib's compress2 output (level 1) from one reused stream: deflateReset
// keeps the state's allocations, which compress2 makes and frees per call.
class SummaryEncoder::Deflater {
 public:
  Deflater() { ok_ = deflateInit(&z_, Z_BEST_SPEED) == Z_OK; }
  ~Deflater() {
    if (ok_) deflateEnd(&z_);
  }
  Deflater(const Deflater&) = delete;
  Deflater& operator=(const Deflater&) = delete;

  std::string Compress(const std::string& raw) {
    if (raw.size() <= kCompressAbove || !ok_ || deflateReset(&z_) != Z_OK) return "r" + raw;
    std::string out = "z";
    PutVarint(&out, raw.size());
    const size_t header = out.size();
    out.resize(header + deflateBound(&z_, static_cast<uLong>(raw.size())));
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
    z_.avail_in = static_cast<uInt>(raw.size());
    z_.next_out = reinterpret_cast<Bytef*>(out.data() + header);
    z_.avail_out = static_cast<uInt>(out.size() - header);
    // Cannot fail with a deflateBound buffer; raw stays readable if it did.
    if (deflate(&z_, Z_FINISH) != Z_STREAM_END) return "r" + raw;
    out.resize(header + z_.total_out);
    return out;
  }

 private:
  z_stream z_{};
  bool ok_ = false;
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
