// Fuzz target: page processing (fetcher/page/page_processor.h, the entry point
// the fetcher calls for every 2xx page) with the HTML processor
// (fetcher/page/html_processor.h), the plain text processor and the charset
// decoder. Input: one byte choosing the Content-Type (HTML with various
// declared charsets, XHTML, plain text), then the body.
// Checks, besides ASan/UBSan: every link is a canonical http(s) URL, at most
// max_links_after_prune are kept, and the record and links survive a proto
// round trip (proto3 strings must be valid UTF-8: a record that does not
// parse back would make the queue server reject the fetcher's whole batch).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/url/url.h"
#include "fetcher/page/page_processor.h"
#include "fuzz/fuzz_check.h"

namespace {

struct ContentType {
  const char* header;
  const char* mime;
};
constexpr ContentType kTypes[] = {
    {"text/html", "text/html"},
    {"text/html; charset=utf-8", "text/html"},
    {"text/html; charset=windows-1252", "text/html"},
    {"text/html; charset=shift_jis", "text/html"},
    {"text/html; charset=utf-16le", "text/html"},
    {"text/html; charset=iso-2022-jp", "text/html"},
    {"application/xhtml+xml", "application/xhtml+xml"},
    {"text/plain", "text/plain"},
    {"text/plain; charset=koi8-r", "text/plain"},
    {"", "text/html"},
};

template <typename M>
void CheckRoundTrip(const M& message) {
  std::string wire;
  FUZZ_CHECK(message.SerializeToString(&wire), "serialize failed");
  M back;
  FUZZ_CHECK(back.ParseFromString(wire), "%s does not parse back (invalid UTF-8 in a string field?)",
             message.GetTypeName().c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const ContentType& type = kTypes[data[0] % std::size(kTypes)];

  static const std::string kUrl = "http://www.example.test/dir/page.html";
  crawl::v1::ScheduledUrl scheduled;
  scheduled.set_url(kUrl);
  scheduled.set_referrer("http://www.example.test/");
  scheduled.set_depth(3);

  crawl::fetcher::FetchResult result;
  result.url = kUrl;
  result.status = 200;
  result.body.assign(reinterpret_cast<const char*>(data) + 1, size - 1);
  result.content_type = type.header;
  result.mime_type = type.mime;

  crawl::fetcher::ProcessOptions options;
  options.robots_meta_token = "crawlbot";
  const crawl::fetcher::ProcessedPage page = crawl::fetcher::ProcessFetch(scheduled, result, options);

  FUZZ_CHECK(page.links.size() <= options.max_links_after_prune, "%zu links kept", page.links.size());
  for (const auto& link : page.links) {
    auto canonical = crawl::url::Canonicalize(link.url());
    FUZZ_CHECK(canonical.ok() && *canonical == link.url(), "link not canonical: '%s'", link.url().c_str());
    CheckRoundTrip(link);
  }
  CheckRoundTrip(page.record);
  return 0;
}
