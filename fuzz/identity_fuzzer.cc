// Fuzz target: what decides who a caller is — the crawl identity
// in a peer's certificate (common/security/peer_identity.h), identity URIs,
// admin token files and "Bearer" headers (common/security/admin_tokens.h)
// and CRLs (common/security/revocation.h). The first input byte picks the
// parser. Checks, besides ASan/UBSan: a parsed identity prints back to the
// URI it came from, a parsed token file's entries are admin or reader, and
// a bearer token holds no white space.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/security/admin_tokens.h"
#include "common/security/peer_identity.h"
#include "common/security/revocation.h"
#include "fuzz/fuzz_check.h"

using namespace crawl::security;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 5) {
    case 0: {
      auto id = ParseIdentityUri(input);
      if (id.ok()) {
        const std::string again =
            std::string(kIdentityUriPrefix) + std::string(RoleName(id->role)) + "/" + id->id;
        FUZZ_CHECK(again == input, "identity '%s' prints as '%s'", std::string(input).c_str(), again.c_str());
      }
      break;
    }
    case 1: {
      auto id = IdentityFromCertificatePem(input);
      if (id.ok()) FUZZ_CHECK(!id->id.empty() && id->id.size() <= 128, "bad id length %zu", id->id.size());
      break;
    }
    case 2: {
      auto entries = ParseTokenFile(input);
      if (entries.ok()) {
        for (const auto& e : *entries)
          FUZZ_CHECK(e.role == Role::kAdmin || e.role == Role::kReader, "token role %s",
                     std::string(RoleName(e.role)).c_str());
      }
      break;
    }
    case 3: {
      auto token = BearerToken(input);
      if (token)
        FUZZ_CHECK(!token->empty() && token->find_first_of(" \t\r\n") == std::string_view::npos, "token");
      break;
    }
    case 4: {
      auto crl = ParseCrl(input);
      (void)crl;
      break;
    }
  }
  return 0;
}
