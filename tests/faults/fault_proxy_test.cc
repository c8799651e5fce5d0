// Tests for FaultProxy (fault_proxy.h) as a relay: bytes pass unchanged,
// latency and bandwidth slow them (lower bounds only: the machine is
// noisy), and a client that does not read cannot make the proxy queue more
// than its cap. A real proxy on loopback in front of an echo server.
#include "tests/faults/fault_proxy.h"

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <thread>

#include "tests/faults/test_support.h"

namespace crawl::faults {
namespace {

using namespace crawl::faults::testing;  // NOLINT: test helpers
using std::chrono::milliseconds;

std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string bytes(n, '\0');
  for (char& c : bytes) c = static_cast<char>(rng());
  return bytes;
}

// Sends `payload` from a writer thread (so the echo can flow back while we
// send) and reads as many bytes back.
std::string EchoThrough(Client& client, const std::string& payload) {
  std::thread writer([&client, &payload] { client.Send(payload); });
  std::string back = client.Read(payload.size(), std::chrono::seconds(60));
  writer.join();
  return back;
}

TEST_CASE("fault proxy relays megabytes of random bytes unchanged and counts them", "[unit]") {
  EchoServer echo;
  RunningProxy running(OptionsFor(echo));
  REQUIRE(running.status().ok());
  const std::string payload = RandomBytes(3'000'000, 1);
  Client client(running.proxy().port());
  REQUIRE_FALSE(client.connect_error());
  CHECK(EchoThrough(client, payload) == payload);
  CHECK(Eventually([&] { return running.proxy().stats().bytes_to_client == payload.size(); }));
  CHECK(Eventually([&] { return running.proxy().stats().bytes_to_upstream == payload.size(); }));
  const FaultProxyStats stats = running.proxy().stats();
  CHECK(stats.accepted == 1);
  CHECK(stats.bytes_dropped == 0);
}

TEST_CASE("fault proxy latency delays a round trip by at least twice the one-way delay", "[unit]") {
  EchoServer echo;
  RunningProxy running(OptionsFor(echo));
  REQUIRE(running.status().ok());
  running.proxy().SetToxics(Toxics{.latency_ms = 60});
  Client client(running.proxy().port());
  const Clock::time_point start = Clock::now();
  CHECK(client.RoundTrip("ping") == "ping");
  CHECK(Clock::now() - start >= milliseconds(120));
}

TEST_CASE("fault proxy keeps the order of chunks under jitter", "[unit]") {
  EchoServer echo;
  FaultProxyOptions options = OptionsFor(echo);
  options.initial = Toxics{.latency_ms = 10, .jitter_ms = 10};
  RunningProxy running(options);
  REQUIRE(running.status().ok());
  Client client(running.proxy().port());
  std::string sent, back;
  for (int i = 0; i < 100; ++i) {
    const std::string piece = std::to_string(i) + ",";
    REQUIRE(client.Send(piece));
    sent += piece;
    std::this_thread::sleep_for(milliseconds(1));
  }
  CHECK(client.Read(sent.size(), std::chrono::seconds(10)) == sent);
}

TEST_CASE("fault proxy bandwidth makes B bytes at R bytes/s take at least about B/R", "[unit]") {
  EchoServer echo;
  RunningProxy running(OptionsFor(echo));
  REQUIRE(running.status().ok());
  running.proxy().SetToxics(Toxics{.bandwidth = 40'000});
  const std::string payload = RandomBytes(60'000, 2);  // 1.5 s each way at 40 kB/s
  Client client(running.proxy().port());
  const Clock::time_point start = Clock::now();
  CHECK(EchoThrough(client, payload) == payload);
  CHECK(Clock::now() - start >= milliseconds(1400));
}

TEST_CASE("fault proxy queues no more than its cap for a client that does not read", "[unit]") {
  EchoServer echo;
  FaultProxyOptions options = OptionsFor(echo);
  options.max_queued_bytes = 64 * 1024;
  RunningProxy running(options);
  REQUIRE(running.status().ok());
  Client client(running.proxy().port());
  // Send until the kernel will take no more for half a second; never read.
  const std::string block(64 * 1024, 'q');
  size_t sent = 0;
  Clock::time_point last_progress = Clock::now();
  while (Clock::now() - last_progress < milliseconds(500) && sent < (256u << 20)) {
    const ssize_t n = ::send(client.fd(), block.data(), block.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<size_t>(n);
      last_progress = Clock::now();
    } else {
      std::this_thread::sleep_for(milliseconds(5));
    }
  }
  const FaultProxyStats stats = running.proxy().stats();
  INFO("sent " << sent << " queued " << stats.queued_bytes << " peak " << stats.peak_queued_bytes);
  CHECK(sent > 4 * options.max_queued_bytes);  // far more than the cap went in
  CHECK(stats.peak_queued_bytes > 0);
  CHECK(stats.peak_queued_bytes <= options.max_queued_bytes);
  CHECK(stats.queued_bytes <= 2 * options.max_queued_bytes);
}

TEST_CASE("fault proxy rejects an address that does not parse", "[unit]") {
  FaultProxyOptions options;
  options.listen_address = "not-an-address";
  FaultProxy proxy(options);
  CHECK(proxy.Start().code() == StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace crawl::faults
