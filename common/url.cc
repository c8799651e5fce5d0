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
  if (!u.has_authority() || u.encoded_host().empty()) return Status::InvalidArgument("URL has no host");

  // Compose the canonical string from the parts rather than editing the url
  // in place: Boost.URL guards some edits with "/." path prefixes.
  std::string out(u.scheme());
  out += "://";
  out += std::string(u.encoded_host());
  if (u.has_port() && !u.port().empty()) {
    const std::string_view port = u.port();
    unsigned long value = 0;
    for (char c : port) {
      value = value * 10 + static_cast<unsigned long>(c - '0');  // the grammar allows digits only
      if (value > 65535) return Status::InvalidArgument("port out of range: " + std::string(port));
    }
    if (value == 0) return Status::InvalidArgument("port 0");
    const bool default_port = (scheme == urls::scheme::http && value == 80) ||
                              (scheme == urls::scheme::https && value == 443);
    if (!default_port) out += ":" + std::to_string(value);
  }
  // normalize() keeps ".." that climb above the root; browsers drop them.
  std::string path(u.encoded_path());
  while (path.rfind("/../", 0) == 0) path.erase(0, 3);
  if (path == "/.." || path == "/.") path = "/";
  if (path.empty() || path.front() != '/') path.insert(path.begin(), '/');
  out += path;
  if (u.has_query()) {
    out += '?';
    out += std::string(u.encoded_query());
  }
  return out;
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
  std::string cleaned_ref = Clean(reference);
  // WHATWG: "http:g" against an http base is relative (RFC 3986 section 5.4.2
  // allows this "backward compatible" reading; browsers all do it).
  const std::string_view base_scheme = b->scheme();
  if (cleaned_ref.size() > base_scheme.size() && cleaned_ref[base_scheme.size()] == ':' &&
      boost::urls::grammar::ci_is_equal(std::string_view(cleaned_ref).substr(0, base_scheme.size()), base_scheme) &&
      cleaned_ref.compare(base_scheme.size() + 1, 2, "//") != 0) {
    cleaned_ref.erase(0, base_scheme.size() + 1);
  }
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
