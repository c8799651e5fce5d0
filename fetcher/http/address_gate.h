// Cluster-wide connection slots per IP address, as FetchSession sees them
// (docs/ARCHITECTURE.md "Politeness per address and pacing"): before
// connecting to an address a session asks the gate for a slot and waits
// for it; it gives the slot back when the connection closes. The fetcher's
// worker implements it over gRPC (fetcher/address_slot_client.h); the HTTP
// engine only knows this interface.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace crawl::fetcher {

class AddressGate {
 public:
  struct Grant {
    // Connections open to the address across the cluster, this one
    // included (0: unknown, the slot's owner could not be asked).
    uint32_t open = 0;
    // Gap each connection to the address keeps between its requests.
    std::chrono::milliseconds pace{0};
    // How long the slot was waited for.
    std::chrono::milliseconds waited{0};
  };
  using OnGrant = std::function<void(std::optional<Grant>)>;

  virtual ~AddressGate() = default;
  // Asks for a slot of `address` (IP in text form). `on_grant` runs exactly
  // once, on the gate's thread and never inside this call: with the grant,
  // or nullopt if the ticket was released before a grant. Returns the
  // ticket that names the slot. Thread-safe.
  virtual uint64_t Acquire(const std::string& address, OnGrant on_grant) = 0;
  // Gives back the slot of `ticket` (held or still awaited). Thread-safe.
  virtual void Release(const std::string& address, uint64_t ticket) = 0;
};

}  // namespace crawl::fetcher
