// What a synthetic web looks like: its size, its seed and the knobs a preset
// sets (docs/DESIGN.md §10). The preset "clean" is a well-behaved web; the
// preset "misbehaving" switches every misbehaviour on (see Misbehaviour);
// each can then be switched off or on alone (testweb --disable/--enable).
// Universe and Server only ever read options, never preset names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"

namespace crawl::testweb {

// One way a web misbehaves; a bit in UniverseOptions::misbehaviours. Which
// hosts and pages misbehave is a fixed function of the host index (see
// universe.h, "Misbehaving hosts"), the same for every seed.
enum class Misbehaviour : uint32_t {
  kRobotsRules = 0,    // robots.txt with Allow, "*", "$" and Crawl-delay
  kRobots5xx,          // robots.txt answers 500
  kRobotsUnreachable,  // robots.txt request: connection closed, no answer
  kRedirects,          // 301/302/307/308 chains of 1-3 hops, and loops
  kErrors,             // linked pages answering 404/410/500/503 (+Retry-After)
  kSlow,               // 1 s before the first byte, body trickled over ~1.5 s
  kBigPages,           // pages over 1 MiB, with Content-Length and chunked
  kGzip,               // Content-Encoding: gzip when the client accepts it
  kNonHtml,            // linked application/pdf, image/png, text/plain files
  kDuplicates,         // links with sessionid / utm_* parameters: same body
  kSoft404,            // unknown paths answer 200 "not found" (and are linked)
  kMalformedHtml,      // unclosed tags, bad entities, stray bytes, wrong charset
  kTraps,              // endless /calendar/Y/M/ and /deep/a/a/.../
  kLinkFarm,           // farm<j>.spam.test hosts, densely linked, few in-links
  kHttps,              // https-only hosts with a self-signed certificate
  kSitemaps,           // Sitemap: lines in robots.txt; XML, index, gzip-compressed
  kHostNames,          // blog./shop. hosts sharing a CLD, www.site<i>.co.test names
  // Hostile hosts (the "hostile" preset; universe.h "Hostile hosts"): each
  // one of these, on host i % 10 == phase, attacks the crawler's limits.
  kSlowloris,      // /slowloris/J.html: headers trickled a byte every 2 s, forever
  kEndlessBody,    // /endless/J.html: a chunked body that never ends
  kGzipBomb,       // /bomb/J.html: Content-Encoding: gzip inflating to 4 GiB
  kHugeHeaders,    // /huge-headers/J.html: 1 MiB of header lines
  kRedirectChain,  // /rloop/0 <-> /rloop/1 and /chain/N -> /chain/N+1 forever
  kLinkFlood,      // /flood.html: 10,000 links (to /flood/K.html)
  kBadBytes,       // /bytes/J.html: invalid UTF-8 and NUL bytes in text, title, hrefs
  kHugeRobots,     // robots.txt of 10 MiB, chunked, "Disallow: /" past 500 KiB
  kSitemapBomb,    // /bomb-sitemaps/: an index of sitemaps past 50,000 URLs and 50 MB
  kLongLinks,      // /long-links.html: links over 2,048 bytes
  kCount,
};

// "robots-rules", "robots-5xx", ... in enum order.
[[nodiscard]] std::string_view MisbehaviourName(Misbehaviour m);
[[nodiscard]] std::vector<std::string> MisbehaviourNames();
// The misbehaviours of the "misbehaving" preset: every one before kSlowloris.
[[nodiscard]] uint32_t MisbehavingSet();
// The misbehaviours of the "hostile" preset: kSlowloris..kHugeRobots and kTraps.
[[nodiscard]] uint32_t HostileSet();
// Sets or clears the bits named in `list` (comma-separated names, or
// "all": every misbehaviour, hostile ones included). InvalidArgument naming the known ones on an unknown
// name.
[[nodiscard]] Status SetMisbehaviours(uint32_t& mask, std::string_view list, bool on);

struct UniverseOptions {
  // Identity: the same seed, hosts, pages and preset (plus misbehaviours,
  // below, if changed after the preset) always give the same web.
  uint64_t seed = 1;
  uint64_t hosts = 1;  // host i is www.site<i>.test
  uint64_t pages = 1;  // in total over all hosts; REQUIRES pages >= hosts
  std::string preset = "clean";

  // Shape (set by the preset; tests may override).
  double host_size_exponent = 1.0;     // Zipf exponent of host sizes
  uint32_t page_kb = 4;                // median page size in KiB (1..1024)
  uint32_t min_links = 5;              // links per page, uniform in [min, max]
  uint32_t max_links = 15;             //   (a page links all its tree children too)
  uint32_t cross_host_permille = 100;  // share of non-tree links to other hosts
  uint32_t nofollow_permille = 40;     // share of non-tree links with rel=nofollow
  uint32_t fragment_permille = 50;     // share of hrefs with a #fragment
  uint32_t private_permille = 40;      // share of leaf pages under /private/
  uint32_t seed_hosts = 3;             // seeds: the roots of hosts 0..seed_hosts-1
  uint32_t vocabulary_size = 1000;     // distinct words in page text
  // Page text: false draws every word (the clean web's text); true copies
  // whole sentences from a corpus drawn once per universe from the same
  // Zipf vocabulary, each paragraph led by a host topic word, which is
  // ~15x cheaper per byte (what 20 KB pages at 20,000 requests/s need).
  bool corpus_text = false;
  uint32_t misbehaviours = 0;  // bits: 1 << Misbehaviour; 0 in "clean"

  // Link-spam structures (universe.h "Link spam"; all 0 except in "spam").
  // The spam hosts are the last spam_clds + farm_cld_hosts of `hosts`.
  uint32_t spam_clds = 0;            // IRLbot spam CLDs: www.spam<k>.test, one CLD each
  uint32_t farm_cld_hosts = 0;       // hosts of the one-CLD farm: h<j>.linkfarm.test
  uint32_t spam_link_permille = 0;   // share of normal pages with one link into the spam
  uint32_t deep_sites = 0;           // high-quality deep sites: hosts seed_hosts..+deep_sites-1
  uint32_t deep_share_permille = 0;  // share of `pages` the deep sites hold together
  uint32_t deep_link_permille = 0;   // share of cross-host links that go to a deep site

  // The change model (change_model.h; universe.h "Change model"): pages
  // change, appear and disappear over time, with a median interval between
  // changes of this many seconds. 0 (the default, every preset): off, the
  // web is static and byte-identical to what it was without the model.
  // Only without misbehaviours and link spam (Validate).
  double change_mean_interval_s = 0;

  [[nodiscard]] bool Has(Misbehaviour m) const { return (misbehaviours >> static_cast<uint32_t>(m)) & 1U; }
};

// The preset names this version knows:
//   clean        nothing misbehaves; 4 KiB median pages, word-by-word text
//                (the foundation's web, unchanged)
//   misbehaving  every misbehaviour on; 20 KiB median pages, corpus text
//   bench        nothing misbehaves; 20 KiB median pages, corpus text (the
//                realistic sizes for scale and load benchmarks)
//   hostile      the hostile switches (slowloris ... huge-robots) and traps on,
//                among normal hosts; 8 KiB median pages, corpus text
//   spam         the link-spam structures host budgeting must resist (universe.h
//                "Link spam": IRLbot spam CLDs, a farm of many hosts on one CLD,
//                a few high-quality deep sites) and traps; 8 KiB median pages,
//                corpus text. The structure sizes follow options.hosts, so set
//                hosts before ApplyPreset.
[[nodiscard]] std::vector<std::string> PresetNames();

// Sets the shape fields of `options` for `options.preset`.
// Unknown preset -> InvalidArgument naming the known ones.
[[nodiscard]] Status ApplyPreset(UniverseOptions& options);

// Checks sizes and knobs; InvalidArgument with a one-line reason otherwise.
[[nodiscard]] Status Validate(const UniverseOptions& options);

}  // namespace crawl::testweb
