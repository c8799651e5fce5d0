// Browser-facing defences of the admin HTTP server (common/net/admin_http.h):
// which Host names a server answers (a DNS-rebinding page reaches us under
// its own name, so a Host we were not told about is refused), the headers
// every response carries (CSP, framing, sniffing, referrer), cookies, the
// same-origin test for form posts, and CSRF tokens (RFC 6265bis SameSite
// cookies; OWASP CSRF cheat sheet: origin check plus a token).
// Pure: no sockets, no clock; thread-safe after construction.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/net/admin_http.h"

namespace crawl {

// The name in a Host header: lowercased, port and IPv6 brackets removed;
// "" when malformed.
[[nodiscard]] std::string HostHeaderName(std::string_view host_header);

// The Host names a server answers. Loopback names are always in
// (localhost, 127.0.0.0/8, ::1); so is the listen address unless it is a
// wildcard (0.0.0.0, ::), whose names cannot be known; plus the operator's
// --http-host values. Ports are not compared: a rebinding page and the
// server share the port, only the name tells them apart.
class HostPolicy {
 public:
  HostPolicy() = default;
  HostPolicy(std::string_view listen_host, const std::vector<std::string>& extra_names);
  // An absent Host is allowed: browsers always send one, so it is no
  // rebinding attempt (HTTP/1.0 tools may omit it).
  [[nodiscard]] bool Allows(std::string_view host_header) const;

 private:
  std::vector<std::string> names_;  // as HostHeaderName gives them
};

// 421 with a plain-text body naming --http-host.
[[nodiscard]] HttpReply MisdirectedReply(std::string_view host_header);

// Set on every response unless the handler set its own: load nothing,
// run nothing, never framed, forms only to us.
inline constexpr std::string_view kDefaultCsp =
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
// The headers every response gets (a handler's own headers override).
[[nodiscard]] const HttpReply::Headers& DefaultSecurityHeaders();

// "'sha256-BASE64'": a CSP source admitting one inline script or style
// element whose text is exactly `content` (CSP Level 3, hash-source).
[[nodiscard]] std::string CspHashSource(std::string_view content);

// The value of cookie `name` in a Cookie header, "" when absent.
[[nodiscard]] std::string_view CookieValue(std::string_view cookie_header, std::string_view name);
// A value that can travel in a cookie unchanged.
[[nodiscard]] bool CookieSafe(std::string_view value);

inline constexpr int kSessionCookieSeconds = 12 * 3600;
// Set-Cookie values for the session (the token), and for signing out.
[[nodiscard]] std::string SessionCookie(std::string_view token, bool tls);
[[nodiscard]] std::string ClearedSessionCookie(bool tls);

// Origin, else Referer, names `host` (scheme ignored). Neither present:
// true (non-browser clients send neither; a CSRF token must still hold).
// "null" (a sandboxed or privacy-stripped origin) is never same-origin.
[[nodiscard]] bool SameOriginRequest(std::string_view origin, std::string_view referer,
                                     std::string_view host);

// Login CSRF by double submit: the sign-in form carries a random value
// that is also set in a short-lived SameSite=Strict cookie scoped to
// /login; another site can make a browser post the form but can neither
// read nor set that cookie.
inline constexpr std::string_view kLoginCsrfCookie = "crawl_login";
inline constexpr std::string_view kLoginCsrfField = "login_csrf";
struct LoginCsrf {
  std::string value;       // for the form's hidden field
  std::string set_cookie;  // for a Set-Cookie header
};
[[nodiscard]] LoginCsrf NewLoginCsrf(bool tls);
// The form's value equals the cookie's (constant time), and is one we made.
[[nodiscard]] bool LoginCsrfValid(std::string_view cookie_value, std::string_view form_value);

// 32 random bytes from OpenSSL, as hex. Throws if the RNG fails (at start).
[[nodiscard]] std::string RandomHex(size_t bytes);

// Tokens bound to a session and a purpose: hex HMAC-SHA256(secret,
// purpose ":" session), so another site cannot forge one.
class CsrfKey {
 public:
  explicit CsrfKey(std::string secret) : secret_(std::move(secret)) {}
  [[nodiscard]] std::string Token(std::string_view purpose, std::string_view session) const;
  [[nodiscard]] bool Valid(std::string_view purpose, std::string_view session, std::string_view value) const;

 private:
  std::string secret_;
};

// `text` safe inside HTML text and quoted attribute values: & < > " ' as
// character references.
[[nodiscard]] std::string HtmlEscape(std::string_view text);

}  // namespace crawl
