// Link pruning modes and the defaults a crawl gets from its scope and order
// (common/crawl/link_pruning_mode.h).
#include "common/crawl/link_pruning_mode.h"

#include <catch2/catch.hpp>

using crawl::LinkPruning;

TEST_CASE("link pruning names parse and print back; an unknown name is an error", "[unit]") {
  for (LinkPruning mode : {LinkPruning::kAll, LinkPruning::kOffsite, LinkPruning::kNone}) {
    const auto parsed = crawl::ParseLinkPruning(crawl::LinkPruningName(mode));
    REQUIRE(parsed.ok());
    CHECK(*parsed == mode);
  }
  CHECK(crawl::LinkPruningName(LinkPruning::kOffsite) == "offsite");
  const auto bad = crawl::ParseLinkPruning("sometimes");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().find("sometimes") != std::string::npos);
  CHECK_FALSE(crawl::ParseLinkPruning("").ok());  // "auto" is resolved before parsing
}

// Policy: Yioop prunes every page to bound a web-scale crawl; a scoped crawl
// is bounded by its scope and wants the whole site; the structure order
// crawls whole sites but bounds what a site adds to others.
TEST_CASE("a scoped crawl prunes no link, the structure order only offsite ones, others every page",
          "[unit][policy]") {
  CHECK(crawl::DefaultLinkPruning(/*scoped=*/true, "bfs") == LinkPruning::kNone);
  CHECK(crawl::DefaultLinkPruning(true, "structure") == LinkPruning::kNone);
  CHECK(crawl::DefaultLinkPruning(false, "structure") == LinkPruning::kOffsite);
  for (const char* order : {"bfs", "host_budget", "opic"}) {
    CAPTURE(order);
    CHECK(crawl::DefaultLinkPruning(false, order) == LinkPruning::kAll);
  }
}

TEST_CASE("pages of a pruned crawl give 300 links (docs/DESIGN.md §6), of a site crawl 100,000",
          "[unit][policy]") {
  CHECK(crawl::DefaultMaxLinksPerPage(LinkPruning::kAll) == 300);
  // rust-doc's module indexes carry up to 9,750 links.
  CHECK(crawl::DefaultMaxLinksPerPage(LinkPruning::kNone) == 100'000);
  CHECK(crawl::DefaultMaxLinksPerPage(LinkPruning::kOffsite) == 100'000);
}

TEST_CASE("a scoped crawl reads pages up to 10 MB, an unscoped one up to 1 MB", "[unit][policy]") {
  CHECK(crawl::DefaultPageRangeBytes(false) == 1'000'000);
  // rust-doc's module indexes are 1.1-3.2 MB.
  CHECK(crawl::DefaultPageRangeBytes(true) == 10'000'000);
}
