// URL canonicalisation for the crawl on top of the WHATWG parser
// (common/whatwg_url.h); the canonical form is described in url.h.
#include "common/url.h"

#include "common/whatwg_url.h"

namespace crawl::url {
namespace {

bool IsHex(unsigned char c) { return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }
int HexValue(unsigned char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }
bool IsUnreserved(unsigned char c) {
  return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '-' || c == '.' || c == '_' ||
         c == '~';
}

// Percent-encoding normalisation (RFC 3986 section 6.2.2.1 and 6.2.2.2):
// "%XX" of an unreserved octet decoded, other hex upper-cased; a '%' that
// does not start a triplet is kept as it is (the WHATWG parser keeps it).
void AppendNormalizedPercentEncoding(std::string& out, std::string_view in) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '%' && i + 2 < in.size() && IsHex(static_cast<unsigned char>(in[i + 1])) &&
        IsHex(static_cast<unsigned char>(in[i + 2]))) {
      const int v = HexValue(static_cast<unsigned char>(in[i + 1])) * 16 + HexValue(static_cast<unsigned char>(in[i + 2]));
      // Decoding a hex digit right after a stray '%' (or '%' and one hex
      // digit) would make a new triplet and break the fixed point.
      const size_t n = out.size();
      const bool after_stray = IsHex(static_cast<unsigned char>(v)) &&
                               ((n >= 1 && out[n - 1] == '%') ||
                                (n >= 2 && out[n - 2] == '%' && IsHex(static_cast<unsigned char>(out[n - 1]))));
      if (IsUnreserved(static_cast<unsigned char>(v)) && !after_stray) {
        out.push_back(static_cast<char>(v));
      } else {
        out.push_back('%');
        out.push_back(kHex[v >> 4]);
        out.push_back(kHex[v & 15]);
      }
      i += 2;
    } else {
      out.push_back(c);
    }
  }
}

Result<std::string> Finish(const Result<whatwg::Url>& parsed) {
  if (!parsed.ok()) return Status::InvalidArgument(parsed.status().message());
  const whatwg::Url& u = *parsed;
  std::string out;
  out.reserve(16 + u.host.size() + u.path.size() + (u.query ? u.query->size() + 1 : 0));
  out += u.SchemeName();
  out += "://";
  out += u.host;
  if (u.port >= 0) {
    out.push_back(':');
    out += std::to_string(u.port);
  }
  AppendNormalizedPercentEncoding(out, u.path);
  if (u.query) {
    out.push_back('?');
    AppendNormalizedPercentEncoding(out, *u.query);
  }
  return out;
}

}  // namespace

Result<std::string> Canonicalize(std::string_view absolute) { return Finish(whatwg::Parse(absolute)); }

Result<std::string> Resolve(std::string_view base, std::string_view reference) {
  auto b = whatwg::Parse(base);
  if (!b.ok()) return Status::InvalidArgument("bad base URL: " + b.status().message());
  return Finish(whatwg::Parse(reference, &*b));
}

Result<Resolver> Resolver::ForBase(std::string_view base) {
  auto b = whatwg::Parse(base);
  if (!b.ok()) return Status::InvalidArgument("bad base URL: " + b.status().message());
  return Resolver(std::move(*b));
}

Result<std::string> Resolver::Resolve(std::string_view reference) const {
  return Finish(whatwg::Parse(reference, &base_));
}

Result<UrlParts> Split(std::string_view absolute) {
  auto parsed = whatwg::Parse(absolute);
  if (!parsed.ok()) return Status::InvalidArgument(parsed.status().message());
  const whatwg::Url& u = *parsed;
  UrlParts parts;
  parts.scheme = std::string(u.SchemeName());
  parts.host = u.host_kind == whatwg::HostKind::kIpv6 ? u.host.substr(1, u.host.size() - 2) : u.host;
  parts.port = u.port >= 0 ? static_cast<uint16_t>(u.port) : u.DefaultPort();
  AppendNormalizedPercentEncoding(parts.target, u.path);
  if (u.query) {
    parts.target.push_back('?');
    AppendNormalizedPercentEncoding(parts.target, *u.query);
  }
  return parts;
}

std::string HostOf(std::string_view absolute) {
  auto parts = Split(absolute);
  return parts.ok() ? parts->host : std::string();
}

Result<std::string> OriginOf(std::string_view absolute) {
  auto parsed = whatwg::Parse(absolute);
  if (!parsed.ok()) return Status::InvalidArgument(parsed.status().message());
  std::string origin(parsed->SchemeName());
  origin += "://";
  origin += parsed->host;
  if (parsed->port >= 0) {
    origin.push_back(':');
    origin += std::to_string(parsed->port);
  }
  return origin;
}

Result<std::string> RobotsUrlFor(std::string_view absolute) {
  auto origin = OriginOf(absolute);
  if (!origin.ok()) return origin.status();
  return *origin + "/robots.txt";
}

}  // namespace crawl::url
