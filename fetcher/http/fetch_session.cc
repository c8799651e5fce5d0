// FetchSession's sequencing of URLs, results and failures, and its HTTP
// exchange (request, response header and body). See fetch_session.h.
#include "fetcher/http/fetch_session.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <utility>

#include "common/base/clock.h"
#include "common/url/url.h"
#include "fetcher/http/content_decoding.h"
#include "fetcher/http/http_date.h"
#include "fetcher/http/http_field_values.h"
#include "fetcher/http/response_fields.h"

namespace crawl::fetcher {

namespace {

constexpr size_t kBodyReadChunk = 64 * 1024;
constexpr int kMaxInterimResponses = 8;

bool IsClosedByPeer(const beast::error_code& ec) {
  return ec == http::error::end_of_stream || ec == net::error::eof || ec == net::error::connection_reset ||
         ec == net::error::broken_pipe || ec == net::error::connection_aborted ||
         ec == ssl::error::stream_truncated;
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

FetchSession::FetchSession(net::io_context& io_context, std::shared_ptr<HttpFetcher::Shared> shared,
                           std::vector<FetchTarget> urls, std::function<void(FetchResult)> on_result,
                           std::function<void()> on_done, HostPacer pacer,
                           std::shared_ptr<ResultBudget> budget)
    : shared_(std::move(shared)),
      options_(shared_->options),
      strand_(net::make_strand(io_context)),
      resolve_timer_(strand_),
      delay_timer_(strand_),
      watchdog_(strand_),
      urls_(std::move(urls)),
      on_result_(std::move(on_result)),
      on_done_(std::move(on_done)),
      pacer_(pacer),
      budget_(std::move(budget)) {}

void FetchSession::Start() {
  {
    MutexLock lock(shared_->mu);
    shared_->sessions.emplace(this, weak_from_this());
  }
  net::post(strand_, [self = shared_from_this()] { self->NextUrl(); });
}

void FetchSession::Cancel() {
  net::post(strand_, [self = shared_from_this()] { self->DoCancel(); });
}

void FetchSession::NextUrl() {
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
  if (const auto gap = pacer_.Gap(); sent_any_ && gap.count() > 0) {
    // Holding a connection idle for longer than the idle timeout wastes a
    // server slot (and it would likely close it under us anyway).
    if (gap > options_.idle_timeout) CloseConnection();
    delay_timer_.expires_after(gap);
    delay_timer_.async_wait([self = shared_from_this()](beast::error_code) {
      if (self->cancelled_) return self->NextUrl();
      self->StartRequest();
    });
    return;
  }
  StartRequest();
}

void FetchSession::Finish() {
  done_ = true;
  ClearDeadline();
  watchdog_.cancel();  // no wait left behind to keep the io_context running
  CloseConnection();
  {
    MutexLock lock(shared_->mu);
    shared_->sessions.erase(this);
  }
  if (on_done_) {
    auto on_done = std::move(on_done_);
    on_done();
  }
}

void FetchSession::DoCancel() {
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
  // Waiting for a cluster-wide address slot: withdrawn; the gate answers
  // nullopt and the session fails the URL as cancelled.
  if (address_waiting_ && address_ticket_)
    return options_.address_gate->Release(address_slot_, *address_ticket_);
  // Waiting for an IP slot: the grant comes when another connection to
  // that address closes, then Fail() hands the slot on.
  // Cancel (not close): the pending handler runs with operation_aborted
  // and Fail() then tears the connection down.
  if (connection_.exists()) connection_.Tcp().cancel();
}

void FetchSession::StartResult() {
  if (!in_flight_) {
    in_flight_ = true;
    MutexLock lock(shared_->mu);
    ++shared_->in_flight;
  }
  result_ = FetchResult{};
  result_.url = urls_[index_].url;
  StartClock();
}

void FetchSession::StartClock() {
  result_.start_unix_us = NowUnixUs();
  start_ = std::chrono::steady_clock::now();
  total_deadline_ = start_ + options_.request_timeout;
}

void FetchSession::SetDeadline(std::optional<std::chrono::milliseconds> step_limit, const char* step) {
  auto deadline = total_deadline_;
  deadline_name_ = "total time limit";
  if (step_limit) {
    const auto step_deadline = std::chrono::steady_clock::now() + *step_limit;
    if (step_deadline < deadline) {
      deadline = step_deadline;
      deadline_name_ = step;
    }
  }
  deadline_ = deadline;
  timed_out_ = false;
  ArmWatchdog();
}

void FetchSession::ClearDeadline() {
  deadline_ = std::chrono::steady_clock::time_point::max();
  timed_out_ = false;
}

void FetchSession::ArmWatchdog() {
  // A wake-up at or before the deadline is already set: it looks again then.
  if (watchdog_waiting_ && watchdog_.expiry() <= deadline_) return;
  watchdog_.expires_at(deadline_);  // a pending wait ends, ignored (its generation)
  watchdog_waiting_ = true;
  watchdog_.async_wait([weak = weak_from_this(), generation = ++watchdog_generation_](beast::error_code ec) {
    if (auto self = weak.lock()) self->OnWatchdog(ec, generation);
  });
}

void FetchSession::OnWatchdog(beast::error_code ec, uint64_t generation) {
  if (generation != watchdog_generation_) return;
  watchdog_waiting_ = false;
  if (ec || deadline_ == std::chrono::steady_clock::time_point::max()) return;
  if (std::chrono::steady_clock::now() < deadline_) return ArmWatchdog();
  // Past the deadline: the pending operation ends with operation_aborted,
  // which Timed() reports as the timeout; Fail() then closes the connection.
  timed_out_ = true;
  if (connection_.exists()) connection_.Tcp().cancel();
}

void FetchSession::Deliver() {
  result_.fetch_ms = static_cast<uint32_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_)
          .count());
  if (in_flight_) {
    in_flight_ = false;
    MutexLock lock(shared_->mu);
    --shared_->in_flight;
  }
  FetchResult result = std::move(result_);
  result_ = FetchResult{};
  NotePace(result);
  Hand(std::move(result));
  FlushEarly();
}

void FetchSession::Hand(FetchResult result) {
  if (result.status < 0) result.body.clear();
  // The connection's address slot: its wait counts once, on the first
  // answer that came over it.
  if (!result.remote_address.empty() && address_ticket_) {
    result.address_wait_ms = static_cast<uint32_t>(address_grant_.waited.count());
    result.address_connections = address_grant_.open;
    address_grant_.waited = std::chrono::milliseconds(0);
  }
  ++index_;
  if (budget_) budget_->Add(result.body.size());
  if (on_result_) on_result_(std::move(result));
}

void FetchSession::NotePace(FetchResult& result) {
  result.pace_backed_off = pacer_.OnResult(std::chrono::milliseconds(result.fetch_ms), result.status);
}

void FetchSession::FlushEarly() {
  while (!early_.empty() && early_.begin()->first == index_) {
    auto node = early_.extract(early_.begin());
    Hand(std::move(node.mapped()));
  }
}

void FetchSession::Report() {
  ClearDeadline();  // idle until the next request (a pending wake-up finds nothing to do)
  Deliver();
  // Posted, not called: a long run of failing URLs must not recurse.
  net::post(strand_, [self = shared_from_this()] { self->NextUrl(); });
}

void FetchSession::Fail(int status, std::string message, bool keep_connection) {
  if (cancelled_) {
    status = kCancelled;
    message = "cancelled";
  }
  result_.status = status;
  result_.error = std::move(message);
  if (!keep_connection) CloseConnection();
  Report();
}

void FetchSession::FailIo(const beast::error_code& ec, const char* during) {
  if (Timed(ec) == beast::error::timeout) {
    return Fail(kTimeout, std::string(during) + ": " + deadline_name_ + " exceeded");
  }
  Fail(ClassifyIoError(ec), std::string(during) + ": " + ec.message());
}

void FetchSession::StartRequest() {
  if (cancelled_) return NextUrl();
  if (budget_ && !budget_->TryStart([self = shared_from_this()] {
        net::post(self->strand_, [self] {
          if (!self->parked_) return;
          self->parked_ = false;
          self->StartRequest();
        });
      })) {
    parked_ = true;
    watchdog_.cancel();  // parked for as long as the consumer takes: no wake-ups meanwhile
    return;
  }
  StartResult();
  result_.pace_ms = static_cast<uint32_t>(pacer_.Gap().count());
  retried_ = false;
  without_range_ = false;
  auto parts = url::Split(urls_[index_].url);
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
  if (connection_.exists()) return Write(/*reused=*/responses_on_connection_ > 0);
  if (!endpoints_.empty()) return Connect();
  Resolve();
}

void FetchSession::Write(bool reused) {
  sent_any_ = true;
  reused_ = reused;
  request_ = {};
  request_.version(11);
  request_.method(http::verb::get);
  request_.target(RequestTarget());
  request_.set(http::field::host, host_header_);
  if (proxy_ != nullptr && origin_.scheme == "http" && !proxy_->authorization.empty()) {
    request_.set(http::field::proxy_authorization, proxy_->authorization);
  }
  request_.set(http::field::user_agent, options_.user_agent);
  const uint64_t range = RangeBytesOf(options_, urls_[index_]);
  if (range > 0 && !without_range_) {
    request_.set(http::field::range, "bytes=0-" + std::to_string(range - 1));
  }
  request_.set(http::field::accept_encoding, "gzip, deflate");
  request_.set(http::field::connection, "keep-alive");
  // Conditional request (RFC 9110 13.1): the validators of the last fetch,
  // verbatim. Both may go together; a server that knows ETags uses
  // If-None-Match and ignores If-Modified-Since (RFC 9110 13.2.2).
  const FetchTarget& target = urls_[index_];
  if (SendableValidator(target.if_none_match)) {
    request_.set(http::field::if_none_match, target.if_none_match);
    result_.conditional = true;
  }
  if (SendableValidator(target.if_modified_since)) {
    request_.set(http::field::if_modified_since, target.if_modified_since);
    result_.conditional = true;
  }
  result_.remote_address = remote_;

  SetDeadline(std::nullopt, "");
  connection_.WithStream([this](auto& stream) {
    http::async_write(stream, request_,
                      beast::bind_front_handler(&FetchSession::OnWrite, shared_from_this()));
  });
}

bool FetchSession::CanRetry(const beast::error_code& ec) const {
  return reused_ && !retried_ && IsClosedByPeer(ec);
}

void FetchSession::Retry() {
  retried_ = true;
  Connect();
}

void FetchSession::OnWrite(beast::error_code ec, size_t) {
  ec = Timed(ec);
  if (cancelled_) return Fail(kCancelled, "cancelled");
  if (ec) {
    if (CanRetry(ec)) return Retry();
    return FailIo(ec, "sending request");
  }
  interim_responses_ = 0;
  ReadFirstByte();
}

void FetchSession::ReadFirstByte() {
  if (buffer_.size() > 0) return ReadHeader();  // already here (pipelined leftovers)
  SetDeadline(options_.first_byte_timeout, "first-byte timeout");
  connection_.WithStream([this](auto& stream) {
    // Room for a whole typical response: the header and body reads after
    // this one read up to the buffer's capacity per call (Beast's
    // read_size), and 4 KiB of it was five reads and their handlers a page.
    stream.async_read_some(buffer_.prepare(kBodyReadChunk),
                           beast::bind_front_handler(&FetchSession::OnFirstByte, shared_from_this()));
  });
}

void FetchSession::OnFirstByte(beast::error_code ec, size_t bytes) {
  ec = Timed(ec);
  buffer_.commit(bytes);
  if (cancelled_) return Fail(kCancelled, "cancelled");
  if (ec) {
    if (bytes == 0 && CanRetry(ec)) return Retry();
    return FailIo(ec, "waiting for the response");
  }
  SetDeadline(std::nullopt, "");
  ReadHeader();
}

void FetchSession::ReadHeader() {
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(std::min<size_t>(options_.max_header_bytes, UINT32_MAX)));
  parser_->body_limit(boost::none);  // we cut the body ourselves
  connection_.WithStream([this](auto& stream) {
    http::async_read_header(stream, buffer_, *parser_,
                            beast::bind_front_handler(&FetchSession::OnHeader, shared_from_this()));
  });
}

void FetchSession::OnHeader(beast::error_code ec, size_t bytes) {
  ec = Timed(ec);
  result_.wire_bytes += bytes;
  if (cancelled_) return Fail(kCancelled, "cancelled");
  if (ec) {
    if (bytes == 0 && CanRetry(ec)) return Retry();
    if (ec == http::error::header_limit) {
      return Fail(kProtocolError,
                  "response header larger than " + std::to_string(options_.max_header_bytes) + " bytes");
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
  ReadResponseFields(
      status, [&response](std::string_view name) { return response[name]; }, result_);
  ReadListFields(
      [&response](std::string_view name) {
        std::vector<std::string_view> out;
        for (auto [it, end] = response.equal_range(name); it != end; ++it) out.push_back(it->value());
        return out;
      },
      result_);
  raw_.clear();
  if (parser_->is_done()) return OnMessageDone();
  ReadBody();
}

void FetchSession::ReadBody() {
  // Read one byte past the cap: receiving it proves the body was longer.
  const uint64_t budget = RangeBytesOf(options_, urls_[index_]) + 1;
  const size_t have = raw_.size();
  uint64_t want = std::min<uint64_t>(budget - have, kBodyReadChunk);
  // A body of known length gets room for what is left of it, no more: the
  // room is zero-filled, so 64 KiB per read would zero bytes never used.
  if (const auto left = parser_->content_length_remaining(); left && *left > 0) want = std::min(want, *left);
  raw_.resize(have + static_cast<size_t>(want));
  auto& body = parser_->get().body();
  body.data = raw_.data() + have;
  body.size = want;
  connection_.WithStream([this](auto& stream) {
    http::async_read_some(stream, buffer_, *parser_,
                          beast::bind_front_handler(&FetchSession::OnBody, shared_from_this()));
  });
}

void FetchSession::OnBody(beast::error_code ec, size_t bytes) {
  ec = Timed(ec);
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
  if (const uint64_t range = RangeBytesOf(options_, urls_[index_]); raw_.size() > range) {
    raw_.resize(static_cast<size_t>(range));
    result_.truncated = true;
    return OnMessageDone();
  }
  if (parser_->is_done()) return OnMessageDone();
  ReadBody();
}

void FetchSession::OnMessageDone() {
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
  if (ShouldAskWithoutRange()) return AskWithoutRange(keep_alive);
  DecodeBody(std::move(raw_), DecodedCapOf(options_, urls_[index_]), result_);
  raw_.clear();
  Report();
}

// 416 Range Not Satisfiable to `bytes=0-N`: the document is empty, or the
// server does not take that range. Asked once more without Range, the page
// is kept (the body cap still holds) instead of being lost as a failure.
bool FetchSession::ShouldAskWithoutRange() const {
  return result_.status == 416 && RangeBytesOf(options_, urls_[index_]) > 0 && !without_range_;
}

void FetchSession::AskWithoutRange(bool keep_alive) {
  without_range_ = true;
  // A fresh result for the same request: its start, and the bytes already
  // read for the 416, carry over.
  FetchResult next;
  next.url = std::move(result_.url);
  next.start_unix_us = result_.start_unix_us;
  next.wire_bytes = result_.wire_bytes;
  next.pace_ms = result_.pace_ms;
  result_ = std::move(next);
  raw_.clear();
  if (keep_alive && connection_.exists()) return Write(/*reused=*/true);
  Connect();
}

void FetchSession::StartH2() {
  sent_any_ = true;
  ClearDeadline();  // every stream has its own limits
  h2_ = std::make_shared<H2Session>(static_cast<H2Session::Owner&>(*this), options_, strand_, connection_,
                                    urls_, budget_, pacer_, origin_, host_header_, remote_);
  if (Status s = h2_->Open(index_, target_, result_, start_); !s.ok()) {
    h2_.reset();
    return Fail(kProtocolError, s.message());
  }
  // The URL that opened the connection is the first stream; its in-flight
  // count moved to the H2Session.
  in_flight_ = false;
  result_ = FetchResult{};
  h2_->Run();
}

void FetchSession::TakeResult(size_t index, FetchResult result) {
  NotePace(result);
  early_.insert_or_assign(index, std::move(result));
}

void FetchSession::CountInFlight(ptrdiff_t delta) {
  MutexLock lock(shared_->mu);
  if (delta >= 0) {
    shared_->in_flight += static_cast<size_t>(delta);
  } else {
    shared_->in_flight -= static_cast<size_t>(-delta);
  }
}

bool FetchSession::MayAskAgain(size_t index) { return h2_refused_.insert(index).second && !cancelled_; }

void FetchSession::H2Ended() {
  h2_.reset();
  CloseConnection();
  FlushEarly();
  net::post(strand_, [self = shared_from_this()] { self->NextUrl(); });
}

}  // namespace crawl::fetcher
