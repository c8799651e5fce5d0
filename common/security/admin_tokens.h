// Admin tokens for people: `crawlctl` and the status page may
// authenticate with a bearer token instead of a certificate. The name server
// keeps only SHA-256 hashes, in a file of lines
//   role sha256hex name
// (role admin or reader; '#' comments and blank lines allowed), re-read on
// SIGHUP. Tokens are compared in constant time and never logged; only the
// entry's name is.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/mutex.h"
#include "common/base/status.h"
#include "common/security/roles.h"

namespace crawl::security {

using Sha256 = std::array<uint8_t, 32>;

[[nodiscard]] Sha256 HashToken(std::string_view token);
// Lower-case hex of HashToken(token): what a token file holds.
[[nodiscard]] std::string Sha256Hex(std::string_view token);

struct TokenEntry {
  Role role = Role::kReader;
  Sha256 hash{};
  std::string name;
};

// Parses a token file's text; the first bad line fails the whole file with
// its line number (a half-read file must not lock out or let in anyone).
[[nodiscard]] Result<std::vector<TokenEntry>> ParseTokenFile(std::string_view text);

// The token in an "authorization" header value "Bearer <token>"; nothing
// for any other form.
[[nodiscard]] std::optional<std::string_view> BearerToken(std::string_view header);

struct TokenMatch {
  Role role;
  std::string name;
};

// The tokens a server accepts. Thread-safe.
class AdminTokens {
 public:
  // Reads `path`; on failure keeps the tokens it had and says why.
  [[nodiscard]] Status Load(const std::string& path);
  // Reads the file given to the last successful Load again.
  [[nodiscard]] Status Reload();
  void Set(std::vector<TokenEntry> entries);

  // The entry whose hash matches `token`. Every entry is compared, each in
  // constant time, so the time taken says nothing about the token.
  [[nodiscard]] std::optional<TokenMatch> Match(std::string_view token) const;
  [[nodiscard]] size_t size() const;

 private:
  mutable Mutex mu_;
  std::string path_ GUARDED_BY(mu_);
  std::vector<TokenEntry> entries_ GUARDED_BY(mu_);
};

}  // namespace crawl::security
