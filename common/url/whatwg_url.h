// A URL parser for the special schemes a crawler follows (http, https),
// after the WHATWG URL Standard (https://url.spec.whatwg.org/), "basic URL
// parser" without state override. Tested against the web-platform-tests
// vectors in tests/data/conformance/url/urltestdata.json
// (tests/unit/common/url_wpt_test.cc).
//
// Deliberate deviations and limits:
//   - Only "http" and "https" are parsed; any other scheme (file, ftp, ws,
//     data, javascript, mailto, non-special schemes...) is rejected with
//     "not http(s)". So there are no opaque paths, no file host or Windows
//     drive-letter rules, and no "state override" (setters).
//   - Input is UTF-8 bytes, not UTF-16: non-ASCII bytes are percent-encoded
//     one by one; invalid UTF-8 is encoded as is, not replaced by U+FFFD
//     (only in a host does it fail, as U+FFFD would).
//   - Domain to ASCII: an all-ASCII domain is lower-cased (the spec's ASCII
//     carve-out); any other goes through libidn2 (UTS #46 non-transitional,
//     no STD3 rules). libidn2 also applies IDNA2008's rules (CheckHyphens,
//     no symbols such as U+2603), so a few hosts that UTS #46 with the
//     standard's flags would accept are rejected here.
//   - Validation errors that are not failures are not reported.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/base/status.h"

namespace crawl::whatwg {

enum class Scheme : uint8_t { kHttp, kHttps };
enum class HostKind : uint8_t { kDomain, kIpv4, kIpv6 };

// A parsed URL record (spec section 4.1), components already serialised and
// percent-encoded as the standard's getters return them.
struct Url {
  Scheme scheme = Scheme::kHttp;
  std::string username;  // percent-encoded (userinfo set)
  std::string password;  // percent-encoded (userinfo set)
  std::string host;      // ASCII domain, dotted IPv4, or "[v6]" compressed
  HostKind host_kind = HostKind::kDomain;
  int32_t port = -1;                    // -1: none (also when the scheme's default was given)
  std::string path;                     // "/seg/seg": never empty for http(s)
  std::optional<std::string> query;     // without the '?'
  std::optional<std::string> fragment;  // without the '#'

  // "http" or "https".
  [[nodiscard]] std::string_view SchemeName() const { return scheme == Scheme::kHttps ? "https" : "http"; }
  // The scheme's default port: 80 or 443.
  [[nodiscard]] uint16_t DefaultPort() const { return scheme == Scheme::kHttps ? 443 : 80; }
  // The URL serializer (spec section 4.5), with the fragment.
  [[nodiscard]] std::string Href() const;
};

// The basic URL parser: `input` parsed against `base` (nullptr for none).
// Fails for anything the standard fails, and for schemes other than http(s).
// Thread-safe. Allocates the result's strings, plus a copy of the input only
// when it holds tabs or newlines and a scratch string for a host.
[[nodiscard]] Result<Url> Parse(std::string_view input, const Url* base = nullptr);

// Host parser for a special scheme (spec section 3.5), exposed for tests:
// percent-decodes, maps to ASCII, and parses IPv4/IPv6 forms. On success
// `*kind` says which kind of host the serialised result is.
[[nodiscard]] Result<std::string> ParseHost(std::string_view input, HostKind* kind);

}  // namespace crawl::whatwg
