// The pages of a recrawl (issue 21) waiting for their next visit, earliest
// first. The durable copy is each page's FetchState.next_visit_unix_us in
// the store; this in-memory min-heap is rebuilt from a scan of the fetch
// states when a shard loads (CrawlShard::Load), so nothing else is
// persisted. A page leaves the heap when it is due and re-entered into the
// frontier (whose queue is durable); its stored next visit is then cleared,
// so a restart does not enter it twice. Memory: one URL and 8 bytes per
// fetched page (not bounded: see docs/ARCHITECTURE.md, Recrawl).
//
// Pure: no clock, no store. Not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

namespace crawl::queueserver {

class DueQueue {
 public:
  using Item = std::pair<int64_t, std::string>;  // (next visit, Unix us; URL)

  void Push(int64_t due_unix_us, std::string url) { heap_.emplace(due_unix_us, std::move(url)); }

  // Up to `n` pages due at `now_us` (next visit <= now), earliest first.
  [[nodiscard]] std::vector<Item> PopDue(int64_t now_us, size_t n) {
    std::vector<Item> out;
    while (out.size() < n && !heap_.empty() && heap_.top().first <= now_us) {
      out.push_back(heap_.top());
      heap_.pop();
    }
    return out;
  }

  [[nodiscard]] size_t size() const { return heap_.size(); }
  [[nodiscard]] bool empty() const { return heap_.empty(); }
  void clear() { heap_ = {}; }

 private:
  std::priority_queue<Item, std::vector<Item>, std::greater<>> heap_;
};

}  // namespace crawl::queueserver
