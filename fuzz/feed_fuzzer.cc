// Fuzz target: RSS and Atom feeds (fetcher/page/feed_parser.h with expat;
// fetcher/page/feed_processor.h through page processing).
// Input: one byte choosing the media type (RSS, Atom, application/xml,
// text/xml) and the item limit, then the body.
// Checks, besides ASan/UBSan: the item, field and summary limits hold,
// every link found is canonical with a capped anchor text, and the record
// survives a proto round trip.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/url/url.h"
#include "fetcher/page/feed_parser.h"
#include "fetcher/page/feed_processor.h"
#include "fetcher/page/page_processor.h"
#include "fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static constexpr const char* kMimes[] = {"application/rss+xml", "application/atom+xml", "application/xml",
                                           "text/xml"};
  const char* mime = kMimes[data[0] % std::size(kMimes)];
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);

  // The parser alone, with small limits so each one is exercised.
  crawl::fetcher::FeedLimits limits;
  limits.max_items = 1 + (data[0] >> 2) % 8;
  limits.max_depth = 16;
  limits.max_field_bytes = 256;
  limits.max_summary_bytes = 64;
  (void)crawl::fetcher::SniffFeedRoot(body);
  const crawl::fetcher::Feed feed = crawl::fetcher::ParseFeed(body, "http://a.test/feed/", limits);
  FUZZ_CHECK(feed.items.size() <= limits.max_items, "%zu items over a cap of %zu", feed.items.size(),
             limits.max_items);
  FUZZ_CHECK(feed.title.size() <= limits.max_field_bytes, "a title of %zu bytes", feed.title.size());
  for (const auto& item : feed.items) {
    FUZZ_CHECK(item.summary.size() <= limits.max_summary_bytes, "a summary of %zu bytes",
               item.summary.size());
    FUZZ_CHECK(item.title.size() <= limits.max_field_bytes, "an item title of %zu bytes", item.title.size());
  }
  (void)crawl::fetcher::ParseFeedDate(body.substr(0, 64));

  // The path the fetcher takes for a 200 of that type.
  static const std::string kUrl = "http://www.example.test/feed.xml";
  crawl::v1::ScheduledUrl scheduled;
  scheduled.set_url(kUrl);
  crawl::fetcher::FetchResult result;
  result.url = kUrl;
  result.status = 200;
  result.body = std::string(body);
  result.content_type = mime;
  result.mime_type = mime;
  crawl::fetcher::ProcessOptions options;
  options.max_links = 20;
  const crawl::fetcher::ProcessedPage page = crawl::fetcher::ProcessFetch(scheduled, result, options);
  for (const auto& link : page.links) {
    auto canonical = crawl::url::Canonicalize(link.url());
    FUZZ_CHECK(canonical.ok() && *canonical == link.url(), "link not canonical: '%s'", link.url().c_str());
    if (link.source() == "feed")
      FUZZ_CHECK(link.anchor_text().size() <= crawl::fetcher::kMaxFeedAnchorBytes, "anchor of %zu bytes",
                 link.anchor_text().size());
  }
  std::string wire;
  FUZZ_CHECK(page.record.SerializeToString(&wire), "record does not serialise");
  crawl::v1::FetchRecord back;
  FUZZ_CHECK(back.ParseFromString(wire), "record does not parse back");
  return 0;
}
