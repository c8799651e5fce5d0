// The TLS side of the synthetic web: a self-signed certificate made at
// start-up (never stored), so https hosts (Misbehaviour::kHttps) need no
// files and no setup. A crawler that verifies certificates fails on them; a
// crawl that accepts self-signed certificates (crawlctl start
// --accept-self-signed) fetches them. Key: EC P-256; certificate: X.509 v3,
// CN "testweb", subjectAltName "*.test" plus every name given, valid from
// one day ago for 30 days, signed with SHA-256 by its own key.
#pragma once

#include <boost/asio/ssl/context.hpp>
#include <memory>
#include <string>
#include <vector>

#include "common/base/status.h"

namespace crawl::testweb {

// A TLS server context holding a fresh self-signed certificate for `names`
// (DNS names; may be empty). Internal on any OpenSSL failure.
[[nodiscard]] Result<std::shared_ptr<boost::asio::ssl::context>> MakeSelfSignedServerContext(
    const std::vector<std::string>& names);

}  // namespace crawl::testweb
