// Forward proxy settings: parsing and matching (see proxy_config.h).
#include "fetcher/http/proxy_config.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <sstream>

namespace crawl::fetcher {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string Base64(std::string_view in) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const uint32_t n =
        (uint32_t(uint8_t(in[i])) << 16) | (uint32_t(uint8_t(in[i + 1])) << 8) | uint8_t(in[i + 2]);
    for (int shift : {18, 12, 6, 0}) out.push_back(kAlphabet[(n >> shift) & 63]);
  }
  if (const size_t rest = in.size() - i; rest > 0) {
    uint32_t n = uint32_t(uint8_t(in[i])) << 16;
    if (rest == 2) n |= uint32_t(uint8_t(in[i + 1])) << 8;
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(n >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

// An IPv4 or IPv6 literal (no brackets) as its bytes, or nullopt.
std::optional<std::vector<uint8_t>> AddressBytes(const std::string& text) {
  unsigned char buf[16];
  if (inet_pton(AF_INET, text.c_str(), buf) == 1) return std::vector<uint8_t>(buf, buf + 4);
  if (inet_pton(AF_INET6, text.c_str(), buf) == 1) return std::vector<uint8_t>(buf, buf + 16);
  return std::nullopt;
}

bool PrefixMatches(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, int bits) {
  if (a.size() != b.size()) return false;
  const int whole = bits / 8;
  if (!std::equal(a.begin(), a.begin() + whole, b.begin())) return false;
  if (const int rest = bits % 8; rest > 0) {
    const uint8_t mask = static_cast<uint8_t>(0xff << (8 - rest));
    return (a[whole] & mask) == (b[whole] & mask);
  }
  return true;
}

// "[v6]", "[v6]:port", "host:port", "v6" (several colons): the host alone.
std::string_view StripPort(std::string_view entry) {
  if (!entry.empty() && entry.front() == '[') {
    const auto close = entry.find(']');
    return close == std::string_view::npos ? entry.substr(1) : entry.substr(1, close - 1);
  }
  const auto colon = entry.find(':');
  if (colon != std::string_view::npos && entry.find(':', colon + 1) == std::string_view::npos) {
    return entry.substr(0, colon);
  }
  return entry;
}

}  // namespace

std::string ProxyName(const ProxyEndpoint& proxy) {
  const bool v6 = proxy.host.find(':') != std::string::npos;
  return (v6 ? "[" + proxy.host + "]" : proxy.host) + ":" + std::to_string(proxy.port);
}

Result<ProxyEndpoint> ParseProxyUrl(std::string_view url, std::string_view source, bool scheme_optional) {
  const std::string where(source);
  url = Trim(url);
  const auto scheme_end = url.find("://");
  if (scheme_end != std::string_view::npos) {
    const std::string scheme = Lower(url.substr(0, scheme_end));
    if (scheme != "http") {
      return Status::InvalidArgument(where + ": proxy scheme '" + scheme +
                                     "' is not supported (only http:// proxies; https URLs go through "
                                     "them by CONNECT)");
    }
    url.remove_prefix(scheme_end + 3);
  } else if (!scheme_optional) {
    return Status::InvalidArgument(where + ": expected http://HOST:PORT");
  }
  if (!url.empty() && url.back() == '/') url.remove_suffix(1);
  if (url.find('@') != std::string_view::npos) {
    return Status::InvalidArgument(where +
                                   ": credentials in the proxy URL are not accepted (they would show in "
                                   "process lists and logs); put 'user:password' in --proxy-auth-file");
  }
  if (url.find_first_of("/?#") != std::string_view::npos) {
    return Status::InvalidArgument(where + ": a proxy URL has no path (expected http://HOST:PORT)");
  }
  ProxyEndpoint proxy;
  std::string_view port_text;
  if (!url.empty() && url.front() == '[') {
    const auto close = url.find(']');
    if (close == std::string_view::npos)
      return Status::InvalidArgument(where + ": unclosed '[' in proxy host");
    proxy.host = std::string(url.substr(1, close - 1));
    std::string_view rest = url.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return Status::InvalidArgument(where + ": expected ':PORT' after ']'");
      port_text = rest.substr(1);
      if (port_text.empty()) return Status::InvalidArgument(where + ": empty proxy port");
    }
    if (!AddressBytes(proxy.host)) return Status::InvalidArgument(where + ": bad IPv6 address in brackets");
  } else {
    const auto colon = url.find(':');
    proxy.host = std::string(url.substr(0, colon));
    if (colon != std::string_view::npos) {
      port_text = url.substr(colon + 1);
      if (port_text.empty()) return Status::InvalidArgument(where + ": empty proxy port");
    }
    for (char c : proxy.host) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.' && c != '_') {
        return Status::InvalidArgument(where + ": bad character in proxy host");
      }
    }
  }
  if (proxy.host.empty()) return Status::InvalidArgument(where + ": no proxy host");
  if (!port_text.empty()) {
    unsigned port = 0;
    auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc() || end != port_text.data() + port_text.size() || port == 0 || port > 65535) {
      return Status::InvalidArgument(where + ": bad proxy port '" + std::string(port_text) + "'");
    }
    proxy.port = static_cast<uint16_t>(port);
  }
  proxy.host = Lower(proxy.host);
  return proxy;
}

Result<std::string> BasicProxyAuthorization(std::string_view user_colon_password) {
  const auto colon = user_colon_password.find(':');
  if (colon == std::string_view::npos) return Status::InvalidArgument("expected one line 'user:password'");
  if (colon == 0) return Status::InvalidArgument("the user name before ':' is empty");
  for (char c : user_colon_password) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return Status::InvalidArgument("control characters in 'user:password'");
    }
  }
  return "Basic " + Base64(user_colon_password);
}

Result<std::string> LoadProxyAuthorization(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IoError("--proxy-auth-file " + path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Status::IoError("--proxy-auth-file " + path + ": cannot be read");
  std::string content = text.str();
  if (content.size() > 4096) return Status::InvalidArgument("--proxy-auth-file " + path + ": too long");
  if (!content.empty() && content.back() == '\n') content.pop_back();
  if (!content.empty() && content.back() == '\r') content.pop_back();
  if (content.empty()) return Status::InvalidArgument("--proxy-auth-file " + path + ": is empty");
  if (content.find('\n') != std::string::npos) {
    return Status::InvalidArgument("--proxy-auth-file " + path + ": more than one line");
  }
  auto authorization = BasicProxyAuthorization(content);
  if (!authorization.ok()) {
    return Status::InvalidArgument("--proxy-auth-file " + path + ": " + authorization.status().message());
  }
  return authorization;
}

NoProxyList NoProxyList::Parse(std::string_view list) {
  NoProxyList result;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t end = std::min(list.find_first_of(", \t", start), list.size());
    const std::string_view entry = Trim(list.substr(start, end - start));
    start = end + 1;
    if (entry.empty()) continue;
    if (entry == "*") {
      result.all_ = true;
      continue;
    }
    std::string_view host = entry;
    int prefix_bits = -1;
    if (const auto slash = entry.find('/'); slash != std::string_view::npos) {
      host = entry.substr(0, slash);
      const std::string_view bits = entry.substr(slash + 1);
      int value = 0;
      auto [p, ec] = std::from_chars(bits.data(), bits.data() + bits.size(), value);
      if (ec != std::errc() || p != bits.data() + bits.size() || value < 0) continue;  // not CIDR: ignored
      prefix_bits = value;
    }
    host = StripPort(host);
    if (auto bytes = AddressBytes(std::string(host))) {
      const int max_bits = static_cast<int>(bytes->size() * 8);
      if (prefix_bits > max_bits) continue;
      result.networks_.push_back({std::move(*bytes), prefix_bits < 0 ? max_bits : prefix_bits});
      continue;
    }
    if (prefix_bits >= 0) continue;  // a name with a prefix length: nothing to match
    while (!host.empty() && host.front() == '.') host.remove_prefix(1);
    while (!host.empty() && host.back() == '.') host.remove_suffix(1);
    if (!host.empty()) result.names_.push_back(Lower(host));
  }
  return result;
}

bool NoProxyList::Matches(std::string_view host) const {
  if (all_) return true;
  if (!host.empty() && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (auto bytes = AddressBytes(std::string(host))) {
    for (const auto& network : networks_) {
      if (PrefixMatches(*bytes, network.bytes, network.prefix_bits)) return true;
    }
    // An address may still be listed as text ("127.0.0.1" is also a
    // network; "::1" too): nothing more to try.
    return false;
  }
  while (!host.empty() && host.back() == '.') host.remove_suffix(1);
  const std::string name = Lower(host);
  for (const auto& suffix : names_) {
    if (name == suffix) return true;
    if (name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        name[name.size() - suffix.size() - 1] == '.') {
      return true;
    }
  }
  return false;
}

const ProxyEndpoint* ProxySettings::For(std::string_view scheme, std::string_view host) const {
  const std::optional<ProxyEndpoint>& proxy = scheme == "https" ? https : http;
  if (!proxy || no_proxy.Matches(host)) return nullptr;
  return &*proxy;
}

Result<ProxySettings> ResolveProxySettings(const ProxyFlags& flags,
                                           const std::function<const char*(const char*)>& getenv) {
  auto env = [&getenv](const char* name) -> std::optional<std::string> {
    const char* value = getenv(name);
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string(value);
  };
  ProxySettings settings;
  if (!flags.proxy.empty()) {
    auto proxy = ParseProxyUrl(flags.proxy, "--proxy", /*scheme_optional=*/false);
    if (!proxy.ok()) return proxy.status();
    settings.http = *proxy;
    settings.https = *proxy;
  } else {
    // curl's order: the scheme's own variable, then all_proxy.
    const auto all = env("all_proxy") ? std::make_pair("all_proxy", env("all_proxy"))
                                      : std::make_pair("ALL_PROXY", env("ALL_PROXY"));
    const auto https = env("https_proxy") ? std::make_pair("https_proxy", env("https_proxy"))
                                          : std::make_pair("HTTPS_PROXY", env("HTTPS_PROXY"));
    const auto http = std::make_pair("http_proxy", env("http_proxy"));
    for (auto [slot, chosen] : {std::make_pair(&settings.http, http.second ? http : all),
                                std::make_pair(&settings.https, https.second ? https : all)}) {
      if (!chosen.second) continue;
      auto proxy = ParseProxyUrl(*chosen.second, chosen.first, /*scheme_optional=*/true);
      if (!proxy.ok()) return proxy.status();
      *slot = *proxy;
    }
  }
  if (!flags.auth_file.empty()) {
    if (!settings.any()) {
      return Status::InvalidArgument(
          "--proxy-auth-file is set but no proxy is (--proxy, or http_proxy / https_proxy / all_proxy)");
    }
    auto authorization = LoadProxyAuthorization(flags.auth_file);
    if (!authorization.ok()) return authorization.status();
    if (settings.http) settings.http->authorization = *authorization;
    if (settings.https) settings.https->authorization = *authorization;
  }
  if (flags.no_proxy) {
    settings.no_proxy = NoProxyList::Parse(*flags.no_proxy);
  } else if (auto list = env("no_proxy")) {
    settings.no_proxy = NoProxyList::Parse(*list);
  } else if (auto upper = env("NO_PROXY")) {
    settings.no_proxy = NoProxyList::Parse(*upper);
  }
  return settings;
}

}  // namespace crawl::fetcher
