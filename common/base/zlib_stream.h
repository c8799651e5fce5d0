// The one zlib wrapper: inflate gzip (RFC 1952), zlib (RFC 1950) or raw
// DEFLATE (RFC 1951) with a cap on the output, and deflate into any of the
// three. Used by the fetcher (Content-Encoding bodies, .xml.gz sitemaps,
// link pruning's compressed lengths) and the queue server (WARC gzip
// members, compressed search summaries).
//
// Bad input from outside is normal: a corrupt stream gets a Status, a cut
// stream or one larger than the cap is reported in InflateOutcome, never a
// crash. A decompression bomb costs no more than the cap: zlib stops once
// one byte past it has been produced.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "common/base/status.h"

namespace crawl {

enum class ZlibFormat {
  kZlib,  // RFC 1950: 2-byte header, Adler-32 trailer
  kGzip,  // RFC 1952: one gzip member (deflate writes mtime 0, no name)
  kRaw,   // RFC 1951: bare DEFLATE blocks
  kAuto,  // inflate only: a zlib or a gzip header, detected per stream
};

struct InflateOptions {
  ZlibFormat format = ZlibFormat::kAuto;
  // Keep at most this many decoded bytes; one byte more is produced to
  // prove there was more (InflateOutcome::capped), then dropped.
  std::size_t max_output = std::numeric_limits<std::size_t>::max();
  // kGzip/kZlib/kAuto: after a stream ends, decode the streams that follow
  // it (concatenated gzip members, RFC 1952 2.2) until the input is used
  // up; bytes after a complete stream that do not decode (padding) are
  // ignored. False: stop at the end of the first stream. Ignored for kRaw.
  bool all_members = false;
};

struct InflateOutcome {
  // The (last) stream ended with its trailer checked. False: the input
  // stopped first (a cut stream, or empty input).
  bool complete = false;
  // Output was cut at max_output (more was coming).
  bool capped = false;
  // Compressed bytes up to the end of the last complete stream (the size
  // of one gzip member when all_members is false); 0 if none completed.
  std::uint64_t consumed = 0;
};

// Decodes `in` into *out (replaced). Errors: InvalidArgument with zlib's
// message (such as "incorrect header check", or "inflate error N") for a
// corrupt stream, Internal if zlib cannot start; *out then holds the bytes
// decoded before the damage. A cut stream and the cap are not errors.
[[nodiscard]] Result<InflateOutcome> Inflate(std::string_view in, const InflateOptions& options,
                                             std::string* out);

struct DeflateOptions {
  ZlibFormat format = ZlibFormat::kZlib;  // kZlib, kGzip or kRaw
  int level = -1;                         // 0-9; -1 is zlib's default (6)
  int window_log = 15;                    // 9-15: window of 2^window_log bytes
  int mem_level = 8;                      // 1-9: hash table and buffer memory
};

// A compressor whose zlib state is kept between calls (deflateReset keeps
// the allocations that a fresh stream, or compress2, makes and frees each
// time). Output is identical to a fresh stream's with the same options.
// Not thread-safe: one Deflater per thread.
class Deflater {
 public:
  explicit Deflater(const DeflateOptions& options);
  ~Deflater();
  Deflater(const Deflater&) = delete;
  Deflater& operator=(const Deflater&) = delete;

  // Compresses `in` as one complete stream (one gzip member for kGzip) and
  // appends it to *out. On error *out is left as it was.
  [[nodiscard]] Status Compress(std::string_view in, std::string* out);
  // The length Compress would append, without keeping the output (a small
  // scratch buffer instead).
  [[nodiscard]] Result<std::size_t> CompressedSize(std::string_view in);

 private:
  struct Stream;
  std::unique_ptr<Stream> stream_;
};

}  // namespace crawl
