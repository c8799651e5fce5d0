// The per-IP connection limit: see ip_connection_limiter.h.
#include "fetcher/http/ip_connection_limiter.h"

#include <utility>

namespace crawl::fetcher {

bool IpConnectionLimiter::Acquire(const boost::asio::ip::address& address, std::function<void()> grant) {
  MutexLock lock(mu_);
  IpSlots& slots = slots_[address];
  if (slots.open < max_per_ip_) {
    ++slots.open;
    return true;
  }
  slots.waiters.push_back(std::move(grant));
  return false;
}

void IpConnectionLimiter::Release(const boost::asio::ip::address& address) {
  std::function<void()> next;
  {
    MutexLock lock(mu_);
    auto it = slots_.find(address);
    if (it == slots_.end()) return;
    if (!it->second.waiters.empty()) {
      next = std::move(it->second.waiters.front());  // the slot passes on
      it->second.waiters.pop_front();
    } else if (--it->second.open == 0) {
      slots_.erase(it);
    }
  }
  if (next) next();
}

}  // namespace crawl::fetcher
