// WHATWG URL Standard parser for http(s); see whatwg_url.h for the scope and
// the deviations. Section numbers refer to https://url.spec.whatwg.org/.
#include "common/url/whatwg_url.h"

#include <array>

#include "common/base/find_any.h"
#include "common/url/whatwg_ascii.h"

namespace crawl::whatwg {
namespace {

constexpr char kHex[] = "0123456789ABCDEF";

// Percent-encode sets (section 1.3), as 256-entry tables built at compile
// time. Every set contains the C0 controls and everything above U+007E.
struct EncodeSet {
  std::array<bool, 256> in{};
  constexpr EncodeSet(std::string_view extra) {
    for (int c = 0; c < 256; ++c) in[static_cast<size_t>(c)] = c < 0x20 || c > 0x7e;
    for (char c : extra) in[static_cast<unsigned char>(c)] = true;
  }
  constexpr bool operator()(unsigned char c) const { return in[c]; }
};
constexpr EncodeSet kFragmentSet(" \"<>`");
constexpr EncodeSet kSpecialQuerySet(" \"#<>'");
constexpr EncodeSet kPathSet(" \"#<>?^`{}");
constexpr EncodeSet kUserinfoSet(" \"#<>?^`{}/:;=@[\\]|");

void AppendEncoded(std::string& out, unsigned char c, const EncodeSet& set) {
  if (set(c)) {
    out.push_back('%');
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  } else {
    out.push_back(static_cast<char>(c));
  }
}

// A run of bytes outside the set goes in one append (an append per byte is costly).
void AppendEncoded(std::string& out, std::string_view s, const EncodeSet& set) {
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (!set(static_cast<unsigned char>(s[i]))) continue;
    out.append(s.data() + run, i - run);
    AppendEncoded(out, static_cast<unsigned char>(s[i]), set);
    run = i + 1;
  }
  out.append(s.data() + run, s.size() - run);
}

}  // namespace

std::string Url::Href() const {
  std::string out;
  out.reserve(16 + username.size() + password.size() + host.size() + path.size() +
              (query ? query->size() : 0) + (fragment ? fragment->size() : 0));
  out += SchemeName();
  out += "://";
  if (!username.empty() || !password.empty()) {
    out += username;
    if (!password.empty()) {
      out.push_back(':');
      out += password;
    }
    out.push_back('@');
  }
  out += host;
  if (port >= 0) {
    out.push_back(':');
    out += std::to_string(port);
  }
  out += path;
  if (query) {
    out.push_back('?');
    out += *query;
  }
  if (fragment) {
    out.push_back('#');
    out += *fragment;
  }
  return out;
}

namespace {

// A relative reference keeps the base's authority (WHATWG "relative state").
void CopyAuthority(const Url& base, Url* url) {
  url->username = base.username;
  url->password = base.password;
  url->host = base.host;
  url->host_kind = base.host_kind;
  url->port = base.port;
}

bool IsSlash(unsigned char c) { return c == '/' || c == '\\'; }

bool IsSingleDot(std::string_view s) {
  return s == "." || (s.size() == 3 && s[0] == '%' && s[1] == '2' && (s[2] | 0x20) == 'e');
}
bool IsDoubleDot(std::string_view s) {
  auto dot = [](std::string_view p, size_t& i) {
    if (i < p.size() && p[i] == '.') {
      ++i;
      return true;
    }
    if (i + 2 < p.size() && p[i] == '%' && p[i + 1] == '2' && (p[i + 2] | 0x20) == 'e') {
      i += 3;
      return true;
    }
    return false;
  };
  if (s.size() < 2 || s.size() > 6) return false;
  size_t i = 0;
  return dot(s, i) && dot(s, i) && i == s.size();
}

// Removes the last path segment ("shorten a URL's path", file rules skipped).
void ShortenPath(std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash != std::string::npos) path.resize(slash);
}

// Path state (section 4.4) from `p` to the end of the path (a '?', '#' or
// the end of input); appends segments to url->path. Returns where it stopped.
size_t ParsePath(std::string_view in, size_t p, Url* url) {
  std::string& path = url->path;
  while (true) {
    const size_t seg_start = path.size();
    path.push_back('/');
    const size_t seg_begin = p;
    while (p < in.size() && !IsSlash(static_cast<unsigned char>(in[p])) && in[p] != '?' && in[p] != '#') ++p;
    AppendEncoded(path, in.substr(seg_begin, p - seg_begin), kPathSet);
    const bool slash = p < in.size() && IsSlash(static_cast<unsigned char>(in[p]));
    const std::string_view seg = std::string_view(path).substr(seg_start + 1);
    if (IsDoubleDot(seg)) {
      path.resize(seg_start);
      ShortenPath(path);
      if (!slash) path.push_back('/');
    } else if (IsSingleDot(seg)) {
      path.resize(seg_start);
      if (!slash) path.push_back('/');
    }
    if (!slash) return p;
    ++p;
  }
}

// Authority (userinfo, host, port) from `p` up to the next '/', '\', '?',
// '#' or the end: the authority, host and port states in one pass.
Status ParseAuthority(std::string_view in, size_t& p, Url* url) {
  size_t end = p;
  while (end < in.size() && !IsSlash(static_cast<unsigned char>(in[end])) && in[end] != '?' && in[end] != '#')
    ++end;
  std::string_view auth = in.substr(p, end - p);
  p = end;
  const size_t at = auth.rfind('@');
  if (at != std::string_view::npos) {
    const std::string_view userinfo = auth.substr(0, at);
    const size_t colon = userinfo.find(':');
    AppendEncoded(url->username, userinfo.substr(0, colon), kUserinfoSet);
    if (colon != std::string_view::npos)
      AppendEncoded(url->password, userinfo.substr(colon + 1), kUserinfoSet);
    auth.remove_prefix(at + 1);
    if (auth.empty()) return Status::InvalidArgument("host missing after credentials");
  }
  // Host state: a ':' outside brackets starts the port.
  size_t colon = std::string_view::npos;
  bool in_brackets = false;
  for (size_t i = 0; i < auth.size(); ++i) {
    if (auth[i] == '[')
      in_brackets = true;
    else if (auth[i] == ']')
      in_brackets = false;
    else if (auth[i] == ':' && !in_brackets) {
      colon = i;
      break;
    }
  }
  const std::string_view host = auth.substr(0, colon);
  if (host.empty()) return Status::InvalidArgument("host missing");
  auto parsed = ParseHost(host, &url->host_kind);
  if (!parsed.ok()) return parsed.status();
  url->host = std::move(*parsed);
  url->port = -1;
  if (colon != std::string_view::npos) {
    const std::string_view port = auth.substr(colon + 1);
    uint32_t value = 0;
    for (char c : port) {
      if (!IsAsciiDigit(static_cast<unsigned char>(c)))
        return Status::InvalidArgument("port is not a number");
      value = value * 10 + static_cast<uint32_t>(c - '0');
      if (value > 65535) return Status::InvalidArgument("port out of range");
    }
    if (!port.empty() && value != url->DefaultPort()) url->port = static_cast<int32_t>(value);
  }
  return Status::Ok();
}

// Query and fragment states from `p` (at '?', '#' or the end).
void ParseQueryAndFragment(std::string_view in, size_t p, Url* url) {
  if (p < in.size() && in[p] == '?') {
    ++p;
    url->query.emplace();
    const std::string_view query = in.substr(p, in.find('#', p) - p);  // to the '#' or the end
    AppendEncoded(*url->query, query, kSpecialQuerySet);
    p += query.size();
  }
  if (p < in.size() && in[p] == '#') {
    ++p;
    url->fragment.emplace();
    AppendEncoded(*url->fragment, in.substr(p), kFragmentSet);
  }
}

bool IsC0OrSpace(unsigned char c) { return c <= 0x20; }

}  // namespace

namespace {

// From just past "scheme:" (or "//" of a relative reference): any further
// slashes, the authority, then path start, path, query and fragment.
Status ParseFromAuthority(std::string_view in, size_t p, Url* url) {
  while (p < in.size() && IsSlash(static_cast<unsigned char>(in[p]))) ++p;
  if (Status s = ParseAuthority(in, p, url); !s.ok()) return s;
  if (p < in.size() && IsSlash(static_cast<unsigned char>(in[p]))) ++p;
  p = ParsePath(in, p, url);
  ParseQueryAndFragment(in, p, url);
  return Status::Ok();
}

}  // namespace

namespace {

// Strips leading and trailing C0 controls and spaces and removes tabs and
// newlines, copying into `*cleaned` only when there are some.
std::string_view CleanInput(std::string_view raw, std::string* cleaned) {
  while (!raw.empty() && IsC0OrSpace(static_cast<unsigned char>(raw.front()))) raw.remove_prefix(1);
  while (!raw.empty() && IsC0OrSpace(static_cast<unsigned char>(raw.back()))) raw.remove_suffix(1);
  if (FindAnyOf(raw, "\t\n\r") == std::string_view::npos) return raw;
  cleaned->reserve(raw.size());
  for (char c : raw)
    if (c != '\t' && c != '\n' && c != '\r') cleaned->push_back(c);
  return *cleaned;
}

// Scheme start and scheme states: sets url->scheme and returns the position
// just past "scheme:", or 0 when `in` does not start with a scheme. Fails
// for schemes other than http(s).
Result<size_t> ParseScheme(std::string_view in, Url* url) {
  if (in.empty() || !IsAsciiAlpha(static_cast<unsigned char>(in[0]))) return size_t{0};
  size_t i = 1;
  while (i < in.size() &&
         (IsAsciiAlpha(static_cast<unsigned char>(in[i])) ||
          IsAsciiDigit(static_cast<unsigned char>(in[i])) || in[i] == '+' || in[i] == '-' || in[i] == '.'))
    ++i;
  if (i >= in.size() || in[i] != ':') return size_t{0};
  const std::string_view s = in.substr(0, i);
  auto ieq = [&](std::string_view want) {
    if (s.size() != want.size()) return false;
    for (size_t k = 0; k < s.size(); ++k)
      if (Lower(s[k]) != want[k]) return false;
    return true;
  };
  if (ieq("http"))
    url->scheme = Scheme::kHttp;
  else if (ieq("https"))
    url->scheme = Scheme::kHttps;
  else
    return Status::InvalidArgument("not http(s): scheme " + std::string(s));
  return i + 1;
}

// Special relative or authority state (scheme equal to the base's) and
// relative state, from `p`.
Result<Url> ParseRelative(std::string_view in, size_t p, const Url& base) {
  auto at = [&](size_t i) -> unsigned char { return i < in.size() ? static_cast<unsigned char>(in[i]) : 0; };
  Url url;
  url.scheme = base.scheme;
  if (IsSlash(at(p)) && p < in.size()) {
    if (p + 1 < in.size() && IsSlash(at(p + 1))) {
      // Relative slash state, then special authority ignore slashes state.
      if (Status st = ParseFromAuthority(in, p + 2, &url); !st.ok()) return st;
      return url;
    }
    // Relative slash state, otherwise branch: base authority, path from "/".
    CopyAuthority(base, &url);
    ++p;
    p = ParsePath(in, p, &url);
    ParseQueryAndFragment(in, p, &url);
    return url;
  }
  CopyAuthority(base, &url);
  url.path = base.path;
  if (p >= in.size()) {
    url.query = base.query;
    return url;
  }
  if (in[p] == '?' || in[p] == '#') {
    if (in[p] == '#') url.query = base.query;
    ParseQueryAndFragment(in, p, &url);
    return url;
  }
  ShortenPath(url.path);
  p = ParsePath(in, p, &url);
  ParseQueryAndFragment(in, p, &url);
  return url;
}

}  // namespace

Result<Url> Parse(std::string_view raw, const Url* base) {
  std::string cleaned;
  const std::string_view in = CleanInput(raw, &cleaned);

  Url url;
  auto scheme_end = ParseScheme(in, &url);
  if (!scheme_end.ok()) return scheme_end.status();
  const size_t p = *scheme_end;
  const bool has_scheme = p != 0;

  if (has_scheme && !(base && base->scheme == url.scheme)) {
    // Special authority slashes, then special authority ignore slashes.
    if (Status st = ParseFromAuthority(in, p, &url); !st.ok()) return st;
    return url;
  }
  if (!base) return Status::InvalidArgument("relative URL without a base");
  return ParseRelative(in, p, *base);
}

}  // namespace crawl::whatwg
