// Link pruning modes and a crawl's defaults (link_pruning_mode.h).
#include "common/crawl/link_pruning_mode.h"

namespace crawl {

Result<LinkPruning> ParseLinkPruning(std::string_view name) {
  if (name == "all") return LinkPruning::kAll;
  if (name == "offsite") return LinkPruning::kOffsite;
  if (name == "none") return LinkPruning::kNone;
  return Status::InvalidArgument("unknown link_pruning '" + std::string(name) +
                                 "' (auto, all, offsite or none)");
}

std::string_view LinkPruningName(LinkPruning mode) {
  switch (mode) {
    case LinkPruning::kAll:
      return "all";
    case LinkPruning::kOffsite:
      return "offsite";
    case LinkPruning::kNone:
      return "none";
  }
  return "all";
}

LinkPruning DefaultLinkPruning(bool scoped, std::string_view order) {
  if (scoped) return LinkPruning::kNone;
  if (order == "structure") return LinkPruning::kOffsite;
  return LinkPruning::kAll;
}

uint32_t DefaultMaxLinksPerPage(LinkPruning mode) {
  return mode == LinkPruning::kAll ? kPrunedMaxLinksPerPage : kSiteMaxLinksPerPage;
}

uint64_t DefaultPageRangeBytes(bool scoped) {
  return scoped ? kScopedPageRangeBytes : kDefaultPageRangeBytes;
}

}  // namespace crawl
