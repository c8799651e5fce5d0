// The per-IP connection limit (FetcherOptions::max_connections_per_ip):
// slots per address, granted in order to the sequences waiting for one.
#pragma once

#include <boost/asio/ip/address.hpp>
#include <cstddef>
#include <deque>
#include <functional>
#include <unordered_map>

#include "common/base/mutex.h"

namespace crawl::fetcher {

// Counts the open connections to each IP address and queues the sequences
// waiting for a slot, so hosts sharing a server are not all connected to at
// once. Thread-safe.
class IpConnectionLimiter {
 public:
  explicit IpConnectionLimiter(size_t max_per_ip) : max_per_ip_(max_per_ip) {}

  // Takes a slot for `address`, now (true) or later: then `grant` runs once
  // the slot is taken for the caller. REQUIRES max_per_ip > 0.
  [[nodiscard]] bool Acquire(const boost::asio::ip::address& address, std::function<void()> grant);
  // Gives back a slot taken by Acquire: it passes to the first waiter, if
  // any (whose `grant` runs here, outside the lock).
  void Release(const boost::asio::ip::address& address);

 private:
  struct IpSlots {
    size_t open = 0;
    std::deque<std::function<void()>> waiters;  // granted in order
  };
  const size_t max_per_ip_;
  Mutex mu_;
  std::unordered_map<boost::asio::ip::address, IpSlots> slots_ GUARDED_BY(mu_);
};

}  // namespace crawl::fetcher
