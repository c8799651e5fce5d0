#include "common/security/roles.h"

#include <array>

namespace crawl::security {
namespace {
constexpr std::array<std::string_view, kRoleCount> kNames = {"nameserver", "queueserver", "fetcher", "admin",
                                                             "reader"};
}  // namespace

std::string_view RoleName(Role role) { return kNames[static_cast<size_t>(role)]; }

std::optional<Role> ParseRole(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<Role>(i);
  }
  return std::nullopt;
}

std::string RoleSet::ToString() const {
  std::string out;
  for (int i = 0; i < kRoleCount; ++i) {
    if (!Has(static_cast<Role>(i))) continue;
    if (!out.empty()) out += " or ";
    out += RoleName(static_cast<Role>(i));
  }
  return out.empty() ? "no role" : out;
}

}  // namespace crawl::security
