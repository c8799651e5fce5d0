// Fetch statuses shared by the fetcher and the queue server.
// Negative status codes for fetches that produced no usable HTTP response.
// They share the `status` field of a fetch result (and of the crawl log) with
// real HTTP status codes, which are always positive, so one int says what
// happened to a URL. The values are part of the crawl log format: never
// renumber them, only append.
#pragma once

namespace crawl {

enum FetchError : int {
  kDnsError = -1,        // the name did not resolve (or resolution timed out)
  kConnectError = -2,    // TCP connect failed, or the peer reset/closed the connection
  kTimeout = -3,         // a connect, TLS handshake or request deadline passed
  kTlsError = -4,        // TLS handshake or certificate verification failed
  kProtocolError = -5,   // the response was not valid HTTP/1.x (incl. header too large)
  kBlockedAddress = -6,  // every address of the host is private/local and allow_private is off
  kBodyError = -7,       // the body could not be decoded (bad gzip/deflate, unknown coding)
  kCancelled = -8,       // the fetcher was cancelled before this URL completed
  kBadUrl = -9,          // the URL is not an absolute http(s) URL
  kProxyError = -10,     // the forward proxy could not be reached, or refused the CONNECT tunnel
};

// A short stable name for a status: "dns_error", ..., for a negative code;
// "http" for a positive (HTTP) status; "unknown" for anything else.
[[nodiscard]] constexpr const char* FetchErrorName(int status) {
  switch (status) {
    case kDnsError:
      return "dns_error";
    case kConnectError:
      return "connect_error";
    case kTimeout:
      return "timeout";
    case kTlsError:
      return "tls_error";
    case kProtocolError:
      return "protocol_error";
    case kBlockedAddress:
      return "blocked_address";
    case kBodyError:
      return "body_error";
    case kCancelled:
      return "cancelled";
    case kBadUrl:
      return "bad_url";
    case kProxyError:
      return "proxy_error";
    default:
      return status > 0 ? "http" : "unknown";
  }
}

// True for the statuses a caller treats as a successfully fetched page
// (206 is what a server that honours our Range header answers).
[[nodiscard]] constexpr bool IsSuccess(int status) { return status == 200 || status == 206; }

// Whether a fetch outcome says its host is failing or refusing us, the
// errors docs/DESIGN.md §5.1 counts per schedule to crawl-delay a host:
//   - a network failure (DNS, connect, timeout, TLS, protocol, body);
//   - a 5xx, 429 (too many requests), 408 (request timeout) or 403
//     (forbidden: how bot walls and overloaded front ends refuse);
//   - for robots.txt, only a network failure, 5xx or 429: a 4xx robots.txt
//     is "unavailable" (RFC 9309 2.3.1.3, allow all), how most hosts say
//     they have no rules.
// Not counted: other 4xx (404, 410, 400, 401...) answer for one URL, a
// broken link, not for the host's health (a documentation site with 1,400
// dead links is as able to serve as one with none); cancelled, bad URL and
// blocked address are the crawl's doing.
[[nodiscard]] constexpr bool CountsAsHostError(int status, bool is_robots) {
  if (status == kCancelled || status == kBadUrl || status == kBlockedAddress) return false;
  if (status < 0) return true;
  if (status >= 500 || status == 429) return true;
  if (is_robots) return false;
  return status == 408 || status == 403;
}

}  // namespace crawl
