// Which of a page's links the fetcher prunes (a scoped crawl must find the whole site), and the
// defaults a crawl gets from its scope and order. Shared by the name server,
// which resolves the default when a crawl starts, and the fetcher, which
// applies it (fetcher/page/link_pruning.h).
//
// Yioop prunes every page to its most useful links (docs/DESIGN.md §6: 300
// extracted, 50 kept) to bound what a web-scale crawl queues. That stays the
// rule of an unscoped crawl. A crawl scoped to hosts (include_hosts) is
// bounded by its scope, and its user expects the whole site: pruning to 50
// misses most pages of a large documentation site
// (tests/integration/crawl_site_coverage_test.sh). The structure order is
// site-focused (imbWEM: a site's whole link structure feeds its layered
// frontier), so it keeps every link within the page's host and prunes only
// the links that leave it, which bound what one site adds to other sites.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/base/status.h"

namespace crawl {

enum class LinkPruning {
  kAll,      // "all": every page's links pruned to max_links_after_prune (Yioop)
  kOffsite,  // "offsite": links to the page's own host all kept, the rest pruned
  kNone,     // "none": no link pruned
};

// Parses "all", "offsite" or "none".
[[nodiscard]] Result<LinkPruning> ParseLinkPruning(std::string_view name);
[[nodiscard]] std::string_view LinkPruningName(LinkPruning mode);

// The default ("auto") of a crawl: kNone when it is scoped (any include
// host), else kOffsite for the structure order, else kAll.
[[nodiscard]] LinkPruning DefaultLinkPruning(bool scoped, std::string_view order);

// Links extracted per page before pruning when max_links_per_page is unset:
// docs/DESIGN.md §6's 300 where every page is pruned (kAll); otherwise as many as
// a page range can hold (rust-doc's module indexes carry 7,300-9,750 links,
// an mdBook sidebar ~600 on every page), a bound against a hostile page.
inline constexpr uint32_t kPrunedMaxLinksPerPage = 300;
inline constexpr uint32_t kSiteMaxLinksPerPage = 100'000;
[[nodiscard]] uint32_t DefaultMaxLinksPerPage(LinkPruning mode);

// Range request size when page_range_bytes is unset: docs/DESIGN.md's 1,000,000
// for an unscoped crawl; 10 MB for a scoped one, which reads whole pages
// as wget2 does (rust-doc's module indexes are 1.1-3.2 MB, and their items
// are linked from nowhere else).
inline constexpr uint64_t kDefaultPageRangeBytes = 1'000'000;
inline constexpr uint64_t kScopedPageRangeBytes = 10'000'000;
[[nodiscard]] uint64_t DefaultPageRangeBytes(bool scoped);

}  // namespace crawl
