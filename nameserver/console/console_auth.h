// Who may see and do what in the name server's console,
// with the roles of the admin API (common/security/admin_tokens.h): a
// reader sees every page, an admin also acts. The caller's token is the
// bearer header or the /login cookie; without admin tokens configured,
// anyone reaching a loopback-only server is admin (as with gRPC, rule 3 of
// common/security/authorizer.h).
//
// Every action is a form POST that carries a CSRF token: hex
// HMAC-SHA256(secret, session token) with a secret drawn at start, so a page
// on another site cannot forge one; a POST whose Origin (or else Referer)
// names another host than the request's Host is refused too. Pure: no
// sockets, thread-safe after construction.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/net/admin_http.h"
#include "common/security/roles.h"

namespace crawl::nameserver {

enum class ConsoleRole { kNone, kReader, kAdmin };

[[nodiscard]] std::string_view ConsoleRoleName(ConsoleRole role);

class ConsoleAuth {
 public:
  // The role a token holds, or nullopt for an unknown token.
  using TokenRole = std::function<std::optional<security::Role>(std::string_view token)>;
  // `secret`: the HMAC key (at least 16 bytes; NewSecret draws one).
  // `tokens_configured`: admin tokens are in use, so loopback is no pass.
  ConsoleAuth(std::string secret, TokenRole token_role, std::function<bool()> tokens_configured);

  // 32 random bytes from OpenSSL.
  [[nodiscard]] static std::string NewSecret();

  [[nodiscard]] ConsoleRole RoleOf(const HttpRequest& req) const;
  // The token forms of this session carry.
  [[nodiscard]] std::string CsrfToken(const HttpRequest& req) const;
  // The form's "csrf" field matches the session (constant-time compare).
  [[nodiscard]] bool CsrfValid(const HttpRequest& req, const std::map<std::string, std::string>& form) const;
  // Origin, else Referer, when present names the request's Host.
  [[nodiscard]] static bool SameOrigin(const HttpRequest& req);

 private:
  std::string secret_;
  TokenRole token_role_;
  std::function<bool()> tokens_configured_;
};

}  // namespace crawl::nameserver
