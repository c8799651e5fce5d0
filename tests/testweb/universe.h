// Universe: the synthetic web as a pure function of UniverseOptions
// (DESIGN.md section 10). No I/O. Nothing per page is stored: a small table
// per host (size, tree fan-out, directory depth, robots variant, topics) plus
// hashing of (seed, host, page, purpose) generate any page on demand, so the
// same code serves 2,000 pages or 1,000,000.
//
// Shape of a host with n pages:
//   - pages 0..n-1 form a tree with fan-out F (per host): parent(i) = (i-1)/F;
//     every page links all its children, so every page is reachable from "/"
//     by same-host links (pages under /private/ are leaves, so robots rules
//     cut off no one else);
//   - page 0 is "/", page i > 0 is "/[private/][prefix/]a3/b1/p<i>.html": one
//     directory per tree ancestor, up to a per-host depth;
//   - further links: random same-host pages and ~10% cross-host pages, the
//     host chosen with probability proportional to its size (preferential
//     attachment), the page log-uniformly (P(i) ~ 1/(i+1)), so in-degrees
//     follow a power law.
// Host sizes follow Zipf (exponent ~1) over host index: host 0 is largest.
//
// Thread-safety: all methods are const and safe to call concurrently.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "tests/testweb/robots_rules.h"
#include "tests/testweb/universe_options.h"
#include "tests/testweb/vocabulary.h"

namespace crawl::testweb {

// One page: a host index and a page index within that host.
struct PageRef {
  uint32_t host = 0;
  uint64_t page = 0;
  friend bool operator==(const PageRef&, const PageRef&) = default;
};

// One <a href> of a page, in page order.
struct Link {
  std::string href;    // as written in the HTML (relative, absolute, #fragment...)
  std::string url;     // href resolved against the page URL: canonical, absolute
  std::string anchor;  // anchor text
  bool nofollow = false;
  bool nav = false;  // a tree link (parent or child) in the page's nav list
  PageRef target;
};

// One line of the export: a reachable page and its followable out-links.
struct ExportedPage {
  std::string url;
  std::vector<std::string> outlinks;
};

class Universe {
 public:
  // Applies nothing: `options` must already carry its preset's knobs (see
  // ApplyPreset). Fails with InvalidArgument when Validate() does.
  [[nodiscard]] static Result<Universe> Create(const UniverseOptions& options);

  [[nodiscard]] const UniverseOptions& options() const { return options_; }
  [[nodiscard]] uint32_t HostCount() const { return static_cast<uint32_t>(hosts_.size()); }
  [[nodiscard]] uint64_t TotalPages() const { return options_.pages; }

  // "www.site<host>.test". REQUIRES: host < HostCount().
  [[nodiscard]] std::string HostName(uint32_t host) const;
  // The index of a host name (lower-case, exact form), if it is in this web.
  [[nodiscard]] std::optional<uint32_t> HostIndex(std::string_view name) const;

  // REQUIRES (all below taking host/page): host < HostCount(), page < PageCount(host).
  [[nodiscard]] uint64_t PageCount(uint32_t host) const { return hosts_[host].pages; }
  [[nodiscard]] std::string PagePath(uint32_t host, uint64_t page) const;
  [[nodiscard]] std::string PageUrl(uint32_t host, uint64_t page) const;
  // The tree parent of a page (page 0 has none).
  [[nodiscard]] std::optional<uint64_t> ParentPage(uint32_t host, uint64_t page) const;

  // The page served at `path` (the request target), if any.
  [[nodiscard]] std::optional<uint64_t> LookupPath(uint32_t host, std::string_view path) const;
  // The page of an absolute URL ("http://www.site3.test/p7.html"), if any.
  [[nodiscard]] std::optional<PageRef> LookupUrl(std::string_view url) const;

  // The links of a page, in the order they appear in its HTML.
  [[nodiscard]] std::vector<Link> Links(uint32_t host, uint64_t page) const;

  // The HTML of a page (text/html; charset=utf-8).
  [[nodiscard]] std::string RenderPageAt(uint32_t host, uint64_t page) const;
  // The HTML served at `path`, or nullopt (404) when no page lives there.
  [[nodiscard]] std::optional<std::string> RenderPage(uint32_t host, std::string_view path) const;

  // robots.txt of a host, as text and as rules.
  [[nodiscard]] std::string RobotsTxt(uint32_t host) const { return Robots(host).Render(); }
  [[nodiscard]] const RobotsRules& Robots(uint32_t host) const;
  // Whether a crawler that no robots group names (it obeys "User-agent: *")
  // may fetch `url`. False for URLs outside this web.
  [[nodiscard]] bool IsAllowed(std::string_view url) const;
  [[nodiscard]] bool IsPageAllowed(uint32_t host, uint64_t page) const;

  // Where a crawl starts: the root URLs of hosts 0..min(hosts, seed_hosts)-1.
  [[nodiscard]] std::vector<std::string> Seeds() const;

  // The graph a polite crawler can reach from Seeds(): breadth-first, pages
  // in discovery order; robots-disallowed pages are neither listed nor
  // expanded; nofollow links are neither followed nor listed; each page's
  // out-links are its followable links to allowed pages, each once, in page
  // order. So every out-link of a listed page is itself listed.
  // `sink` is called once per page, in order (streams large webs).
  void ExportTo(const std::function<void(const std::string& url, const std::vector<std::string>& outlinks)>&
                    sink) const;
  [[nodiscard]] std::vector<ExportedPage> Export() const;

 private:
  struct Host {
    uint64_t pages = 0;
    uint64_t first = 0;            // global index of page 0 (prefix sum)
    uint32_t fanout = 0;           // tree fan-out F
    uint32_t dir_depth = 0;        // directory levels at most
    uint32_t prefix = 0;           // index into the path prefix list
    uint32_t robots = 0;           // index into robots_
    std::vector<uint32_t> topics;  // indexes into Vocabulary::Topic
  };

  Universe() = default;

  [[nodiscard]] bool IsPrivate(uint32_t host, uint64_t page) const;
  [[nodiscard]] uint32_t HostOfGlobal(uint64_t global) const;
  [[nodiscard]] std::string MakeHref(uint32_t from_host, const std::string& from_path, PageRef to,
                                     const std::string& to_path, Rng& rng) const;
  // One word of host text (vocabulary or host topic), not `previous` again.
  [[nodiscard]] std::string_view DrawWord(Rng& rng, uint32_t host, std::string_view previous) const;
  [[nodiscard]] std::string Words(Rng& rng, uint64_t n, uint32_t host) const;

  UniverseOptions options_;
  std::vector<Host> hosts_;
  std::vector<RobotsRules> robots_;               // the distinct robots.txt variants
  std::shared_ptr<const Vocabulary> vocabulary_;  // shared: Universe is cheap to copy
};

}  // namespace crawl::testweb
