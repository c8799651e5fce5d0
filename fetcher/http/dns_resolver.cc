// c-ares driven by Boost.Asio, with a TTL cache: see dns_resolver.h.
//
// Everything that touches the c-ares channel or the cache runs on `strand`.
// Asynchronous handlers hold a weak_ptr to the resolver, so destroying it
// (dropping the last shared_ptr) is always safe: later handlers find it gone.
#include "fetcher/http/dns_resolver.h"

#include <ares.h>
#include <netinet/in.h>
#include <sys/time.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <climits>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace crawl::fetcher {

namespace net = boost::asio;

namespace {

// ares_library_init is not thread-safe and must run once per process.
Status InitLibrary() {
  static const int rc = ares_library_init(ARES_LIB_INIT_ALL);
  if (rc != ARES_SUCCESS) return Status::Internal(std::string("ares_library_init: ") + ares_strerror(rc));
  return Status::Ok();
}

// Cache key: lower-case, without a trailing dot ("A.Test." -> "a.test").
std::string NormalizeName(std::string_view host) {
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  std::string out(host);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace

struct DnsResolver::Impl {
  // A socket c-ares asked us to watch. Shared with pending waits, which
  // check `closed` (c-ares may close the socket, and reuse its number,
  // while a wait is queued).
  struct Watch {
    explicit Watch(net::strand<net::io_context::executor_type>& strand, int fd)
        : descriptor(strand, fd), fd(fd) {}
    net::posix::stream_descriptor descriptor;  // non-owning: released, never closed
    int fd;
    bool want_read = false;
    bool want_write = false;
    bool read_pending = false;
    bool write_pending = false;
    bool closed = false;
  };

  struct Entry {
    bool pending = false;
    DnsAnswer answer;        // valid when !pending
    int64_t expires_ms = 0;  // valid when !pending
    std::vector<Callback> waiters;
  };

  // Passed to ares_getaddrinfo as its argument.
  struct Lookup {
    Impl* impl;
    std::string key;
  };

  Impl(net::io_context& io, DnsOptions opts, const Clock* c)
      : io_context(io), strand(net::make_strand(io)), timer(strand), options(std::move(opts)), clock(c) {}

  int64_t NowMs() const { return clock != nullptr ? clock->NowUnixMs() : system_clock.NowUnixMs(); }

  // ---- c-ares <-> Asio ----

  static void OnSocketState(void* data, ares_socket_t fd, int readable, int writable) {
    static_cast<Impl*>(data)->SocketState(fd, readable != 0, writable != 0);
  }

  void SocketState(int fd, bool readable, bool writable) {
    auto it = watches.find(fd);
    if (!readable && !writable) {
      // c-ares is about to close it: stop watching, keep our hands off the fd.
      if (it != watches.end()) {
        it->second->closed = true;
        it->second->descriptor.release();
        watches.erase(it);
      }
      return;
    }
    if (it == watches.end()) it = watches.emplace(fd, std::make_shared<Watch>(strand, fd)).first;
    Watch& watch = *it->second;
    watch.want_read = readable;
    watch.want_write = writable;
    Arm(it->second);
  }

  void Arm(const std::shared_ptr<Watch>& watch) {
    if (watch->closed) return;
    if (watch->want_read && !watch->read_pending) {
      watch->read_pending = true;
      watch->descriptor.async_wait(net::posix::stream_descriptor::wait_read,
                                   [weak = self, watch](const boost::system::error_code& ec) {
                                     watch->read_pending = false;
                                     auto resolver = weak.lock();
                                     if (!resolver || watch->closed || ec) return;
                                     resolver->impl_->Process(watch->fd, ARES_SOCKET_BAD);
                                     resolver->impl_->Arm(watch);
                                   });
    }
    if (watch->want_write && !watch->write_pending) {
      watch->write_pending = true;
      watch->descriptor.async_wait(net::posix::stream_descriptor::wait_write,
                                   [weak = self, watch](const boost::system::error_code& ec) {
                                     watch->write_pending = false;
                                     auto resolver = weak.lock();
                                     if (!resolver || watch->closed || ec) return;
                                     resolver->impl_->Process(ARES_SOCKET_BAD, watch->fd);
                                     resolver->impl_->Arm(watch);
                                   });
    }
  }

  void Process(ares_socket_t read_fd, ares_socket_t write_fd) {
    ares_process_fd(channel, read_fd, write_fd);
    ResetTimer();
  }

  // One timer for all of c-ares' deadlines (retransmits, query timeouts).
  void ResetTimer() {
    timeval buffer{};
    timeval* next = ares_timeout(channel, nullptr, &buffer);
    if (next == nullptr) {
      timer.cancel();
      return;
    }
    timer.expires_after(std::chrono::seconds(next->tv_sec) + std::chrono::microseconds(next->tv_usec));
    timer.async_wait([weak = self](const boost::system::error_code& ec) {
      if (ec == net::error::operation_aborted) return;
      auto resolver = weak.lock();
      if (!resolver) return;
      resolver->impl_->Process(ARES_SOCKET_BAD, ARES_SOCKET_BAD);
    });
  }

  // ---- cache ----

  void Deliver(Callback callback, DnsAnswer answer) {
    net::post(io_context, [callback = std::move(callback), answer = std::move(answer)]() mutable {
      callback(std::move(answer));
    });
  }

  void DoResolve(const std::string& host, Callback callback) {
    ++requests;
    const std::string key = NormalizeName(host);
    if (key.empty()) {
      DnsAnswer answer;
      answer.error = "empty host name";
      return Deliver(std::move(callback), std::move(answer));
    }
    const int64_t now = NowMs();
    auto it = cache.find(key);
    if (it != cache.end()) {
      Entry& entry = it->second;
      if (entry.pending) {
        ++coalesced;
        entry.waiters.push_back(std::move(callback));
        return;
      }
      if (now < entry.expires_ms) {
        ++cache_hits;
        DnsAnswer answer = entry.answer;
        answer.from_cache = true;
        answer.ttl_seconds = static_cast<uint32_t>((entry.expires_ms - now + 999) / 1000);
        return Deliver(std::move(callback), std::move(answer));
      }
    } else {
      MakeRoom(now);
      it = cache.emplace(key, Entry{}).first;
    }
    Entry& entry = it->second;
    entry.pending = true;
    entry.waiters.push_back(std::move(callback));
    ++queries;
    ares_addrinfo_hints hints{};
    hints.ai_family = options.ipv6 ? AF_UNSPEC : AF_INET;
    // NOSORT: RFC 6724 sorting would connect() probe sockets; the fetcher
    // tries addresses in the order the server gave them.
    hints.ai_flags = ARES_AI_NOSORT;
    // May complete before returning (a files lookup): the waiter is already
    // registered and delivery is posted, so that is fine.
    ares_getaddrinfo(channel, key.c_str(), nullptr, &hints, &Impl::OnAddrInfo, new Lookup{this, key});
    ResetTimer();
  }

  // Bounded memory: drop expired answers, and everything settled if that
  // is not enough. REQUIRES: on the strand.
  void MakeRoom(int64_t now) {
    if (cache.size() < options.max_entries) return;
    std::erase_if(cache, [now](const auto& kv) { return !kv.second.pending && kv.second.expires_ms <= now; });
    if (cache.size() < options.max_entries) return;
    std::erase_if(cache, [](const auto& kv) { return !kv.second.pending; });
  }

  static void OnAddrInfo(void* arg, int status, int /*timeouts*/, ares_addrinfo* result) {
    std::unique_ptr<Lookup> lookup(static_cast<Lookup*>(arg));
    if (status == ARES_EDESTRUCTION || lookup->impl->destroying) {
      if (result != nullptr) ares_freeaddrinfo(result);
      return;
    }
    lookup->impl->Complete(lookup->key, status, result);
    if (result != nullptr) ares_freeaddrinfo(result);
  }

  static uint32_t ClampSeconds(int64_t value, std::chrono::seconds low, std::chrono::seconds high) {
    return static_cast<uint32_t>(std::clamp<int64_t>(value, low.count(), std::max(low, high).count()));
  }

  void Complete(const std::string& key, int status, const ares_addrinfo* result) {
    DnsAnswer answer;
    int64_t min_ttl = INT64_MAX;
    if (status == ARES_SUCCESS && result != nullptr) {
      for (const ares_addrinfo_node* node = result->nodes; node != nullptr; node = node->ai_next) {
        if (node->ai_family == AF_INET && node->ai_addr != nullptr) {
          const auto* sin = reinterpret_cast<const sockaddr_in*>(node->ai_addr);
          net::ip::address_v4::bytes_type bytes;
          std::memcpy(bytes.data(), &sin->sin_addr, 4);
          answer.addresses.emplace_back(net::ip::address_v4(bytes));
        } else if (node->ai_family == AF_INET6 && node->ai_addr != nullptr) {
          const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(node->ai_addr);
          net::ip::address_v6::bytes_type bytes;
          std::memcpy(bytes.data(), &sin6->sin6_addr, 16);
          answer.addresses.emplace_back(net::ip::address_v6(bytes));
        } else {
          continue;
        }
        min_ttl = std::min<int64_t>(min_ttl, node->ai_ttl);
      }
      for (const ares_addrinfo_cname* cname = result->cnames; cname != nullptr; cname = cname->next) {
        min_ttl = std::min<int64_t>(min_ttl, cname->ttl);
      }
      // Duplicates (a name listed twice, or A records repeated) add nothing.
      std::vector<net::ip::address> unique;
      for (const auto& a : answer.addresses) {
        if (std::find(unique.begin(), unique.end(), a) == unique.end()) unique.push_back(a);
      }
      answer.addresses = std::move(unique);
    }
    bool cache_it = true;
    if (!answer.addresses.empty()) {
      answer.kind = DnsAnswer::Kind::kOk;
      answer.ttl_seconds = ClampSeconds(min_ttl, options.min_ttl, options.max_ttl);
    } else if (status == ARES_SUCCESS || status == ARES_ENOTFOUND || status == ARES_ENODATA) {
      answer.kind = DnsAnswer::Kind::kNotFound;
      answer.error = status == ARES_SUCCESS ? "no addresses" : ares_strerror(status);
      answer.ttl_seconds = static_cast<uint32_t>(options.negative_ttl.count());
    } else {
      answer.kind = DnsAnswer::Kind::kError;
      answer.error = ares_strerror(status);
      cache_it = false;
    }
    auto it = cache.find(key);
    if (it == cache.end()) return;  // cleared meanwhile: nobody waits
    std::vector<Callback> waiters = std::move(it->second.waiters);
    if (cache_it) {
      it->second.pending = false;
      it->second.answer = answer;
      it->second.expires_ms = NowMs() + int64_t{answer.ttl_seconds} * 1000;
      it->second.waiters.clear();
    } else {
      cache.erase(it);
    }
    for (auto& waiter : waiters) Deliver(std::move(waiter), answer);
  }

  net::io_context& io_context;
  net::strand<net::io_context::executor_type> strand;
  net::steady_timer timer;
  const DnsOptions options;
  const Clock* clock;
  SystemClock system_clock;
  std::weak_ptr<DnsResolver> self;
  ares_channel channel = nullptr;
  bool destroying = false;

  // All below: REQUIRES on the strand.
  std::unordered_map<int, std::shared_ptr<Watch>> watches;
  std::unordered_map<std::string, Entry> cache;

  std::atomic<uint64_t> requests{0};
  std::atomic<uint64_t> queries{0};
  std::atomic<uint64_t> cache_hits{0};
  std::atomic<uint64_t> coalesced{0};
};

Result<std::shared_ptr<DnsResolver>> DnsResolver::Create(net::io_context& io_context, DnsOptions options,
                                                         const Clock* clock) {
  if (auto s = InitLibrary(); !s.ok()) return s;
  if (options.tries < 1) return Status::InvalidArgument("dns tries must be at least 1");
  if (options.try_timeout.count() < 1) return Status::InvalidArgument("dns timeout must be positive");
  auto impl = std::make_unique<Impl>(io_context, std::move(options), clock);
  ares_options ares{};
  int mask = 0;
  ares.sock_state_cb = &Impl::OnSocketState;
  ares.sock_state_cb_data = impl.get();
  mask |= ARES_OPT_SOCK_STATE_CB;
  ares.timeout = static_cast<int>(impl->options.try_timeout.count());
  mask |= ARES_OPT_TIMEOUTMS;
  ares.tries = impl->options.tries;
  mask |= ARES_OPT_TRIES;
  // Crawled names are fully qualified: never append the machine's search
  // domains (that would leak crawl names to the local network's DNS).
  ares.flags = ARES_FLAG_NOSEARCH;
  mask |= ARES_OPT_FLAGS;
  if (const int rc = ares_init_options(&impl->channel, &ares, mask); rc != ARES_SUCCESS) {
    return Status::Internal(std::string("ares_init_options: ") + ares_strerror(rc));
  }
  if (!impl->options.servers.empty()) {
    if (const int rc = ares_set_servers_ports_csv(impl->channel, impl->options.servers.c_str());
        rc != ARES_SUCCESS) {
      ares_destroy(impl->channel);
      impl->channel = nullptr;
      return Status::InvalidArgument("dns servers '" + impl->options.servers + "': " + ares_strerror(rc));
    }
  }
  std::shared_ptr<DnsResolver> resolver(new DnsResolver(std::move(impl)));
  resolver->impl_->self = resolver;
  return resolver;
}

DnsResolver::DnsResolver(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

DnsResolver::~DnsResolver() {
  // No handler runs now: each holds a shared_ptr while it runs, and this is
  // the last one going away.
  impl_->destroying = true;
  for (auto& [fd, watch] : impl_->watches) {
    watch->closed = true;
    watch->descriptor.release();
  }
  impl_->watches.clear();
  impl_->timer.cancel();
  if (impl_->channel != nullptr) ares_destroy(impl_->channel);
  // Keep "exactly once": whoever still waits hears that the resolver is gone.
  for (auto& [key, entry] : impl_->cache) {
    for (auto& waiter : entry.waiters) {
      DnsAnswer answer;
      answer.error = "resolver shut down";
      impl_->Deliver(std::move(waiter), std::move(answer));
    }
  }
}

void DnsResolver::Resolve(const std::string& host, Callback callback) {
  // Holds the resolver until the request is registered (the caller may drop
  // its reference right after this call).
  net::post(impl_->strand, [self = impl_->self.lock(), host, callback = std::move(callback)]() mutable {
    self->impl_->DoResolve(host, std::move(callback));
  });
}

void DnsResolver::ClearCache() {
  net::post(impl_->strand, [weak = impl_->self] {
    auto resolver = weak.lock();
    if (!resolver) return;
    std::erase_if(resolver->impl_->cache, [](const auto& kv) { return !kv.second.pending; });
  });
}

DnsCounters DnsResolver::counters() const {
  DnsCounters c;
  c.requests = impl_->requests.load();
  c.queries = impl_->queries.load();
  c.cache_hits = impl_->cache_hits.load();
  c.coalesced = impl_->coalesced.load();
  return c;
}

}  // namespace crawl::fetcher
