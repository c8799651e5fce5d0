// Links as fetchers send them (link_wire.h).
#include "queueserver/link_wire.h"

#include <cmath>

#include "queueserver/frontier/scoring_filter.h"

namespace crawl::queueserver {

LinkInput LinkFromWire(const v1::DiscoveredLink& link, std::string canonical_url, std::string_view referrer) {
  LinkInput in;
  in.entry.url = std::move(canonical_url);
  in.entry.referrer = referrer;
  in.entry.depth = link.depth();
  in.link_rank = link.link_rank();
  in.links_on_page = link.links_on_page();
  in.from_sitemap = link.from_sitemap();
  in.likely_non_html = link.likely_non_html();
  in.anchor_text = link.anchor_text();
  in.sent_elsewhere = link.sent_elsewhere();
  in.entry.link_kind = LinkKindOf(link.source(), link.in_nav(), link.from_sitemap());
  // The referrer's order data, echoed by the fetcher when another queue
  // server scheduled the referrer. Input from another process: a value no
  // queue server could have sent is ignored, not trusted.
  if (link.referrer_order_known() && std::isfinite(link.referrer_cash()) && link.referrer_cash() >= 0 &&
      link.referrer_cash() <= kMaxEchoedCash && link.referrer_tier() >= 0 &&
      link.referrer_tier() <= kMaxEchoedTier) {
    in.referrer_known = true;
    in.referrer_tier = link.referrer_tier();
    in.referrer_weight = link.referrer_weight();
    in.referrer_cash = link.referrer_cash();
    in.same_cld_links_on_page = link.same_cld_links_on_page();
  }
  return in;
}

}  // namespace crawl::queueserver
