#include "common/url.h"

#include <boost/url.hpp>

namespace crawl::url {
namespace {

namespace urls = boost::urls;

bool IsC0OrSpace(unsigned char c) { return c <= 0x20; }

// Browser-style clean-up before strict RFC 3986 parsing (see header).
std::string Clean(std::string_view in) {
  size_t b = 0, e = in.size();
  while (b < e && IsC0OrSpace(static_cast<unsigned char>(in[b]))) ++b;
  while (e > b && IsC0OrSpace(static_cast<unsigned char>(in[e - 1]))) --e;
  std::string out;
  out.reserve(e - b + 8);
  static constexpr char kHex[] = "0123456789ABCDEF";
  bool in_query_or_fragment = false;
  for (size_t i = b; i < e; ++i) {
    unsigned char c = static_cast<unsigned char>(in[i]);
    if (c == '\t' || c == '\n' || c == '\r') continue;
    if (c == '?' || c == '#') in_query_or_fragment = true;
    if (c == '\\' && !in_query_or_fragment) {
      out.push_back('/');
      continue;
    }
    bool encode = c < 0x20 || c >= 0x7f || c == ' ' || c == '"' || c == '<' || c == '>' ||
                  c == '^' || c == '`' || c == '{' || c == '|' || c == '}';
    // A '%' not followed by two hex digits cannot be parsed: encode it.
    if (c == '%') {
      auto hex = [&](size_t j) { return j < e && std::isxdigit(static_cast<unsigned char>(in[j])); };
      encode = !(hex(i + 1) && hex(i + 2));
    }
    if (encode) {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

Result<std::string> Finish(urls::url& u) {
  if (!u.has_scheme()) return Status::InvalidArgument("relative URL without a base");
  u.normalize();
  const auto scheme = u.scheme_id();
  if (scheme != urls::scheme::http && scheme != urls::scheme::https)
    return Status::InvalidArgument("scheme is not http or https: " + std::string(u.scheme()));
  if (!u.has_authority() || u.host().empty()) return Status::InvalidArgument("URL has no host");
  if (u.has_userinfo()) u.remove_userinfo();
  u.remove_fragment();
  if (u.has_port()) {
    if (u.port().empty()) {
      u.remove_port();
    } else {
      const auto p = u.port_number();
      if (p == 0) return Status::InvalidArgument("bad port: " + std::string(u.port()));
      if ((scheme == urls::scheme::http && p == 80) || (scheme == urls::scheme::https && p == 443))
        u.remove_port();
    }
  }
  if (u.encoded_path().empty()) u.set_encoded_path("/");
  // normalize() keeps ".." that climb above the root; browsers drop them.
  std::string path(u.encoded_path());
  while (path.rfind("/../", 0) == 0) path.erase(0, 3);
  if (path == "/..") path = "/";
  if (path != u.encoded_path()) u.set_encoded_path(path);
  return std::string(u.buffer());
}

}  // namespace

Result<std::string> Canonicalize(std::string_view absolute) {
  const std::string cleaned = Clean(absolute);
  auto parsed = urls::parse_absolute_uri(cleaned);
  if (!parsed) {
    // Fragments are not part of absolute-URI; try the full URI grammar.
    auto with_fragment = urls::parse_uri(cleaned);
    if (!with_fragment) return Status::InvalidArgument("not a URL: " + parsed.error().message());
    urls::url u(*with_fragment);
    return Finish(u);
  }
  urls::url u(*parsed);
  return Finish(u);
}

Result<std::string> Resolve(std::string_view base, std::string_view reference) {
  const std::string cleaned_base = Clean(base);
  auto b = urls::parse_uri(cleaned_base);
  if (!b) return Status::InvalidArgument("bad base URL: " + b.error().message());
  const std::string cleaned_ref = Clean(reference);
  auto r = urls::parse_uri_reference(cleaned_ref);
  if (!r) return Status::InvalidArgument("bad reference: " + r.error().message());
  urls::url dest;
  auto rv = urls::resolve(*b, *r, dest);
  if (!rv) return Status::InvalidArgument("cannot resolve: " + rv.error().message());
  return Finish(dest);
}

Result<UrlParts> Split(std::string_view absolute) {
  auto canonical = Canonicalize(absolute);
  if (!canonical.ok()) return canonical.status();
  urls::url_view u(*canonical);
  UrlParts parts;
  parts.scheme = std::string(u.scheme());
  parts.host = std::string(u.encoded_host_address());
  if (!parts.host.empty() && parts.host.front() == '[') parts.host = parts.host.substr(1, parts.host.size() - 2);
  parts.port = u.has_port() ? u.port_number() : (parts.scheme == "https" ? 443 : 80);
  parts.target = std::string(u.encoded_target());
  if (parts.target.empty()) parts.target = "/";
  return parts;
}

std::string HostOf(std::string_view absolute) {
  auto parts = Split(absolute);
  return parts.ok() ? parts->host : std::string();
}

Result<std::string> OriginOf(std::string_view absolute) {
  auto canonical = Canonicalize(absolute);
  if (!canonical.ok()) return canonical.status();
  urls::url_view u(*canonical);
  std::string origin = std::string(u.scheme()) + "://" + std::string(u.encoded_host_and_port());
  return origin;
}

Result<std::string> RobotsUrlFor(std::string_view absolute) {
  auto origin = OriginOf(absolute);
  if (!origin.ok()) return origin.status();
  return *origin + "/robots.txt";
}

}  // namespace crawl::url
