// Asynchronous DNS for the fetcher (docs/DESIGN.md §3 step 4):
// c-ares on the fetcher's Boost.Asio io_context, with a cache that keeps
// each answer for its DNS TTL.
//
// Why c-ares: Asio's resolver calls getaddrinfo on a helper thread (one
// blocking lookup at a time per io_context) and never sees TTLs.
// c-ares speaks DNS itself (RFC 1035 over UDP, TCP on truncation) and gives
// the TTL of every address record.
//
// Integration with Asio: c-ares reports the sockets it wants watched through
// its socket-state callback (ARES_OPT_SOCK_STATE_CB); each one is wrapped in
// a non-owning asio::posix::stream_descriptor whose async_wait(read/write)
// calls ares_process_fd for that socket. One steady_timer, re-armed after
// every c-ares call from ares_timeout(), drives retransmissions and query
// timeouts. Nothing polls: an idle resolver has no timer and no socket. All
// c-ares calls run on one strand (a c-ares channel is not thread-safe), so
// the io_context may be run by several threads.
//
// Cache (keyed by lower-case host name, trailing dot ignored):
//   - an answer is kept for its TTL (the smallest TTL of its A/AAAA and
//     CNAME records), clamped to [min_ttl, max_ttl];
//   - NXDOMAIN and "no address records" (NODATA) are cached for
//     negative_ttl (RFC 2308 caching of negative answers; the SOA minimum is
//     not exposed by c-ares' getaddrinfo, so one setting bounds it);
//   - other failures (timeout, SERVFAIL, refused) are not cached: the next
//     request asks again;
//   - concurrent requests for a name that is being looked up wait for that
//     one lookup (coalescing): one query per name at a time;
//   - at most max_entries names are kept; when full, expired entries are
//     dropped first, then the cache is cleared (rare; bounded memory).
// Time comes from an injected Clock (tests advance a ManualClock).
//
// The hosts file (--hosts-file) and IP literals are handled by the caller
// (HttpFetcher) before this resolver is asked; the address policy
// (common/net/address_policy.h: every special-purpose range refused) applies to
// the addresses returned here, also by the caller.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/base/clock.h"
#include "common/base/status.h"

namespace crawl::fetcher {

struct DnsOptions {
  // Bounds on how long an answer is cached, whatever its TTL says: a zero
  // TTL would make every fetch of a host ask again, a week-long one would
  // keep a moved host wrong for the whole crawl.
  std::chrono::seconds min_ttl{30};
  std::chrono::seconds max_ttl{3600};
  // How long NXDOMAIN / NODATA is cached.
  std::chrono::seconds negative_ttl{300};
  // c-ares per-try timeout and number of tries per server.
  std::chrono::milliseconds try_timeout{2000};
  int tries = 2;
  // "ip:port,ip:port" name servers (ares_set_servers_ports_csv); "" uses the
  // system configuration (/etc/resolv.conf).
  std::string servers;
  // Ask for IPv6 (AAAA) as well as IPv4 (A) addresses.
  bool ipv6 = false;
  // Most names cached.
  size_t max_entries = 200'000;
};

// The outcome of one lookup.
struct DnsAnswer {
  enum class Kind { kOk, kNotFound, kError };
  Kind kind = Kind::kError;
  std::vector<boost::asio::ip::address> addresses;  // kOk: at least one
  std::string error;                                // why, when not kOk
  uint32_t ttl_seconds = 0;                         // as cached (after clamping)
  bool from_cache = false;
};

struct DnsCounters {
  uint64_t requests = 0;    // Resolve calls
  uint64_t queries = 0;     // lookups handed to c-ares (cache misses, coalesced)
  uint64_t cache_hits = 0;  // answered from the cache (positive or negative)
  uint64_t coalesced = 0;   // waited for a lookup already running
};

class DnsResolver : public std::enable_shared_from_this<DnsResolver> {
 public:
  using Callback = std::function<void(DnsAnswer)>;

  // Fails if c-ares cannot be initialised or `options.servers` is invalid.
  // `clock` may be null (system clock); otherwise not owned, must outlive
  // the resolver. `io_context` must outlive the resolver.
  [[nodiscard]] static Result<std::shared_ptr<DnsResolver>> Create(boost::asio::io_context& io_context,
                                                                   DnsOptions options,
                                                                   const Clock* clock = nullptr);
  ~DnsResolver();
  DnsResolver(const DnsResolver&) = delete;
  DnsResolver& operator=(const DnsResolver&) = delete;

  // Looks `host` up (a name; IP literals are the caller's business). Calls
  // `callback` exactly once, on the io_context, never inside this call.
  // The callback must not throw. Thread-safe.
  void Resolve(const std::string& host, Callback callback);

  // Drops every cached answer. Thread-safe.
  void ClearCache();

  // A snapshot. Thread-safe.
  [[nodiscard]] DnsCounters counters() const;

  struct Impl;

 private:
  explicit DnsResolver(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace crawl::fetcher
