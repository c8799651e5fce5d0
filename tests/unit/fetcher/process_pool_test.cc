#include "fetcher/process_pool.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

using crawl::fetcher::ProcessPool;

TEST_CASE("process pool: every job runs once, on the pool's threads, and the destructor runs what is queued",
          "[unit]") {
  std::atomic<int> ran{0};
  std::mutex mu;
  std::set<std::thread::id> seen;
  {
    ProcessPool pool(3);
    CHECK(pool.threads() == 3);
    for (int i = 0; i < 200; ++i) {
      pool.Submit([&] {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        {
          std::lock_guard lock(mu);
          seen.insert(std::this_thread::get_id());
        }
        ++ran;
      });
    }
  }  // joins after the queue is empty
  CHECK(ran == 200);
  CHECK(seen.size() <= 3);
  CHECK(seen.count(std::this_thread::get_id()) == 0);
  CHECK(seen.size() >= 2);  // 200 jobs of 200 us: more than one thread took some
}
