// Roles of the cluster's processes and people: who may call which
// RPC. A process's role comes from its client certificate
// (common/security/peer_identity.h), a person's from an admin token
// (common/security/admin_tokens.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace crawl::security {

enum class Role : uint8_t { kNameServer = 0, kQueueServer, kFetcher, kAdmin, kReader };
inline constexpr int kRoleCount = 5;

// A set of roles, one bit per Role.
class RoleSet {
 public:
  constexpr RoleSet() = default;
  constexpr RoleSet(std::initializer_list<Role> roles) {
    for (Role r : roles) bits_ |= Bit(r);
  }
  static constexpr RoleSet All() {
    RoleSet s;
    s.bits_ = (1u << kRoleCount) - 1;
    return s;
  }
  [[nodiscard]] constexpr bool Has(Role r) const { return (bits_ & Bit(r)) != 0; }
  [[nodiscard]] constexpr bool empty() const { return bits_ == 0; }
  constexpr RoleSet& Add(Role r) {
    bits_ |= Bit(r);
    return *this;
  }
  constexpr bool operator==(const RoleSet&) const = default;
  // "admin or reader".
  [[nodiscard]] std::string ToString() const;

 private:
  static constexpr uint8_t Bit(Role r) { return static_cast<uint8_t>(1u << static_cast<int>(r)); }
  uint8_t bits_ = 0;
};

// "nameserver", "queueserver", "fetcher", "admin", "reader".
[[nodiscard]] std::string_view RoleName(Role role);
// The inverse of RoleName; nothing for any other text.
[[nodiscard]] std::optional<Role> ParseRole(std::string_view name);

}  // namespace crawl::security
