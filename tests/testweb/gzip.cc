// gzip compression and Accept-Encoding; see gzip.h.
#include "tests/testweb/gzip.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>

namespace crawl::testweb {

std::string GzipCompress(std::string_view data) {
  z_stream z{};
  // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return {};
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return rc == Z_STREAM_END ? out : std::string();
}

std::string GzipZeros(uint64_t bytes) {
  z_stream z{};
  if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) return {};
  static const std::string kZeros(1 << 20, '\0');
  std::string out;
  char buffer[64 * 1024];
  uint64_t left = bytes;
  int rc = Z_OK;
  do {
    const uint64_t now = std::min<uint64_t>(left, kZeros.size());
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(kZeros.data()));
    z.avail_in = static_cast<uInt>(now);
    left -= now;
    const int flush = left == 0 ? Z_FINISH : Z_NO_FLUSH;
    do {
      z.next_out = reinterpret_cast<Bytef*>(buffer);
      z.avail_out = sizeof buffer;
      rc = deflate(&z, flush);
      out.append(buffer, sizeof buffer - z.avail_out);
    } while (z.avail_out == 0 && rc != Z_STREAM_ERROR);
  } while (left > 0 && rc != Z_STREAM_ERROR);
  deflateEnd(&z);
  return rc == Z_STREAM_END ? out : std::string();
}

bool AcceptsGzip(std::string_view value) {
  std::string v(value);
  std::transform(v.begin(), v.end(), v.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  v.erase(std::remove_if(v.begin(), v.end(), [](char c) { return c == ' ' || c == '\t'; }), v.end());
  size_t start = 0;
  while (start <= v.size()) {
    size_t comma = v.find(',', start);
    if (comma == std::string::npos) comma = v.size();
    const std::string item = v.substr(start, comma - start);
    const size_t semi = item.find(';');
    const std::string name = item.substr(0, semi);
    const std::string params = semi == std::string::npos ? "" : item.substr(semi + 1);
    const bool refused = params == "q=0" || params == "q=0.0" || params == "q=0.00" || params == "q=0.000";
    if ((name == "gzip" || name == "x-gzip" || name == "*") && !refused) return true;
    start = comma + 1;
  }
  return false;
}

}  // namespace crawl::testweb
