// robots.txt replaced while the server runs, so a test can change a host's
// rules mid-crawl (`testweb serve --robots-control`; off: none of this
// exists). On any host: PUT kRobotsControlPath with the new robots.txt as
// the body replaces that host's robots.txt (200), DELETE brings back the
// universe's own (200), GET answers the robots.txt now served. The
// replacement is served with status 200, text/plain, no validators.
// Requests to it are not crawl requests (not logged). Thread-safe.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace crawl::testweb {

inline constexpr std::string_view kRobotsControlPath = "/_testweb/robots";

class RobotsControl {
 public:
  void Set(uint32_t host, std::string body) {
    std::lock_guard lock(mu_);
    bodies_[host] = std::move(body);
  }
  void Clear(uint32_t host) {
    std::lock_guard lock(mu_);
    bodies_.erase(host);
  }
  // The replacement of `host`'s robots.txt, if a test set one.
  [[nodiscard]] std::optional<std::string> Get(uint32_t host) const {
    std::lock_guard lock(mu_);
    auto it = bodies_.find(host);
    if (it == bodies_.end()) return std::nullopt;
    return it->second;
  }

 private:
  mutable std::mutex mu_;
  std::unordered_map<uint32_t, std::string> bodies_;
};

}  // namespace crawl::testweb
