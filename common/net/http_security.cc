#include "common/net/http_security.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <stdexcept>

namespace crawl {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c); });
  return out;
}

std::string Hex(const unsigned char* data, size_t n) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (size_t i = 0; i < n; ++i) {
    out += kHex[data[i] >> 4];
    out += kHex[data[i] & 15];
  }
  return out;
}

bool EqualConstantTime(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

bool IsLoopbackName(const std::string& name) {
  if (name == "localhost") return true;
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address(name, ec);
  return !ec && address.is_loopback();
}

// "https://host:port/path" -> "host:port".
std::string_view Authority(std::string_view url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return {};
  url.remove_prefix(scheme + 3);
  return url.substr(0, url.find_first_of("/?#"));
}

}  // namespace

std::string HostHeaderName(std::string_view host) {
  std::string_view name;
  if (!host.empty() && host.front() == '[') {
    const size_t close = host.find(']');
    if (close == std::string_view::npos) return "";
    const std::string_view rest = host.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') return "";
    name = host.substr(1, close - 1);
  } else {
    const size_t colon = host.find(':');
    if (colon != std::string_view::npos && host.find(':', colon + 1) != std::string_view::npos) {
      name = host;  // a bare IPv6 address (as --http-host may give it)
    } else {
      name = host.substr(0, colon);
    }
  }
  if (name.empty() || name.find_first_of(" \t/\\@") != std::string_view::npos) return "";
  std::string out = Lower(name);
  if (out.back() == '.') out.pop_back();  // "localhost." is localhost
  return out;
}

HostPolicy::HostPolicy(std::string_view listen_host, const std::vector<std::string>& extra_names) {
  const std::string listen = HostHeaderName(listen_host);
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address(listen, ec);
  if (!listen.empty() && !(!ec && address.is_unspecified())) names_.push_back(listen);
  for (const auto& n : extra_names) {
    std::string name = HostHeaderName(n);
    if (!name.empty()) names_.push_back(std::move(name));
  }
}

bool HostPolicy::Allows(std::string_view host_header) const {
  if (host_header.empty()) return true;
  const std::string name = HostHeaderName(host_header);
  if (name.empty()) return false;
  if (IsLoopbackName(name)) return true;
  return std::find(names_.begin(), names_.end(), name) != names_.end();
}

HttpReply MisdirectedReply(std::string_view host_header) {
  std::string shown;
  for (char c : host_header.substr(0, 200))
    if (c >= ' ' && c < 127) shown += c;
  return {421, "text/plain; charset=utf-8",
          "This server does not answer to the name '" + shown +
              "' (a defence against DNS rebinding). If that is a name of this machine, start the process "
              "with --http-host NAME.\n"};
}

const HttpReply::Headers& DefaultSecurityHeaders() {
  static const HttpReply::Headers headers = {
      {"Content-Security-Policy", std::string(kDefaultCsp)},
      {"X-Frame-Options", "DENY"},
      {"X-Content-Type-Options", "nosniff"},
      // Not no-referrer: under it browsers send "Origin: null" with our own
      // form posts, and the same-origin check of /login refuses them.
      {"Referrer-Policy", "same-origin"},
      {"Cross-Origin-Opener-Policy", "same-origin"},
  };
  return headers;
}

std::string CspHashSource(std::string_view content) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(content.data()), content.size(), digest);
  unsigned char b64[4 * ((SHA256_DIGEST_LENGTH + 2) / 3) + 1];
  const int n = EVP_EncodeBlock(b64, digest, SHA256_DIGEST_LENGTH);
  return "'sha256-" + std::string(reinterpret_cast<const char*>(b64), static_cast<size_t>(n)) + "'";
}

std::string_view CookieValue(std::string_view cookies, std::string_view name) {
  while (!cookies.empty()) {
    const size_t semi = cookies.find(';');
    std::string_view one = cookies.substr(0, semi);
    cookies = semi == std::string_view::npos ? std::string_view() : cookies.substr(semi + 1);
    while (!one.empty() && one.front() == ' ') one.remove_prefix(1);
    if (one.size() > name.size() && one.substr(0, name.size()) == name && one[name.size()] == '=')
      return one.substr(name.size() + 1);
  }
  return {};
}

bool CookieSafe(std::string_view value) {
  if (value.empty() || value.size() > 512) return false;
  for (char c : value) {
    if (c <= ' ' || c >= 127 || c == ';' || c == ',' || c == '"' || c == '\\') return false;
  }
  return true;
}

std::string SessionCookie(std::string_view token, bool tls) {
  return std::string(kLoginCookie) + "=" + std::string(token) +
         "; Path=/; HttpOnly; SameSite=Strict; Max-Age=" + std::to_string(kSessionCookieSeconds) +
         (tls ? "; Secure" : "");
}

std::string ClearedSessionCookie(bool tls) {
  return std::string(kLoginCookie) + "=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0" +
         (tls ? "; Secure" : "");
}

bool SameOriginRequest(std::string_view origin, std::string_view referer, std::string_view host) {
  const std::string_view from = !origin.empty() ? origin : referer;
  if (from.empty()) return true;
  if (from == "null") return false;
  return !host.empty() && Lower(Authority(from)) == Lower(host);
}

std::string RandomHex(size_t bytes) {
  std::string raw(bytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(raw.data()), static_cast<int>(raw.size())) != 1)
    throw std::runtime_error("no random bytes from OpenSSL");
  return Hex(reinterpret_cast<const unsigned char*>(raw.data()), raw.size());
}

LoginCsrf NewLoginCsrf(bool tls) {
  LoginCsrf c;
  c.value = RandomHex(16);
  // Ten minutes to fill in the form; sent back only to /login.
  c.set_cookie = std::string(kLoginCsrfCookie) + "=" + c.value +
                 "; Path=/login; HttpOnly; SameSite=Strict; Max-Age=600" + (tls ? "; Secure" : "");
  return c;
}

bool LoginCsrfValid(std::string_view cookie_value, std::string_view form_value) {
  if (cookie_value.size() != 32) return false;
  return EqualConstantTime(cookie_value, form_value);
}

std::string CsrfKey::Token(std::string_view purpose, std::string_view session) const {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  const std::string message = std::string(purpose) + ":" + std::string(session);
  HMAC(EVP_sha256(), secret_.data(), static_cast<int>(secret_.size()),
       reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac, &len);
  return Hex(mac, len);
}

bool CsrfKey::Valid(std::string_view purpose, std::string_view session, std::string_view value) const {
  return EqualConstantTime(Token(purpose, session), value);
}

std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace crawl
