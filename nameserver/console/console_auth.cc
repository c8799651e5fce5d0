#include "nameserver/console/console_auth.h"

#include <openssl/crypto.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <stdexcept>

#include "common/net/http_security.h"

namespace crawl::nameserver {

std::string_view ConsoleRoleName(ConsoleRole role) {
  switch (role) {
    case ConsoleRole::kAdmin:
      return "admin";
    case ConsoleRole::kReader:
      return "reader";
    case ConsoleRole::kNone:
      break;
  }
  return "nobody";
}

ConsoleAuth::ConsoleAuth(std::string secret, TokenRole token_role, std::function<bool()> tokens_configured)
    : secret_(std::move(secret)),
      token_role_(std::move(token_role)),
      tokens_configured_(std::move(tokens_configured)) {}

std::string ConsoleAuth::NewSecret() {
  std::string s(32, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(s.data()), static_cast<int>(s.size())) != 1)
    throw std::runtime_error("no random bytes for the console's CSRF secret");
  return s;
}

ConsoleRole ConsoleAuth::RoleOf(const HttpRequest& req) const {
  if (!req.token.empty()) {
    const auto role = token_role_ ? token_role_(req.token) : std::nullopt;
    if (!role) return ConsoleRole::kNone;
    if (*role == security::Role::kAdmin) return ConsoleRole::kAdmin;
    if (*role == security::Role::kReader) return ConsoleRole::kReader;
    return ConsoleRole::kNone;
  }
  const bool tokens = tokens_configured_ && tokens_configured_();
  return req.loopback_server && !tokens ? ConsoleRole::kAdmin : ConsoleRole::kNone;
}

std::string ConsoleAuth::CsrfToken(const HttpRequest& req) const {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  const std::string session = "console-csrf:" + req.token;
  HMAC(EVP_sha256(), secret_.data(), static_cast<int>(secret_.size()),
       reinterpret_cast<const unsigned char*>(session.data()), session.size(), mac, &len);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += kHex[mac[i] >> 4];
    out += kHex[mac[i] & 15];
  }
  return out;
}

bool ConsoleAuth::CsrfValid(const HttpRequest& req, const std::map<std::string, std::string>& form) const {
  const auto it = form.find("csrf");
  if (it == form.end()) return false;
  const std::string want = CsrfToken(req);
  return it->second.size() == want.size() && CRYPTO_memcmp(it->second.data(), want.data(), want.size()) == 0;
}

bool ConsoleAuth::SameOrigin(const HttpRequest& req) {
  return SameOriginRequest(req.origin, req.referer, req.host);
}

}  // namespace crawl::nameserver
