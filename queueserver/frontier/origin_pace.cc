// OriginPace and PaceBoard (origin_pace.h).
#include "queueserver/frontier/origin_pace.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cstring>

namespace crawl::queueserver {

void OriginPace::Note(std::string_view remote_ip, uint32_t pace_ms, uint32_t fetch_ms, int status,
                      int64_t now_ms) {
  pace_ms_ = pace_ms;
  last_s_ = static_cast<uint32_t>(std::clamp<int64_t>(now_ms / 1000, 1, UINT32_MAX));
  if (!remote_ip.empty() && remote_ip.size() < INET6_ADDRSTRLEN) {
    char text[INET6_ADDRSTRLEN] = {};
    std::memcpy(text, remote_ip.data(), remote_ip.size());
    std::array<uint8_t, 16> bytes{};
    if (inet_pton(AF_INET, text, bytes.data()) == 1) {
      ip_ = bytes;
      family_ = 4;
    } else if (inet_pton(AF_INET6, text, bytes.data()) == 1) {
      ip_ = bytes;
      family_ = 6;
    }
  }
  if (status < 0 && fetch_ms == 0) return;
  recent_[next_] = static_cast<uint16_t>(std::min<uint32_t>(fetch_ms, UINT16_MAX));
  next_ = static_cast<uint8_t>((next_ + 1) % kRecent);
  if (count_ < kRecent) ++count_;
}

std::string OriginPace::Address() const {
  if (family_ == 0) return "";
  char text[INET6_ADDRSTRLEN] = {};
  if (!inet_ntop(family_ == 4 ? AF_INET : AF_INET6, ip_.data(), text, sizeof text)) return "";
  return text;
}

std::vector<uint32_t> OriginPace::Recent() const {
  std::vector<uint32_t> out;
  out.reserve(count_);
  const size_t first = count_ < kRecent ? 0 : next_;
  for (size_t i = 0; i < count_; ++i) out.push_back(recent_[(first + i) % kRecent]);
  return out;
}

uint32_t OriginPace::MedianMs() const {
  if (count_ == 0) return 0;
  std::vector<uint32_t> v = Recent();
  const size_t mid = (v.size() - 1) / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  return v[mid];
}

void PaceBoard::Note(std::string_view host, uint32_t pace_ms, uint32_t median_ms, int64_t now_ms) {
  if (auto it = lines_.find(host); it != lines_.end()) {
    it->second = {pace_ms, median_ms, now_ms};
    return;
  }
  if (lines_.size() >= kPaceBoardSize) {
    // Full: the smallest pace goes if the new one is larger (stale lines first).
    auto smallest = lines_.begin();
    for (auto it = lines_.begin(); it != lines_.end(); ++it) {
      const bool stale = now_ms - it->second.at_ms > kPaceBoardStaleMs;
      if (stale || it->second.pace_ms < smallest->second.pace_ms) {
        smallest = it;
        if (stale) break;
      }
    }
    const bool stale = now_ms - smallest->second.at_ms > kPaceBoardStaleMs;
    if (!stale && smallest->second.pace_ms >= pace_ms) return;
    lines_.erase(smallest);
  }
  lines_.emplace(std::string(host), Line{pace_ms, median_ms, now_ms});
}

std::vector<HostPace> PaceBoard::Top(size_t n, int64_t now_ms) {
  std::vector<HostPace> out;
  for (auto it = lines_.begin(); it != lines_.end();) {
    if (now_ms - it->second.at_ms > kPaceBoardStaleMs) {
      it = lines_.erase(it);
      continue;
    }
    if (it->second.pace_ms > 0) out.push_back({it->first, it->second.pace_ms, it->second.median_ms});
    ++it;
  }
  std::sort(out.begin(), out.end(), [](const HostPace& a, const HostPace& b) {
    return a.pace_ms != b.pace_ms ? a.pace_ms > b.pace_ms : a.host < b.host;
  });
  if (out.size() > n) out.resize(n);
  return out;
}

}  // namespace crawl::queueserver
