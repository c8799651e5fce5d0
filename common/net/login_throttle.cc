#include "common/net/login_throttle.h"

#include <algorithm>
#include <cmath>

namespace crawl {

LoginThrottle::LoginThrottle(const Clock* clock, Options options) : clock_(clock), options_(options) {
  global_ = {options_.global_burst, clock_->NowUnixMs()};
}

void LoginThrottle::Refill(Bucket& b, double burst, int64_t refill_ms, int64_t now) const {
  if (now > b.updated_ms) {
    b.tokens =
        std::min(burst, b.tokens + static_cast<double>(now - b.updated_ms) / static_cast<double>(refill_ms));
    b.updated_ms = now;
  }
}

LoginThrottle::Bucket& LoginThrottle::ClientBucket(const std::string& client, int64_t now) {
  auto it = clients_.find(client);
  if (it != clients_.end()) {
    Refill(it->second, options_.client_burst, options_.client_refill_ms, now);
    return it->second;
  }
  if (clients_.size() >= options_.max_clients) {
    // A full bucket holds nothing a new one would not; past that, forget
    // the oldest (the global bucket still bounds everyone).
    for (auto it2 = clients_.begin(); it2 != clients_.end();) {
      Refill(it2->second, options_.client_burst, options_.client_refill_ms, now);
      it2 = it2->second.tokens >= options_.client_burst ? clients_.erase(it2) : std::next(it2);
    }
    while (clients_.size() >= options_.max_clients) {
      auto oldest = std::min_element(clients_.begin(), clients_.end(), [](const auto& a, const auto& b) {
        return a.second.updated_ms < b.second.updated_ms;
      });
      clients_.erase(oldest);
    }
  }
  return clients_.emplace(client, Bucket{options_.client_burst, now}).first->second;
}

int64_t LoginThrottle::RetryAfterMs(const std::string& client) {
  const int64_t now = clock_->NowUnixMs();
  std::lock_guard lock(mu_);
  Refill(global_, options_.global_burst, options_.global_refill_ms, now);
  const Bucket& mine = ClientBucket(client, now);
  auto wait = [](const Bucket& b, int64_t refill_ms) -> int64_t {
    return b.tokens >= 1 ? 0
                         : static_cast<int64_t>(std::ceil((1 - b.tokens) * static_cast<double>(refill_ms)));
  };
  return std::max(wait(mine, options_.client_refill_ms), wait(global_, options_.global_refill_ms));
}

void LoginThrottle::Failed(const std::string& client) {
  const int64_t now = clock_->NowUnixMs();
  std::lock_guard lock(mu_);
  Refill(global_, options_.global_burst, options_.global_refill_ms, now);
  Bucket& mine = ClientBucket(client, now);
  mine.tokens = std::max(0.0, mine.tokens - 1);
  global_.tokens = std::max(0.0, global_.tokens - 1);
}

}  // namespace crawl
