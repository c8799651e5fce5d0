// WHATWG host parsing (section 3.5 of https://url.spec.whatwg.org/): IPv6
// in brackets, percent-decoding, domain to ASCII (UTS #46 by libidn2),
// forbidden code points, IPv4 in its every legacy form. Part of the parser
// in whatwg_url.h.
#include <idn2.h>

#include <array>
#include <string>

#include "common/url/whatwg_ascii.h"
#include "common/url/whatwg_url.h"

namespace crawl::whatwg {
namespace {

// Forbidden host / domain code points (section 3.2), ASCII only: non-ASCII
// never survives domain-to-ASCII.
bool IsForbiddenHost(unsigned char c) {
  switch (c) {
    case 0:
    case '\t':
    case '\n':
    case '\r':
    case ' ':
    case '#':
    case '/':
    case ':':
    case '<':
    case '>':
    case '?':
    case '@':
    case '[':
    case '\\':
    case ']':
    case '^':
    case '|':
      return true;
    default:
      return false;
  }
}
bool IsForbiddenDomain(unsigned char c) { return IsForbiddenHost(c) || c <= 0x1f || c == '%' || c == 0x7f; }

// IPv4 number parser (section 3.5). Values saturate well above 2^32 so that
// huge inputs fail the range checks instead of overflowing.
bool ParseIpv4Number(std::string_view s, uint64_t* out) {
  if (s.empty()) return false;
  int radix = 10;
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    radix = 16;
  } else if (s.size() >= 2 && s[0] == '0') {
    s.remove_prefix(1);
    radix = 8;
  }
  uint64_t v = 0;
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    int d;
    if (radix == 16 && IsAsciiHex(c))
      d = HexValue(c);
    else if (radix == 10 && IsAsciiDigit(c))
      d = c - '0';
    else if (radix == 8 && c >= '0' && c <= '7')
      d = c - '0';
    else
      return false;
    v = v * static_cast<uint64_t>(radix) + static_cast<uint64_t>(d);
    if (v > (uint64_t{1} << 40)) v = uint64_t{1} << 40;
  }
  *out = v;
  return true;
}

// "Ends in a number" (section 3.5).
bool EndsInANumber(std::string_view s) {
  if (!s.empty() && s.back() == '.') {
    s.remove_suffix(1);
    if (s.empty()) return false;  // input was "."; one empty item
  }
  const size_t dot = s.rfind('.');
  const std::string_view last = dot == std::string_view::npos ? s : s.substr(dot + 1);
  if (last.empty()) return false;
  bool digits = true;
  for (char c : last) digits = digits && IsAsciiDigit(static_cast<unsigned char>(c));
  if (digits) return true;
  uint64_t ignored;
  return ParseIpv4Number(last, &ignored);
}

// IPv4 parser (section 3.5); appends the dotted serialisation.
bool ParseIpv4(std::string_view s, std::string* out) {
  if (!s.empty() && s.back() == '.' && s.size() > 1) s.remove_suffix(1);
  std::array<uint64_t, 4> parts{};
  size_t n = 0;
  size_t start = 0;
  while (true) {
    const size_t dot = s.find('.', start);
    const std::string_view part =
        s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (n == 4) return false;
    if (!ParseIpv4Number(part, &parts[n])) return false;
    ++n;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  for (size_t i = 0; i + 1 < n; ++i)
    if (parts[i] > 255) return false;
  if (parts[n - 1] >= (uint64_t{1} << (8 * (5 - n)))) return false;
  uint64_t v = parts[n - 1];
  for (size_t i = 0; i + 1 < n; ++i) v += parts[i] << (8 * (3 - i));
  for (int shift = 24; shift >= 0; shift -= 8) {
    *out += std::to_string((v >> shift) & 0xff);
    if (shift) out->push_back('.');
  }
  return true;
}

using Ipv6Pieces = std::array<uint16_t, 8>;

// The IPv6 parser's IPv4 branch (section 3.5): the dotted quad from `p`
// fills the pieces from `*piece` on (two per quad half).
bool ParseIpv4InIpv6(std::string_view s, size_t p, Ipv6Pieces& a, size_t* piece) {
  const size_t len = s.size();
  auto at = [&](size_t i) -> unsigned char { return i < len ? static_cast<unsigned char>(s[i]) : 0; };
  if (*piece > 6) return false;
  int numbers_seen = 0;
  while (p < len) {
    int ipv4_piece = -1;
    if (numbers_seen > 0) {
      if (at(p) == '.' && numbers_seen < 4)
        ++p;
      else
        return false;
    }
    if (p >= len || !IsAsciiDigit(at(p))) return false;
    while (p < len && IsAsciiDigit(at(p))) {
      const int number = at(p) - '0';
      if (ipv4_piece == -1)
        ipv4_piece = number;
      else if (ipv4_piece == 0)
        return false;
      else
        ipv4_piece = ipv4_piece * 10 + number;
      if (ipv4_piece > 255) return false;
      ++p;
    }
    a[*piece] = static_cast<uint16_t>(a[*piece] * 0x100 + ipv4_piece);
    ++numbers_seen;
    if (numbers_seen == 2 || numbers_seen == 4) ++*piece;
  }
  return numbers_seen == 4;
}

// IPv6 parser (section 3.5). `s` is the text inside the brackets.
bool ParseIpv6Pieces(std::string_view s, Ipv6Pieces& a) {
  size_t piece = 0, p = 0;
  int compress = -1;
  const size_t len = s.size();
  auto at = [&](size_t i) -> unsigned char { return i < len ? static_cast<unsigned char>(s[i]) : 0; };
  if (at(p) == ':') {
    if (at(p + 1) != ':') return false;
    p += 2;
    compress = static_cast<int>(++piece);
  }
  while (p < len) {
    if (piece == 8) return false;
    if (at(p) == ':') {
      if (compress != -1) return false;
      ++p;
      compress = static_cast<int>(++piece);
      continue;
    }
    unsigned value = 0, length = 0;
    while (length < 4 && p < len && IsAsciiHex(at(p))) {
      value = value * 16 + static_cast<unsigned>(HexValue(at(p)));
      ++p;
      ++length;
    }
    if (p < len && at(p) == '.') {
      if (length == 0) return false;
      if (!ParseIpv4InIpv6(s, p - length, a, &piece)) return false;
      break;
    } else if (p < len && at(p) == ':') {
      ++p;
      if (p >= len) return false;
    } else if (p < len) {
      return false;
    }
    a[piece] = static_cast<uint16_t>(value);
    ++piece;
  }
  if (compress != -1) {
    size_t swaps = piece - static_cast<size_t>(compress);
    piece = 7;
    while (piece != 0 && swaps > 0) {
      std::swap(a[piece], a[static_cast<size_t>(compress) + swaps - 1]);
      --piece;
      --swaps;
    }
  } else if (piece != 8) {
    return false;
  }
  return true;
}

// IPv6 serializer (section 3.6): appends "[...]", the first longest run of
// two or more zero pieces compressed.
void SerializeIpv6(const Ipv6Pieces& a, std::string* out) {
  int best = -1, best_len = 1;
  for (int i = 0; i < 8;) {
    int j = i;
    while (j < 8 && a[static_cast<size_t>(j)] == 0) ++j;
    if (j - i > best_len) {
      best = i;
      best_len = j - i;
    }
    i = j == i ? i + 1 : j;
  }
  out->push_back('[');
  bool ignore0 = false;
  for (int i = 0; i < 8; ++i) {
    if (ignore0 && a[static_cast<size_t>(i)] == 0) continue;
    ignore0 = false;
    if (i == best) {
      out->append(i == 0 ? "::" : ":");
      ignore0 = true;
      continue;
    }
    char buf[8];
    int n = 0;
    unsigned v = a[static_cast<size_t>(i)];
    do {
      buf[n++] = "0123456789abcdef"[v & 15];
      v >>= 4;
    } while (v);
    while (n) out->push_back(buf[--n]);
    if (i != 7) out->push_back(':');
  }
  out->push_back(']');
}

// IPv6 parser and serialiser (sections 3.5 and 3.6). `s` is the text inside
// the brackets; appends "[...]".
bool ParseIpv6(std::string_view s, std::string* out) {
  Ipv6Pieces a{};
  if (!ParseIpv6Pieces(s, a)) return false;
  SerializeIpv6(a, out);
  return true;
}

// Domain to ASCII (section 3.5) with beStrict = false.
Result<std::string> DomainToAscii(const std::string& domain) {
  bool ascii = true;
  for (char c : domain) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
  std::string out;
  if (ascii) {
    // The ASCII carve-out: lower-casing is all UTS #46 would do here.
    out.resize(domain.size());
    for (size_t i = 0; i < domain.size(); ++i) out[i] = Lower(domain[i]);
  } else {
    char* converted = nullptr;
    const int rc = idn2_to_ascii_8z(domain.c_str(), &converted, IDN2_NONTRANSITIONAL);
    if (rc != IDN2_OK)
      return Status::InvalidArgument(std::string("host: domain to ASCII: ") + idn2_strerror(rc));
    out = converted;
    idn2_free(converted);
    for (char& c : out) c = Lower(c);
  }
  if (out.empty()) return Status::InvalidArgument("host: empty after domain to ASCII");
  return out;
}

}  // namespace

Result<std::string> ParseHost(std::string_view input, HostKind* kind) {
  std::string out;
  if (!input.empty() && input.front() == '[') {
    if (input.size() < 2 || input.back() != ']')
      return Status::InvalidArgument("host: unclosed IPv6 address");
    if (!ParseIpv6(input.substr(1, input.size() - 2), &out))
      return Status::InvalidArgument("host: bad IPv6 address");
    *kind = HostKind::kIpv6;
    return out;
  }
  // Percent-decode (section 1.3).
  std::string domain;
  domain.reserve(input.size());
  for (size_t i = 0; i < input.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(input[i]);
    if (c == '%' && i + 2 < input.size() && IsAsciiHex(static_cast<unsigned char>(input[i + 1])) &&
        IsAsciiHex(static_cast<unsigned char>(input[i + 2]))) {
      domain.push_back(static_cast<char>(HexValue(static_cast<unsigned char>(input[i + 1])) * 16 +
                                         HexValue(static_cast<unsigned char>(input[i + 2]))));
      i += 2;
    } else {
      domain.push_back(static_cast<char>(c));
    }
  }
  auto ascii = DomainToAscii(domain);
  if (!ascii.ok()) return ascii.status();
  for (char c : *ascii)
    if (IsForbiddenDomain(static_cast<unsigned char>(c)))
      return Status::InvalidArgument("host: forbidden code point");
  if (EndsInANumber(*ascii)) {
    if (!ParseIpv4(*ascii, &out)) return Status::InvalidArgument("host: bad IPv4 address");
    *kind = HostKind::kIpv4;
    return out;
  }
  *kind = HostKind::kDomain;
  return std::move(*ascii);
}

}  // namespace crawl::whatwg
