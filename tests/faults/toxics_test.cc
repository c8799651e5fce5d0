// Tests for FaultProxy's (fault_proxy.h) partition toxics (blackhole,
// refuse, reset, down and up) and its control channel over TCP. A real
// proxy on loopback in front of an echo server; "nothing arrives" is
// checked over a short wait only.
#include <catch2/catch.hpp>
#include <string>

#include "tests/faults/control_server.h"
#include "tests/faults/fault_proxy.h"
#include "tests/faults/test_support.h"

namespace crawl::faults {
namespace {

using namespace crawl::faults::testing;  // NOLINT: test helpers
using std::chrono::milliseconds;

// One control command over a fresh control connection; the answer line.
std::string Control(FaultProxy& proxy, const std::string& line) {
  Client control(proxy.control_port());
  if (control.connect_error() || !control.Send(line + "\n")) return "(no control connection)";
  std::string answer;
  while (answer.empty() || answer.back() != '\n') {
    const std::string got = control.Read(1, std::chrono::seconds(10));
    if (got.empty()) return answer + "(cut)";
    answer += got;
  }
  answer.pop_back();
  return answer;
}

TEST_CASE("fault proxy blackhole drops bytes silently and heals for new bytes", "[unit]") {
  EchoServer echo;
  RunningProxy running(OptionsFor(echo));
  REQUIRE(running.status().ok());
  FaultProxy& proxy = running.proxy();
  Client client(proxy.port());
  REQUIRE(client.RoundTrip("before") == "before");
  CHECK(Control(proxy, "blackhole on") == "ok blackhole on");
  REQUIRE(client.Send("lost"));
  int error = 0;
  CHECK(client.Read(1, milliseconds(300), &error).empty());
  CHECK(error == 0);  // no EOF, no reset: the connection is still open
  CHECK(proxy.stats().bytes_dropped >= 4);
  CHECK(Control(proxy, "blackhole off") == "ok blackhole off");
  CHECK(client.RoundTrip("after") == "after");
}

TEST_CASE("fault proxy refuse resets a new connection and spares an old one", "[unit]") {
  EchoServer echo;
  RunningProxy running(OptionsFor(echo));
  REQUIRE(running.status().ok());
  FaultProxy& proxy = running.proxy();
  Client old_client(proxy.port());
  REQUIRE(old_client.RoundTrip("old") == "old");
  CHECK(Control(proxy, "refuse on") == "ok refuse on");
  Client new_client(proxy.port());
  int error = 0;
  // Read only: a send that met the RST would take its error, and the read
  // would then see a plain EOF.
  CHECK(new_client.Read(1, std::chrono::seconds(10), &error).empty());
  CHECK(error == ECONNRESET);
  CHECK(old_client.RoundTrip("still") == "still");
  CHECK(proxy.stats().connections_reset == 1);
  CHECK(Control(proxy, "refuse off") == "ok refuse off");
  Client later(proxy.port());
  CHECK(later.RoundTrip("again") == "again");
}

TEST_CASE("fault proxy reset closes every current connection with an error", "[unit]") {
  EchoServer echo;
  RunningProxy running(OptionsFor(echo));
  REQUIRE(running.status().ok());
  FaultProxy& proxy = running.proxy();
  Client first(proxy.port());
  Client second(proxy.port());
  REQUIRE(first.RoundTrip("1") == "1");
  REQUIRE(second.RoundTrip("2") == "2");
  CHECK(Control(proxy, "reset") == "ok reset 2");
  for (Client* client : {&first, &second}) {
    int error = 0;
    CHECK(client->Read(1, std::chrono::seconds(10), &error).empty());
    CHECK(error == ECONNRESET);
  }
  CHECK(proxy.stats().connections_reset == 2);
  Client after(proxy.port());
  CHECK(after.RoundTrip("new") == "new");
}

TEST_CASE("fault proxy down refuses connects, keeps old ones, and up listens again", "[unit]") {
  EchoServer echo;
  RunningProxy running(OptionsFor(echo));
  REQUIRE(running.status().ok());
  FaultProxy& proxy = running.proxy();
  Client old_client(proxy.port());
  REQUIRE(old_client.RoundTrip("old") == "old");
  CHECK(Control(proxy, "down") == "ok down");
  CHECK_FALSE(proxy.stats().listening);
  Client refused(proxy.port());
  CHECK(refused.connect_error() == boost::asio::error::connection_refused);
  CHECK(old_client.RoundTrip("still") == "still");
  CHECK(Control(proxy, "up") == "ok up");
  CHECK(proxy.stats().listening);
  Client again(proxy.port());
  REQUIRE_FALSE(again.connect_error());
  CHECK(again.RoundTrip("again") == "again");
}

TEST_CASE("fault proxy control sets toxics, heals, reports stats and rejects bad lines", "[unit]") {
  EchoServer echo;
  RunningProxy running(OptionsFor(echo));
  REQUIRE(running.status().ok());
  FaultProxy& proxy = running.proxy();
  CHECK(Control(proxy, "latency 30 5") == "ok latency 30 jitter 5");
  CHECK(Control(proxy, "bandwidth 5000") == "ok bandwidth 5000");
  CHECK(Control(proxy, "blackhole on") == "ok blackhole on");
  CHECK(proxy.toxics() ==
        Toxics{.latency_ms = 30, .jitter_ms = 5, .bandwidth = 5000, .blackhole = true, .refuse = false});
  CHECK(Control(proxy, "down") == "ok down");
  CHECK(Control(proxy, "bogus") == "error unknown command 'bogus'");
  CHECK(Control(proxy, "latency x").rfind("error ", 0) == 0);
  CHECK(Control(proxy, "heal") == "ok heal");
  CHECK(proxy.toxics() == Toxics{});
  CHECK(proxy.stats().listening);
  const std::string stats = Control(proxy, "stats");
  CHECK(stats.rfind("ok accepted=0 ", 0) == 0);
  CHECK(stats.find(" listening=1 ") != std::string::npos);
}

TEST_CASE("fault proxy control answers each of several lines sent at once", "[unit]") {
  EchoServer echo;
  RunningProxy running(OptionsFor(echo));
  REQUIRE(running.status().ok());
  Client control(running.proxy().control_port());
  REQUIRE(control.Send("refuse on\nnope\r\nrefuse off\n"));
  const std::string want = "ok refuse on\nerror unknown command 'nope'\nok refuse off\n";
  CHECK(control.Read(want.size(), std::chrono::seconds(10)) == want);
}

TEST_CASE("fault proxy control closes a connection whose line is too long", "[unit]") {
  EchoServer echo;
  RunningProxy running(OptionsFor(echo));
  REQUIRE(running.status().ok());
  Client control(running.proxy().control_port());
  control.Send(std::string(4 * kMaxControlLine, 'x'));
  int error = 0;
  const std::string answer = control.Read(1000, std::chrono::seconds(10), &error);
  CHECK(answer == "error line too long\n");
  CHECK(error != 0);                                                       // closed
  CHECK(running.proxy().HandleControlLine("stats").rfind("ok ", 0) == 0);  // the proxy lives on
}

}  // namespace
}  // namespace crawl::faults
