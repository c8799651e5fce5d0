// The fetcher lane's cluster-wide address slots (fetcher/address_slot_client.h)
// against an owner that counts slots per address as a queue server does.
#include "fetcher/address_slot_client.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "common/crawl/rendezvous.h"

namespace crawl::fetcher {
namespace {

using namespace std::chrono_literals;

// Owners that grant at most `limit` slots per address; `up` false makes
// every call fail as an unreachable server would.
struct FakeOwners {
  std::mutex mu;
  size_t limit = 2;
  bool up = true;
  std::map<std::string, std::map<uint64_t, bool>> held;  // address -> tickets
  std::map<size_t, std::set<std::string>> asked;         // server -> addresses asked about

  grpc::Status Call(size_t server, const v1::AddressSlotsRequest& req, v1::AddressSlotsResponse* resp) {
    std::lock_guard lock(mu);
    if (!up) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "connection refused");
    for (const auto& r : req.release()) held[r.address()].erase(r.ticket());
    for (const auto& a : req.acquire()) {
      asked[server].insert(a.address());
      auto& slots = held[a.address()];
      v1::AddressSlotGrant* g = resp->add_acquired();
      g->set_address(a.address());
      g->set_ticket(a.ticket());
      if (slots.size() < limit) slots[a.ticket()] = true;
      g->set_granted(slots.count(a.ticket()) > 0);
      g->set_open(static_cast<uint32_t>(slots.size()));
      g->set_pace_ms(10 * static_cast<uint32_t>(slots.size()));
      g->set_retry_ms(20);
    }
    for (const auto& r : req.renew())
      resp->add_renewed()->set_granted(held[r.address()].count(r.ticket()) > 0);
    return grpc::Status::OK;
  }
  size_t Open(const std::string& address) {
    std::lock_guard lock(mu);
    return held[address].size();
  }
};

// Grants as they arrive on the client's thread.
struct Grants {
  std::mutex mu;
  std::map<int, std::optional<AddressGate::Grant>> got;
  AddressGate::OnGrant For(int i) {
    return [this, i](std::optional<AddressGate::Grant> g) {
      std::lock_guard lock(mu);
      got[i] = g;
    };
  }
  size_t Count() {
    std::lock_guard lock(mu);
    return got.size();
  }
  bool WaitFor(size_t n) {
    for (int i = 0; i < 500 && Count() < n; ++i) std::this_thread::sleep_for(10ms);
    return Count() >= n;
  }
};

TEST_CASE("a lane's sessions get no more slots of an address than its owner grants",
          "[unit][address_slots]") {
  FakeOwners owners;
  Grants grants;
  AddressSlotClient client(7, "f1", {"qs0"},
                           [&](size_t s, const auto& req, auto* resp) { return owners.Call(s, req, resp); });
  uint64_t tickets[4];
  for (int i = 0; i < 4; ++i) tickets[i] = client.Acquire("192.0.2.1", grants.For(i));
  REQUIRE(grants.WaitFor(2));
  std::this_thread::sleep_for(100ms);  // refused ones are asked again meanwhile
  CHECK(grants.Count() == 2);
  CHECK(owners.Open("192.0.2.1") == 2);
  CHECK(client.held() == 2);
  CHECK(client.waiting() == 2);
  // A held slot given back lets a waiter in.
  int first = grants.got.begin()->first;
  client.Release("192.0.2.1", tickets[first]);
  REQUIRE(grants.WaitFor(3));
  CHECK(owners.Open("192.0.2.1") == 2);
  for (auto& [i, g] : grants.got) {
    REQUIRE(g.has_value());
    CHECK(g->open >= 1);
    CHECK(g->pace.count() == 10 * g->open);
  }
}

TEST_CASE("a slot given back while the lane waits for its address passes on without a call",
          "[unit][address_slots]") {
  FakeOwners owners;
  owners.limit = 1;
  Grants grants;
  AddressSlotClient client(7, "f1", {"qs0"},
                           [&](size_t s, const auto& req, auto* resp) { return owners.Call(s, req, resp); });
  const uint64_t first = client.Acquire("192.0.2.1", grants.For(0));
  REQUIRE(grants.WaitFor(1));
  (void)client.Acquire("192.0.2.1", grants.For(1));
  std::this_thread::sleep_for(50ms);
  REQUIRE(grants.Count() == 1);
  client.Release("192.0.2.1", first);
  REQUIRE(grants.WaitFor(2));
  REQUIRE(grants.got[1].has_value());
  CHECK(client.held() == 1);
  // The owner still holds the first ticket: one slot, never released.
  std::lock_guard lock(owners.mu);
  CHECK(owners.held["192.0.2.1"].size() == 1);
  CHECK(owners.held["192.0.2.1"].count(first) == 1);
}

TEST_CASE("a wait given back before its grant is answered with none", "[unit][address_slots]") {
  FakeOwners owners;
  owners.limit = 0;  // full
  Grants grants;
  AddressSlotClient client(7, "f1", {"qs0"},
                           [&](size_t s, const auto& req, auto* resp) { return owners.Call(s, req, resp); });
  const uint64_t t = client.Acquire("192.0.2.1", grants.For(0));
  std::this_thread::sleep_for(50ms);
  CHECK(grants.Count() == 0);
  client.Release("192.0.2.1", t);
  REQUIRE(grants.WaitFor(1));
  CHECK_FALSE(grants.got[0].has_value());
  CHECK(client.waiting() == 0);
}

TEST_CASE("an unreachable owner slows connections but never stops them", "[unit][address_slots]") {
  FakeOwners owners;
  owners.up = false;
  Grants grants;
  AddressSlotClient client(
      7, "f1", {"qs0"}, [&](size_t s, const auto& req, auto* resp) { return owners.Call(s, req, resp); },
      100ms);
  (void)client.Acquire("192.0.2.1", grants.For(0));
  REQUIRE(grants.WaitFor(1));
  REQUIRE(grants.got[0].has_value());
  CHECK(grants.got[0]->open == 0);  // unchecked
  CHECK(client.held() == 1);        // granted locally once the owner failed
}

TEST_CASE("each address is asked of the queue server it hashes to", "[unit][address_slots]") {
  FakeOwners owners;
  owners.limit = 100;
  Grants grants;
  const std::vector<std::string> ids = {"qs0", "qs1", "qs2"};
  AddressSlotClient client(7, "f1", ids,
                           [&](size_t s, const auto& req, auto* resp) { return owners.Call(s, req, resp); });
  for (int i = 0; i < 30; ++i) (void)client.Acquire("198.51.100." + std::to_string(i), grants.For(i));
  REQUIRE(grants.WaitFor(30));
  size_t servers_used = 0;
  for (const auto& [server, addresses] : owners.asked) {
    ++servers_used;
    for (const std::string& a : addresses) CHECK(OwnerIndex(ids, a) == server);
  }
  CHECK(servers_used == 3);
}

TEST_CASE("held slots are given back when the client goes away", "[unit][address_slots]") {
  FakeOwners owners;
  Grants grants;
  {
    AddressSlotClient client(
        7, "f1", {"qs0"}, [&](size_t s, const auto& req, auto* resp) { return owners.Call(s, req, resp); });
    (void)client.Acquire("192.0.2.1", grants.For(0));
    REQUIRE(grants.WaitFor(1));
    CHECK(owners.Open("192.0.2.1") == 1);
  }
  CHECK(owners.Open("192.0.2.1") == 0);
}

TEST_CASE("a client holding no slot sleeps until asked, past its renewal time", "[unit][address_slots]") {
  FakeOwners owners;
  Grants grants;
  AddressSlotClient client(
      7, "f1", {"qs0"}, [&](size_t s, const auto& req, auto* resp) { return owners.Call(s, req, resp); },
      AddressSlotClient::kFailOpenAfter, /*renew_every=*/20ms);
  const uint64_t ticket = client.Acquire("192.0.2.1", grants.For(0));
  REQUIRE(grants.WaitFor(1));
  client.Release("192.0.2.1", ticket);
  for (int i = 0; i < 500 && owners.Open("192.0.2.1") > 0; ++i) std::this_thread::sleep_for(10ms);
  REQUIRE(owners.Open("192.0.2.1") == 0);
  // Ten renewal periods with nothing held: nothing to renew, nothing to ask.
  // The loop used to wait for a renewal time already past, which returned at
  // once: tens of thousands of wake-ups a second on an idle lane.
  const uint64_t before = client.wakeups();
  std::this_thread::sleep_for(200ms);
  CHECK(client.wakeups() - before <= 2);
  // And a new acquire still wakes it.
  (void)client.Acquire("192.0.2.2", grants.For(1));
  CHECK(grants.WaitFor(2));
}

}  // namespace
}  // namespace crawl::fetcher
