// Cluster-wide connection slots per address (queueserver/politeness/address_slots.h).
#include "queueserver/politeness/address_slots.h"

#include <catch2/catch.hpp>

namespace crawl::queueserver {
namespace {

v1::AddressSlotsRequest Acquire(const std::string& fetcher, const std::string& address, uint64_t ticket) {
  v1::AddressSlotsRequest req;
  req.set_crawl_id(1);
  req.set_fetcher_id(fetcher);
  v1::AddressSlot* s = req.add_acquire();
  s->set_address(address);
  s->set_ticket(ticket);
  return req;
}

v1::AddressSlotGrant Ask(AddressSlotTable& t, const v1::AddressSlotsRequest& req, int64_t now_ms,
                         AddressSlotTable::Limits limits = {4, 10}) {
  v1::AddressSlotsResponse resp;
  t.Apply(req, limits, now_ms, &resp);
  REQUIRE(resp.acquired_size() + resp.renewed_size() > 0);
  return resp.acquired_size() > 0 ? resp.acquired(0) : resp.renewed(0);
}

TEST_CASE("an address gets at most its limit of slots across every fetcher", "[unit][address_slots]") {
  AddressSlotTable t;
  for (uint64_t i = 0; i < 4; ++i) {
    auto g = Ask(t, Acquire("fetcher" + std::to_string(i % 2), "192.0.2.1", i), 1000);
    CHECK(g.granted());
    CHECK(g.open() == i + 1);
    CHECK(g.pace_ms() == 10 * (i + 1));
  }
  auto refused = Ask(t, Acquire("fetcher2", "192.0.2.1", 9), 1000);
  CHECK_FALSE(refused.granted());
  CHECK(refused.retry_ms() > 0);
  CHECK(refused.open() == 4);
  // Another address is independent.
  CHECK(Ask(t, Acquire("fetcher2", "192.0.2.2", 9), 1000).granted());
  CHECK(t.open() == 5);
  CHECK(t.refused() == 1);
}

TEST_CASE("a released slot goes to the next asker", "[unit][address_slots]") {
  AddressSlotTable t;
  const AddressSlotTable::Limits one{1, 0};
  REQUIRE(Ask(t, Acquire("a", "198.51.100.7", 1), 0, one).granted());
  REQUIRE_FALSE(Ask(t, Acquire("b", "198.51.100.7", 1), 0, one).granted());
  v1::AddressSlotsRequest release;
  release.set_fetcher_id("a");
  *release.add_release() = Acquire("a", "198.51.100.7", 1).acquire(0);
  v1::AddressSlotsResponse resp;
  t.Apply(release, one, 0, &resp);
  CHECK(t.open() == 0);
  CHECK(Ask(t, Acquire("b", "198.51.100.7", 1), 0, one).granted());
}

TEST_CASE("a slot not renewed within its lease is given to others", "[unit][address_slots]") {
  AddressSlotTable t;
  const AddressSlotTable::Limits one{1, 0};
  REQUIRE(Ask(t, Acquire("dead", "203.0.113.5", 1), 0, one).granted());
  CHECK_FALSE(Ask(t, Acquire("live", "203.0.113.5", 1), kSlotLeaseMs - 1, one).granted());
  CHECK(Ask(t, Acquire("live", "203.0.113.5", 1), kSlotLeaseMs + 1, one).granted());
}

TEST_CASE("renewing keeps a slot past its first lease; a lost slot is taken again if free",
          "[unit][address_slots]") {
  AddressSlotTable t;
  const AddressSlotTable::Limits one{1, 0};
  REQUIRE(Ask(t, Acquire("a", "203.0.113.5", 1), 0, one).granted());
  v1::AddressSlotsRequest renew;
  renew.set_fetcher_id("a");
  *renew.add_renew() = Acquire("a", "203.0.113.5", 1).acquire(0);
  CHECK(Ask(t, renew, kSlotLeaseMs - 10, one).granted());
  CHECK_FALSE(Ask(t, Acquire("b", "203.0.113.5", 2), kSlotLeaseMs + 10, one).granted());
  // After a restart the table is empty: the renewal takes the slot again.
  t.Clear();
  CHECK(Ask(t, renew, 5, one).granted());
  CHECK(t.open() == 1);
}

TEST_CASE("the same ticket asked twice holds one slot", "[unit][address_slots]") {
  AddressSlotTable t;
  REQUIRE(Ask(t, Acquire("a", "192.0.2.9", 7), 0).granted());
  CHECK(Ask(t, Acquire("a", "192.0.2.9", 7), 1).open() == 1);
  CHECK(t.open() == 1);
}

TEST_CASE("malformed slot requests are refused with a reason", "[unit][address_slots]") {
  CHECK(AddressSlotTable::CheckRequest(Acquire("f", "192.0.2.1", 1)).empty());
  CHECK(AddressSlotTable::CheckRequest(Acquire("", "192.0.2.1", 1)).find("fetcher_id") != std::string::npos);
  CHECK(AddressSlotTable::CheckRequest(Acquire("f", "", 1)).find("address") != std::string::npos);
  CHECK(AddressSlotTable::CheckRequest(Acquire("f", std::string(300, 'a'), 1)).find("255") !=
        std::string::npos);
  v1::AddressSlotsRequest big = Acquire("f", "192.0.2.1", 1);
  for (int i = 0; i < 10'000; ++i) *big.add_renew() = big.acquire(0);
  CHECK(AddressSlotTable::CheckRequest(big).find("10000") != std::string::npos);
}

TEST_CASE("status lists the busiest addresses with their holders", "[unit][address_slots]") {
  AddressSlotTable t;
  for (uint64_t i = 0; i < 3; ++i) REQUIRE(Ask(t, Acquire("f", "192.0.2.1", i), 0).granted());
  REQUIRE(Ask(t, Acquire("g", "192.0.2.2", 1), 0).granted());
  v1::AddressStatusRequest req;
  req.set_limit(1);
  v1::AddressStatusResponse resp;
  t.Status(req, {4, 10}, 0, &resp);
  REQUIRE(resp.addresses_size() == 1);
  CHECK(resp.addresses(0).address() == "192.0.2.1");
  CHECK(resp.addresses(0).open() == 3);
  CHECK(resp.addresses(0).holders_size() == 3);
  CHECK(resp.addresses(0).pace_ms() == 30);
  CHECK(resp.max_connections_per_address() == 4);
  v1::AddressStatusRequest named;
  named.add_addresses("192.0.2.77");
  v1::AddressStatusResponse unknown;
  t.Status(named, {4, 10}, 0, &unknown);
  REQUIRE(unknown.addresses_size() == 1);
  CHECK(unknown.addresses(0).open() == 0);
}

}  // namespace
}  // namespace crawl::queueserver
