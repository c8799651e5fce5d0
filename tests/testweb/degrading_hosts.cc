// See degrading_hosts.h.
#include "tests/testweb/degrading_hosts.h"

#include <algorithm>
#include <cmath>

namespace crawl::testweb {

namespace {
constexpr std::chrono::seconds kWindow{1};
// Bounds the delay whatever the load: a minute is more than any client waits.
constexpr double kMaxLatencyMs = 60'000;
}  // namespace

DegradingHosts::DegradingHosts(DegradeOptions options, std::vector<std::string> names) : options_(options) {
  for (auto& name : names)
    arrivals_.emplace(std::move(name), std::deque<std::chrono::steady_clock::time_point>{});
}

std::chrono::milliseconds DegradingHosts::Latency(const DegradeOptions& options, size_t rate) {
  const double load = static_cast<double>(rate) / std::max(options.capacity, 1e-9);
  const double ms = static_cast<double>(options.base.count()) * (1 + load * load);
  return std::chrono::milliseconds(static_cast<int64_t>(std::lround(std::min(ms, kMaxLatencyMs))));
}

std::chrono::milliseconds DegradingHosts::Delay(std::string_view host,
                                                std::chrono::steady_clock::time_point now) {
  std::lock_guard lock(mu_);
  const auto it = arrivals_.find(std::string(host));
  if (it == arrivals_.end()) return std::chrono::milliseconds(0);
  auto& times = it->second;
  while (!times.empty() && times.front() <= now - kWindow) times.pop_front();
  times.push_back(now);
  return Latency(options_, times.size());
}

}  // namespace crawl::testweb
