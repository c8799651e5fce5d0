// The HTTP/1.1 engine of the fetcher: see http_fetcher.h for the contract.
//
// One FetchSession per FetchSequence call. Its steps are do_x/on_x pairs on
// the session's strand, and exactly one step (or posted continuation) is
// outstanding at any time, so the session needs no locks:
//
//   NextUrl -> [delay] -> StartRequest -> [Resolve -> OnResolve]
//           -> [AcquireIpSlot] -> [Connect -> OnConnect -> (TLS) OnHandshake]
//           -> Write -> OnWrite -> ReadFirstByte -> ReadHeader -> OnHeader
//           -> ReadBody -> OnBody ... -> OnMessageDone -> Report -> NextUrl
//
// Every failure goes through Fail(), which closes the connection and reports
// the URL, so each URL is reported exactly once whatever happens.
#include "fetcher/http_fetcher.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdio>
#include <ctime>
#include <deque>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "common/address_policy.h"
#include "common/hosts_file.h"
#include "common/url.h"
#include "fetcher/content_decoding.h"
#include "fetcher/dns_resolver.h"
#include "fetcher/http_field_values.h"
#include "fetcher/ip_connection_limiter.h"

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
  std::unique_ptr<ssl::context> tls;  // null if OpenSSL could not be set up
  std::string tls_setup_error;

  std::shared_ptr<DnsResolver> resolver;  // null if c-ares could not be set up
  std::string resolver_error;

  mutable std::mutex mu;
  // Running sessions, for CancelAll. GUARDED_BY(mu)
  std::unordered_map<FetchSession*, std::weak_ptr<FetchSession>> sessions;
  // Requests between start and result. GUARDED_BY(mu)
  size_t in_flight = 0;

  // Connections per IP (only with max_connections_per_ip > 0).
  IpConnectionLimiter ip_limiter{options.max_connections_per_ip};
};

namespace {

constexpr size_t kBodyReadChunk = 64 * 1024;
constexpr int kMaxInterimResponses = 8;

bool IsClosedByPeer(const beast::error_code& ec) {
  return ec == http::error::end_of_stream || ec == net::error::eof ||
         ec == net::error::connection_reset || ec == net::error::broken_pipe ||
         ec == net::error::connection_aborted || ec == ssl::error::stream_truncated;
}

// Maps an error met after the connection was set up to a FetchError.
int ClassifyIoError(const beast::error_code& ec) {
  if (ec == beast::error::timeout) return kTimeout;
  if (ec == http::error::end_of_stream || ec == http::error::partial_message) return kConnectError;
  if (ec.category() == http::make_error_code(http::error::bad_version).category()) return kProtocolError;
  if (ec == ssl::error::stream_truncated) return kConnectError;
  if (ec.category() == net::error::get_ssl_category()) return kTlsError;
  return kConnectError;
}

}  // namespace

class FetchSession : public std::enable_shared_from_this<FetchSession> {
 public:
  FetchSession(net::io_context& io_context, std::shared_ptr<HttpFetcher::Shared> shared,
               std::vector<std::string> urls, std::function<void(FetchResult)> on_result,
               std::function<void()> on_done, std::chrono::milliseconds delay_between,
               std::shared_ptr<ResultBudget> budget)
      : shared_(std::move(shared)),
        options_(shared_->options),
        strand_(net::make_strand(io_context)),
        resolve_timer_(strand_),
        delay_timer_(strand_),
        urls_(std::move(urls)),
        on_result_(std::move(on_result)),
        on_done_(std::move(on_done)),
        delay_between_(delay_between),
        budget_(std::move(budget)) {}

  void Start() {
    {
      std::lock_guard<std::mutex> lock(shared_->mu);
      shared_->sessions.emplace(this, weak_from_this());
    }
    net::post(strand_, [self = shared_from_this()] { self->NextUrl(); });
  }

  void Cancel() {
    net::post(strand_, [self = shared_from_this()] { self->DoCancel(); });
  }

 private:
  struct Origin {
    std::string scheme;
    std::string host;
    uint16_t port = 0;
    bool operator==(const Origin&) const = default;
  };

  // ---- sequencing ----

  void NextUrl() {
    if (done_) return;
    if (cancelled_) {
      while (index_ < urls_.size()) {
        StartResult();
        result_.status = kCancelled;
        result_.error = "cancelled";
        Deliver();
      }
    }
    if (index_ >= urls_.size()) return Finish();
    if (sent_any_ && delay_between_.count() > 0) {
      // Holding a connection idle for longer than the idle timeout wastes a
      // server slot (and it would likely close it under us anyway).
      if (delay_between_ > options_.idle_timeout) CloseConnection();
      delay_timer_.expires_after(delay_between_);
      delay_timer_.async_wait([self = shared_from_this()](beast::error_code) {
        if (self->cancelled_) return self->NextUrl();
        self->StartRequest();
      });
      return;
    }
    StartRequest();
  }

  void Finish() {
    done_ = true;
    CloseConnection();
    {
      std::lock_guard<std::mutex> lock(shared_->mu);
      shared_->sessions.erase(this);
    }
    if (on_done_) {
      auto on_done = std::move(on_done_);
      on_done();
    }
  }

  void DoCancel() {
    if (done_ || cancelled_) return;
    cancelled_ = true;
    if (parked_) {
      // Waiting for the result budget: nothing in flight, report the rest
      // as cancelled now (the budget's later resume finds parked_ false).
      parked_ = false;
      return NextUrl();
    }
    resolve_timer_.cancel();
    delay_timer_.cancel();
    if (resolving_) {
      // The DNS answer may take a while: report now, ignore it later.
      resolving_ = false;
      ++resolve_generation_;
      return Fail(kCancelled, "cancelled");
    }
    // Waiting for an IP slot: the grant comes when another connection to
    // that address closes, then Fail() hands the slot on.
    // Cancel (not close): the pending handler runs with operation_aborted
    // and Fail() then tears the connection down.
    if (HasConnection()) Tcp().cancel();
  }

  void StartResult() {
    if (!in_flight_) {
      in_flight_ = true;
      std::lock_guard<std::mutex> lock(shared_->mu);
      ++shared_->in_flight;
    }
    result_ = FetchResult{};
    result_.url = urls_[index_];
    StartClock();
  }

  void StartClock() {
    result_.start_unix_us = std::chrono::duration_cast<std::chrono::microseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count();
    start_ = std::chrono::steady_clock::now();
    total_deadline_ = start_ + options_.request_timeout;
  }

  // Arms the connection's deadline for the next step: the step's own limit
  // or the URL's total limit, whichever comes first; `step` names the limit
  // in a timeout's error message.
  void SetDeadline(std::optional<std::chrono::milliseconds> step_limit, const char* step) {
    auto deadline = total_deadline_;
    deadline_name_ = "total time limit";
    if (step_limit) {
      const auto step_deadline = std::chrono::steady_clock::now() + *step_limit;
      if (step_deadline < deadline) {
        deadline = step_deadline;
        deadline_name_ = step;
      }
    }
    Tcp().expires_at(deadline);
  }

  // Hands result_ to the caller and moves to the next URL (without starting it).
  void Deliver() {
    result_.fetch_ms = static_cast<uint32_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                 std::chrono::steady_clock::now() - start_)
                                                 .count());
    if (result_.status < 0) result_.body.clear();
    if (in_flight_) {
      in_flight_ = false;
      std::lock_guard<std::mutex> lock(shared_->mu);
      --shared_->in_flight;
    }
    FetchResult result = std::move(result_);
    result_ = FetchResult{};
    ++index_;
    if (budget_) budget_->Add(result.body.size());
    if (on_result_) on_result_(std::move(result));
  }

  void Report() {
    Deliver();
    // Posted, not called: a long run of failing URLs must not recurse.
    net::post(strand_, [self = shared_from_this()] { self->NextUrl(); });
  }

  // Reports the current URL as failed. The connection is closed unless
  // `keep_connection` (a failure that never touched it, like a bad URL).
  void Fail(int status, std::string message, bool keep_connection = false) {
    if (cancelled_) {
      status = kCancelled;
      message = "cancelled";
    }
    result_.status = status;
    result_.error = std::move(message);
    if (!keep_connection) CloseConnection();
    Report();
  }

  void FailIo(const beast::error_code& ec, const char* during) {
    if (ec == beast::error::timeout) {
      return Fail(kTimeout, std::string(during) + ": " + deadline_name_ + " exceeded");
    }
    Fail(ClassifyIoError(ec), std::string(during) + ": " + ec.message());
  }

  // ---- one request ----

  void StartRequest() {
    if (cancelled_) return NextUrl();
    if (budget_ && !budget_->TryStart([self = shared_from_this()] {
          net::post(self->strand_, [self] {
            if (!self->parked_) return;
            self->parked_ = false;
            self->StartRequest();
          });
        })) {
      parked_ = true;
      return;
    }
    StartResult();
    retried_ = false;
    auto parts = url::Split(urls_[index_]);
    if (!parts.ok()) return Fail(kBadUrl, parts.status().message(), /*keep_connection=*/true);
    Origin origin{parts->scheme, parts->host, parts->port};
    if (!(origin == origin_)) {
      CloseConnection();
      origin_ = std::move(origin);
      endpoints_.clear();
      origin_failure_status_ = 0;
      origin_failure_.clear();
    }
    target_ = parts->target;
    const bool ipv6_literal = origin_.host.find(':') != std::string::npos;
    host_header_ = ipv6_literal ? "[" + origin_.host + "]" : origin_.host;
    const uint16_t default_port = origin_.scheme == "https" ? 443 : 80;
    if (origin_.port != default_port) host_header_ += ":" + std::to_string(origin_.port);

    // DNS failures and blocked addresses are facts about the origin: the
    // other URLs of the sequence fail fast instead of asking again.
    if (origin_failure_status_ != 0) return Fail(origin_failure_status_, origin_failure_);
    if (HasConnection()) return Write(/*reused=*/responses_on_connection_ > 0);
    if (!endpoints_.empty()) return Connect();
    Resolve();
  }

  void Resolve() {
    if (options_.hosts_file != nullptr) {
      if (auto entry = options_.hosts_file->Lookup(origin_.host)) {
        // Operator-provided: exempt from the address policy (see header).
        endpoints_ = {tcp::endpoint(entry->address, entry->port.value_or(origin_.port))};
        return Connect();
      }
    }
    beast::error_code ec;
    auto literal = net::ip::make_address(origin_.host, ec);
    if (!ec) return UseAddresses({literal});

    if (!shared_->resolver) return Fail(kDnsError, "DNS unavailable: " + shared_->resolver_error);
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
      self->Fail(kTimeout, "resolving " + self->origin_.host + ": timed out");
    });
    auto strand = strand_;
    shared_->resolver->Resolve(origin_.host, [self = shared_from_this(), generation, strand](DnsAnswer answer) {
      net::post(strand, [self, generation, answer = std::move(answer)]() mutable {
        self->OnResolve(generation, std::move(answer));
      });
    });
  }

  void OnResolve(uint64_t generation, DnsAnswer answer) {
    if (generation != resolve_generation_ || !resolving_) return;  // timed out or cancelled meanwhile
    resolving_ = false;
    resolve_timer_.cancel();
    if (cancelled_) return Fail(kCancelled, "cancelled");
    if (answer.kind != DnsAnswer::Kind::kOk) {
      origin_failure_status_ = kDnsError;
      origin_failure_ = "resolving " + origin_.host + ": " + answer.error;
      return Fail(origin_failure_status_, origin_failure_);
    }
    // The address policy applies to what DNS said (a public name may point
    // at 127.0.0.1 or 10.x: refused unless the crawl allows private).
    UseAddresses(answer.addresses);
  }

  void UseAddresses(const std::vector<net::ip::address>& addresses) {
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

  void Connect() {
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
          self->ConnectNow();
        });
      };
      if (!shared_->ip_limiter.Acquire(address, std::move(grant))) return;  // granted later
      ip_slot_ = address;
    }
    ConnectNow();
  }

  void ConnectNow() {
    sent_any_ = true;  // the host was contacted: later requests are spaced
    if (origin_.scheme == "https") {
      if (!shared_->tls) return Fail(kTlsError, "TLS unavailable: " + shared_->tls_setup_error);
      tls_.emplace(strand_, *shared_->tls);
      // SNI (RFC 6066 3): names only, never IP literals.
      beast::error_code ec;
      net::ip::make_address(origin_.host, ec);
      if (ec && !SSL_set_tlsext_host_name(tls_->native_handle(), origin_.host.c_str())) {
        return Fail(kTlsError, "cannot set SNI host name");
      }
      if (!options_.accept_self_signed) {
        tls_->set_verify_callback(ssl::host_name_verification(origin_.host), ec);
        if (ec) return Fail(kTlsError, "cannot set certificate verification: " + ec.message());
      }
    } else {
      plain_.emplace(strand_);
    }
    SetDeadline(options_.connect_timeout, "connect timeout");
    Tcp().async_connect(endpoints_, beast::bind_front_handler(&FetchSession::OnConnect, shared_from_this()));
  }

  void OnConnect(beast::error_code ec, const tcp::endpoint& endpoint) {
    if (cancelled_) return Fail(kCancelled, "cancelled");
    if (ec) {
      if (ec == beast::error::timeout) return FailIo(ec, ("connecting to " + origin_.host).c_str());
      return Fail(kConnectError, "connecting to " + origin_.host + ": " + ec.message());
    }
    remote_ = endpoint.address().is_v6() ? "[" + endpoint.address().to_string() + "]" : endpoint.address().to_string();
    remote_ += ":" + std::to_string(endpoint.port());
    if (tls_) {
      SetDeadline(options_.connect_timeout, "connect timeout");
      tls_->async_handshake(ssl::stream_base::client,
                            beast::bind_front_handler(&FetchSession::OnHandshake, shared_from_this()));
      return;
    }
    Write(/*reused=*/false);
  }

  void OnHandshake(beast::error_code ec) {
    if (cancelled_) return Fail(kCancelled, "cancelled");
    if (ec) {
      if (ec == beast::error::timeout) return FailIo(ec, "TLS handshake");
      return Fail(kTlsError, "TLS handshake: " + ec.message());
    }
    Write(/*reused=*/false);
  }

  void Write(bool reused) {
    sent_any_ = true;
    reused_ = reused;
    request_ = {};
    request_.version(11);
    request_.method(http::verb::get);
    request_.target(target_);
    request_.set(http::field::host, host_header_);
    request_.set(http::field::user_agent, options_.user_agent);
    if (options_.page_range_bytes > 0) {
      request_.set(http::field::range, "bytes=0-" + std::to_string(options_.page_range_bytes - 1));
    }
    request_.set(http::field::accept_encoding, "gzip, deflate");
    request_.set(http::field::connection, "keep-alive");
    result_.remote_address = remote_;

    SetDeadline(std::nullopt, "");
    WithStream([this](auto& stream) {
      http::async_write(stream, request_,
                        beast::bind_front_handler(&FetchSession::OnWrite, shared_from_this()));
    });
  }

  // A reused connection that turns out to be closed: the server dropped it
  // while idle. Nothing of the response was seen, so try once more.
  bool CanRetry(const beast::error_code& ec) const { return reused_ && !retried_ && IsClosedByPeer(ec); }

  void Retry() {
    retried_ = true;
    Connect();
  }

  void OnWrite(beast::error_code ec, size_t) {
    if (cancelled_) return Fail(kCancelled, "cancelled");
    if (ec) {
      if (CanRetry(ec)) return Retry();
      return FailIo(ec, "sending request");
    }
    interim_responses_ = 0;
    ReadFirstByte();
  }

  // Waits for the first response byte under first_byte_timeout (a server
  // that accepts and then thinks for minutes), then reads the header under
  // the total limit only.
  void ReadFirstByte() {
    if (buffer_.size() > 0) return ReadHeader();  // already here (pipelined leftovers)
    SetDeadline(options_.first_byte_timeout, "first-byte timeout");
    WithStream([this](auto& stream) {
      stream.async_read_some(buffer_.prepare(4096),
                             beast::bind_front_handler(&FetchSession::OnFirstByte, shared_from_this()));
    });
  }

  void OnFirstByte(beast::error_code ec, size_t bytes) {
    buffer_.commit(bytes);
    if (cancelled_) return Fail(kCancelled, "cancelled");
    if (ec) {
      if (bytes == 0 && CanRetry(ec)) return Retry();
      return FailIo(ec, "waiting for the response");
    }
    SetDeadline(std::nullopt, "");
    ReadHeader();
  }

  void ReadHeader() {
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(std::min<size_t>(options_.max_header_bytes, UINT32_MAX)));
    parser_->body_limit(boost::none);  // we cut the body ourselves
    WithStream([this](auto& stream) {
      http::async_read_header(stream, buffer_, *parser_,
                              beast::bind_front_handler(&FetchSession::OnHeader, shared_from_this()));
    });
  }

  void OnHeader(beast::error_code ec, size_t bytes) {
    result_.wire_bytes += bytes;
    if (cancelled_) return Fail(kCancelled, "cancelled");
    if (ec) {
      if (bytes == 0 && CanRetry(ec)) return Retry();
      if (ec == http::error::header_limit) {
        return Fail(kProtocolError, "response header larger than " + std::to_string(options_.max_header_bytes) +
                                        " bytes");
      }
      return FailIo(ec, "reading response header");
    }
    const auto& response = parser_->get();
    const int status = static_cast<int>(response.result_int());
    if (status >= 100 && status < 200 && status != 101) {
      // Interim responses (100 Continue, 103 Early Hints; RFC 9110 15.2)
      // precede the final one: skip them, but not forever.
      if (++interim_responses_ > kMaxInterimResponses) {
        return Fail(kProtocolError, "more than " + std::to_string(kMaxInterimResponses) + " interim responses");
      }
      return ReadHeader();
    }
    result_.status = status;
    auto field = [&](http::field f) { return std::string(response[f]); };
    result_.content_type = field(http::field::content_type);
    result_.mime_type = MimeTypeOf(result_.content_type);
    result_.content_encoding = field(http::field::content_encoding);
    result_.location = field(http::field::location);
    result_.etag = field(http::field::etag);
    result_.last_modified = field(http::field::last_modified);
    result_.expires = field(http::field::expires);
    if (status == 429 || status == 503) {
      const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
      if (auto delay = ParseRetryAfter(response[http::field::retry_after], now)) result_.retry_after_seconds = *delay;
    }
    raw_.clear();
    if (parser_->is_done()) return OnMessageDone();
    ReadBody();
  }

  void ReadBody() {
    // Read one byte past the cap: receiving it proves the body was longer.
    const uint64_t budget = options_.page_range_bytes + 1;
    const size_t have = raw_.size();
    const size_t want = static_cast<size_t>(std::min<uint64_t>(budget - have, kBodyReadChunk));
    raw_.resize(have + want);
    auto& body = parser_->get().body();
    body.data = raw_.data() + have;
    body.size = want;
    WithStream([this](auto& stream) {
      http::async_read_some(stream, buffer_, *parser_,
                            beast::bind_front_handler(&FetchSession::OnBody, shared_from_this()));
    });
  }

  void OnBody(beast::error_code ec, size_t bytes) {
    result_.wire_bytes += bytes;
    raw_.resize(raw_.size() - parser_->get().body().size);  // drop the unfilled tail
    if (ec == http::error::need_buffer) ec = {};
    if (cancelled_) return Fail(kCancelled, "cancelled");
    if (ec == ssl::error::stream_truncated && parser_->need_eof()) {
      // A close-delimited body over TLS from a server that skips close_notify.
      ec = {};
      parser_->put_eof(ec);
    }
    if (ec) return FailIo(ec, "reading response body");
    if (raw_.size() > options_.page_range_bytes) {
      raw_.resize(static_cast<size_t>(options_.page_range_bytes));
      result_.truncated = true;
      return OnMessageDone();
    }
    if (parser_->is_done()) return OnMessageDone();
    ReadBody();
  }

  void OnMessageDone() {
    ++responses_on_connection_;
    // After a cut the rest of the body is still on the wire: the connection
    // cannot carry another request.
    const bool keep_alive = !result_.truncated && parser_->keep_alive();
    if (result_.status == 206) {
      auto total = CompleteLength(parser_->get()[http::field::content_range]);
      if (total && *total > raw_.size()) result_.truncated = true;
    }
    parser_.reset();
    if (!keep_alive) CloseConnection();
    DecodeBody();
    Report();
  }

  void DecodeBody() {
    const std::string coding = Lower(Trim(result_.content_encoding));
    if (coding.empty() || coding == "identity" || raw_.empty()) {
      result_.body = std::move(raw_);
      raw_.clear();
      ShrinkBody();
      return;
    }
    int window_bits = 0;
    if (coding == "gzip" || coding == "x-gzip" || coding == "deflate") {
      window_bits = 15 + 32;  // zlib or gzip header, detected
    } else {
      result_.error = "unsupported content-encoding '" + result_.content_encoding + "' (HTTP " +
                      std::to_string(result_.status) + ")";
      result_.status = kBodyError;
      return;
    }
    std::string error;
    const uint64_t cap = options_.max_decoded_bytes > 0 ? options_.max_decoded_bytes : options_.page_range_bytes;
    InflateStatus status = Inflate(raw_, window_bits, cap, result_.body, error);
    if (status == InflateStatus::kDataError && coding == "deflate" && result_.body.empty()) {
      // "deflate" is meant to be zlib-wrapped (RFC 9110 8.4.1.2), but some
      // servers send raw deflate.
      status = Inflate(raw_, -15, cap, result_.body, error);
    }
    raw_.clear();
    switch (status) {
      case InflateStatus::kOk:
        break;
      case InflateStatus::kCapped:
        result_.truncated = true;
        result_.error = "decoded body cut at " + std::to_string(cap) + " bytes (" + coding + ")";
        break;
      case InflateStatus::kIncomplete:
        // Expected after a cut; otherwise keep what decoded, like browsers.
        if (!result_.truncated) result_.error = "compressed body ends early";
        result_.truncated = true;
        break;
      case InflateStatus::kDataError:
        result_.error = "decoding " + coding + " body (HTTP " + std::to_string(result_.status) + "): " + error;
        result_.status = kBodyError;
        break;
    }
    ShrinkBody();
  }

  // The body grew in 64 KiB reads (or inflate steps): a 4 KiB page kept a
  // 64 KiB buffer while it waited to be processed. One copy gives the
  // capacity back.
  void ShrinkBody() {
    std::string& body = result_.body;
    if (body.capacity() > body.size() + body.size() / 4 + 1024) body.shrink_to_fit();
  }

  // ---- connection ----

  bool HasConnection() const { return plain_.has_value() || tls_.has_value(); }

  // REQUIRES: HasConnection().
  beast::tcp_stream& Tcp() { return tls_ ? beast::get_lowest_layer(*tls_) : *plain_; }

  template <typename F>
  void WithStream(F&& f) {
    if (tls_) {
      f(*tls_);
    } else {
      f(*plain_);
    }
  }

  // REQUIRES: no operation pending on the connection.
  void CloseConnection() {
    if (HasConnection()) {
      beast::error_code ec;
      Tcp().socket().shutdown(tcp::socket::shutdown_both, ec);
      Tcp().close();
    }
    tls_.reset();
    plain_.reset();
    parser_.reset();
    if (ip_slot_) {
      const auto address = *ip_slot_;
      ip_slot_.reset();
      shared_->ip_limiter.Release(address);
    }
    buffer_.consume(buffer_.size());
    responses_on_connection_ = 0;
    remote_.clear();
  }

  const std::shared_ptr<HttpFetcher::Shared> shared_;
  const FetcherOptions& options_;  // in *shared_
  net::strand<net::io_context::executor_type> strand_;
  net::steady_timer resolve_timer_;
  net::steady_timer delay_timer_;

  const std::vector<std::string> urls_;
  std::function<void(FetchResult)> on_result_;
  std::function<void()> on_done_;
  const std::chrono::milliseconds delay_between_;
  const std::shared_ptr<ResultBudget> budget_;  // may be null

  size_t index_ = 0;  // next URL to report
  bool done_ = false;
  bool cancelled_ = false;
  bool parked_ = false;  // waiting for room in budget_
  bool sent_any_ = false;  // a connection or request was attempted (for delay_between)

  // The origin of the current URL and what is known about it.
  Origin origin_;
  std::vector<tcp::endpoint> endpoints_;
  int origin_failure_status_ = 0;
  std::string origin_failure_;
  uint64_t resolve_generation_ = 0;
  bool resolving_ = false;  // a DNS answer is awaited (resolve_generation_)
  std::optional<net::ip::address> ip_slot_;  // the per-IP slot held, if any

  // The connection (at most one of the two).
  std::optional<beast::tcp_stream> plain_;
  std::optional<beast::ssl_stream<beast::tcp_stream>> tls_;
  beast::flat_buffer buffer_;
  size_t responses_on_connection_ = 0;
  std::string remote_;

  // The request in flight.
  FetchResult result_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point total_deadline_;
  std::string deadline_name_ = "total time limit";  // which limit the armed deadline is
  bool in_flight_ = false;  // counted in shared_->in_flight
  std::string target_;
  std::string host_header_;
  bool reused_ = false;
  bool retried_ = false;
  int interim_responses_ = 0;
  http::request<http::empty_body> request_;
  std::optional<http::response_parser<http::buffer_body>> parser_;
  std::string raw_;  // content-coded body so far
};

HttpFetcher::HttpFetcher(net::io_context& io_context, FetcherOptions options)
    : io_context_(io_context), shared_(std::make_shared<Shared>(std::move(options))) {
  shared_->resolver = shared_->options.resolver;
  if (!shared_->resolver) {
    auto resolver = DnsResolver::Create(io_context, DnsOptions{});
    if (resolver.ok()) {
      shared_->resolver = std::move(*resolver);
    } else {
      shared_->resolver_error = resolver.status().message();
    }
  }
  try {
    auto context = std::make_unique<ssl::context>(ssl::context::tls_client);
    context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3);
    beast::error_code ec;
    if (shared_->options.accept_self_signed) {
      context->set_verify_mode(ssl::verify_none, ec);
    } else {
      context->set_verify_mode(ssl::verify_peer, ec);
      if (!ec) context->set_default_verify_paths(ec);
      if (!ec && !shared_->options.ca_file.empty()) {
        context->load_verify_file(shared_->options.ca_file, ec);
        if (ec) shared_->tls_setup_error = "loading ca_file " + shared_->options.ca_file + ": " + ec.message();
      }
    }
    if (ec && shared_->tls_setup_error.empty()) shared_->tls_setup_error = ec.message();
    if (!ec) shared_->tls = std::move(context);
  } catch (const std::exception& e) {  // ssl::context's constructor throws
    shared_->tls_setup_error = e.what();
  }
}

HttpFetcher::~HttpFetcher() = default;

void HttpFetcher::FetchSequence(std::vector<std::string> urls, std::function<void(FetchResult)> on_result,
                                std::function<void()> on_done, std::chrono::milliseconds delay_between,
                                std::shared_ptr<ResultBudget> budget) {
  auto session = std::make_shared<FetchSession>(io_context_, shared_, std::move(urls), std::move(on_result),
                                                std::move(on_done), delay_between, std::move(budget));
  session->Start();
}

void HttpFetcher::CancelAll() {
  std::vector<std::shared_ptr<FetchSession>> sessions;
  {
    std::lock_guard<std::mutex> lock(shared_->mu);
    for (auto& [raw, weak] : shared_->sessions) {
      if (auto session = weak.lock()) sessions.push_back(std::move(session));
    }
  }
  for (auto& session : sessions) session->Cancel();
}

const std::string& HttpFetcher::tls_setup_error() const { return shared_->tls_setup_error; }

size_t HttpFetcher::requests_in_flight() const {
  std::lock_guard<std::mutex> lock(shared_->mu);
  return shared_->in_flight;
}

size_t HttpFetcher::active_sequences() const {
  std::lock_guard<std::mutex> lock(shared_->mu);
  return shared_->sessions.size();
}

}  // namespace crawl::fetcher
