// What a synthetic web looks like: its size, its seed and the knobs a preset
// sets (DESIGN.md section 10). The preset "clean" is a well-behaved web;
// later presets switch misbehaviours on (Crawl-delay, redirects, errors, slow
// answers, traps...) by setting fields here, so Universe and Server only ever
// read options, never preset names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace crawl::testweb {

struct UniverseOptions {
  // Identity: the same four values always give the same web.
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
};

// The preset names this version knows.
[[nodiscard]] std::vector<std::string> PresetNames();

// Sets the shape fields of `options` for `options.preset`.
// Unknown preset -> InvalidArgument naming the known ones.
[[nodiscard]] Status ApplyPreset(UniverseOptions& options);

// Checks sizes and knobs; InvalidArgument with a one-line reason otherwise.
[[nodiscard]] Status Validate(const UniverseOptions& options);

}  // namespace crawl::testweb
