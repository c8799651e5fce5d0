// FetchSession: the downloads of one FetchSequence call, over one
// keep-alive connection at a time, as a self-owning session on its own
// strand; and HttpFetcher::Shared, what the sessions share with their
// HttpFetcher. Internal to the fetcher: see http_fetcher.h for the contract.
// Its members are defined in fetch_session.cc (sequencing, the request and
// the response), fetch_session_connect.cc (resolution and connection) and
// fetch_session_proxy.cc (a forward proxy: its address, CONNECT tunnels);
// a connection that speaks HTTP/2 is handed to an H2Session (h2_session.h).
//
// One FetchSession per FetchSequence call. Its steps are do_x/on_x pairs on
// the session's strand, and exactly one step (or posted continuation) is
// outstanding at any time, so the session needs no locks:
//
//   NextUrl -> [pacing gap] -> StartRequest -> [Resolve -> OnResolve]
//           -> [AcquireIpSlot] -> [AcquireAddressSlot] -> [Connect -> OnConnect -> (TLS) OnHandshake]
//              (through a proxy: Connect -> [ResolveProxy] -> OpenStream ->
//               OnProxyConnect -> (https) CONNECT -> OnTunnel -> OnHandshake)
//           -> Write -> OnWrite -> ReadFirstByte -> ReadHeader -> OnHeader
//           -> ReadBody -> OnBody ... -> OnMessageDone -> Report -> NextUrl
//
// Every failure goes through Fail(), which closes the connection and reports
// the URL, so each URL is reported exactly once whatever happens.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/base/mutex.h"
#include "fetcher/http/connection.h"
#include "fetcher/http/dns_resolver.h"
#include "fetcher/http/h2_session.h"
#include "fetcher/http/host_pacer.h"
#include "fetcher/http/http_fetcher.h"
#include "fetcher/http/ip_connection_limiter.h"

namespace crawl::fetcher {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = boost::asio::ssl;
using tcp = net::ip::tcp;

class FetchSession;

struct HttpFetcher::Shared {
  explicit Shared(FetcherOptions options_in) : options(std::move(options_in)) {}

  FetcherOptions options;
  // The TLS client context, made on the first https request (or
  // tls_setup_error() call) and shared with every HttpFetcher of the process
  // that has the same TLS options: loading the system's CA bundle once per
  // lane and crawl is costly, even in a crawl over plain HTTP. Null if OpenSSL could not be
  // set up; then TlsError() says why.
  ssl::context* Tls();
  const std::string& TlsError();

 private:
  void SetUpTls();
  std::once_flag tls_once;
  std::shared_ptr<ssl::context> tls;
  std::string tls_setup_error;

 public:
  std::shared_ptr<DnsResolver> resolver;  // null if c-ares could not be set up
  std::string resolver_error;

  mutable Mutex mu;
  // Running sessions, for CancelAll.
  std::unordered_map<FetchSession*, std::weak_ptr<FetchSession>> sessions GUARDED_BY(mu);
  // Requests between start and result.
  size_t in_flight GUARDED_BY(mu) = 0;

  // Connections per IP (only with max_connections_per_ip > 0).
  IpConnectionLimiter ip_limiter{options.max_connections_per_ip};
};

class FetchSession : public std::enable_shared_from_this<FetchSession>, private H2Session::Owner {
 public:
  FetchSession(net::io_context& io_context, std::shared_ptr<HttpFetcher::Shared> shared,
               std::vector<FetchTarget> urls, std::function<void(FetchResult)> on_result,
               std::function<void()> on_done, HostPacer pacer, std::shared_ptr<ResultBudget> budget);

  // Registers the session in shared->sessions and posts its first step.
  // REQUIRES: owned by a shared_ptr (the session keeps itself alive).
  void Start();
  // Reports the current and remaining URLs as kCancelled (posted on the
  // strand). Thread-safe.
  void Cancel();

 private:
  // ---- sequencing ----

  void NextUrl();
  void Finish();
  void DoCancel();
  void StartResult();
  void StartClock();

  // Arms the connection's deadline for the next step: the step's own limit
  // or the URL's total limit, whichever comes first; `step` names the limit
  // in a timeout's error message.
  void SetDeadline(std::optional<std::chrono::milliseconds> step_limit, const char* step);
  // No deadline (HTTP/2 streams keep their own).
  void ClearDeadline();
  // One timer per session watches the deadline (the stream's own per-
  // operation timeouts re-armed a timer, a timerfd_settime each, at every
  // read and write): it sleeps until the earliest deadline
  // it was armed for, and on waking either sleeps again until the current
  // one or, past it, cancels the connection's operations.
  void ArmWatchdog();
  void OnWatchdog(beast::error_code ec, uint64_t generation);
  // `ec` of a stream operation as the stream's own timeout gave it: an
  // operation the watchdog cancelled ended with beast::error::timeout.
  [[nodiscard]] beast::error_code Timed(beast::error_code ec) const {
    return timed_out_ && ec == net::error::operation_aborted ? beast::error_code(beast::error::timeout) : ec;
  }

  // Hands result_ to the caller and moves to the next URL (without starting
  // it), then any results fetched ahead that are now next (early_).
  void Deliver();
  // Hands `result` (for index_) to the caller; ++index_.
  void Hand(FetchResult result);
  // Tells the pacer how `result` went (and the result whether it backed off).
  void NotePace(FetchResult& result);
  void FlushEarly();

  void Report();

  // Reports the current URL as failed. The connection is closed unless
  // `keep_connection` (a failure that never touched it, like a bad URL).
  void Fail(int status, std::string message, bool keep_connection = false);

  void FailIo(const beast::error_code& ec, const char* during);

  // ---- one request ----

  void StartRequest();
  void Resolve();
  void OnResolve(uint64_t generation, DnsAnswer answer);
  void UseAddresses(const std::vector<net::ip::address>& addresses);
  void Connect();
  // Waits for the address's cluster-wide slot (options_.address_gate), then
  // ConnectNow.
  void AcquireAddressSlot();
  void ConnectNow();
  // Makes the stream and connects it to the target's addresses, or the
  // proxy's.
  void OpenStream();
  void OnConnect(beast::error_code ec, const tcp::endpoint& endpoint);
  void OnHandshake(beast::error_code ec);
  // The TLS handshake on the connected stream (directly or in a tunnel).
  void StartHandshake();

  // ---- forward proxy (fetch_session_proxy.cc) ----

  // The target's name did not resolve (or DNS is unavailable): through a
  // proxy the URL goes on (returns true, connecting); otherwise false.
  bool ProxyDespiteResolution();
  void ResolveProxy();
  void OnProxyResolve(uint64_t generation, DnsAnswer answer);
  void OnProxyConnect(beast::error_code ec, const tcp::endpoint& endpoint);
  void OnTunnelWrite(beast::error_code ec, size_t bytes);
  void OnTunnelAnswer(beast::error_code ec, size_t bytes);
  // "host:port" the proxy is asked for: the hosts file's address when it
  // placed the target, else the URL's host (and port, always for CONNECT,
  // else only when not the scheme's default).
  [[nodiscard]] std::string ProxyAuthority(bool always_port) const;
  // The request target: absolute-form for plain http through a proxy.
  [[nodiscard]] std::string RequestTarget() const;
  void Write(bool reused);

  // A reused connection that turns out to be closed: the server dropped it
  // while idle. Nothing of the response was seen, so try once more.
  bool CanRetry(const beast::error_code& ec) const;

  void Retry();
  void OnWrite(beast::error_code ec, size_t);

  // Waits for the first response byte under first_byte_timeout (a server
  // that accepts and then thinks for minutes), then reads the header under
  // the total limit only.
  void ReadFirstByte();

  void OnFirstByte(beast::error_code ec, size_t bytes);
  void ReadHeader();
  void OnHeader(beast::error_code ec, size_t bytes);
  void ReadBody();
  void OnBody(beast::error_code ec, size_t bytes);
  void OnMessageDone();
  [[nodiscard]] bool ShouldAskWithoutRange() const;
  void AskWithoutRange(bool keep_alive);

  // ---- HTTP/2 ----

  // Hands the new connection, which speaks h2, to an H2Session: it runs
  // the current URL and the ones after it.
  void StartH2();

  // H2Session::Owner.
  std::shared_ptr<void> Hold() override { return shared_from_this(); }
  bool Cancelled() const override { return cancelled_; }
  bool HasResult(size_t index) const override { return early_.count(index) > 0; }
  void TakeResult(size_t index, FetchResult result) override;
  void FlushResults() override { FlushEarly(); }
  void CountInFlight(ptrdiff_t delta) override;
  bool MayAskAgain(size_t index) override;
  void H2Ended() override;

  // ---- connection ----

  // REQUIRES: no operation pending on the connection.
  void CloseConnection();

  const std::shared_ptr<HttpFetcher::Shared> shared_;
  const FetcherOptions& options_;  // in *shared_
  net::strand<net::io_context::executor_type> strand_;
  net::steady_timer resolve_timer_;
  net::steady_timer delay_timer_;
  net::steady_timer watchdog_;
  std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::time_point::max();
  bool watchdog_waiting_ = false;     // an async_wait of watchdog_ is pending
  uint64_t watchdog_generation_ = 0;  // of that wait; older ones are ignored
  bool timed_out_ = false;            // the watchdog cancelled the connection's operations

  const std::vector<FetchTarget> urls_;
  std::function<void(FetchResult)> on_result_;
  std::function<void()> on_done_;
  // The host's pacing: the gap before each request after the first.
  HostPacer pacer_;
  const std::shared_ptr<ResultBudget> budget_;  // may be null

  size_t index_ = 0;  // next URL to report
  bool done_ = false;
  bool cancelled_ = false;
  bool parked_ = false;    // waiting for room in budget_
  bool sent_any_ = false;  // a connection or request was attempted (for the pacing gap)

  // The origin of the current URL and what is known about it.
  Origin origin_;
  std::vector<tcp::endpoint> endpoints_;
  int origin_failure_status_ = 0;
  std::string origin_failure_;
  uint64_t resolve_generation_ = 0;
  bool resolving_ = false;                   // a DNS answer is awaited (resolve_generation_)
  std::optional<net::ip::address> ip_slot_;  // the per-IP slot held, if any
  // The cluster-wide address slot: asked for (address_waiting_) or held.
  std::optional<uint64_t> address_ticket_;
  std::string address_slot_;
  bool address_waiting_ = false;
  AddressGate::Grant address_grant_;
  // Forward proxy for origin_ (null: direct), its addresses for the current
  // connection attempt; whether the hosts file placed the target; whether
  // its name failed to resolve (the proxy is then asked by name); the
  // CONNECT exchange.
  const ProxyEndpoint* proxy_ = nullptr;
  std::vector<tcp::endpoint> proxy_endpoints_;
  bool placed_by_hosts_file_ = false;
  bool unresolved_ = false;
  std::string tunnel_request_;
  beast::flat_buffer tunnel_buffer_;
  std::optional<http::response_parser<http::empty_body>> tunnel_parser_;

  Connection connection_;
  beast::flat_buffer buffer_;
  size_t responses_on_connection_ = 0;
  std::string remote_;

  // HTTP/2: the connection in h2 mode (null otherwise), results fetched
  // ahead of index_ (handed on in order), and the URLs already asked again
  // after the server refused them.
  std::shared_ptr<H2Session> h2_;
  std::map<size_t, FetchResult> early_;
  std::set<size_t> h2_refused_;

  // The request in flight.
  FetchResult result_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point total_deadline_;
  std::string deadline_name_ = "total time limit";  // which limit the armed deadline is
  bool in_flight_ = false;                          // counted in shared_->in_flight
  std::string target_;
  std::string host_header_;
  bool reused_ = false;
  bool retried_ = false;
  bool without_range_ = false;  // this URL is asked again without Range (after a 416)
  int interim_responses_ = 0;
  http::request<http::empty_body> request_;
  std::optional<http::response_parser<http::buffer_body>> parser_;
  std::string raw_;  // content-coded body so far
};

}  // namespace crawl::fetcher
