// Presets and validation of UniverseOptions; see universe_options.h.
#include "tests/testweb/universe_options.h"

namespace crawl::testweb {
namespace {

// Generous bounds: what loopback addressing and 32-bit page indexes allow,
// far beyond what a test needs.
constexpr uint64_t kMaxHosts = 1'000'000;
constexpr uint64_t kMaxPages = 1'000'000'000;

}  // namespace

std::vector<std::string> PresetNames() { return {"clean"}; }

Status ApplyPreset(UniverseOptions& options) {
  if (options.preset == "clean") {
    // The defaults of UniverseOptions are the clean web: nothing misbehaves.
    return Status::Ok();
  }
  std::string known;
  for (const auto& name : PresetNames()) known += (known.empty() ? "" : ", ") + name;
  return Status::InvalidArgument("unknown preset '" + options.preset + "' (known: " + known + ")");
}

Status Validate(const UniverseOptions& o) {
  if (o.hosts == 0) return Status::InvalidArgument("hosts must be at least 1");
  if (o.hosts > kMaxHosts)
    return Status::InvalidArgument("hosts must be at most " + std::to_string(kMaxHosts));
  if (o.pages < o.hosts)
    return Status::InvalidArgument("pages (" + std::to_string(o.pages) + ") must be at least hosts (" +
                                   std::to_string(o.hosts) + ")");
  if (o.pages > kMaxPages)
    return Status::InvalidArgument("pages must be at most " + std::to_string(kMaxPages));
  if (o.page_kb == 0 || o.page_kb > 1024) return Status::InvalidArgument("page size must be 1..1024 KiB");
  if (o.min_links > o.max_links) return Status::InvalidArgument("min_links exceeds max_links");
  if (o.host_size_exponent < 0 || o.host_size_exponent > 4)
    return Status::InvalidArgument("host size exponent must be in [0, 4]");
  for (uint32_t p : {o.cross_host_permille, o.nofollow_permille, o.fragment_permille, o.private_permille}) {
    if (p > 1000) return Status::InvalidArgument("a per-mille knob exceeds 1000");
  }
  if (o.seed_hosts == 0) return Status::InvalidArgument("seed_hosts must be at least 1");
  if (o.vocabulary_size == 0) return Status::InvalidArgument("vocabulary_size must be at least 1");
  return Status::Ok();
}

}  // namespace crawl::testweb
