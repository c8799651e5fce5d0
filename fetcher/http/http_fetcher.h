// The fetcher's asynchronous HTTP/1.1 and HTTP/2 client engine (docs/DESIGN.md
// section 3, step 4), on Boost.Beast over Boost.Asio, and libnghttp2 for h2.
//
// One call of FetchSequence downloads a list of URLs of one origin in order
// over a single keep-alive connection: the politeness unit of the crawler
// ("at most one connection per host"). Hundreds of sequences run
// concurrently on one io_context; each is a self-owning session object
// (Beast's http_crawl / http_client_async style) on its own strand, with a
// deadline on every asynchronous step.
//
// Protocol (RFC 9110 / RFC 9112):
//   - request: `GET target HTTP/1.1`, Host (with ":port" when not the
//     scheme's default), User-Agent, `Range: bytes=0-(page_range_bytes-1)`
//     (RFC 9110 14.2), `Accept-Encoding: gzip, deflate`,
//     `Connection: keep-alive`;
//   - the content-coded body is cut at page_range_bytes whether or not the
//     server honours Range (Content-Length, chunked or close-delimited); a cut
//     closes the connection, since the rest of the body is never read;
//   - gzip / x-gzip / deflate (zlib or raw) bodies are decoded; the decoded
//     size is capped too, by default at page_range_bytes (so the cut-off
//     bounds what a page costs whatever its compression ratio: a
//     decompression bomb gives the first page_range_bytes decoded bytes and
//     truncated=true, not an error; zlib stops at the cap, so the bytes past
//     it are never produced);
//   - redirects are not followed: a 3xx is reported with its Location;
//   - a request on a reused connection that fails before any response byte
//     arrives (the server closed an idle keep-alive connection) is retried
//     once on a new connection (RFC 9112 9.3.1: GET is idempotent);
//   - https via OpenSSL with peer verification (system trust store, host name
//     checked, SNI sent) unless accept_self_signed. TLS connections are
//     closed without close_notify (as most crawlers do).
//
// HTTP/2 (RFC 9113): https offers ALPN "h2,http/1.1" (with h2_streams > 0)
// and speaks h2 when the server picks it; http speaks it only with
// h2_prior_knowledge. The sequence then keeps up to h2_streams requests in
// flight on its one connection (fewer if the server's
// SETTINGS_MAX_CONCURRENT_STREAMS says so) while the pacing gap is 0 (with
// a gap, one at a time, the gap after the previous ended), and reports them in order with the same fields and
// limits as above; see fetcher/http/h2_exchange.h for what differs (a body cut
// resets the stream, not the connection; GOAWAY'd URLs are asked again on
// a new connection, once).
//
// Name resolution: the hosts file first (its port, when given, overrides the
// URL's; the Host header keeps the URL's name and port), else DNS through
// the c-ares resolver with its TTL cache (fetcher/http/dns_resolver.h), shared by
// every sequence, once per origin per sequence. Addresses for
// which IsPrivateOrLocal() holds are dropped unless allow_private; if none is
// left the URL fails with kBlockedAddress and no connection is made.
// Addresses from the hosts file are exempt from this policy: the operator
// wrote them on purpose (it is how the synthetic web on 127.x is crawled).
//
// Time limits (each reported as kTimeout with the limit's name in `error`):
//   connect_timeout     name resolution, TCP connect, TLS handshake (each);
//   first_byte_timeout  from the request written to the first response byte;
//   request_timeout     the whole URL, from its start (resolution included)
//                       to the last body byte: bounds a trickling server.
//
// Connections per IP: with max_connections_per_ip > 0, a sequence waits
// before connecting while that many connections to the same address are
// open (hosts sharing a server). The caller keeps one sequence per host.
// With an address_gate, it then also waits for a cluster-wide slot of the
// address (fetcher/http/address_gate.h), held until the connection closes.
//
// Forward proxy (options.proxy, fetcher/http/proxy_config.h): a URL whose
// scheme has a proxy and whose host is not in no_proxy goes through it.
// http: the request goes to the proxy in absolute-form (RFC 9112 3.2.2,
// `GET http://host[:port]/path HTTP/1.1`, Host as above) with
// Proxy-Authorization when set; never h2 prior knowledge. https: a
// `CONNECT host:port HTTP/1.1` tunnel (RFC 9110 9.3.6), then TLS (SNI,
// verification, ALPN) through it; a non-2xx answer fails the URL with
// kProxyError ("proxy refused CONNECT: 407 Proxy Authentication
// Required"). The connection stays one per sequence (host): a proxy
// connection is never shared between hosts. The target's name is still
// resolved (hosts file, else DNS) and the address policy applies to what it
// gives, so politeness per address still holds; if it cannot be resolved,
// the URL goes on through the proxy (which may know names the fetcher does
// not) without a per-IP slot. A target the hosts file places is asked of the
// proxy at that address and port (`GET http://ADDRESS:PORT/path`, Host
// still the URL's): the proxy cannot see the fetcher's hosts file. The
// proxy's own address is resolved at every connection (hosts file first);
// the address policy does not apply to it (the operator chose it).
// remote_address is then the target's address (or name), not the proxy's.
// Proxy credentials appear in no error, log or metric.
//
// Retry-After (RFC 9110 10.2.3) of a 429 or 503 answer is parsed, seconds or
// HTTP-date, into retry_after_seconds.
//
// Conditional requests (RFC 9110 13.1.2, 13.1.3): a FetchTarget with
// validators adds If-None-Match / If-Modified-Since to its request (values
// with control characters or longer than kMaxValidatorBytes are not sent).
// A 304 answer has no body and is reported as such (status 304); what it
// means is the caller's business (fetcher/page/page_processor.h).
#pragma once

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/crawl/fetch_error.h"
#include "fetcher/http/address_gate.h"
#include "fetcher/http/host_pacer.h"
#include "fetcher/http/http_date.h"
#include "fetcher/http/proxy_config.h"
#include "fetcher/http/result_budget.h"

namespace crawl {
class HostsFile;
}

namespace crawl::fetcher {

class DnsResolver;

// Longest validator sent back in a conditional request.
inline constexpr size_t kMaxValidatorBytes = 512;

// One URL of a sequence with the validators of an earlier fetch ("" when
// none): sent as If-None-Match and If-Modified-Since.
struct FetchTarget {
  std::string url;
  std::string if_none_match;
  std::string if_modified_since;
  // This URL's range and body cap in place of page_range_bytes (0: that):
  // documents get CrawlParams.max_document_bytes. The decoded body may then
  // be as large too (max_decoded_bytes does not cut it shorter).
  uint64_t range_bytes = 0;
};

struct FetcherOptions {
  std::string user_agent = "crawl-fetcher/0.1";
  // Range asked for and hard cap on the (content-coded) body kept.
  // REQUIRES: > 0.
  uint64_t page_range_bytes = 1'000'000;
  // Bounds each of: name resolution, TCP connect (all addresses together),
  // TLS handshake.
  std::chrono::milliseconds connect_timeout{10'000};
  // Bounds the wait for the first response byte after the request is sent.
  std::chrono::milliseconds first_byte_timeout{15'000};
  // Bounds one URL from its start (resolution, connect included) to the
  // last body byte.
  std::chrono::milliseconds request_timeout{30'000};
  // Most open connections to one IP address (0: no limit).
  size_t max_connections_per_ip = 0;
  // Cluster-wide connection slots per address (null: none): a sequence
  // holds one of its address's slots while its connection is open.
  std::shared_ptr<AddressGate> address_gate;
  // Shared DNS resolver and cache. Null: the fetcher makes its own with
  // default DnsOptions (system name servers).
  std::shared_ptr<DnsResolver> resolver;
  // A kept-alive connection is closed rather than held idle for longer than
  // this (matters only with FetchSequence's delay_between).
  std::chrono::milliseconds idle_timeout{15'000};
  // Status line plus header fields; larger is kProtocolError.
  size_t max_header_bytes = 64 * 1024;
  // Connect to addresses common/net/address_policy.h refuses (tests, intranets).
  bool allow_private = false;
  // https: skip certificate verification (the synthetic web's self-signed
  // hosts). Off by default.
  bool accept_self_signed = false;
  // https: a PEM file of extra trust anchors, used with the system store
  // ("" for none); e.g. the synthetic web's certificate.
  std::string ca_file;
  // Consulted before DNS; may be null. Not owned: must outlive the fetcher
  // and every sequence it runs.
  const HostsFile* hosts_file = nullptr;
  // Decompression bomb guard: cap on the decoded body; 0 means
  // page_range_bytes (the body cut-off applies to the decoded bytes).
  uint64_t max_decoded_bytes = 0;
  // HTTP/2 (RFC 9113): most requests in flight on a host's one h2
  // connection (also bounded by the server's SETTINGS_MAX_CONCURRENT_STREAMS);
  // 0 never speaks h2. https offers "h2,http/1.1" by ALPN when > 0.
  size_t h2_streams = 4;
  // Cleartext http: speak h2 from the first byte (RFC 9113 3.3, "prior
  // knowledge"), for servers known to take it; no HTTP/1.1 fallback.
  bool h2_prior_knowledge = false;
  // Forward proxies and the hosts that bypass them (none by default).
  ProxySettings proxy;
  // How the wait before a host's next request is chosen (host_pacer.h):
  // by default fixed, the sequence's delay_between only.
  PacingOptions pacing;
};

// The range asked for and the content-coded body cap of `target`; the
// decoded body cap.
[[nodiscard]] inline uint64_t RangeBytesOf(const FetcherOptions& options, const FetchTarget& target) {
  return target.range_bytes > 0 ? target.range_bytes : options.page_range_bytes;
}

[[nodiscard]] inline uint64_t DecodedCapOf(const FetcherOptions& options, const FetchTarget& target) {
  const uint64_t cap = options.max_decoded_bytes > 0 ? options.max_decoded_bytes : options.page_range_bytes;
  return target.range_bytes > cap ? target.range_bytes : cap;
}

// The outcome of one URL. Exactly one per URL given to FetchSequence.
struct FetchResult {
  std::string url;               // as given
  int status = 0;                // HTTP status (206 when Range was honoured), or a FetchError (< 0)
  std::string body;              // decoded; empty when status < 0
  bool truncated = false;        // body cut (range cap, decode cap, or 206 of a larger document)
  std::string content_type;      // Content-Type header value as sent
  std::string mime_type;         // its media type: lower-case, no parameters ("text/html")
  std::string content_encoding;  // Content-Encoding as sent ("" if none)
  std::string location;          // raw Location header (for 3xx; not resolved)
  std::string etag;
  std::string last_modified;
  std::string expires;
  std::string cache_control;   // Cache-Control as sent (for max-age)
  bool conditional = false;    // the request carried If-None-Match / If-Modified-Since
  std::string error;           // human-readable reason when status < 0 (or a decode note)
  uint32_t fetch_ms = 0;       // from request start (incl. resolve/connect) to result
  int64_t start_unix_us = 0;   // wall-clock start of this request
  uint64_t wire_bytes = 0;     // response bytes parsed from the connection (header + framing + body)
  std::string remote_address;  // "ip:port" the response came from ("" if none); through a proxy, the target's
                               // address (or "host:port" when the fetcher could not resolve it)
  uint32_t retry_after_seconds = 0;  // Retry-After of a 429/503 (0: absent or invalid)
  // The cluster-wide address slot of the connection that answered: how
  // long it was waited for, and the connections open to the address when
  // it was granted (0: none asked for, or unknown).
  uint32_t address_wait_ms = 0;
  uint32_t address_connections = 0;
  // Every X-Robots-Tag field, one per line (an agent prefix scopes one
  // field only: fetcher/page/robots_directives.h); "" if none.
  std::string x_robots_tag;
  // Every Link field, joined by ", " (RFC 8288: a list); "" if none.
  std::string link;
  // The host's pacing gap (HostPacer::Gap) when this request started: the
  // wait before it, unless it was the first of its sequence.
  uint32_t pace_ms = 0;
  // This result made the host's pacing back off (adaptive pacing: a 5xx,
  // 429, timeout or network error).
  bool pace_backed_off = false;
};

class HttpFetcher {
 public:
  // `io_context` must outlive this object and every sequence started on it.
  // The io_context may be run by one or several threads.
  HttpFetcher(boost::asio::io_context& io_context, FetcherOptions options);
  // Does not wait for running sequences: they keep their own copy of the
  // options and finish normally (use CancelAll first to stop them quickly).
  ~HttpFetcher();

  HttpFetcher(const HttpFetcher&) = delete;
  HttpFetcher& operator=(const HttpFetcher&) = delete;

  // Fetches `urls` in order over one connection at a time (reconnecting after
  // a close or an error), waiting the host's pacing gap (HostPacer::Gap,
  // options.pacing) between the end of one request and the start of the
  // next; with fixed pacing that is `delay_between`. Over HTTP/2, while the
  // gap is > 0, one request at a time, also the gap after the previous
  // one ended. `start_pace` is the gap the host's previous sequence ended
  // with (adaptive pacing starts from it). Calls `on_result` once per URL, in
  // order, then `on_done` once. Returns immediately; callbacks run on the
  // io_context (on this sequence's strand: callbacks of one sequence never
  // overlap; those of different sequences may, if several threads run the
  // io_context). Callbacks must not throw.
  // REQUIRES: the URLs share one origin (scheme, host, port); a URL of
  // another origin still works, after closing the current connection.
  // REQUIRES: the caller runs at most one sequence per host at a time.
  // With a `budget`, every result's body is Add()ed to it before on_result,
  // the caller Release()s it when done with the body, and no request starts
  // while the budget is full (see ResultBudget).
  // Thread-safe.
  void FetchSequence(std::vector<std::string> urls, std::function<void(FetchResult)> on_result,
                     std::function<void()> on_done,
                     std::chrono::milliseconds delay_between = std::chrono::milliseconds(0),
                     std::shared_ptr<ResultBudget> budget = nullptr);
  // The same, each URL with the validators its request sends (conditional
  // requests, see above).
  void FetchSequence(std::vector<FetchTarget> targets, std::function<void(FetchResult)> on_result,
                     std::function<void()> on_done,
                     std::chrono::milliseconds delay_between = std::chrono::milliseconds(0),
                     std::shared_ptr<ResultBudget> budget = nullptr,
                     std::chrono::milliseconds start_pace = std::chrono::milliseconds(0));

  // Stops every running sequence: its current and remaining URLs get
  // kCancelled, then its on_done runs (asynchronously). Thread-safe.
  void CancelAll();

  // Sequences started and not yet done. Thread-safe.
  [[nodiscard]] size_t active_sequences() const;

  // Requests between start and result (resolving, connecting, waiting for
  // an IP slot, or exchanging). Thread-safe.
  [[nodiscard]] size_t requests_in_flight() const;

  // Why https is unavailable (OpenSSL setup or ca_file failed), or "" if it
  // works. When set, every https URL fails with kTlsError and this message.
  [[nodiscard]] const std::string& tls_setup_error() const;

  // Shared with the sessions (which may outlive this object).
  struct Shared;

 private:
  boost::asio::io_context& io_context_;
  std::shared_ptr<Shared> shared_;
};

}  // namespace crawl::fetcher
