#include "fetcher/result_batch.h"

#include <deque>
#include <string_view>

#include "common/base/find_any.h"
#include "common/base/flat_string_map.h"
#include "common/crawl/fetch_error.h"
#include "common/crawl/rendezvous.h"
#include "common/url/cld.h"
#include "common/url/url.h"

namespace crawl::fetcher {

bool CountsAsHostError(const v1::FetchRecord& record) {
  return crawl::CountsAsHostError(record.status(), record.kind() == v1::URL_KIND_ROBOTS);
}

ResultBatcher::ResultBatcher(std::vector<std::string> server_ids, const url::TrackingParams* tracking,
                             size_t home)
    : server_ids_(std::move(server_ids)), tracking_(tracking), home_(home) {
  batch_.links_by_server.resize(server_ids_.size());
  last_referrer_.resize(server_ids_.size());
}

void ResultBatcher::Append(size_t owner, v1::DiscoveredLink&& link, std::string_view referrer) {
  google::protobuf::RepeatedPtrField<v1::DiscoveredLink>& list = batch_.links_by_server[owner];
  std::string& last = last_referrer_[owner];
  if (!link.referrer().empty()) referrer = link.referrer();
  if (!list.empty() && referrer == last) {
    link.clear_referrer();
    link.set_same_referrer(true);
  } else {
    last = referrer;
    if (link.referrer().empty()) link.set_referrer(last);
  }
  list.Add(std::move(link));
  ++links_;
}

namespace {

// The company level domain as the queue servers' orders compute it.
std::string CldOfHost(const std::string& host) {
  auto cld = CompanyLevelDomain(host);
  return cld.ok() ? *cld : host;
}

// s of docs/DESIGN.md §5.2: how many of a page's links share its CLD. A page's
// links mostly come in runs of one host: one CLD lookup per run.
template <typename Owned>
uint32_t SameCldLinks(const std::string& page_host, const std::vector<Owned>& owned) {
  const std::string page_cld = CldOfHost(page_host);
  uint32_t same_cld = 0;
  std::string_view run_host;
  std::string run_cld;
  for (const Owned& o : owned) {
    if (o.host != run_host || run_cld.empty()) {
      run_host = o.host;
      run_cld = CldOfHost(std::string(o.host));
    }
    same_cld += run_cld == page_cld ? 1 : 0;
  }
  return same_cld;
}

}  // namespace

void ResultBatcher::Add(ProcessedPage page, const v1::ScheduledUrl* scheduled) {
  if (CountsAsHostError(page.record)) {
    auto origin = url::OriginOf(page.record.url());
    if (origin.ok()) ++batch_.host_errors[*origin];
  }
  const bool strip = tracking_ != nullptr && !tracking_->empty();
  if (strip && !page.record.redirect_url().empty()) {
    page.record.set_redirect_url(url::RemoveTrackingParams(page.record.redirect_url(), *tracking_));
  }
  if (page.hold) batch_.holds.push_back(std::move(page.hold));
  const std::string page_host = url::HostOf(page.record.url());
  v1::FetchRecord& record = *batch_.records.Add();
  record.Swap(&page.record);
  record_bytes_ += record.ByteSizeLong();
  if (server_ids_.empty()) return;
  const std::string_view page_url = record.url();
  // Links that differ only in tracking parameters are one link.
  FlatStringMap<char> seen;
  struct Owned {
    size_t owner;
    v1::DiscoveredLink* link;
    std::string_view host;  // in link->url(), or in parsed_hosts
  };
  std::vector<Owned> owned;
  owned.reserve(page.links.size());
  // Hosts that needed a parse (a deque: its strings never move).
  std::deque<std::string> parsed_hosts;
  bool any_elsewhere = false;
  // A page's links mostly come in runs of one host: its owner once per run.
  url::OriginMemo origins;
  std::string_view run_host;
  size_t run_owner = 0;
  for (auto& link : page.links) {
    if (strip) {
      // Only a path parameter or a query can hold a tracking parameter.
      if (FindAnyOf(link.url(), ";?") != std::string::npos)
        link.set_url(url::RemoveTrackingParams(link.url(), *tracking_));
      // A sitemap's links skip the copy of every URL this check keeps (up
      // to a sitemap's size): the queue server's seen set drops duplicates.
      if (!page.sitemap && !seen.Insert(link.url(), ShortStringHash(link.url())).second) continue;
    }
    std::string_view host = origins.Host(link.url());
    if (host.empty()) host = parsed_hosts.emplace_back(url::HostOf(link.url()));
    if (owned.empty() || host != run_host) {
      run_host = host;
      run_owner = OwnerIndex(server_ids_, host);
    }
    const size_t owner = run_owner;
    owned.push_back(Owned{owner, &link, host});
    any_elsewhere = any_elsewhere || (home_ < server_ids_.size() && owner != home_);
  }
  if (any_elsewhere && scheduled != nullptr) {
    // s over the whole page, which only this process sees whole.
    const uint32_t same_cld = SameCldLinks(page_host, owned);
    for (const auto& [owner, link, host] : owned) {
      if (owner == home_) continue;
      link->set_same_cld_links_on_page(same_cld);
      link->set_referrer_order_known(true);
      link->set_referrer_tier(scheduled->order_tier());
      link->set_referrer_weight(scheduled->order_weight());
      link->set_referrer_cash(scheduled->order_cash());
      v1::DiscoveredLink copy;
      copy.set_url(link->url());
      if (!link->referrer().empty()) copy.set_referrer(link->referrer());
      copy.set_link_rank(link->link_rank());
      copy.set_links_on_page(link->links_on_page());
      copy.set_from_sitemap(link->from_sitemap());
      // The kind, so both servers weigh the share alike (link-kind filter).
      copy.set_source(link->source());
      copy.set_in_nav(link->in_nav());
      copy.set_sent_elsewhere(true);
      Append(home_, std::move(copy), page_url);
    }
  }
  for (const Owned& o : owned) Append(o.owner, std::move(*o.link), page_url);
}

ResultBatch ResultBatcher::Take() {
  ResultBatch out = std::move(batch_);
  batch_ = ResultBatch();
  links_ = 0;
  record_bytes_ = 0;
  batch_.links_by_server.resize(server_ids_.size());
  for (std::string& r : last_referrer_) r.clear();
  return out;
}

}  // namespace crawl::fetcher
