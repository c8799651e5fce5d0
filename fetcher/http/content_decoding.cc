// Content codings of a response body: see content_decoding.h.
#include "fetcher/http/content_decoding.h"

#include <utility>

#include "common/base/zlib_stream.h"
#include "common/crawl/fetch_error.h"
#include "fetcher/http/http_field_values.h"

namespace crawl::fetcher {

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
  if (coding != "gzip" && coding != "x-gzip" && coding != "deflate") {
    result.error = "unsupported content-encoding '" + result.content_encoding + "' (HTTP " +
                   std::to_string(result.status) + ")";
    result.status = kBodyError;
    return;
  }
  // A zlib or gzip header, detected; concatenated gzip members (RFC 1952
  // 2.2) are all decoded, padding after a complete member is ignored.
  auto inflate = [&](ZlibFormat format) {
    return Inflate(raw, {.format = format, .max_output = cap, .all_members = true}, &result.body);
  };
  Result<InflateOutcome> inflated = inflate(ZlibFormat::kAuto);
  if (!inflated.ok() && coding == "deflate" && result.body.empty()) {
    // "deflate" is meant to be zlib-wrapped (RFC 9110 8.4.1.2), but some
    // servers send raw deflate.
    inflated = inflate(ZlibFormat::kRaw);
  }
  if (!inflated.ok()) {
    result.error = "decoding " + coding + " body (HTTP " + std::to_string(result.status) +
                   "): " + inflated.status().message();
    result.status = kBodyError;
  } else if (inflated->capped) {
    result.truncated = true;
    result.error = "decoded body cut at " + std::to_string(cap) + " bytes (" + coding + ")";
  } else if (!inflated->complete) {
    // Expected after a cut; otherwise keep what decoded, like browsers.
    if (!result.truncated) result.error = "compressed body ends early";
    result.truncated = true;
  }
  ShrinkBody(result.body);
}

}  // namespace crawl::fetcher
