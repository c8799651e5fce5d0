// See response_fields.h.
#include "fetcher/http/response_fields.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "common/base/clock.h"
#include "fetcher/http/http_date.h"
#include "fetcher/http/http_field_values.h"

namespace crawl::fetcher {

void ReadResponseFields(int status, const FieldLookup& field, FetchResult& result) {
  result.status = status;
  auto copy = [&](std::string_view name) { return std::string(field(name)); };
  result.content_type = copy("content-type");
  result.mime_type = MimeTypeOf(result.content_type);
  result.content_encoding = copy("content-encoding");
  result.location = copy("location");
  result.etag = copy("etag");
  result.last_modified = copy("last-modified");
  result.expires = copy("expires");
  result.cache_control = copy("cache-control");
  if (status == 429 || status == 503) {
    const int64_t now = NowUnixUs() / 1'000'000;
    if (auto delay = ParseRetryAfter(field("retry-after"), now)) result.retry_after_seconds = *delay;
  }
}

void ReadListFields(const FieldValues& values, FetchResult& result) {
  auto join = [&](std::string_view name, std::string_view separator) {
    std::string out;
    for (std::string_view v : values(name)) {
      if (!out.empty()) out.append(separator);
      out.append(v);
    }
    return out;
  };
  result.x_robots_tag = join("x-robots-tag", "\n");
  result.link = join("link", ", ");
}

bool SendableValidator(const std::string& value) {
  if (value.empty() || value.size() > kMaxValidatorBytes) return false;
  return std::all_of(value.begin(), value.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u != 0x7f;
  });
}

}  // namespace crawl::fetcher
