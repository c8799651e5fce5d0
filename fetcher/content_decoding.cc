// Content codings of a response body: see content_decoding.h.
#include "fetcher/content_decoding.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <utility>

#include "common/fetch_error.h"
#include "fetcher/http_field_values.h"

namespace crawl::fetcher {

InflateStatus Inflate(std::string_view in, int window_bits, uint64_t cap, std::string& out,
                      std::string& error) {
  out.clear();
  z_stream zs{};
  if (inflateInit2(&zs, window_bits) != Z_OK) {
    error = "zlib initialisation failed";
    return InflateStatus::kDataError;
  }
  // Decode up to cap + 1 bytes: one byte past the cap proves there is more.
  const uint64_t budget = cap + 1;
  size_t in_offset = 0;
  bool member_done = false;
  InflateStatus status = InflateStatus::kIncomplete;
  for (;;) {
    if (zs.avail_in == 0 && in_offset < in.size()) {
      const size_t n = std::min<size_t>(in.size() - in_offset, UINT_MAX / 2);
      zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + in_offset));
      zs.avail_in = static_cast<uInt>(n);
      in_offset += n;
    }
    if (out.size() >= budget) {
      status = InflateStatus::kCapped;
      break;
    }
    const size_t room = static_cast<size_t>(std::min<uint64_t>(budget - out.size(), 256 * 1024));
    const size_t old_size = out.size();
    out.resize(old_size + room);
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + old_size);
    zs.avail_out = static_cast<uInt>(room);
    const int rc = inflate(&zs, Z_NO_FLUSH);
    out.resize(old_size + room - zs.avail_out);
    const bool input_left = zs.avail_in > 0 || in_offset < in.size();
    if (rc == Z_STREAM_END) {
      member_done = true;
      if (!input_left || window_bits < 0) {
        status = InflateStatus::kOk;
        break;
      }
      inflateReset(&zs);
      continue;
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR && !input_left) {
      status = member_done && zs.total_in == 0 ? InflateStatus::kOk : InflateStatus::kIncomplete;
      break;
    }
    if (member_done) {  // trailing garbage after a complete member
      status = InflateStatus::kOk;
      break;
    }
    error = zs.msg != nullptr ? zs.msg : "inflate error " + std::to_string(rc);
    status = InflateStatus::kDataError;
    break;
  }
  inflateEnd(&zs);
  if (status == InflateStatus::kCapped) out.resize(static_cast<size_t>(cap));
  return status;
}

namespace {

// The body grew in 64 KiB reads (or inflate steps): a 4 KiB page kept a
// 64 KiB buffer while it waited to be processed. One copy gives the
// capacity back.
void ShrinkBody(std::string& body) {
  if (body.capacity() > body.size() + body.size() / 4 + 1024) body.shrink_to_fit();
}

}  // namespace

void DecodeBody(std::string raw, uint64_t cap, FetchResult& result) {
  const std::string coding = Lower(Trim(result.content_encoding));
  if (coding.empty() || coding == "identity" || raw.empty()) {
    result.body = std::move(raw);
    ShrinkBody(result.body);
    return;
  }
  int window_bits = 0;
  if (coding == "gzip" || coding == "x-gzip" || coding == "deflate") {
    window_bits = 15 + 32;  // zlib or gzip header, detected
  } else {
    result.error = "unsupported content-encoding '" + result.content_encoding + "' (HTTP " +
                   std::to_string(result.status) + ")";
    result.status = kBodyError;
    return;
  }
  std::string error;
  InflateStatus status = Inflate(raw, window_bits, cap, result.body, error);
  if (status == InflateStatus::kDataError && coding == "deflate" && result.body.empty()) {
    // "deflate" is meant to be zlib-wrapped (RFC 9110 8.4.1.2), but some
    // servers send raw deflate.
    status = Inflate(raw, -15, cap, result.body, error);
  }
  switch (status) {
    case InflateStatus::kOk:
      break;
    case InflateStatus::kCapped:
      result.truncated = true;
      result.error = "decoded body cut at " + std::to_string(cap) + " bytes (" + coding + ")";
      break;
    case InflateStatus::kIncomplete:
      // Expected after a cut; otherwise keep what decoded, like browsers.
      if (!result.truncated) result.error = "compressed body ends early";
      result.truncated = true;
      break;
    case InflateStatus::kDataError:
      result.error = "decoding " + coding + " body (HTTP " + std::to_string(result.status) + "): " + error;
      result.status = kBodyError;
      break;
  }
  ShrinkBody(result.body);
}

}  // namespace crawl::fetcher
