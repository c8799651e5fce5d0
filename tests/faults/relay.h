// Relay: one connection through FaultProxy (fault_proxy.h), client to
// upstream and back, with the toxics applied; and ProxyShared, what every
// relay of one proxy shares with it (the toxics and the counters).
// Internal to tests/faults/. Threading: a Relay lives on the proxy's io
// thread; ProxyShared's toxics are under its lock and its counters atomic.
#pragma once

#include <array>
#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <string>

#include "common/base/mutex.h"
#include "tests/faults/toxics.h"

namespace crawl::faults {

struct ProxyShared {
  ProxyShared(size_t max_queued, const Toxics& initial) : max_queued_bytes(max_queued), toxics(initial) {}

  [[nodiscard]] Toxics Snapshot() const {
    MutexLock lock(mu);
    return toxics;
  }
  void Set(const Toxics& value) {
    MutexLock lock(mu);
    toxics = value;
  }
  // Adds to the bytes waiting; keeps the per-direction peak. Io thread.
  void Queued(int64_t delta, size_t direction_now);

  const size_t max_queued_bytes;
  mutable Mutex mu;
  Toxics toxics GUARDED_BY(mu);
  std::atomic<uint64_t> accepted{0};
  std::array<std::atomic<uint64_t>, 2> bytes_relayed{};  // [0] to upstream, [1] to client
  std::atomic<uint64_t> bytes_dropped{0};
  std::atomic<uint64_t> connections_reset{0};
  std::atomic<uint64_t> queued_bytes{0};
  std::atomic<uint64_t> peak_queued_bytes{0};
  std::mt19937_64 rng{0x5eed};  // jitter; io thread only
};

class Relay : public std::enable_shared_from_this<Relay> {
 public:
  using tcp = boost::asio::ip::tcp;
  using Clock = std::chrono::steady_clock;

  Relay(tcp::socket client, std::shared_ptr<ProxyShared> shared);

  // Connects to the upstream, then relays both ways until either side ends.
  void Start(const tcp::endpoint& upstream);
  // Closes both sides with an RST; false if the relay was already closed.
  bool Reset();

 private:
  struct Chunk {
    Clock::time_point due;
    std::string bytes;  // empty: the sender's EOF
  };
  struct Direction {
    Direction(tcp::socket& from, tcp::socket& to) : from(from), to(to), timer(from.get_executor()) {}
    tcp::socket& from;
    tcp::socket& to;
    boost::asio::steady_timer timer;
    std::deque<Chunk> queue;
    size_t queued_bytes = 0;
    size_t writing_chunks = 0;      // chunks at the queue's front in the write under way
    Clock::time_point link_free{};  // bandwidth: when the link has sent all before
    Clock::time_point last_due{};   // latency: chunks never overtake
    bool reading = false;
    bool waiting = false;  // the timer or a write is under way
    bool eof_read = false;
    bool eof_passed = false;
    std::array<char, 64 * 1024> buffer{};
  };

  void Read(int d);
  void OnRead(int d, size_t n);
  Clock::time_point DueTime(int d, size_t n, const Toxics& toxics);
  void Schedule(int d);
  void WriteDue(int d);
  void DropDue(int d, size_t count);
  void Dequeue(int d, size_t count);
  void PassEof(int d);
  void Close(bool rst);

  tcp::socket client_;
  tcp::socket upstream_;
  std::shared_ptr<ProxyShared> shared_;
  std::array<Direction, 2> directions_;
  bool closed_ = false;
};

}  // namespace crawl::faults
