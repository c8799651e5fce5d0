// Content codings of a response body: see content_decoding.h.
#include "fetcher/content_decoding.h"

#include <zlib.h>

#include <algorithm>
#include <climits>

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

}  // namespace crawl::fetcher
