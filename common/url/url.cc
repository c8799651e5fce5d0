// URL canonicalisation for the crawl on top of the WHATWG parser
// (common/url/whatwg_url.h); the canonical form is described in url.h.
#include "common/url/url.h"

#include <algorithm>
#include <array>

#include "common/base/find_any.h"
#include "common/url/whatwg_url.h"

namespace crawl::url {
namespace {

bool IsHex(unsigned char c) { return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }
int HexValue(unsigned char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }
bool IsUnreserved(unsigned char c) {
  return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

// Percent-encoding normalisation (RFC 3986 section 6.2.2.1 and 6.2.2.2):
// "%XX" of an unreserved octet decoded, other hex upper-cased; a '%' that
// does not start a triplet is a literal percent sign and is encoded as "%25"
// (RFC 3986 2.4: the only reading under which the URL is valid). The WHATWG
// parser keeps it bare, and so do browsers, but servers refuse the request
// line: nginx answers 400 to libboost1.81-doc's link to its own file
// "boost/yap/operator%.html", which wget2 fetches as "operator%25.html".
// The output has no stray '%', so decoding can never glue a new triplet and
// the form stays a fixed point.
void AppendNormalizedPercentEncoding(std::string& out, std::string_view in) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c != '%') {
      out.push_back(c);
    } else if (i + 2 < in.size() && IsHex(static_cast<unsigned char>(in[i + 1])) &&
               IsHex(static_cast<unsigned char>(in[i + 2]))) {
      const int v = HexValue(static_cast<unsigned char>(in[i + 1])) * 16 +
                    HexValue(static_cast<unsigned char>(in[i + 2]));
      if (IsUnreserved(static_cast<unsigned char>(v))) {
        out.push_back(static_cast<char>(v));
      } else {
        out.push_back('%');
        out.push_back(kHex[v >> 4]);
        out.push_back(kHex[v & 15]);
      }
      i += 2;
    } else {
      out += "%25";
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

char LowerAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool IsPatternChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

// Removes matching ";name=value" parameters from a path (any segment).
std::string FilterPathParams(std::string_view path, const TrackingParams& tracking, bool& changed) {
  std::string out;
  size_t i = 0;
  while (i < path.size()) {
    const size_t semi = path.find(';', i);
    if (semi == std::string_view::npos) {
      out.append(path.substr(i));
      break;
    }
    out.append(path.substr(i, semi - i));
    // The parameter runs to the next ';' or '/'.
    size_t end = FindAnyOf(path, ";/", semi + 1);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view param = path.substr(semi + 1, end - semi - 1);
    const std::string_view name = param.substr(0, param.find('='));
    if (!name.empty() && tracking.Matches(name)) {
      changed = true;
    } else {
      out.append(path.substr(semi, end - semi));
    }
    i = end;
  }
  return out;
}

}  // namespace

const std::vector<std::string> kDefaultTrackingParams = {
    "utm_*",  "gclid",   "dclid", "gbraid",  "wbraid",     "_ga",       "_gl",
    "fbclid", "msclkid", "yclid", "igshid",  "twclid",     "ttclid",    "mc_cid",
    "mc_eid", "_hsenc",  "_hsmi", "mkt_tok", "jsessionid", "phpsessid", "sessionid"};

const TrackingParams& TrackingParams::Default() {
  static const TrackingParams defaults = *FromList(kDefaultTrackingParams);
  return defaults;
}

Result<TrackingParams> TrackingParams::FromList(const std::vector<std::string>& patterns) {
  TrackingParams out;
  for (const std::string& pattern : patterns) {
    std::string_view p = pattern;
    const bool prefix = !p.empty() && p.back() == '*';
    if (prefix) p.remove_suffix(1);
    if (p.empty()) {
      return Status::InvalidArgument(prefix ? "tracking parameter pattern '*' would remove every parameter"
                                            : "empty tracking parameter pattern");
    }
    std::string lower;
    for (char c : p) {
      if (!IsPatternChar(c)) {
        return Status::InvalidArgument("tracking parameter pattern '" + pattern +
                                       "': only letters, digits, '-', '.', '_', '~' and a final '*'");
      }
      lower.push_back(LowerAscii(c));
    }
    (prefix ? out.prefixes_ : out.exact_).push_back(std::move(lower));
  }
  return out;
}

bool TrackingParams::Matches(std::string_view name) const {
  auto equal_prefix = [&](std::string_view pattern, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      if (LowerAscii(name[i]) != pattern[i]) return false;
    }
    return true;
  };
  for (const std::string& e : exact_) {
    if (e.size() == name.size() && equal_prefix(e, e.size())) return true;
  }
  for (const std::string& p : prefixes_) {
    if (p.size() <= name.size() && equal_prefix(p, p.size())) return true;
  }
  return false;
}

std::string RemoveTrackingParams(std::string_view canonical, const TrackingParams& tracking) {
  if (tracking.empty()) return std::string(canonical);
  // scheme "://" host[:port] path [? query]; canonical URLs have no fragment.
  const size_t authority = canonical.find("://");
  const size_t path_start = authority == std::string_view::npos ? 0 : canonical.find('/', authority + 3);
  // Without a path parameter or a query there is nothing to remove.
  if (path_start == std::string_view::npos ||
      FindAnyOf(canonical, ";?", path_start) == std::string_view::npos)
    return std::string(canonical);
  const size_t q = canonical.find('?', path_start);
  const std::string_view path =
      canonical.substr(path_start, q == std::string_view::npos ? std::string_view::npos : q - path_start);
  bool changed = false;
  std::string out(canonical.substr(0, path_start));
  out += FilterPathParams(path, tracking, changed);
  if (q == std::string_view::npos) return changed ? out : std::string(canonical);
  const std::string_view query = canonical.substr(q + 1);
  std::vector<std::string_view> kept;
  bool removed_any = false;
  for (size_t i = 0;;) {
    size_t amp = query.find('&', i);
    if (amp == std::string_view::npos) amp = query.size();
    const std::string_view pair = query.substr(i, amp - i);
    const std::string_view name = pair.substr(0, pair.find('='));
    if (!name.empty() && tracking.Matches(name)) {
      removed_any = true;
    } else if (!pair.empty()) {
      kept.push_back(pair);
    }
    if (amp == query.size()) break;
    i = amp + 1;
  }
  if (!removed_any) {
    out.append(canonical.substr(q));
    return changed ? out : std::string(canonical);
  }
  // Rebuilt from the pairs kept (empty pairs, "a&&b", dropped with them).
  for (size_t k = 0; k < kept.size(); ++k) {
    out.push_back(k == 0 ? '?' : '&');
    out.append(kept[k]);
  }
  return out;
}

namespace {
// Characters no percent-encode set of the parser touches and that need no
// normalisation: unreserved, sub-delims, ':' and '@' ('/', '?' and '%'
// are the callers' cases).
constexpr bool IsPlainCharSlow(unsigned char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  switch (c) {
    case '-':
    case '.':
    case '_':
    case '~':
    case '!':
    case '$':
    case '&':
    case '(':
    case ')':
    case '*':
    case '+':
    case ',':
    case ';':
    case '=':
    case ':':
    case '@':
      return true;
    default:
      return false;
  }
}
constexpr std::array<bool, 256> kPlainChars = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) t[c] = IsPlainCharSlow(static_cast<unsigned char>(c));
  return t;
}();
// Every byte of every link passes here: one table load.
inline bool IsPlainChar(unsigned char c) { return kPlainChars[c]; }

// Whether the '%' at u[i] starts an escape the normalisation keeps as it
// is: "%XX" in upper-case hex of an octet that is not unreserved (it would
// decode or upper-case anything else).
bool IsKeptEscape(std::string_view u, size_t i) {
  if (i + 2 >= u.size()) return false;
  auto hex = [](char h) {
    return (h >= '0' && h <= '9') ? h - '0' : (h >= 'A' && h <= 'F') ? h - 'A' + 10 : -1;
  };
  const int hi = hex(u[i + 1]), lo = hex(u[i + 2]);
  return hi >= 0 && lo >= 0 && !IsUnreserved(static_cast<unsigned char>(hi * 16 + lo));
}

bool IsDotSegment(std::string_view segment) { return segment == "." || segment == ".."; }
}  // namespace

bool IsPlainCanonical(std::string_view u) {
  const std::string_view origin = FastOriginOf(u);
  if (origin.empty()) return false;
  // After a plain authority: a path of plain segments, then an optional
  // query, in characters that no percent-encode set of the parser touches.
  bool in_query = false;
  size_t segment_start = origin.size() + 1;  // just past the path's first '/'
  auto dot_segment = [&](size_t end) { return IsDotSegment(u.substr(segment_start, end - segment_start)); };
  for (size_t i = origin.size() + 1; i < u.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(u[i]);
    if (IsPlainChar(c)) continue;
    switch (c) {
      case '/':
        if (!in_query) {
          if (dot_segment(i)) return false;
          segment_start = i + 1;
        }
        continue;
      case '?':
        if (!in_query) {
          if (dot_segment(i)) return false;
          in_query = true;
        }
        continue;
      case '%':
        if (!IsKeptEscape(u, i)) return false;
        i += 2;
        continue;
      default:
        return false;  // '#', '\\', quotes, spaces, controls, non-ASCII...: the parser decides
    }
  }
  return in_query || !dot_segment(u.size());
}

Result<std::string> Canonicalize(std::string_view absolute) {
  if (IsPlainCanonical(absolute)) return std::string(absolute);
  return Finish(whatwg::Parse(absolute));
}

Result<std::string> Canonicalize(std::string_view absolute, const TrackingParams& tracking) {
  auto canonical = Canonicalize(absolute);
  if (!canonical.ok()) return canonical;
  return RemoveTrackingParams(*canonical, tracking);
}

Result<std::string> Resolve(std::string_view base, std::string_view reference) {
  auto b = whatwg::Parse(base);
  if (!b.ok()) return Status::InvalidArgument("bad base URL: " + b.status().message());
  return Finish(whatwg::Parse(reference, &*b));
}

Result<Resolver> Resolver::ForBase(std::string_view base) {
  auto b = whatwg::Parse(base);
  if (!b.ok()) return Status::InvalidArgument("bad base URL: " + b.status().message());
  auto canonical = Finish(b);
  Resolver resolver(std::move(*b));
  if (canonical.ok() && IsPlainCanonical(*canonical)) {
    resolver.origin_size_ = FastOriginOf(*canonical).size();
    resolver.path_end_ = std::min(canonical->find('?'), canonical->size());
    resolver.plain_base_ = std::move(*canonical);
  }
  return resolver;
}

Result<std::string> Resolver::Resolve(std::string_view reference) const {
  if (!plain_base_.empty()) {
    if (auto fast = ResolvePlain(reference)) return std::move(*fast);
  }
  // The crawl form has no fragment, so the parser is spared it (its
  // percent-encoding, a byte at a time). The first '#' ends every state
  // before the fragment, so what precedes it parses the same alone, unless
  // it ends in spaces or controls: alone they would be trimmed.
  const size_t fragment = reference.find('#');
  if (fragment != std::string_view::npos &&
      (fragment == 0 || static_cast<unsigned char>(reference[fragment - 1]) > 0x20))
    reference = reference.substr(0, fragment);
  return Finish(whatwg::Parse(reference, &base_));
}

std::optional<std::string> Resolver::ResolvePlain(std::string_view reference) const {
  reference = reference.substr(0, reference.find('#'));  // the fragment is dropped
  if (reference.empty()) return plain_base_;
  // The reference in IsPlainCanonical's characters (so the parser would
  // neither trim, drop, re-encode nor read a backslash in it), with no
  // scheme (a ':' before any '/' or '?': "mailto:", "http:x") and no
  // authority ("//").
  size_t query = std::string_view::npos, colon = std::string_view::npos, slash = std::string_view::npos;
  for (size_t i = 0; i < reference.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(reference[i]);
    if (c == '%') {
      if (!IsKeptEscape(reference, i)) return std::nullopt;
      i += 2;
    } else if (c == '?') {
      if (query == std::string_view::npos) query = i;
    } else if (c == '/') {
      if (slash == std::string_view::npos) slash = i;
    } else if (c == ':') {
      if (colon == std::string_view::npos) colon = i;
    } else if (!IsPlainChar(c)) {
      return std::nullopt;
    }
  }
  if (colon != std::string_view::npos && colon < std::min(query, slash)) return std::nullopt;
  if (reference.starts_with("//")) return std::nullopt;
  const std::string_view path = reference.substr(0, query);
  const std::string_view base(plain_base_);
  std::string out;
  out.reserve(path_end_ + reference.size());
  if (path.empty()) {
    out.append(base.substr(0, path_end_));  // "?q": the base's path, a new query
  } else {
    // The directory to start from, ending in '/': the root for "/x", else
    // the base's path up to its last '/'. Then the reference's segments as
    // the WHATWG path state takes them: ".." drops the segment before it
    // (none at the root), "." is skipped, and a last "." or ".." leaves the
    // path ending in '/'.
    const size_t root = origin_size_;  // out[root] is the path's first '/'
    const bool absolute = path.front() == '/';
    out.append(base.substr(0, absolute ? root + 1 : base.rfind('/', path_end_ - 1) + 1));
    for (size_t i = absolute ? 1 : 0;;) {
      const size_t end = std::min(path.find('/', i), path.size());
      const std::string_view segment = path.substr(i, end - i);
      if (segment == "..") {
        if (out.size() - 1 > root) out.resize(out.rfind('/', out.size() - 2) + 1);
      } else if (segment != ".") {
        out.append(segment);
        if (end < path.size()) out.push_back('/');
      }
      if (end == path.size()) break;
      i = end + 1;
    }
  }
  if (query != std::string_view::npos) out.append(reference.substr(query));
  return out;
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

std::string_view OriginMemo::Origin(std::string_view canonical) {
  const size_t n = last_.size();
  if (n != 0 && canonical.size() > n && canonical[n] == '/' && canonical.starts_with(last_))
    return canonical.substr(0, n);
  const std::string_view origin = FastOriginOf(canonical);
  if (origin.empty()) return origin;
  last_.assign(origin);
  host_begin_ = origin.find("://") + 3;
  host_size_ = std::min(origin.find(':', host_begin_), origin.size()) - host_begin_;
  return origin;
}

std::string_view OriginMemo::Host(std::string_view canonical) {
  if (Origin(canonical).empty()) return {};
  return canonical.substr(host_begin_, host_size_);
}

std::string HostOf(std::string_view absolute) {
  // Most callers pass canonical URLs (every link of every page, in the
  // fetcher and the queue server): their host is read off without a parse.
  if (const std::string_view origin = FastOriginOf(absolute); !origin.empty()) {
    std::string_view host = origin.substr(origin.find("://") + 3);
    return std::string(host.substr(0, host.find(':')));
  }
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

namespace {
// "a.b.c.d" with each part a decimal 0-255 without leading zeros: the WHATWG
// IPv4 serialisation.
bool IsDottedQuad(std::string_view host) {
  int parts = 0;
  size_t start = 0;
  for (;;) {
    const size_t dot = host.find('.', start);
    const std::string_view part = host.substr(start, dot == std::string_view::npos ? host.npos : dot - start);
    if (part.empty() || part.size() > 3 || (part.size() > 1 && part[0] == '0')) return false;
    int v = 0;
    for (char c : part) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    if (v > 255 || ++parts > 4) return false;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts == 4;
}
}  // namespace

std::string_view FastOriginOf(std::string_view u) {
  size_t start = 0;
  std::string_view default_port;
  if (u.starts_with("http://")) {
    start = 7;
    default_port = "80";
  } else if (u.starts_with("https://")) {
    start = 8;
    default_port = "443";
  } else {
    return {};
  }
  size_t end = FindAnyOf(u, "/?#", start);
  // A canonical http(s) URL has a path: "http://host" is not canonical.
  if (end == std::string_view::npos || u[end] != '/') return {};
  std::string_view auth = u.substr(start, end - start);
  std::string_view host = auth;
  if (const size_t colon = auth.find(':'); colon != std::string_view::npos) {
    host = auth.substr(0, colon);
    const std::string_view port = auth.substr(colon + 1);
    if (port.empty() || port.size() > 5 || port[0] == '0' || port == default_port) return {};
    uint32_t value = 0;  // at most 5 digits: no overflow
    for (char c : port) {
      if (c < '0' || c > '9') return {};
      value = value * 10 + static_cast<uint32_t>(c - '0');
    }
    if (value > 65535) return {};
  }
  if (host.empty() || host.size() > 253 || host.front() == '.' || host.back() == '.' ||
      host.find("..") != std::string_view::npos)
    return {};
  size_t label_start = 0;
  for (size_t i = 0; i <= host.size(); ++i) {
    if (i == host.size() || host[i] == '.') {
      const std::string_view label = host.substr(label_start, i - label_start);
      // Punycode labels are checked by the parser; so is a long label.
      if (label.size() > 63 || label.starts_with("xn--") || label.front() == '-' || label.back() == '-')
        return {};
      label_start = i + 1;
      continue;
    }
    const char c = host[i];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return {};
  }
  // A last label that starts with a digit may make the host an IPv4
  // address, which the parser rewrites ("0x7f.1" is 127.0.0.1); one already
  // in the parser's own form (four decimal parts 0-255, no leading zeros)
  // comes out unchanged.
  const std::string_view last =
      host.substr(host.rfind('.') == std::string_view::npos ? 0 : host.rfind('.') + 1);
  if (last.front() >= '0' && last.front() <= '9' && !IsDottedQuad(host)) return {};
  return u.substr(0, end);
}

Result<std::string> RobotsUrlFor(std::string_view absolute) {
  auto origin = OriginOf(absolute);
  if (!origin.ok()) return origin.status();
  return *origin + "/robots.txt";
}

}  // namespace crawl::url
