// The synthetic web over time: the Universe side of the change model
// (universe.h "Change model"; formulas in change_model.h).
#include <algorithm>

#include "tests/testweb/rng.h"
#include "tests/testweb/universe.h"

namespace crawl::testweb {

bool Universe::IsMortal(uint32_t host, uint64_t page) const {
  // Non-root leaves only: no other page loses its tree path from "/".
  if (!change_.enabled() || page == 0 || IsDynamicSpamHost(host)) return false;
  const Host& h = hosts_[host];
  return page * h.fanout + 1 >= h.pages;
}

PageState Universe::PageStateAt(uint32_t host, uint64_t page, double t) const {
  if (IsDynamicSpamHost(host)) return {};
  return change_.StateAt(host, page, t, IsMortal(host, page));
}

std::vector<Link> Universe::Links(uint32_t host, uint64_t page, double t) const {
  std::vector<Link> links = AllLinks(host, page);
  if (change_.enabled()) DropDeadLinks(links, t);
  return links;
}

Universe::Validators Universe::ValidatorsAt(uint32_t host, uint64_t page, double t) const {
  const PageState state = PageStateAt(host, page, t);
  uint64_t alive_bits = 0;
  double last = state.last_modified;
  for (const Link& l : AllLinks(host, page)) {
    if (l.special) continue;
    const PageLifetime life =
        change_.Lifetime(l.target.host, l.target.page, IsMortal(l.target.host, l.target.page));
    alive_bits = Mix64(alive_bits ^ (t >= life.birth && t < life.death ? 1 : 2));
    if (life.birth <= t) last = std::max(last, life.birth);  // the link appeared
    if (life.death <= t) last = std::max(last, life.death);  // the link went
  }
  return {change_.ETag(host, page, state.version, alive_bits), last};
}

void Universe::DropDeadLinks(std::vector<Link>& links, double t) const {
  links.erase(std::remove_if(links.begin(), links.end(),
                             [&](const Link& l) {
                               return !l.special && !PageStateAt(l.target.host, l.target.page, t).alive();
                             }),
              links.end());
}

Served Universe::ServeAt(uint32_t host, std::string_view target, double t) const {
  if (!change_.enabled() || target == "/robots.txt") return Serve(host, target);
  const Resource r = Resolve(host, target);
  if (r.type != Resource::Type::kPage && r.type != Resource::Type::kDuplicate) return Serve(host, target);
  const PageState page_state = PageStateAt(host, r.page, t);
  Served s;
  s.content_type = "text/html; charset=utf-8";
  if (!page_state.alive()) {
    s.status = page_state.status;
    s.body =
        page_state.status == 410
            ? "<!DOCTYPE html>\n<html><head><title>Gone</title></head><body><h1>Gone</h1></body></html>\n"
            : "<!DOCTYPE html>\n<html><head><title>Not Found</title></head><body><h1>Not "
              "Found</h1></body></html>\n";
    return s;
  }
  s.body = RenderPageAt(host, r.page, t);
  Validators v = ValidatorsAt(host, r.page, t);
  s.etag = std::move(v.etag);
  s.last_modified = v.last_modified;
  return s;
}

void Universe::ExportVersionsTo(const std::function<void(const VersionRow&)>& sink, double t) const {
  VersionRow row;
  for (uint32_t host = 0; host < HostCount(); ++host) {
    if (IsDynamicSpamHost(host)) continue;
    for (uint64_t page = 0; page < hosts_[host].pages; ++page) {
      row.url = PageUrl(host, page);
      row.state = PageStateAt(host, page, t);
      row.etag.clear();
      row.digest.clear();
      if (row.state.alive()) {
        Validators v = ValidatorsAt(host, page, t);
        row.etag = std::move(v.etag);
        row.state.last_modified = v.last_modified;
        row.digest = ContentDigest(RenderPageAt(host, page, t));
      }
      sink(row);
    }
  }
}

}  // namespace crawl::testweb
