// DelayProxy: a TCP relay that holds every byte for a fixed one-way delay in
// each direction, so a benchmark on loopback sees a network's round trip
// (tests/bench/h2_throughput.sh --rtt-ms). The kernel's netem would do this
// in a network namespace, but this machine's kernel has no sch_netem, so the
// delay is in user space, the shape of toxiproxy's latency toxic:
//   - each chunk read from one side is written to the other no earlier than
//     `one_way_delay` after it was read; chunks keep their order;
//   - bytes pass unchanged (TLS, ALPN and h2 run end to end through it);
//   - one upstream connection per accepted one, both with TCP_NODELAY;
//   - EOF is passed on (shutdown of the send side) after the bytes before
//     it; an error on either side closes both;
//   - at most `max_queued_bytes` wait per direction; past that the relay
//     stops reading until the queue drains, and TCP's flow control slows
//     the sender.
// Not modelled: bandwidth, loss, slow start.
//
// Threading: one io_context run on the thread that calls Run(); Stop() and
// connections() are thread-safe. Lifetime: the destructor closes the
// listener and destroys every pending connection with the io_context.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/base/status.h"

namespace crawl::testweb {

struct DelayProxyOptions {
  std::string listen_address = "127.0.0.1";
  uint16_t listen_port = 0;  // 0: any free port, see DelayProxy::port()
  std::string upstream_address = "127.0.0.1";
  uint16_t upstream_port = 0;
  std::chrono::microseconds one_way_delay{0};
  size_t max_queued_bytes = 8u << 20;
};

class DelayProxy {
 public:
  explicit DelayProxy(DelayProxyOptions options);
  ~DelayProxy();
  DelayProxy(const DelayProxy&) = delete;
  DelayProxy& operator=(const DelayProxy&) = delete;

  // Binds and listens, then starts accepting. InvalidArgument for an
  // address that does not parse, Unavailable if binding fails.
  // REQUIRES: called once, before Run().
  [[nodiscard]] Status Start();

  // The bound port. REQUIRES: Start() succeeded.
  [[nodiscard]] uint16_t port() const { return port_; }

  // Relays on the calling thread; returns after Stop().
  void Run();
  void Stop();

  // For signal handling (signal_set) by the caller.
  [[nodiscard]] boost::asio::io_context& io_context() { return ioc_; }

  // Connections accepted so far.
  [[nodiscard]] uint64_t connections() const { return accepted_.load(); }

 private:
  void Accept();

  boost::asio::io_context ioc_;  // first member: destroyed last
  DelayProxyOptions options_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::ip::tcp::endpoint upstream_;
  std::atomic<uint64_t> accepted_{0};
  uint16_t port_ = 0;
};

}  // namespace crawl::testweb
