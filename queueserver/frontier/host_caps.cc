// Frontier::AdmitNew: the per-origin URL caps (frontier.h HostCaps).
#include "queueserver/frontier/frontier.h"

namespace crawl::queueserver {

bool Frontier::AdmitNew(const std::string& url, bool seed, bool from_sitemap) {
  OriginEntry* found = OriginOfUrl(url);
  if (found == nullptr) return true;  // not fetchable: Route drops it
  OriginState& state = found->second;
  OriginRecord& r = state.record;
  bool save = false;
  if (seed && !r.seeded) {
    r.seeded = true;
    save = true;
  }
  const HostCaps& caps = options_.host_caps;
  const uint64_t cap = r.seeded ? caps.max_urls_seed : caps.max_urls;
  if (r.urls_added >= cap || (from_sitemap && r.sitemap_urls >= caps.max_sitemap_urls)) {
    ++r.over_cap;
    ++over_host_cap_;
    if (save || r.over_cap % kHostCapSaveEvery == 1) NoteOrigin(found->first, state);
    return false;
  }
  ++r.urls_added;
  if (from_sitemap) ++r.sitemap_urls;
  // Saved in steps, not per URL: one record write per kHostCapSaveEvery
  // URLs keeps the cost off the link path.
  if (save || r.urls_added % kHostCapSaveEvery == 0 || r.urls_added == cap) NoteOrigin(found->first, state);
  return true;
}

}  // namespace crawl::queueserver
