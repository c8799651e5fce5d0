// Presets and validation of UniverseOptions; see universe_options.h.
#include "tests/testweb/universe_options.h"

#include <algorithm>
#include <iterator>

namespace crawl::testweb {
namespace {

// Generous bounds: what loopback addressing and 32-bit page indexes allow,
// far beyond what a test needs.
constexpr uint64_t kMaxHosts = 1'000'000;
constexpr uint64_t kMaxPages = 1'000'000'000;

constexpr std::string_view kMisbehaviourNames[] = {
    "robots-rules",   "robots-5xx",   "robots-unreachable",
    "redirects",      "errors",       "slow",
    "big-pages",      "gzip",         "non-html",
    "duplicates",     "soft-404",     "malformed-html",
    "traps",          "link-farm",    "https",
    "sitemaps",       "host-names",   "slowloris",
    "endless-body",   "gzip-bomb",    "huge-headers",
    "redirect-chain", "link-flood",   "bad-bytes",
    "huge-robots",    "sitemap-bomb", "long-links",
};
static_assert(std::size(kMisbehaviourNames) == static_cast<size_t>(Misbehaviour::kCount));

constexpr uint32_t kAllMisbehaviours = (1U << static_cast<uint32_t>(Misbehaviour::kCount)) - 1;

constexpr uint32_t Bit(Misbehaviour m) { return 1U << static_cast<uint32_t>(m); }

}  // namespace

uint32_t MisbehavingSet() { return Bit(Misbehaviour::kSlowloris) - 1; }

uint32_t HostileSet() { return (kAllMisbehaviours & ~MisbehavingSet()) | Bit(Misbehaviour::kTraps); }

std::string_view MisbehaviourName(Misbehaviour m) { return kMisbehaviourNames[static_cast<size_t>(m)]; }

std::vector<std::string> MisbehaviourNames() {
  return {std::begin(kMisbehaviourNames), std::end(kMisbehaviourNames)};
}

Status SetMisbehaviours(uint32_t& mask, std::string_view list, bool on) {
  while (!list.empty()) {
    const size_t comma = list.find(',');
    const std::string_view name = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    if (name.empty()) continue;
    uint32_t bits = 0;
    if (name == "all") {
      bits = kAllMisbehaviours;
    } else {
      for (size_t i = 0; i < std::size(kMisbehaviourNames); ++i) {
        if (kMisbehaviourNames[i] == name) bits = 1U << i;
      }
    }
    if (bits == 0) {
      std::string known = "all";
      for (auto n : kMisbehaviourNames) known += ", " + std::string(n);
      return Status::InvalidArgument("unknown misbehaviour '" + std::string(name) + "' (known: " + known +
                                     ")");
    }
    mask = on ? (mask | bits) : (mask & ~bits);
  }
  return Status::Ok();
}

std::vector<std::string> PresetNames() { return {"clean", "misbehaving", "bench", "hostile", "spam"}; }

namespace {

// The "spam" preset (universe.h "Link spam"): a sixth of the hosts are
// spam CLDs, a sixth the hosts of the one-CLD farm, three (one on a small
// web) are deep sites holding 45% of the pages and drawing a quarter of the
// cross-host links; 3% of the normal pages carry a link into the spam (the
// comment and guestbook spam through which crawlers meet it).
void ApplySpamPreset(UniverseOptions& options) {
  options.misbehaviours = Bit(Misbehaviour::kTraps);
  options.page_kb = 8;
  options.corpus_text = true;
  const auto sixth = static_cast<uint32_t>(std::min<uint64_t>(options.hosts / 6, kMaxHosts));
  options.spam_clds = std::max<uint32_t>(2, sixth);
  options.farm_cld_hosts = std::max<uint32_t>(2, sixth);
  options.spam_link_permille = 30;
  options.deep_sites = options.hosts >= 20 ? 3 : 1;
  options.deep_share_permille = 450;
  options.deep_link_permille = 250;
}

}  // namespace

Status ApplyPreset(UniverseOptions& options) {
  if (options.preset == "clean") {
    // The defaults of UniverseOptions are the clean web: nothing misbehaves.
    return Status::Ok();
  }
  if (options.preset == "misbehaving") {
    options.misbehaviours = MisbehavingSet();
    options.page_kb = 20;
    options.corpus_text = true;
    return Status::Ok();
  }
  if (options.preset == "hostile") {
    options.misbehaviours = HostileSet();
    options.page_kb = 8;
    options.corpus_text = true;
    return Status::Ok();
  }
  if (options.preset == "spam") {
    ApplySpamPreset(options);
    return Status::Ok();
  }
  if (options.preset == "bench") {
    options.page_kb = 20;
    options.corpus_text = true;
    return Status::Ok();
  }
  std::string known;
  for (const auto& name : PresetNames()) known += (known.empty() ? "" : ", ") + name;
  return Status::InvalidArgument("unknown preset '" + options.preset + "' (known: " + known + ")");
}

namespace {

Status ValidateSpam(const UniverseOptions& o) {
  const uint64_t spam_hosts = uint64_t{o.spam_clds} + o.farm_cld_hosts;
  if (spam_hosts >= o.hosts)
    return Status::InvalidArgument("spam CLDs (" + std::to_string(o.spam_clds) + ") and farm hosts (" +
                                   std::to_string(o.farm_cld_hosts) + ") leave no normal host of " +
                                   std::to_string(o.hosts) + " (the spam preset needs at least 9 hosts)");
  const uint64_t normal = o.hosts - spam_hosts;
  if (o.pages < normal)
    return Status::InvalidArgument("pages (" + std::to_string(o.pages) +
                                   ") must be at least the normal hosts (" + std::to_string(normal) + ")");
  if (o.deep_sites > 0 && o.seed_hosts + uint64_t{o.deep_sites} >= normal)
    return Status::InvalidArgument("deep sites (" + std::to_string(o.deep_sites) + ") after the " +
                                   std::to_string(o.seed_hosts) + " seed hosts need more than " +
                                   std::to_string(normal) +
                                   " normal hosts (the spam preset needs at least 9 hosts)");
  for (uint32_t p : {o.spam_link_permille, o.deep_share_permille, o.deep_link_permille}) {
    if (p > 1000) return Status::InvalidArgument("a per-mille knob exceeds 1000");
  }
  if (o.deep_sites > 0 && o.pages * o.deep_share_permille / 1000 < o.deep_sites)
    return Status::InvalidArgument("the deep sites' share of pages gives them no page each");
  return Status::Ok();
}

}  // namespace

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
  if ((o.misbehaviours & ~kAllMisbehaviours) != 0)
    return Status::InvalidArgument("unknown misbehaviour bits");
  if (Status s = ValidateSpam(o); !s.ok()) return s;
  if (!(o.change_mean_interval_s >= 0) || o.change_mean_interval_s > 1e9)
    return Status::InvalidArgument("change mean interval must be in [0, 1e9] seconds");
  if (o.change_mean_interval_s > 0 && (o.misbehaviours != 0 || o.spam_clds != 0 || o.farm_cld_hosts != 0))
    return Status::InvalidArgument(
        "the change model needs a web without misbehaviours or link spam (presets clean, bench)");
  if (o.vocabulary_size == 0) return Status::InvalidArgument("vocabulary_size must be at least 1");
  return Status::Ok();
}

}  // namespace crawl::testweb
