// StartCrawl's parameter defaults that depend on the crawl's scope and order
// (nameserver/service.h NormalizeParams; common/crawl/link_pruning_mode.h; issue
// 22 item 6: a scoped crawl finds the whole site).
#include <catch2/catch.hpp>

#include "nameserver/service.h"

using crawl::nameserver::NormalizeParams;
namespace v1 = crawl::v1;

namespace {

v1::CrawlParams Normalized(v1::CrawlParams p) {
  REQUIRE(NormalizeParams(&p).ok());
  return p;
}

v1::CrawlParams Scoped(const std::string& order = "") {
  v1::CrawlParams p;
  p.set_order(order);
  p.add_include_hosts("docs.site.test");
  return p;
}

}  // namespace

TEST_CASE("an unscoped crawl prunes every page as Yioop does: 300 links, 50 kept, 1 MB", "[unit][policy]") {
  const v1::CrawlParams p = Normalized({});
  CHECK(p.link_pruning() == "all");
  CHECK(p.max_links_per_page() == 300);
  CHECK(p.page_range_bytes() == 1'000'000);
}

TEST_CASE("a crawl scoped by include_hosts prunes no link, takes 100,000 per page, reads 10 MB",
          "[unit][policy]") {
  for (const char* order : {"bfs", "host_budget", "opic", "structure"}) {
    CAPTURE(order);
    const v1::CrawlParams p = Normalized(Scoped(order));
    CHECK(p.link_pruning() == "none");
    CHECK(p.max_links_per_page() == 100'000);
    CHECK(p.page_range_bytes() == 10'000'000);
  }
}

TEST_CASE("an unscoped structure crawl prunes only the links that leave a page's host", "[unit][policy]") {
  v1::CrawlParams in;
  in.set_order("structure");
  in.set_link_pruning("auto");
  const v1::CrawlParams p = Normalized(in);
  CHECK(p.link_pruning() == "offsite");
  CHECK(p.max_links_per_page() == 100'000);
  CHECK(p.page_range_bytes() == 1'000'000);
}

TEST_CASE("link pruning, links per page and range given by the user stand", "[unit]") {
  v1::CrawlParams in = Scoped();
  in.set_link_pruning("all");
  in.set_page_range_bytes(2'000'000);
  v1::CrawlParams p = Normalized(in);
  CHECK(p.link_pruning() == "all");
  CHECK(p.max_links_per_page() == 300);  // the default of pruned crawls
  CHECK(p.page_range_bytes() == 2'000'000);
  in.set_link_pruning("offsite");
  in.set_max_links_per_page(700);
  p = Normalized(in);
  CHECK(p.link_pruning() == "offsite");
  CHECK(p.max_links_per_page() == 700);
}

TEST_CASE("an unknown link_pruning is refused by name", "[unit]") {
  v1::CrawlParams p;
  p.set_link_pruning("most");
  const crawl::Status s = NormalizeParams(&p);
  REQUIRE_FALSE(s.ok());
  CHECK(s.code() == crawl::StatusCode::kInvalidArgument);
  CHECK(s.message().find("most") != std::string::npos);
}
