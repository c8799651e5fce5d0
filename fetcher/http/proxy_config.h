// Forward proxy settings of the fetcher, as pure parsing and matching (no
// I/O but reading the credentials file): which proxy, if any, a URL goes
// through. The HTTP side (absolute-form requests, CONNECT tunnels) is in
// fetch_session.cc and fetch_session_proxy.cc.
//
// Sources, as curl reads them (curl(1) "ENVIRONMENT", libcurl >= 7.86):
//   --proxy URL            every URL, http and https, goes through it;
//   otherwise the environment:
//     http_proxy           http URLs (lower case only: HTTP_PROXY can be set
//                          by a CGI request's "Proxy:" header, "httpoxy");
//     https_proxy, HTTPS_PROXY   https URLs (lower case first);
//     all_proxy, ALL_PROXY       either, when the above is unset;
//   no_proxy, NO_PROXY (or --no-proxy LIST, which overrides them): hosts that
//     never go through a proxy (see NoProxyList).
// A proxy is an HTTP proxy, "http://HOST[:PORT][/]" (port 1080 by default,
// as curl; the environment may leave out "http://"). Other schemes (https,
// socks) are refused, and so are credentials in the URL: they would show in
// `ps` and in logs. Credentials come from --proxy-auth-file, one line
// "user:password", sent as `Proxy-Authorization: Basic ...` (RFC 9110
// 11.7.1, RFC 7617) and never written anywhere else.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"

namespace crawl::fetcher {

// One HTTP proxy.
struct ProxyEndpoint {
  std::string host;  // a name, or an address (IPv6 without brackets)
  uint16_t port = 1080;
  // The Proxy-Authorization field value ("Basic dXNlcjpwYXNz"), "" for none.
  // Secret: never logged, never in an error or a metric.
  std::string authorization;
  bool operator==(const ProxyEndpoint&) const = default;
};

// "HOST:PORT" (IPv6 in brackets), for messages: never the credentials.
[[nodiscard]] std::string ProxyName(const ProxyEndpoint& proxy);

// Parses a proxy URL. `scheme_optional`: "host:port" is read as
// "http://host:port" (curl does so for the environment). `source` names
// where the URL came from in error messages ("--proxy", "https_proxy").
// InvalidArgument for another scheme, credentials, a path, a bad port.
[[nodiscard]] Result<ProxyEndpoint> ParseProxyUrl(std::string_view url, std::string_view source,
                                                  bool scheme_optional);

// The Proxy-Authorization value of "user:password" (a colon required, the
// user not empty): "Basic " + base64. InvalidArgument otherwise, without
// the text in the message.
[[nodiscard]] Result<std::string> BasicProxyAuthorization(std::string_view user_colon_password);

// Reads `path`: one line "user:password" (a trailing newline, and "\r\n",
// allowed). Errors name the file, never its content: unreadable, empty,
// more than one line, no colon.
[[nodiscard]] Result<std::string> LoadProxyAuthorization(const std::string& path);

// The hosts that bypass the proxy: a comma (or space) separated list, as
// curl >= 7.86 reads no_proxy:
//   "*" alone: every host;
//   a name, with or without a leading dot: that host and its subdomains
//     ("example.com" and ".example.com" both match example.com and
//     www.example.com, not badexample.com); case-insensitive, a trailing
//     dot ignored;
//   an IP address, or CIDR "10.0.0.0/8", "fd00::/8": URLs whose host is an
//     address literal in it (names are not resolved to match);
//   a port (":8080") is ignored; IPv6 may be in brackets.
class NoProxyList {
 public:
  NoProxyList() = default;
  [[nodiscard]] static NoProxyList Parse(std::string_view list);

  // Whether `host` (a URL's host: a name, or an address, IPv6 with or
  // without brackets) bypasses the proxy.
  [[nodiscard]] bool Matches(std::string_view host) const;

  [[nodiscard]] bool empty() const { return !all_ && names_.empty() && networks_.empty(); }

 private:
  struct Network {
    std::vector<uint8_t> bytes;  // 4 or 16
    int prefix_bits = 0;
  };
  bool all_ = false;
  std::vector<std::string> names_;  // lower case, no leading/trailing dot
  std::vector<Network> networks_;
};

// Where the fetcher's URLs go. Copyable, immutable once made.
struct ProxySettings {
  std::optional<ProxyEndpoint> http;   // for http:// URLs
  std::optional<ProxyEndpoint> https;  // for https:// URLs (CONNECT tunnels)
  NoProxyList no_proxy;

  // The proxy for a URL of `scheme` ("http", "https") and `host`, or null
  // when it goes direct.
  [[nodiscard]] const ProxyEndpoint* For(std::string_view scheme, std::string_view host) const;
  [[nodiscard]] bool any() const { return http.has_value() || https.has_value(); }
};

// What the fetcher's flags say, before the environment is consulted.
struct ProxyFlags {
  std::string proxy;                    // --proxy: "" for none (then the environment)
  std::string auth_file;                // --proxy-auth-file: "" for none
  std::optional<std::string> no_proxy;  // --no-proxy: overrides no_proxy/NO_PROXY when given
};

// The settings of `flags` and the environment (`getenv`: a variable's value
// or null; std::getenv in the fetcher). An empty variable counts as unset.
// Errors name the flag or variable at fault (never the credentials):
// --proxy-auth-file without any proxy, a bad URL, an unreadable auth file.
[[nodiscard]] Result<ProxySettings> ResolveProxySettings(
    const ProxyFlags& flags, const std::function<const char*(const char*)>& getenv);

}  // namespace crawl::fetcher
