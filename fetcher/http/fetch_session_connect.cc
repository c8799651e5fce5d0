// FetchSession's steps from a URL's host to an open connection and back:
// resolution (hosts file, else DNS), the address policy, the per-IP slot,
// TCP connect, TLS handshake; and closing the connection. See fetch_session.h;
// the forward proxy's steps are in fetch_session_proxy.cc.
#include <algorithm>
#include <boost/asio/post.hpp>
#include <utility>

#include "common/net/address_policy.h"
#include "common/net/hosts_file.h"
#include "fetcher/http/fetch_session.h"

namespace crawl::fetcher {

void FetchSession::Resolve() {
  proxy_ = options_.proxy.For(origin_.scheme, origin_.host);
  placed_by_hosts_file_ = false;
  unresolved_ = false;
  if (options_.hosts_file != nullptr) {
    if (auto entry = options_.hosts_file->Lookup(origin_.host)) {
      // Operator-provided: exempt from the address policy (see header).
      endpoints_ = {tcp::endpoint(entry->address, entry->port.value_or(origin_.port))};
      placed_by_hosts_file_ = true;
      return Connect();
    }
  }
  beast::error_code ec;
  auto literal = net::ip::make_address(origin_.host, ec);
  if (!ec) return UseAddresses({literal});

  if (!shared_->resolver) {
    if (ProxyDespiteResolution()) return;
    return Fail(kDnsError, "DNS unavailable: " + shared_->resolver_error);
  }
  const uint64_t generation = ++resolve_generation_;
  resolving_ = true;
  // A backstop: c-ares has its own per-try timeouts, but a URL never
  // waits longer than connect_timeout (or its total limit) for a name.
  resolve_timer_.expires_at(
      std::min(total_deadline_, std::chrono::steady_clock::now() + options_.connect_timeout));
  resolve_timer_.async_wait([self = shared_from_this(), generation](beast::error_code ec) {
    if (ec || generation != self->resolve_generation_ || !self->resolving_) return;
    self->resolving_ = false;
    ++self->resolve_generation_;
    if (self->ProxyDespiteResolution()) return;
    self->Fail(kTimeout, "resolving " + self->origin_.host + ": timed out");
  });
  auto strand = strand_;
  shared_->resolver->Resolve(origin_.host, [self = shared_from_this(), generation, strand](DnsAnswer answer) {
    net::post(strand, [self, generation, answer = std::move(answer)]() mutable {
      self->OnResolve(generation, std::move(answer));
    });
  });
}

void FetchSession::OnResolve(uint64_t generation, DnsAnswer answer) {
  if (generation != resolve_generation_ || !resolving_) return;  // timed out or cancelled meanwhile
  resolving_ = false;
  resolve_timer_.cancel();
  if (cancelled_) return Fail(kCancelled, "cancelled");
  if (answer.kind != DnsAnswer::Kind::kOk) {
    if (ProxyDespiteResolution()) return;
    origin_failure_status_ = kDnsError;
    origin_failure_ = "resolving " + origin_.host + ": " + answer.error;
    return Fail(origin_failure_status_, origin_failure_);
  }
  // The address policy applies to what DNS said (a public name may point
  // at 127.0.0.1 or 10.x: refused unless the crawl allows private).
  UseAddresses(answer.addresses);
}

void FetchSession::UseAddresses(const std::vector<net::ip::address>& addresses) {
  endpoints_.clear();
  std::string blocked;
  for (const auto& address : addresses) {
    if (!options_.allow_private && IsPrivateOrLocal(address)) {
      if (blocked.empty()) blocked = address.to_string();
      continue;
    }
    tcp::endpoint endpoint(address, origin_.port);
    if (std::find(endpoints_.begin(), endpoints_.end(), endpoint) == endpoints_.end()) {
      endpoints_.push_back(endpoint);
    }
  }
  if (endpoints_.empty()) {
    if (blocked.empty()) {
      if (ProxyDespiteResolution()) return;
      origin_failure_status_ = kDnsError;
      origin_failure_ = "resolving " + origin_.host + ": no addresses";
    } else {
      origin_failure_status_ = kBlockedAddress;
      origin_failure_ = origin_.host + " resolves to private/local address " + blocked;
    }
    return Fail(origin_failure_status_, origin_failure_);
  }
  Connect();
}

void FetchSession::Connect() {
  CloseConnection();
  if (options_.max_connections_per_ip > 0 && !endpoints_.empty()) {
    const auto address = endpoints_.front().address();
    auto strand = strand_;
    auto grant = [self = shared_from_this(), strand, address] {
      net::post(strand, [self, address] {
        self->ip_slot_ = address;
        if (self->cancelled_) return self->Fail(kCancelled, "cancelled");
        // The wait for the slot is not the host's time: its limits (and
        // fetch_ms) start now.
        self->StartClock();
        self->AcquireAddressSlot();
      });
    };
    if (!shared_->ip_limiter.Acquire(address, std::move(grant))) return;  // granted later
    ip_slot_ = address;
  }
  AcquireAddressSlot();
}

void FetchSession::AcquireAddressSlot() {
  address_grant_ = {};
  if (!options_.address_gate || (endpoints_.empty() && !unresolved_)) return ConnectNow();
  // A name only the proxy resolves is counted under the name.
  address_slot_ = endpoints_.empty() ? origin_.host : endpoints_.front().address().to_string();
  address_waiting_ = true;
  auto strand = strand_;
  address_ticket_ = options_.address_gate->Acquire(
      address_slot_, [self = shared_from_this(), strand](std::optional<AddressGate::Grant> grant) {
        net::post(strand, [self, grant] {
          self->address_waiting_ = false;
          if (!grant) {  // withdrawn by DoCancel
            self->address_ticket_.reset();
            return self->Fail(kCancelled, "cancelled");
          }
          self->address_grant_ = *grant;
          // The per-address pace is a floor of this host's gap while the
          // connection holds the slot.
          self->pacer_.SetAddressPace(grant->pace);
          if (self->cancelled_) return self->Fail(kCancelled, "cancelled");
          // As for the per-IP slot: the host's limits start after the wait.
          if (grant->waited.count() > 0) self->StartClock();
          self->ConnectNow();
        });
      });
}

void FetchSession::ConnectNow() {
  sent_any_ = true;  // the host was contacted: later requests are spaced
  if (proxy_ != nullptr) return ResolveProxy();
  OpenStream();
}

void FetchSession::OpenStream() {
  if (origin_.scheme == "https") {
    ssl::context* context = shared_->Tls();
    if (context == nullptr) return Fail(kTlsError, "TLS unavailable: " + shared_->TlsError());
    TlsStream& tls = connection_.MakeTls(strand_, *context);
    // SNI (RFC 6066 3): names only, never IP literals.
    beast::error_code ec;
    net::ip::make_address(origin_.host, ec);
    if (ec && !SSL_set_tlsext_host_name(tls.native_handle(), origin_.host.c_str())) {
      return Fail(kTlsError, "cannot set SNI host name");
    }
    if (!options_.accept_self_signed) {
      tls.set_verify_callback(ssl::host_name_verification(origin_.host), ec);
      if (ec) return Fail(kTlsError, "cannot set certificate verification: " + ec.message());
    }
  } else {
    connection_.MakePlain(strand_);
  }
  SetDeadline(options_.connect_timeout, "connect timeout");
  if (proxy_ != nullptr) {
    connection_.Tcp().async_connect(
        proxy_endpoints_, beast::bind_front_handler(&FetchSession::OnProxyConnect, shared_from_this()));
    return;
  }
  connection_.Tcp().async_connect(endpoints_,
                                  beast::bind_front_handler(&FetchSession::OnConnect, shared_from_this()));
}

void FetchSession::OnConnect(beast::error_code ec, const tcp::endpoint& endpoint) {
  ec = Timed(ec);
  if (cancelled_) return Fail(kCancelled, "cancelled");
  if (ec) {
    if (ec == beast::error::timeout) return FailIo(ec, ("connecting to " + origin_.host).c_str());
    return Fail(kConnectError, "connecting to " + origin_.host + ": " + ec.message());
  }
  // Appended piece by piece: gcc 12's -Wrestrict misreads `":" + std::string&&`
  // in Release builds (a false positive that -Werror turns into a failure).
  const bool v6 = endpoint.address().is_v6();
  remote_.clear();
  if (v6) remote_.push_back('[');
  remote_.append(endpoint.address().to_string());
  if (v6) remote_.push_back(']');
  remote_.push_back(':');
  remote_.append(std::to_string(endpoint.port()));
  if (connection_.tls() != nullptr) return StartHandshake();
  if (H2Session::Negotiated(options_, connection_)) return StartH2();
  Write(/*reused=*/false);
}

void FetchSession::StartHandshake() {
  SetDeadline(options_.connect_timeout, "connect timeout");
  connection_.tls()->async_handshake(
      ssl::stream_base::client, beast::bind_front_handler(&FetchSession::OnHandshake, shared_from_this()));
}

void FetchSession::OnHandshake(beast::error_code ec) {
  ec = Timed(ec);
  if (cancelled_) return Fail(kCancelled, "cancelled");
  if (ec) {
    if (ec == beast::error::timeout) return FailIo(ec, "TLS handshake");
    return Fail(kTlsError, "TLS handshake: " + ec.message());
  }
  if (H2Session::Negotiated(options_, connection_)) return StartH2();
  Write(/*reused=*/false);
}

void FetchSession::CloseConnection() {
  if (connection_.exists()) connection_.Close();
  connection_.Drop();
  parser_.reset();
  if (ip_slot_) {
    const auto address = *ip_slot_;
    ip_slot_.reset();
    shared_->ip_limiter.Release(address);
  }
  if (address_ticket_ && !address_waiting_) {
    options_.address_gate->Release(address_slot_, *address_ticket_);
    address_ticket_.reset();
  }
  buffer_.consume(buffer_.size());
  responses_on_connection_ = 0;
  remote_.clear();
}

}  // namespace crawl::fetcher
