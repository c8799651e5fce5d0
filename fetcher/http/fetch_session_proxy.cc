// FetchSession's steps through a forward proxy (see http_fetcher.h "Forward
// proxy"): going on when the target's name does not resolve, the proxy's
// address, the connection to it, and for https the CONNECT tunnel (RFC 9110
// 9.3.6) before the TLS handshake. The absolute-form request target (RFC 9112
// 3.2.2) is RequestTarget(), used by Write() in fetch_session.cc.
//
// The credentials (proxy_->authorization) go into the CONNECT request and
// the Proxy-Authorization field only: no message here names them, and the
// proxy's own reason phrase is not repeated (a proxy could echo them).
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <utility>

#include "common/net/hosts_file.h"
#include "fetcher/http/fetch_session.h"

namespace crawl::fetcher {
namespace {

std::string EndpointText(const tcp::endpoint& endpoint) {
  const bool v6 = endpoint.address().is_v6();
  std::string text;
  if (v6) text.push_back('[');
  text.append(endpoint.address().to_string());
  if (v6) text.push_back(']');
  text.push_back(':');
  text.append(std::to_string(endpoint.port()));
  return text;
}

}  // namespace

bool FetchSession::ProxyDespiteResolution() {
  if (proxy_ == nullptr) return false;
  // The proxy may know names the fetcher cannot resolve: it is asked by
  // name, and no per-IP slot is taken (there is no address to key it on;
  // the sequence is still the host's one connection).
  unresolved_ = true;
  endpoints_.clear();
  Connect();
  return true;
}

std::string FetchSession::ProxyAuthority(bool always_port) const {
  if (placed_by_hosts_file_ && !endpoints_.empty()) return EndpointText(endpoints_.front());
  const bool ipv6_literal = origin_.host.find(':') != std::string::npos;
  std::string authority = ipv6_literal ? "[" + origin_.host + "]" : origin_.host;
  const uint16_t default_port = origin_.scheme == "https" ? 443 : 80;
  if (always_port || origin_.port != default_port) authority += ":" + std::to_string(origin_.port);
  return authority;
}

std::string FetchSession::RequestTarget() const {
  if (proxy_ == nullptr || origin_.scheme != "http") return target_;
  return "http://" + ProxyAuthority(/*always_port=*/false) + target_;
}

void FetchSession::ResolveProxy() {
  proxy_endpoints_.clear();
  if (options_.hosts_file != nullptr) {
    if (auto entry = options_.hosts_file->Lookup(proxy_->host)) {
      proxy_endpoints_ = {tcp::endpoint(entry->address, entry->port.value_or(proxy_->port))};
      return OpenStream();
    }
  }
  beast::error_code ec;
  auto literal = net::ip::make_address(proxy_->host, ec);
  if (!ec) {
    proxy_endpoints_ = {tcp::endpoint(literal, proxy_->port)};
    return OpenStream();
  }
  if (!shared_->resolver) {
    return Fail(kProxyError,
                "resolving proxy " + proxy_->host + ": DNS unavailable: " + shared_->resolver_error);
  }
  const uint64_t generation = ++resolve_generation_;
  resolving_ = true;
  resolve_timer_.expires_at(
      std::min(total_deadline_, std::chrono::steady_clock::now() + options_.connect_timeout));
  resolve_timer_.async_wait([self = shared_from_this(), generation](beast::error_code ec) {
    if (ec || generation != self->resolve_generation_ || !self->resolving_) return;
    self->resolving_ = false;
    ++self->resolve_generation_;
    self->Fail(kProxyError, "resolving proxy " + self->proxy_->host + ": timed out");
  });
  auto strand = strand_;
  shared_->resolver->Resolve(proxy_->host, [self = shared_from_this(), generation, strand](DnsAnswer answer) {
    net::post(strand, [self, generation, answer = std::move(answer)]() mutable {
      self->OnProxyResolve(generation, std::move(answer));
    });
  });
}

void FetchSession::OnProxyResolve(uint64_t generation, DnsAnswer answer) {
  if (generation != resolve_generation_ || !resolving_) return;  // timed out or cancelled meanwhile
  resolving_ = false;
  resolve_timer_.cancel();
  if (cancelled_) return Fail(kCancelled, "cancelled");
  if (answer.kind != DnsAnswer::Kind::kOk) {
    return Fail(kProxyError, "resolving proxy " + proxy_->host + ": " + answer.error);
  }
  for (const auto& address : answer.addresses) {
    tcp::endpoint endpoint(address, proxy_->port);
    if (std::find(proxy_endpoints_.begin(), proxy_endpoints_.end(), endpoint) == proxy_endpoints_.end()) {
      proxy_endpoints_.push_back(endpoint);
    }
  }
  if (proxy_endpoints_.empty())
    return Fail(kProxyError, "resolving proxy " + proxy_->host + ": no addresses");
  OpenStream();
}

void FetchSession::OnProxyConnect(beast::error_code ec, const tcp::endpoint&) {
  ec = Timed(ec);
  if (cancelled_) return Fail(kCancelled, "cancelled");
  if (ec) {
    const std::string what = "connecting to proxy " + ProxyName(*proxy_) + ": ";
    if (ec == beast::error::timeout) return Fail(kTimeout, what + deadline_name_ + " exceeded");
    return Fail(kProxyError, what + ec.message());
  }
  // What politeness is counted on: the target's address (or name), not the
  // proxy's, which every host shares.
  remote_ = endpoints_.empty() ? ProxyAuthority(/*always_port=*/true) : EndpointText(endpoints_.front());
  if (connection_.tls() == nullptr) return Write(/*reused=*/false);  // absolute-form, no h2 prior knowledge
  const std::string authority = ProxyAuthority(/*always_port=*/true);
  tunnel_request_ = "CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n";
  if (!proxy_->authorization.empty())
    tunnel_request_ += "Proxy-Authorization: " + proxy_->authorization + "\r\n";
  tunnel_request_ += "User-Agent: " + options_.user_agent + "\r\n\r\n";
  SetDeadline(options_.connect_timeout, "connect timeout");
  net::async_write(connection_.Tcp(), net::buffer(tunnel_request_),
                   beast::bind_front_handler(&FetchSession::OnTunnelWrite, shared_from_this()));
}

void FetchSession::OnTunnelWrite(beast::error_code ec, size_t) {
  tunnel_request_.clear();
  ec = Timed(ec);
  if (cancelled_) return Fail(kCancelled, "cancelled");
  const std::string what = "CONNECT through proxy " + ProxyName(*proxy_) + ": ";
  if (ec == beast::error::timeout) return Fail(kTimeout, what + deadline_name_ + " exceeded");
  if (ec) return Fail(kProxyError, what + ec.message());
  tunnel_buffer_.clear();
  tunnel_parser_.emplace();
  tunnel_parser_->header_limit(
      static_cast<std::uint32_t>(std::min<size_t>(options_.max_header_bytes, UINT32_MAX)));
  // The answer to CONNECT has no body: a 2xx is followed by the tunnel
  // (RFC 9110 9.3.6), and after any other we close.
  tunnel_parser_->skip(true);
  http::async_read_header(connection_.Tcp(), tunnel_buffer_, *tunnel_parser_,
                          beast::bind_front_handler(&FetchSession::OnTunnelAnswer, shared_from_this()));
}

void FetchSession::OnTunnelAnswer(beast::error_code ec, size_t) {
  ec = Timed(ec);
  if (cancelled_) return Fail(kCancelled, "cancelled");
  const std::string what = "CONNECT through proxy " + ProxyName(*proxy_) + ": ";
  if (ec == beast::error::timeout) return Fail(kTimeout, what + deadline_name_ + " exceeded");
  if (ec == http::error::header_limit) {
    return Fail(kProxyError,
                what + "answer header larger than " + std::to_string(options_.max_header_bytes) + " bytes");
  }
  if (ec) return Fail(kProxyError, what + "reading the answer: " + ec.message());
  const unsigned status = tunnel_parser_->get().result_int();
  tunnel_parser_.reset();
  if (status < 200 || status > 299) {
    // The standard phrase, not the proxy's (which could repeat anything).
    const auto reason = http::obsolete_reason(static_cast<http::status>(status));
    std::string message = "proxy refused CONNECT: " + std::to_string(status);
    if (!reason.empty() && reason.front() != '<') message += " " + std::string(reason);
    return Fail(kProxyError, message + " (proxy " + ProxyName(*proxy_) + ")");
  }
  // The server speaks only after our TLS ClientHello: bytes already here
  // are not TLS, and would be lost to the handshake.
  if (tunnel_buffer_.size() > 0) return Fail(kProxyError, what + "data after the 2xx answer");
  StartHandshake();
}

}  // namespace crawl::fetcher
