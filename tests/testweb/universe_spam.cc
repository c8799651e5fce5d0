// The link spam of the synthetic web (universe.h, "Link spam"; the "spam"
// preset): the spam CLDs and the one-CLD farm, endless trees of dynamically
// generated pages after IRLbot (WWW 2008, TWEB 2009); the links through which
// normal pages reach them; and the deep sites' sizes and in-links.
#include <algorithm>

#include "tests/testweb/rng.h"
#include "tests/testweb/universe.h"
#include "tests/testweb/zipf.h"

namespace crawl::testweb {
namespace {

enum Salt : uint64_t {
  kSaltSpamLinks = 0x73706C6B,
  kSaltSpamEntry = 0x656E7472,
};

constexpr std::string_view kSpamCldPrefix = "www.spam";
constexpr std::string_view kSpamCldSuffix = ".test";
constexpr std::string_view kCldFarmPrefix = "h";
constexpr std::string_view kCldFarmSuffix = ".linkfarm.test";

// Pages of a tree level (kSpamFanout^level) and the index of its first page.
uint64_t LevelSize(uint64_t level) {
  uint64_t n = 1;
  for (uint64_t l = 0; l < level; ++l) n *= kSpamFanout;
  return n;
}
uint64_t LevelFirst(uint64_t level) {
  uint64_t first = 0;
  for (uint64_t l = 0; l < level; ++l) first += LevelSize(l);
  return first;
}

// N of "<prefix>N<suffix>", if `name` is spelled so.
std::optional<uint64_t> NameIndex(std::string_view name, std::string_view prefix, std::string_view suffix) {
  if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) || !name.ends_with(suffix))
    return std::nullopt;
  return ParseIndex(name.substr(prefix.size(), name.size() - prefix.size() - suffix.size()));
}

}  // namespace

uint64_t Universe::SpamLevel(uint64_t page) {
  uint64_t level = 0;
  for (; page > 0; page = (page - 1) / kSpamFanout) ++level;
  return level;
}

std::string Universe::SpamPagePath(uint64_t page) const {
  return "/s" + std::to_string(SpamLevel(page)) + "/p" + std::to_string(page) + ".html";
}

std::optional<uint64_t> Universe::LookupSpamPath(std::string_view path) const {
  // "/s<L>/p<i>.html" with L the level of page i: one spelling per page.
  if (!path.starts_with("/s")) return std::nullopt;
  const size_t slash = path.find('/', 2);
  if (slash == std::string_view::npos) return std::nullopt;
  const auto level = ParseIndex(path.substr(2, slash - 2));
  const std::string_view file = path.substr(slash + 1);
  if (!level || !file.starts_with('p') || !file.ends_with(".html")) return std::nullopt;
  const auto page = ParseIndex(file.substr(1, file.size() - 6));
  if (!page || *page == 0 || *page >= SpamPageSpace() || SpamLevel(*page) != *level) return std::nullopt;
  return page;
}

std::optional<std::string> Universe::SpamHostName(uint32_t host) const {
  if (IsSpamCldHost(host)) {
    return std::string(kSpamCldPrefix) + std::to_string(host - first_spam_) + std::string(kSpamCldSuffix);
  }
  if (IsCldFarmHost(host)) {
    return std::string(kCldFarmPrefix) + std::to_string(host - first_cld_farm_) + std::string(kCldFarmSuffix);
  }
  return std::nullopt;
}

std::optional<uint32_t> Universe::SpamHostIndex(std::string_view name) const {
  if (auto j = NameIndex(name, kCldFarmPrefix, kCldFarmSuffix)) {
    if (*j < HostCount() - first_cld_farm_) return static_cast<uint32_t>(first_cld_farm_ + *j);
    return std::nullopt;
  }
  if (auto k = NameIndex(name, kSpamCldPrefix, kSpamCldSuffix)) {
    if (*k < first_cld_farm_ - first_spam_) return static_cast<uint32_t>(first_spam_ + *k);
  }
  return std::nullopt;
}

std::vector<Link> Universe::SpamLinks(uint32_t host, uint64_t page) const {
  Rng rng(Hash(options_.seed, host, page, kSaltSpamLinks));
  const uint64_t level = SpamLevel(page);
  // The hosts of this host's structure: [lo, hi).
  const bool cld = IsSpamCldHost(host);
  const uint32_t lo = cld ? first_spam_ : first_cld_farm_;
  const uint32_t hi = cld ? first_cld_farm_ : HostCount();
  std::vector<Link> links;
  auto add = [&](PageRef to) {
    Link l;
    const std::string path = PagePath(to.host, to.page);
    l.url = Origin(to.host) + path;
    l.href = to.host == host ? path : l.url;
    l.anchor = Words(rng, rng.Between(1, 3), host);
    l.target = to;
    links.push_back(std::move(l));
  };
  if (page != 0) add({host, 0});
  if (level >= kSpamMaxLevel) return links;
  // Itself: every child, so the host's pages never end (IRLbot's
  // highly branching spam made by server-side scripts).
  for (uint64_t c = page * kSpamFanout + 1; c <= page * kSpamFanout + kSpamFanout; ++c) add({host, c});
  // Each other: pages one level down, or the roots, of other hosts of the
  // structure; for spam CLDs these are the links from other CLDs that
  // raise an in-degree-based budget (IRLbot's STAR counts them).
  if (hi - lo < 2) return links;
  for (uint64_t k = 0; k < kSpamCrossLinks; ++k) {
    uint32_t other = lo + static_cast<uint32_t>(rng.Below(hi - lo - 1));
    if (other >= host) ++other;
    const uint64_t to = rng.PerMille(333) ? 0 : LevelFirst(level + 1) + rng.Below(LevelSize(level + 1));
    add({other, to});
  }
  return links;
}

std::optional<Link> Universe::SpamEntryLink(uint32_t host, uint64_t page) const {
  if (options_.spam_link_permille == 0 || first_spam_ == UINT32_MAX || IsFarmHost(host)) return std::nullopt;
  Rng rng(Hash(options_.seed, host, page, kSaltSpamEntry));
  if (!rng.PerMille(options_.spam_link_permille)) return std::nullopt;
  // Half to a spam CLD, half to a farm host (all to the one that exists).
  uint32_t lo = first_spam_, hi = first_cld_farm_;
  const bool farm = rng.PerMille(500);
  if (lo == hi || (farm && HostCount() > first_cld_farm_)) {
    lo = first_cld_farm_;
    hi = HostCount();
  }
  const auto to = static_cast<uint32_t>(lo + rng.Below(hi - lo));
  Link l;
  l.url = Origin(to) + "/";
  l.href = l.url;
  l.anchor = Words(rng, 2, host);
  l.target = {to, 0};
  return l;
}

std::optional<uint32_t> Universe::DrawDeepSite(Rng& rng) const {
  if (options_.deep_sites == 0 || !rng.PerMille(options_.deep_link_permille)) return std::nullopt;
  return static_cast<uint32_t>(options_.seed_hosts + rng.Below(options_.deep_sites));
}

std::vector<uint64_t> Universe::HostSizes(const UniverseOptions& o, uint64_t normal_hosts) {
  if (o.deep_sites == 0) return ZipfPartition(o.pages, normal_hosts, o.host_size_exponent);
  // The deep sites' share split evenly; Zipf over the other hosts, each
  // keeping at least one page (Validate: pages >= normal_hosts).
  const uint64_t others = normal_hosts - o.deep_sites;
  const uint64_t deep = std::min(o.pages * o.deep_share_permille / 1000, o.pages - others);
  const auto rest = ZipfPartition(o.pages - deep, others, o.host_size_exponent);
  std::vector<uint64_t> sizes;
  sizes.reserve(normal_hosts);
  size_t r = 0;
  for (uint64_t i = 0; i < normal_hosts; ++i) {
    if (i >= o.seed_hosts && i - o.seed_hosts < o.deep_sites) {
      const uint64_t d = i - o.seed_hosts;
      sizes.push_back(deep / o.deep_sites + (d < deep % o.deep_sites ? 1 : 0));
    } else {
      sizes.push_back(rest[r++]);
    }
  }
  return sizes;
}

}  // namespace crawl::testweb
