// Universe: the synthetic web as a pure function of UniverseOptions
// (docs/DESIGN.md §10). No I/O. Nothing per page is stored: a small table
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
// Misbehaving hosts (options().misbehaviours; all off in "clean", all on in
// "misbehaving"). With link-farm on and at least 5 hosts, the last
// max(2, hosts/10) hosts are the farm, named farm<j>.spam.test; the others
// (index i) misbehave by a fixed pattern, the same for every seed:
//   robots-rules       i % 4 == 1   Allow, "*", "$", Crawl-delay: 1 (RobotsRich)
//   robots-5xx         i % 10 == 7  /robots.txt answers 500
//   robots-unreachable i % 10 == 9  /robots.txt: connection closed unanswered
//   redirects          i % 3 == 0   /redirect/CODE/HOPS/J (HOPS 1-3 hops to
//                                   page J), /loop/0/J <-> /loop/1/J
//   errors             i % 3 == 1   /error/CODE/J, CODE 404 410 500 503
//                                   (503 with Retry-After: 2)
//   slow               i % 8 == 5   1 s to the first byte, body in 10 pieces
//                                   150 ms apart (at most 2.5 s in all)
//   big-pages          i % 5 == 2   /big/J.html (Content-Length) and
//                                   /big-chunked/J.html (chunked), > 1 MiB
//   gzip               i % 2 == 0   gzip when Accept-Encoding allows it
//   non-html           i % 3 == 2   /files/J.pdf, /files/J.png, /files/J.txt
//   duplicates         i % 4 == 0   page links with ?sessionid=HEX or
//                                   ?utm_source=..&utm_medium=..&utm_campaign=..
//   soft-404           i % 6 == 3   unknown paths: 200 "not found"; /old/J.html
//                                   linked
//   malformed-html     i % 5 == 4   a third of the pages (and "/"): unclosed
//                                   tags, bad entities, stray bytes, a wrong
//                                   charset label in meta and header
//   traps              i % 7 == 3   "/" links /calendar/2026/11/ (prev/next
//                                   month forever) and /deep/a/ (a/ forever)
//   link-farm          i % 10 == 4  "/" links http://farm0.spam.test/ (the
//                                   farm's only in-links); farm pages link
//                                   only farm pages
//   https              i % 9 == 4   served and linked as https:// only (TLS,
//                                   self-signed certificate; the same port as
//                                   http, see server.h); http:// requests
//                                   answer 301 to the https URL
//   sitemaps           i % 4 == 2   robots.txt lists a sitemap: for
//                                   (i / 4) even /sitemap.xml (a urlset of
//                                   the first kSitemapPages allowed pages),
//                                   else /sitemap_index.xml naming
//                                   /sitemaps/1.xml.gz (gzip-compressed file,
//                                   application/gzip) and /sitemaps/2.xml,
//                                   the next kSitemapPages pages each
//   host-names         all hosts    see "Host names"
// Host names: host i is www.site<i>.test, except with host-names on:
//   i % 6 == 1  www.site<i>.co.test       (a two-label suffix)
//   i % 6 == 4  blog.site<i-1>.test       (same CLD as host i-1)
//   i % 6 == 5  shop.site<i-2>.test       (same CLD as host i-2 and i-1)
// and farm hosts, always farm<j>.spam.test.
// Links to these special URLs are appended to the text links of "/" and of
// a deterministic share of the host's pages.
//
// Hostile hosts (the hostile switches, all on in the "hostile" preset with
// traps; off in every other preset). Host i (not a farm host) with
// i % 10 == phase has one behaviour; its "/" links its hostile URLs (J a
// page of the host, drawn from the seed); all its other pages are normal:
//   slowloris      1  /slowloris/J.html: "HTTP/1.1 200 OK" then one header
//                     byte every 2 s, forever (never a complete header)
//   endless-body   2  /endless/J.html: 200, chunked, 64 KiB chunks forever
//   gzip-bomb      3  /bomb/J.html: Content-Encoding: gzip whatever the
//                     request accepts; 16 gzip members of 256 MiB of zero
//                     bytes each (about 4 MiB on the wire, 4 GiB decoded);
//                     and /bomb-docs/NAME: hostile PDFs, Office and
//                     OpenDocument packages and a feed
//                     (tests/testweb/document_bombs.h)
//   huge-headers   4  /huge-headers/J.html: 200 with 1 MiB of header lines
//   redirect-chain 5  /rloop/0 <-> /rloop/1 (302 loop) and /chain/N ->
//                     /chain/N+1 (302, forever)
//   link-flood     6  /flood.html: kFloodLinks links to /flood/K.html (small
//                     pages linking "/")
//   bad-bytes      7  /bytes/J.html: invalid UTF-8 (stray continuation,
//                     overlong, surrogate, 0xFF, cut sequence) and NUL bytes
//                     in title, text and hrefs; still links "/" and page J
//   huge-robots    8  robots.txt is 10 MiB, chunked (Range ignored): the
//                     host's rules, comment lines, and past kRobotsCutBytes a
//                     "User-agent: * / Disallow: /" group that a crawler
//                     reading beyond RFC 9309's 500 KiB would obey
//   sitemap-bomb   9  /bomb-sitemaps/index.xml: a sitemap index of
//                     kBombSitemaps gzip sitemaps of 50,500 URLs of ~1 KB
//                     (about 50 MB inflated each), a gzip sitemap inflating
//                     to 64 MiB and a sitemap of URLs over 2,048 bytes
//                     (tests/testweb/sitemap_bomb.h)
//   long-links     0  /long-links.html: kLongUrls links of 3,000 bytes
// The bombs list URLs under /bomb-items/, which robots.txt disallows.
// In the ground truth these URLs are of kind "hostile" (a crawler need not
// fetch them); /chain/ is cut at kTrapDepth hops and the hrefs made of bad
// bytes are left out (how a crawler repairs them is its business).
//
// Link spam (the "spam" preset; UniverseOptions spam_clds, farm_cld_hosts,
// deep_sites). The structures host budgeting is meant to resist, after IRLbot
// (Lee, Leonard, Wang, Loguinov, "IRLbot: Scaling to 6 Billion Pages and
// Beyond", WWW 2008 and ACM TWEB 3(3) 2009): its abstract names highly
// branching spam, legitimate sites of millions of pages and endless loops of
// server-side scripts as what BFS order and fixed per-host limits cannot
// cope with; its answer is budgets per pay-level domain (PLD, our
// CLD) grown from the PLD's in-degree from other PLDs (STAR), since a
// spammer makes host names for free but pays for every PLD.
//   (a) spam CLDs     www.spam<k>.test, k < spam_clds, one CLD each: IRLbot's
//                     spam PLDs, which link to each other (to raise their
//                     in-degree from other PLDs, what STAR counts) and to
//                     themselves, with unbounded dynamically generated pages.
//                     Truth kind "spam".
//   (b) one-CLD farm  h<j>.linkfarm.test, j < farm_cld_hosts: a link farm
//                     on ONE CLD with many hosts (IRLbot's case for budgets
//                     per PLD, not per host: the host names cost nothing).
//                     Dynamic pages as (a), linking only the farm's hosts.
//                     Truth kind "farm" (as the misbehaving preset's farm).
//   (c) deep sites    hosts seed_hosts .. seed_hosts+deep_sites-1: a few
//                     high-quality hosts with deep sites (IRLbot's
//                     legitimate sites of millions of pages, which a
//                     budget must not starve): deep_share_permille of the pages in
//                     all, tree fan-out 2 (depth ~log2 of the size), and
//                     deep_link_permille of every cross-host link, so many
//                     CLDs link them. Truth kind "normal".
// The spam hosts (a) and (b) are the last hosts, (a) before (b). Their
// pages form an endless tree of fan-out kSpamFanout: page i (0 is "/") at
// level L is /s<L>/p<i>.html; it links its kSpamFanout children on its own
// host, kSpamCrossLinks pages of level L+1 (or roots) of other hosts of its
// structure, and its own "/". Levels run to kSpamMaxLevel (about 10^17
// pages per host: unbounded for a crawler). Normal pages reach the spam by
// one link to a spam root on spam_link_permille of them (comment spam).
// The ground truth cuts the spam at level kSpamTruthLevels, as it cuts
// traps; a crawler that goes further fetches URLs the truth does not list
// (tests/bench/order_quality.py classifies them by host name).
//
// Ground truth (Walk): breadth-first from the seeds over followable links,
// robots ignored for listing but disallowed URLs not expanded; the first
// time the walk meets a host with a sitemap, the sitemap URL follows (one
// hop deeper), as a crawler finds it in robots.txt; sitemaps are of kind
// "non-html" and link the URLs they list. Traps are
// cut for this purpose at kTrapMonths months either side of 2026/11 and at
// kTrapDepth levels of /deep/: links beyond are left out.
//
// Change model (off unless UniverseOptions::change_mean_interval_s > 0;
// clean and bench webs only; formulas in change_model.h). Time t is seconds
// since the web's epoch (server start, or a logical clock). Each page of a
// normal host has a heavy-tailed change rate and a version(t), the number of
// its change events at or before t; version v > 0 redraws its title and text
// (links and anchors stay), so an indexer sees new words and loses old ones.
// Non-root leaves may be born late or die (404, or 410); every link to a page
// not alive at t is left out of Links(host, page, t), so the graph at t
// holds only live pages. ServeAt answers with the page at t (PageStateAt:
// status, version, Last-Modified); request_handler.h adds ETag, Last-Modified
// and 304s. Functions taking t default to t = 0; with the model off, t is
// ignored and every page is at version 0, alive, as before.
//
// Thread-safety: all methods are const and safe to call concurrently.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"
#include "tests/testweb/change_model.h"
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
  bool nav = false;      // a tree link (parent or child) in the page's nav list
  PageRef target;        // for a special link: the page its URL is about
  bool special = false;  // a misbehaviour URL (redirect, error, file, trap...), not a page
};

// What lives at a (host, request target) of a misbehaving web.
struct Resource {
  enum class Type {
    kNotFound,   // 404 (or a soft 404 on soft-404 hosts)
    kPage,       // a page (`page`)
    kDuplicate,  // a page (`page`) reached with tracking parameters
    kRedirect,   // `status` 301/302/307/308 to `location`
    kError,      // `status` 404/410/500/503
    kNonHtml,    // `ext` pdf, png or txt, about page `page`
    kBigPage,    // > 1 MiB of HTML linking "/" and `page`; `chunked`
    kCalendar,   // /calendar/`year`/`month`/
    kDeep,       // /deep/ + `depth` times "a/"
    kSitemap,    // a urlset of pages [page, page + kSitemapPages) (`ext` "xml"
                 // or "xml.gz": gzip-compressed file), or an index (`ext` "index")
    kHostile,    // a hostile URL (`hostile`), about page `page`; `depth` is
                 // the N of /chain/N, the K of /flood/K.html, the side of /rloop/
  };
  enum class Hostile {
    kNone,
    kSlowloris,
    kEndless,
    kBomb,
    kHugeHeaders,
    kLoop,
    kChain,
    kFlood,
    kFloodItem,
    kBadBytes,
    kSitemapIndex,  // /bomb-sitemaps/index.xml
    kBigSitemap,    // /bomb-sitemaps/big-K.xml.gz, K in `depth`
    kInflateBomb,   // /bomb-sitemaps/inflate.xml.gz
    kLongSitemap,   // /bomb-sitemaps/long.xml
    kLongLinks,     // /long-links.html
    kDocumentBomb,  // /bomb-docs/NAME: kDocumentBombs[depth] (document_bombs.h)
  };
  Type type = Type::kNotFound;
  uint64_t page = 0;
  unsigned status = 200;
  std::string location;  // kRedirect: an absolute URL
  std::string ext;
  bool chunked = false;
  int year = 0;
  int month = 0;
  uint64_t depth = 0;
  Hostile hostile = Hostile::kNone;
};

// An HTTP answer of a misbehaving web, before transport effects (slow,
// gzip, ranges: see request_handler.h).
struct Served {
  unsigned status = 200;
  std::string content_type;
  std::string body;
  std::string location;      // Location header, if not empty
  uint32_t retry_after = 0;  // Retry-After seconds, if not 0
  bool chunked = false;      // send without Content-Length
  bool close = false;        // close the connection without answering
  // Hostile answers (see "Hostile hosts"); the server produces the bytes.
  enum class Stream {
    kNone,
    kSlowloris,    // the status line, then one header byte every 2 s, forever
    kEndlessBody,  // a 200 header, then chunks forever
  };
  Stream stream = Stream::kNone;
  std::string content_encoding;      // body already encoded so ("gzip"): sent as is
  uint64_t filler_header_bytes = 0;  // header lines of filler to add (huge-headers)
  // Change model (ServeAt, live pages only): strong ETag, and Last-Modified
  // in seconds after the epoch of change_model.h. Empty/unset otherwise.
  std::string etag;
  std::optional<double> last_modified;
};

// One URL of the ground truth, in breadth-first order.
struct WalkedUrl {
  std::string url;
  std::string_view kind;              // normal farm spam trap duplicate disallowed error redirect
                                      // non-html hostile
  uint32_t depth = 0;                 // link hops from the nearest seed
  bool allowed = true;                // robots let a crawler obeying "*" fetch it
  std::vector<std::string> outlinks;  // followable, each once, page order; empty if disallowed
};

// Trap cuts of the ground truth (see above).
inline constexpr int kTrapMonths = 24;
inline constexpr uint64_t kTrapDepth = 20;
// Link spam (see "Link spam"): tree fan-out, links to other hosts of the
// structure per page, the deepest level served, the truth's cut.
inline constexpr uint64_t kSpamFanout = 5;
inline constexpr uint64_t kSpamCrossLinks = 3;
inline constexpr uint64_t kSpamMaxLevel = 24;
inline constexpr uint64_t kSpamTruthLevels = 2;
// Pages of a spam host: the tree's nodes of levels 0..kSpamMaxLevel.
inline constexpr uint64_t SpamPageSpace() {
  uint64_t total = 0, level = 1;
  for (uint64_t l = 0; l <= kSpamMaxLevel; ++l, level *= kSpamFanout) total += level;
  return total;
}
// Pages per sitemap file.
inline constexpr uint64_t kSitemapPages = 50;
// Hostile hosts: links of /flood.html, size of a huge robots.txt and where
// its disallow-everything group starts, header filler of /huge-headers/.
inline constexpr uint64_t kFloodLinks = 10'000;
inline constexpr uint64_t kHugeRobotsBytes = 10ULL << 20;
inline constexpr uint64_t kRobotsCutBytes = 600ULL << 10;
inline constexpr uint64_t kHugeHeaderBytes = 1ULL << 20;

// One page of the web at time t (`testweb export --at T --versions`):
// status 200/404/410 and, if alive, its version, and Universe::ValidatorsAt
// (state.last_modified is then the validators' Last-Modified) and the
// ContentDigest of the body served at t.
struct VersionRow {
  std::string url;
  PageState state;
  std::string etag;    // "" unless alive
  std::string digest;  // "" unless alive
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

  // "www.site<host>.test", or "farm<j>.spam.test" for a link-farm host
  // (and with host-names on, see "Host names" above).
  // REQUIRES: host < HostCount().
  [[nodiscard]] std::string HostName(uint32_t host) const;
  // Whether a host is served (and linked) over https only.
  [[nodiscard]] bool IsHttps(uint32_t host) const { return HostHas(host, Misbehaviour::kHttps); }
  // "http://" or "https://".
  [[nodiscard]] std::string_view SchemePrefix(uint32_t host) const {
    return IsHttps(host) ? "https://" : "http://";
  }
  // "http://www.site3.test" (scheme and host name, no slash).
  [[nodiscard]] std::string Origin(uint32_t host) const {
    return std::string(SchemePrefix(host)) + HostName(host);
  }
  // Whether a URL with this scheme and port is one of `host`'s URLs: its
  // scheme and that scheme's default port.
  [[nodiscard]] bool SchemeMatches(uint32_t host, std::string_view scheme, uint16_t port) const {
    return IsHttps(host) ? scheme == "https" && port == 443 : scheme == "http" && port == 80;
  }
  // The sitemap URL robots.txt lists for `host`, if any (sitemaps).
  [[nodiscard]] std::optional<std::string> SitemapUrl(uint32_t host) const;
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

  // The links of a page at time t, in the order they appear in its HTML
  // (with the change model, links to pages not alive at t are left out).
  [[nodiscard]] std::vector<Link> Links(uint32_t host, uint64_t page, double t = 0) const;

  // The HTML of a page at time t (text/html; charset=utf-8): its version
  // at t (see "Change model"). REQUIRES: the page is alive at t.
  [[nodiscard]] std::string RenderPageAt(uint32_t host, uint64_t page, double t = 0) const;

  // The change model (universe_change.cc). Whether a page may be born or
  // die: a non-root leaf of a host's tree, change model on.
  [[nodiscard]] const ChangeModel& change_model() const { return change_; }
  [[nodiscard]] bool IsMortal(uint32_t host, uint64_t page) const;
  [[nodiscard]] PageState PageStateAt(uint32_t host, uint64_t page, double t) const;
  // The validators of a page alive at t. Its bytes depend on its version and
  // on which of its link targets live at t, so both make the strong ETag
  // (ChangeModel::ETag), and a target's birth or death at or before t is a
  // change of the page too: Last-Modified is the latest of the page's own
  // (PageState::last_modified) and those. REQUIRES: alive at t.
  struct Validators {
    std::string etag;
    double last_modified = 0;
  };
  [[nodiscard]] Validators ValidatorsAt(uint32_t host, uint64_t page, double t) const;
  // Serve(host, target) at time t. With the model on, a page not alive at t
  // answers its status (404/410), a live one its version at t with its
  // validators (Served::etag, last_modified).
  [[nodiscard]] Served ServeAt(uint32_t host, std::string_view target, double t) const;
  // One row per page of the web at t (alive or not): see VersionRow.
  void ExportVersionsTo(const std::function<void(const VersionRow&)>& sink, double t) const;
  // The HTML served at `path`, or nullopt (404) when no page lives there.
  [[nodiscard]] std::optional<std::string> RenderPage(uint32_t host, std::string_view path) const;

  // robots.txt of a host, as text and as rules.
  // (With sitemaps on, robots.txt also names the host's sitemap.)
  [[nodiscard]] std::string RobotsTxt(uint32_t host) const;
  [[nodiscard]] const RobotsRules& Robots(uint32_t host) const;
  // Whether a crawler that no robots group names (it obeys "User-agent: *")
  // may fetch `url`. False for URLs outside this web.
  [[nodiscard]] bool IsAllowed(std::string_view url) const;
  [[nodiscard]] bool IsPageAllowed(uint32_t host, uint64_t page) const;

  // Whether `host` shows misbehaviour `m` (see "Misbehaving hosts").
  [[nodiscard]] bool HostHas(uint32_t host, Misbehaviour m) const;
  // The misbehaving preset's link farm (farm<j>.spam.test).
  [[nodiscard]] bool IsFarmHost(uint32_t host) const { return host >= first_farm_ && host < first_spam_; }
  // Link spam (see "Link spam"): (a), (b), either, (c).
  [[nodiscard]] bool IsSpamCldHost(uint32_t host) const {
    return host >= first_spam_ && host < first_cld_farm_;
  }
  [[nodiscard]] bool IsCldFarmHost(uint32_t host) const {
    return host >= first_cld_farm_ && host < HostCount();
  }
  [[nodiscard]] bool IsDynamicSpamHost(uint32_t host) const {
    return host >= first_spam_ && host < HostCount();
  }
  [[nodiscard]] bool IsDeepSite(uint32_t host) const {
    return host >= options_.seed_hosts && host - options_.seed_hosts < options_.deep_sites;
  }
  // The link level of a page of a spam host (0 for "/").
  [[nodiscard]] static uint64_t SpamLevel(uint64_t page);

  // What a request target (path and query) of `host` is. In "clean" only
  // pages and kNotFound exist.
  [[nodiscard]] Resource Resolve(uint32_t host, std::string_view target) const;
  // The answer to GET `target` on `host`, /robots.txt included.
  [[nodiscard]] Served Serve(uint32_t host, std::string_view target) const;

  // Where a crawl starts: the root URLs of hosts 0..min(hosts, seed_hosts)-1.
  [[nodiscard]] std::vector<std::string> Seeds() const;

  // The graph a polite crawler can reach from Seeds(): breadth-first, pages
  // in discovery order; robots-disallowed pages are neither listed nor
  // expanded; nofollow links are neither followed nor listed; each page's
  // out-links are its followable links to allowed pages, each once, in page
  // order. So every out-link of a listed page is itself listed.
  // `sink` is called once per page, in order (streams large webs).
  // With the change model: the graph at time t (pages alive at t).
  void ExportTo(
      const std::function<void(const std::string& url, const std::vector<std::string>& outlinks)>& sink,
      double t = 0) const;
  // In a misbehaving web this is Walk() restricted to allowed URLs: a
  // redirect's out-link is its Location, error pages and files have none,
  // traps are cut as in Walk(). In "clean" it is exactly the walk above.
  [[nodiscard]] std::vector<ExportedPage> Export() const;

  // The ground truth: every URL reachable from Seeds() through followable
  // links (see "Ground truth" above), `sink` called once per URL in
  // breadth-first order.
  void Walk(const std::function<void(const WalkedUrl&)>& sink) const;

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

  void AppendSpecialLinks(uint32_t host, uint64_t page, std::vector<Link>& links) const;
  [[nodiscard]] std::vector<std::string> ResourceLinks(uint32_t host, const Resource& r) const;
  [[nodiscard]] std::string RenderBigPage(uint32_t host, uint64_t page) const;
  // The XML of a sitemap resource (uncompressed).
  [[nodiscard]] std::string RenderSitemap(uint32_t host, const Resource& r) const;
  // The URLs a sitemap resource lists.
  [[nodiscard]] std::vector<std::string> SitemapLinks(uint32_t host, const Resource& r) const;
  [[nodiscard]] std::string Mangle(std::string html) const;
  // Hostile hosts (universe_hostile.cc).
  void AppendHostileLinks(uint32_t host, std::vector<Link>& links) const;
  [[nodiscard]] std::optional<Resource> ResolveHostile(uint32_t host, std::string_view path) const;
  [[nodiscard]] std::optional<Resource> ResolveSitemapBomb(uint32_t host, std::string_view path) const;
  [[nodiscard]] Served ServeHostile(uint32_t host, const Resource& r) const;
  [[nodiscard]] std::vector<std::string> HostileLinks(uint32_t host, const Resource& r) const;
  [[nodiscard]] std::string HugeRobotsTxt(uint32_t host) const;
  // Link spam (universe_spam.cc).
  [[nodiscard]] std::vector<Link> SpamLinks(uint32_t host, uint64_t page) const;
  [[nodiscard]] std::string SpamPagePath(uint64_t page) const;
  [[nodiscard]] std::optional<uint64_t> LookupSpamPath(std::string_view path) const;
  [[nodiscard]] std::optional<std::string> SpamHostName(uint32_t host) const;
  [[nodiscard]] std::optional<uint32_t> SpamHostIndex(std::string_view name) const;
  // The link from a normal page into the spam, if the page carries one.
  [[nodiscard]] std::optional<Link> SpamEntryLink(uint32_t host, uint64_t page) const;
  // A deep site drawn for a cross-host link, if the draw picks one.
  [[nodiscard]] std::optional<uint32_t> DrawDeepSite(Rng& rng) const;
  // Host sizes: Zipf over the normal hosts, the deep sites' share apart.
  [[nodiscard]] static std::vector<uint64_t> HostSizes(const UniverseOptions& options, uint64_t normal_hosts);
  void ExportMisbehavingTo(
      const std::function<void(const std::string&, const std::vector<std::string>&)>& sink) const;

  [[nodiscard]] bool IsPrivate(uint32_t host, uint64_t page) const;
  // The links of a page whatever lives (Links() before the change model's filter).
  [[nodiscard]] std::vector<Link> AllLinks(uint32_t host, uint64_t page) const;
  // Erases the (non-special) links whose target is not alive at t.
  void DropDeadLinks(std::vector<Link>& links, double t) const;
  // One past the misbehaving preset's farm hosts.
  [[nodiscard]] uint32_t FarmEnd() const { return std::min<uint32_t>(first_spam_, HostCount()); }
  [[nodiscard]] uint32_t HostOfGlobal(uint64_t global) const;
  [[nodiscard]] std::string MakeHref(uint32_t from_host, const std::string& from_path, PageRef to,
                                     const std::string& to_path, Rng& rng) const;
  // One word of host text (vocabulary or host topic), not `previous` again.
  [[nodiscard]] std::string_view DrawWord(Rng& rng, uint32_t host, std::string_view previous) const;
  [[nodiscard]] std::string Words(Rng& rng, uint64_t n, uint32_t host) const;
  // Paragraphs of corpus text until html reaches target_size and every link
  // from links[next] on is placed.
  void AppendCorpusText(Rng& rng, uint32_t host, const std::vector<Link>& links, size_t next,
                        size_t target_size, std::string& html) const;

  UniverseOptions options_;
  ChangeModel change_;  // off unless options_.change_mean_interval_s > 0
  std::vector<Host> hosts_;
  std::vector<RobotsRules> robots_;               // the distinct robots.txt variants
  std::shared_ptr<const Vocabulary> vocabulary_;  // shared: Universe is cheap to copy
  // corpus_text: sentences "Word word ... word. " back to back, and where
  // each starts (plus the end), drawn once from the seed.
  struct Corpus {
    std::string text;
    std::vector<uint32_t> starts;
  };
  std::shared_ptr<const Corpus> corpus_;
  uint32_t first_farm_ = UINT32_MAX;      // hosts from it to first_spam_ are the link farm
  uint32_t first_spam_ = UINT32_MAX;      // link spam: spam CLDs from here ...
  uint32_t first_cld_farm_ = UINT32_MAX;  // ... the one-CLD farm from here to the end
};

}  // namespace crawl::testweb
