#include "queueserver/frontier/host_budget.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

#include "common/base/find_any.h"

namespace crawl::queueserver {
namespace {
double Log5(double x) { return std::log(x) / std::log(5.0); }
// Yioop 9's SITEMAP_TIER_PENALTY.
constexpr int32_t kSitemapTierPenalty = 4;
}  // namespace

Result<WseenIncrement> ParseWseenIncrement(std::string_view name) {
  if (name.empty() || name == "log") return WseenIncrement::kLog;
  if (name == "min") return WseenIncrement::kMin;
  return Status::InvalidArgument("unknown wseen_increment '" + std::string(name) + "' (log or min)");
}

double WseenStep(WseenIncrement mode, uint32_t i) {
  const double logged = 1.0 + Log5(1.0 + static_cast<double>(i));
  return mode == WseenIncrement::kLog ? logged : std::min(1.0, logged);
}

double WinStep(int32_t t, uint32_t w) {
  return 1.0 / (1.1 + static_cast<double>(t) + Log5(1.0 + static_cast<double>(w)));
}

int32_t TierFor(const CldStats& stats, bool sitemap_url, bool likely_non_html) {
  const double excess = std::max(1.0, stats.wseen - stats.win);
  // A tiny tolerance so that 10, 100, ... accumulated in floating point
  // (9.999999999) land on the boundary they mean.
  const auto tier = static_cast<int32_t>(std::floor(std::log10(excess) + 1e-12));
  return tier + TierPenalty(sitemap_url, likely_non_html);
}

int32_t TierPenalty(bool sitemap_url, bool likely_non_html) {
  // A sitemap is XML, which the fetcher's extension test calls non-HTML:
  // its own penalty replaces the + 1 rather than adding to it.
  if (sitemap_url) return kSitemapTierPenalty;
  return likely_non_html ? 1 : 0;
}

Result<TierRule> ParseTierRule(std::string_view name) {
  if (name.empty() || name == "yioop") return TierRule::kYioop;
  if (name == "beast") return TierRule::kBeast;
  return Status::InvalidArgument("unknown tier_rule '" + std::string(name) + "' (yioop or beast)");
}

int32_t BeastTier(const CldStats& stats, double unit) {
  const double budget = std::max(1.0, unit) * (1.0 + static_cast<double>(stats.in_clds.size()));
  const double over = static_cast<double>(stats.seen > 0 ? stats.seen - 1 : 0) / budget;
  // Queues past 30 would be read once in 2^31 schedules: never.
  return std::min<int32_t>(30, static_cast<int32_t>(std::floor(std::log2(1.0 + over) + 1e-12)));
}

int32_t BeastTierForSchedule(uint32_t k) {
  int32_t j = 0;
  for (; k != 0 && (k & 1u) == 0; k >>= 1) ++j;
  return j;
}

bool IsSitemapUrl(std::string_view url, std::string_view referrer, bool from_sitemap) {
  const auto path_of = [](std::string_view u) {
    u = u.substr(0, FindAnyOf(u, "?#"));
    const size_t scheme = u.find("://");
    if (scheme == std::string_view::npos) return std::string_view();
    const size_t slash = u.find('/', scheme + 3);
    return slash == std::string_view::npos ? std::string_view("/") : u.substr(slash);
  };
  if (from_sitemap && path_of(referrer) == "/robots.txt") return true;
  std::string last(path_of(url));
  last.erase(0, last.rfind('/') + 1);
  for (char& c : last) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool xml = last.ends_with(".xml") || last.ends_with(".xml.gz");
  return xml && (from_sitemap || last.find("sitemap") != std::string::npos);
}

Result<CldBudgetRule> ParseCldBudgetRule(std::string_view name) {
  if (name.empty() || name == "in-clds") return CldBudgetRule::kInClds;
  if (name == "win") return CldBudgetRule::kWin;
  return Status::InvalidArgument("unknown cld_budget_rule '" + std::string(name) + "' (in-clds or win)");
}

bool AddInCld(CldStats& stats, uint32_t from_cld_hash) {
  auto& in = stats.in_clds;
  if (in.size() >= CldStats::kMaxInClds) return false;
  const auto at = std::lower_bound(in.begin(), in.end(), from_cld_hash);
  if (at != in.end() && *at == from_cld_hash) return false;
  in.insert(at, from_cld_hash);
  return true;
}

uint32_t CldNameHash(std::string_view cld) {
  // FNV-1a: stable across runs and builds (the hashes are stored).
  uint32_t h = 2166136261u;
  for (char c : cld) {
    h ^= static_cast<uint8_t>(c);
    h *= 16777619u;
  }
  return h;
}

bool OverBudget(const CldStats& stats, const CldBudget& budget) {
  if (!budget.enabled || (stats.seeded && budget.exempt_seeded)) return false;
  const double allowed = budget.rule == CldBudgetRule::kWin
                             ? budget.base + budget.per_win * stats.win
                             : budget.base + budget.per_in_cld * static_cast<double>(stats.in_clds.size());
  return static_cast<double>(stats.seen) > allowed;
}

}  // namespace crawl::queueserver
