// The pages of a recrawl waiting for their next visit, earliest
// first. The durable copy is each page's FetchState.next_visit_unix_us in
// the store; this in-memory window holds at most `capacity` of them: the
// earliest. Every stored next visit before horizon() is in the window (or
// was re-entered, or is of an older schedule: RecrawlScheduler checks the store);
// later ones may be only in the store. The shard fills the window from a
// scan of the fetch states when it loads (RecrawlScheduler::RebuildDueQueue) and again when
// the window runs low while the horizon has passed (NeedsRefill): a full
// window drops its latest entry and lowers the horizon to it. A page leaves
// the window when it is due and re-entered into the frontier (whose queue
// is durable); its stored next visit is then cleared, so a restart does not
// enter it twice. Memory: at most `capacity` URLs and their times.
//
// Pure: no clock, no store. Not thread-safe.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace crawl::queueserver {

class DueQueue {
 public:
  using Item = std::pair<int64_t, std::string>;  // (next visit, Unix us; URL)
  static constexpr int64_t kNoHorizon = std::numeric_limits<int64_t>::max();

  explicit DueQueue(size_t capacity = 1 << 17) : capacity_(std::max<size_t>(1, capacity)) {}

  // Keeps (due, url) if it is before the horizon; a full window then drops
  // its latest entry (still in the store) and lowers the horizon to it.
  void Push(int64_t due_unix_us, std::string url) {
    if (due_unix_us >= horizon_) return;
    items_.emplace(due_unix_us, std::move(url));
    if (items_.size() > capacity_) {
      auto last = std::prev(items_.end());
      horizon_ = std::min(horizon_, last->first);
      items_.erase(last);
    }
  }

  // Up to `n` pages due at `now_us` (next visit <= now), earliest first.
  [[nodiscard]] std::vector<Item> PopDue(int64_t now_us, size_t n) {
    std::vector<Item> out;
    while (out.size() < n && !items_.empty() && items_.begin()->first <= now_us) {
      out.push_back(std::move(items_.extract(items_.begin()).value()));
    }
    return out;
  }

  // Whether pages due by `now_us` may be only in the store: the horizon has
  // passed and the window is under half full.
  [[nodiscard]] bool NeedsRefill(int64_t now_us) const {
    return horizon_ <= now_us && items_.size() < std::max<size_t>(1, capacity_ / 2);
  }

  [[nodiscard]] size_t size() const { return items_.size(); }
  [[nodiscard]] bool empty() const { return items_.empty(); }
  [[nodiscard]] size_t capacity() const { return capacity_; }
  [[nodiscard]] int64_t horizon() const { return horizon_; }
  // Empties the window before a scan pushes every stored next visit again.
  void clear() {
    items_.clear();
    horizon_ = kNoHorizon;
  }
  // A smaller capacity drops the latest entries (and lowers the horizon).
  void set_capacity(size_t capacity) {
    capacity_ = std::max<size_t>(1, capacity);
    while (items_.size() > capacity_) {
      auto last = std::prev(items_.end());
      horizon_ = std::min(horizon_, last->first);
      items_.erase(last);
    }
  }

 private:
  size_t capacity_;
  int64_t horizon_ = kNoHorizon;
  std::set<Item> items_;
};

}  // namespace crawl::queueserver
