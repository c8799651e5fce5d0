// A fetched page record as the fetcher ships it with its whole body (bytes
// = body size), for the page cache (WARC) tests.
#pragma once

#include <cstdint>
#include <string>

#include "proto/crawl.pb.h"

namespace crawl::test_support {

inline v1::FetchRecord FetchedPage(const std::string& url, const std::string& body, int status = 200,
                                   int64_t at_unix_us = 1'700'000'000'000'000) {
  v1::FetchRecord r;
  r.set_url(url);
  r.set_kind(v1::URL_KIND_PAGE);
  r.set_status(status);
  r.set_mime_type("text/html");
  r.set_timestamp_unix_us(at_unix_us);
  r.set_body(body);
  r.set_bytes(body.size());
  return r;
}

}  // namespace crawl::test_support
