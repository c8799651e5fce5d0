#include "queueserver/frontier/host_budget.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace crawl::queueserver {
namespace {
double Log5(double x) { return std::log(x) / std::log(5.0); }
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

int32_t TierFor(const CldStats& stats, bool from_sitemap, bool likely_non_html) {
  const double excess = std::max(1.0, stats.wseen - stats.win);
  // A tiny tolerance so that 10, 100, ... accumulated in floating point
  // (9.999999999) land on the boundary they mean.
  int32_t tier = static_cast<int32_t>(std::floor(std::log10(excess) + 1e-12));
  if (from_sitemap) tier += 4;
  if (likely_non_html) tier += 1;
  return tier;
}

}  // namespace crawl::queueserver
