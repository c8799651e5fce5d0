// FaultProxy: a TCP relay for fault-injection tests (tests/faults/), in the
// spirit of toxiproxy (which Debian does not ship). It sits on one link
// between two processes (say fetcher -> queue server), relays each accepted
// connection to one upstream address, passes bytes unchanged (gRPC over TLS
// runs end to end through it), and degrades the link on command while it
// runs.
//
// Toxics (both directions, every connection; changed at any time):
//   - latency MS, jitter MS: each chunk read is written no earlier than
//     MS +- uniform(JITTER) after it was read (never before an earlier
//     chunk: order is kept per direction). Applies to chunks read after the
//     change.
//   - bandwidth B: at most B bytes/s per direction per connection (0: no
//     limit). A chunk of n bytes occupies the link for n/B seconds before it
//     leaves, so B bytes take at least about one second.
//   - blackhole: bytes read are dropped silently and connections stay open:
//     a network partition as TCP sees it (nothing arrives, nothing errors).
//     An EOF still passes; turning it off lets new bytes flow again.
//   - refuse: new connections are accepted and closed at once with an RST
//     (SO_LINGER 0); existing ones are untouched.
//   - reset (one shot): every current connection is closed with an RST on
//     both sides.
//   - down / up: the listener is closed (new connects are refused by the
//     kernel) and opened again on the same port; existing connections stay.
// Memory is bounded: at most `max_queued_bytes` wait per direction per
// connection; past that the relay stops reading and TCP's flow control
// slows the sender. An error on either side closes both; an EOF is passed
// on (shutdown of the send side) after the bytes before it.
//
// Control protocol (control_server.h; control_command.h parses it): a TCP
// port on 127.0.0.1, one command per line, one answer line each, "ok ..."
// or "error <reason>"; a line over 1 KiB closes the control connection.
//   latency MS [JITTER_MS]   bandwidth BYTES_PER_S   blackhole on|off
//   refuse on|off   reset   down   up   stats
//   heal   (no latency, no limit, no blackhole, no refuse, listening)
// e.g. `exec 3<>/dev/tcp/127.0.0.1/$(cat ctl.port); echo "latency 200 50" >&3;
// read -r answer <&3`.
//
// Threading: one io_context runs on the thread that calls Run(). SetToxics,
// toxics, stats and Stop are thread-safe; SetListening, ResetAll and
// HandleControlLine are thread-safe too and, called off the io thread,
// wait for the io thread to run them (so they need Run() to be running).
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/base/status.h"
#include "tests/faults/control_command.h"
#include "tests/faults/toxics.h"

namespace crawl::faults {

class ControlServer;
class Relay;
struct ProxyShared;

struct FaultProxyOptions {
  std::string listen_address = "127.0.0.1";
  uint16_t listen_port = 0;  // 0: any free port, see FaultProxy::port()
  std::string upstream_address = "127.0.0.1";
  uint16_t upstream_port = 0;
  // The control channel on 127.0.0.1 (0: any free port); none if unset.
  std::optional<uint16_t> control_port;
  size_t max_queued_bytes = 4u << 20;  // per direction per connection
  Toxics initial;
};

struct FaultProxyStats {
  uint64_t accepted = 0;           // connections accepted (refused ones too)
  uint64_t bytes_to_upstream = 0;  // written to the upstream
  uint64_t bytes_to_client = 0;    // written to the clients
  uint64_t bytes_dropped = 0;      // read and dropped by the blackhole
  uint64_t connections_reset = 0;  // closed with RST by refuse or reset
  uint64_t queued_bytes = 0;       // waiting now, all connections
  uint64_t peak_queued_bytes = 0;  // most ever waiting in one direction
  bool listening = false;
};

// One line, "ok accepted=N bytes_to_upstream=N ... refuse=0": the answer
// to the control command "stats".
[[nodiscard]] std::string FormatStats(const FaultProxyStats& stats, const Toxics& toxics);

class FaultProxy {
 public:
  explicit FaultProxy(FaultProxyOptions options);
  ~FaultProxy();
  FaultProxy(const FaultProxy&) = delete;
  FaultProxy& operator=(const FaultProxy&) = delete;

  // Binds and listens (relay and control), then starts accepting.
  // InvalidArgument for an address that does not parse, Unavailable if
  // binding fails. REQUIRES: called once, before Run().
  [[nodiscard]] Status Start();

  // The bound ports. REQUIRES: Start() succeeded (control_port: with a
  // control port in the options).
  [[nodiscard]] uint16_t port() const { return port_; }
  [[nodiscard]] uint16_t control_port() const;

  // Relays on the calling thread; returns after Stop().
  void Run();
  // Thread-safe.
  void Stop();
  // For signal handling (signal_set) by the caller.
  [[nodiscard]] boost::asio::io_context& io_context() { return ioc_; }

  // Replaces latency, jitter, bandwidth, blackhole and refuse. Thread-safe;
  // takes effect for bytes read and connections accepted afterwards.
  void SetToxics(const Toxics& toxics);
  [[nodiscard]] Toxics toxics() const;

  // Closes (false) or reopens (true) the listener on the same port.
  // Unavailable if reopening fails. Thread-safe (see the file comment).
  [[nodiscard]] Status SetListening(bool listening);
  // Closes every current connection with an RST; returns how many.
  // Thread-safe (see the file comment).
  uint64_t ResetAll();
  // Runs one control command line; returns the answer line (no newline).
  // Never fails: bad input gets "error ...". Thread-safe (see above).
  [[nodiscard]] std::string HandleControlLine(std::string_view line);

  // Thread-safe.
  [[nodiscard]] FaultProxyStats stats() const;

 private:
  Status Listen();
  void Accept(uint64_t generation);
  void Refuse(boost::asio::ip::tcp::socket socket);
  std::string Execute(const ControlCommand& command);
  // Runs `fn` on the io thread and waits for it (inline if already there).
  // False if the io thread did not run it within a few seconds.
  bool RunOnIo(const std::function<void()>& fn);

  boost::asio::io_context ioc_;  // first member: destroyed last
  FaultProxyOptions options_;
  std::shared_ptr<ProxyShared> shared_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::ip::tcp::endpoint listen_;
  boost::asio::ip::tcp::endpoint upstream_;
  std::unique_ptr<ControlServer> control_;
  std::list<std::weak_ptr<Relay>> relays_;  // io thread only
  uint64_t accept_generation_ = 0;          // io thread only
  std::atomic<bool> listening_{false};
  std::atomic<bool> running_{false};
  uint16_t port_ = 0;
};

}  // namespace crawl::faults
