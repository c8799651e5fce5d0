// zlib inflate with an output cap, and a reusable deflater (zlib_stream.h).
#include "common/base/zlib_stream.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <climits>
#include <limits>
#include <utility>

namespace crawl {
namespace {

// zlib counts in uInt: larger inputs and outputs go in pieces of this size.
constexpr std::size_t kMaxZlibPiece = UINT_MAX / 2;
// Output grows by at most this much per inflate call, so a capped bomb
// never allocates far past the cap.
constexpr std::size_t kMaxInflateStep = 256 * 1024;

int InflateWindowBits(ZlibFormat format) {
  switch (format) {
    case ZlibFormat::kZlib:
      return 15;
    case ZlibFormat::kGzip:
      return 15 + 16;
    case ZlibFormat::kRaw:
      return -15;
    case ZlibFormat::kAuto:
      break;
  }
  return 15 + 32;  // zlib or gzip header, detected
}

// 0 (rejected by deflateInit2) for kAuto, which only inflate understands.
int DeflateWindowBits(const DeflateOptions& options) {
  switch (options.format) {
    case ZlibFormat::kZlib:
      return options.window_log;
    case ZlibFormat::kGzip:
      return options.window_log + 16;
    case ZlibFormat::kRaw:
      return -options.window_log;
    case ZlibFormat::kAuto:
      break;
  }
  return 0;
}

// Gives zlib the next piece of `in` once it has used up the previous one.
void FeedInput(z_stream& zs, std::string_view in, std::size_t* offset) {
  if (zs.avail_in != 0 || *offset >= in.size()) return;
  const std::size_t n = std::min(in.size() - *offset, kMaxZlibPiece);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + *offset));
  zs.avail_in = static_cast<uInt>(n);
  *offset += n;
}

std::string ZlibError(const z_stream& zs, const char* what, int rc) {
  return zs.msg != nullptr ? std::string(zs.msg) : std::string(what) + " error " + std::to_string(rc);
}

// Ends the inflate stream on every way out of Inflate.
struct InflateStream {
  z_stream zs{};
  bool open = false;
  ~InflateStream() {
    if (open) inflateEnd(&zs);
  }
};

}  // namespace

Result<InflateOutcome> Inflate(std::string_view in, const InflateOptions& options, std::string* out) {
  out->clear();
  InflateStream stream;
  z_stream& zs = stream.zs;
  if (inflateInit2(&zs, InflateWindowBits(options.format)) != Z_OK)
    return Status::Internal("zlib initialisation failed");
  stream.open = true;
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  // One byte past the cap proves there is more.
  const std::size_t budget = options.max_output == max ? max : options.max_output + 1;
  const bool next_streams = options.all_members && options.format != ZlibFormat::kRaw;
  InflateOutcome outcome;
  std::size_t in_offset = 0;
  bool stream_done = false;
  for (;;) {
    FeedInput(zs, in, &in_offset);
    if (out->size() >= budget) break;
    const std::size_t room = std::min(budget - out->size(), kMaxInflateStep);
    const std::size_t old_size = out->size();
    out->resize(old_size + room);
    zs.next_out = reinterpret_cast<Bytef*>(out->data() + old_size);
    zs.avail_out = static_cast<uInt>(room);
    const int rc = inflate(&zs, Z_NO_FLUSH);
    out->resize(old_size + room - zs.avail_out);
    const std::size_t unread = zs.avail_in + (in.size() - in_offset);
    if (rc == Z_STREAM_END) {
      stream_done = true;
      outcome.consumed = in.size() - unread;
      if (unread == 0 || !next_streams) {
        outcome.complete = true;
        break;
      }
      inflateReset(&zs);
      continue;
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR && unread == 0) {  // the input stops inside a stream
      outcome.complete = stream_done && zs.total_in == 0;
      break;
    }
    if (stream_done) {  // padding after a complete stream
      outcome.complete = true;
      break;
    }
    return Status::InvalidArgument(ZlibError(zs, "inflate", rc));
  }
  if (out->size() > options.max_output) {
    out->resize(options.max_output);
    outcome.capped = true;
  }
  return outcome;
}

namespace {

// Where deflate writes: the tail of a growing string.
class AppendSink {
 public:
  AppendSink(std::string* out, std::size_t bound) : out_(out), written_(out->size()) {
    out_->resize(written_ + bound);
  }
  std::pair<unsigned char*, std::size_t> Next() {
    if (written_ == out_->size()) out_->resize(out_->size() + std::max<std::size_t>(out_->size(), 4096));
    return {reinterpret_cast<unsigned char*>(out_->data() + written_),
            std::min(out_->size() - written_, kMaxZlibPiece)};
  }
  void Produced(std::size_t n) { written_ += n; }
  void Finish() { out_->resize(written_); }

 private:
  std::string* out_;
  std::size_t written_;
};

// Where deflate writes when only the length counts: one small buffer, over
// and over.
class CountSink {
 public:
  std::pair<unsigned char*, std::size_t> Next() { return {buf_.data(), buf_.size()}; }
  void Produced(std::size_t n) { total_ += n; }
  [[nodiscard]] std::size_t total() const { return total_; }

 private:
  std::array<unsigned char, 1024> buf_{};
  std::size_t total_ = 0;
};

// Deflates all of `in` as one stream (Z_FINISH from the first call when it
// fits one piece, as compress2 does) into the windows `sink` hands out.
template <typename Sink>
Status DeflateAll(z_stream& zs, std::string_view in, Sink& sink) {
  if (deflateReset(&zs) != Z_OK) return Status::Internal("zlib deflateReset failed");
  std::size_t in_offset = 0;
  for (;;) {
    FeedInput(zs, in, &in_offset);
    const int flush = in_offset == in.size() ? Z_FINISH : Z_NO_FLUSH;
    const auto [data, size] = sink.Next();
    zs.next_out = data;
    zs.avail_out = static_cast<uInt>(size);
    const int rc = deflate(&zs, flush);
    sink.Produced(size - zs.avail_out);
    if (rc == Z_STREAM_END) return Status::Ok();
    if (rc != Z_OK && !(rc == Z_BUF_ERROR && zs.avail_out == 0))
      return Status::Internal(ZlibError(zs, "deflate", rc));
  }
}

}  // namespace

struct Deflater::Stream {
  z_stream zs{};
  int init_rc = Z_STREAM_ERROR;
};

Deflater::Deflater(const DeflateOptions& options) : stream_(std::make_unique<Stream>()) {
  stream_->init_rc = deflateInit2(&stream_->zs, options.level, Z_DEFLATED, DeflateWindowBits(options),
                                  options.mem_level, Z_DEFAULT_STRATEGY);
}

Deflater::~Deflater() {
  if (stream_->init_rc == Z_OK) deflateEnd(&stream_->zs);
}

Status Deflater::Compress(std::string_view in, std::string* out) {
  if (stream_->init_rc != Z_OK) return Status::Internal("zlib deflate initialisation failed");
  const std::size_t old_size = out->size();
  AppendSink sink(out, deflateBound(&stream_->zs, static_cast<uLong>(in.size())));
  Status s = DeflateAll(stream_->zs, in, sink);
  if (!s.ok()) {
    out->resize(old_size);
    return s;
  }
  sink.Finish();
  return Status::Ok();
}

Result<std::size_t> Deflater::CompressedSize(std::string_view in) {
  if (stream_->init_rc != Z_OK) return Status::Internal("zlib deflate initialisation failed");
  CountSink sink;
  Status s = DeflateAll(stream_->zs, in, sink);
  if (!s.ok()) return s;
  return sink.total();
}

}  // namespace crawl
