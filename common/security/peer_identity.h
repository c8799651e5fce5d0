// Who a peer is, read from its certificate: the certificate names
// its role and id in a URI subject alternative name
// "crawl://role/<role>/<id>" (deploy/certs.sh issues them). Host names are
// not identities here: processes move between machines and addresses, the
// role is what decides which RPCs a peer may call.
//
// These parsers see bytes from the network (a peer's certificate) and from
// files; they never crash on bad input (fuzz/identity_fuzzer.cc).
#pragma once

#include <string>
#include <string_view>

#include "common/base/status.h"
#include "common/security/roles.h"

namespace crawl::security {

struct PeerIdentity {
  Role role = Role::kReader;
  std::string id;  // 1-128 characters of [A-Za-z0-9._-]
  bool operator==(const PeerIdentity&) const = default;
};

inline constexpr std::string_view kIdentityUriPrefix = "crawl://role/";

// Parses "crawl://role/<role>/<id>".
[[nodiscard]] Result<PeerIdentity> ParseIdentityUri(std::string_view uri);

// The identity in a PEM certificate's URI SANs: exactly one must start with
// "crawl://role/". Fails on anything else (not a certificate, no SAN, two
// crawl identities).
[[nodiscard]] Result<PeerIdentity> IdentityFromCertificatePem(std::string_view pem);

}  // namespace crawl::security
