// Rate limit on failed sign-ins (the admin HTTP server's /login): token
// buckets, one per client address and one for everyone, each failure taking
// a token. While either bucket is empty the client is told to come back
// later (429 with Retry-After), so guessing tokens runs at the refill rate,
// not at the speed of the network. The global bucket bounds an attacker
// with many addresses; its cost is that such an attacker can delay sign-ins
// of others for as long as the flood lasts. Successful sign-ins take nothing.
// Pure (time from the injected clock); thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "common/base/clock.h"

namespace crawl {

class LoginThrottle {
 public:
  struct Options {
    double client_burst = 5;            // failures a client may make at once
    int64_t client_refill_ms = 12'000;  // then one more per this
    double global_burst = 30;
    int64_t global_refill_ms = 1'000;
    size_t max_clients = 4096;  // buckets kept; full ones are dropped first
  };
  // REQUIRES: `clock` outlives this.
  explicit LoginThrottle(const Clock* clock) : LoginThrottle(clock, Options{}) {}
  LoginThrottle(const Clock* clock, Options options);

  // Milliseconds until `client` may try again; 0: now.
  [[nodiscard]] int64_t RetryAfterMs(const std::string& client);
  // Records one failed sign-in of `client`.
  void Failed(const std::string& client);

 private:
  struct Bucket {
    double tokens = 0;
    int64_t updated_ms = 0;
  };
  // Refills `b` up to now. REQUIRES: mu_ held.
  void Refill(Bucket& b, double burst, int64_t refill_ms, int64_t now) const;
  // The client's bucket, made full when new. REQUIRES: mu_ held.
  Bucket& ClientBucket(const std::string& client, int64_t now);

  const Clock* clock_;
  const Options options_;
  std::mutex mu_;
  Bucket global_;                          // guarded by mu_
  std::map<std::string, Bucket> clients_;  // guarded by mu_
};

}  // namespace crawl
