// FetchSession's HTTP/2 mode (RFC 9113): once a connection speaks h2 (ALPN
// chose it, or the crawl asked for prior knowledge on cleartext), the
// session keeps up to H2Exchange::StreamLimit() requests of its sequence in
// flight on that one connection, starting them in order (with a crawl
// delay: one at a time, each delay_between after the previous one ended),
// and hands the
// results on in order. See fetch_session.h and h2_exchange.h.
//
// Unlike the HTTP/1.1 steps, a read, a write and a timer may be pending at
// once (all on the strand). The connection ends when no stream is active
// and none may start (sequence done, next URL of another origin, GOAWAY,
// cancel, an error); then, with no operation pending, the socket is
// dropped, refused streams are made to start again (once each), and the
// ordinary NextUrl path takes over: a URL not yet fetched starts on a new
// connection, which may be h2 again. The socket is closed without a GOAWAY
// of ours, as TLS connections are closed without close_notify: nothing is
// in flight by then, and the server sees the close at once.
#include <array>
#include <cstring>
#include <optional>
#include <utility>

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include "common/url/url.h"
#include "fetcher/http/fetch_session.h"
#include "fetcher/http/h2_exchange.h"

namespace crawl::fetcher {

struct H2Connection {
  H2Connection(const FetcherOptions& options, std::string scheme, std::string authority, std::string remote,
               net::strand<net::io_context::executor_type>& strand)
      : exchange(options, std::move(scheme), std::move(authority), std::move(remote)), timer(strand) {}

  H2Exchange exchange;
  net::steady_timer timer;
  std::array<char, 16 * 1024> in;
  std::string out;      // produced, not yet being written
  std::string sending;  // being written
  bool reading = false;
  bool writing = false;
  bool closing = false;
  bool stopping = false;  // start no more streams on this connection
  bool parked = false;    // waiting for room in the result budget
  // With a crawl delay, the next request starts delay_between after this:
  // when the connection opened, then when the last request ended.
  std::optional<std::chrono::steady_clock::time_point> last_start;
};

namespace {

int ClassifyH2IoError(const beast::error_code& ec) {
  if (ec.category() == net::error::get_ssl_category() && ec != ssl::error::stream_truncated) return kTlsError;
  return kConnectError;
}

}  // namespace

bool FetchSession::NegotiatedH2() {
  if (options_.h2_streams == 0) return false;
  if (!tls_) return options_.h2_prior_knowledge;
  const unsigned char* protocol = nullptr;
  unsigned int length = 0;
  SSL_get0_alpn_selected(tls_->native_handle(), &protocol, &length);
  return length == 2 && std::memcmp(protocol, "h2", 2) == 0;
}

void FetchSession::StartH2() {
  sent_any_ = true;
  h2_ = std::make_shared<H2Connection>(options_, origin_.scheme, host_header_, remote_, strand_);
  if (Status s = h2_->exchange.Open(); !s.ok()) {
    h2_.reset();
    return Fail(kProtocolError, s.message());
  }
  ClearDeadline();  // every stream has its own limits
  // Frames go out as they are made (a request, a WINDOW_UPDATE) while
  // earlier ones are unacknowledged: Nagle's algorithm would hold each
  // behind the server's delayed ACK.
  beast::error_code ignored;
  Tcp().socket().set_option(tcp::no_delay(true), ignored);
  // The URL that opened the connection is the first stream; its in-flight
  // count moves to the exchange.
  h2_next_ = index_ + 1;
  if (Status s = h2_->exchange.Start(index_, urls_[index_], target_, result_, start_); !s.ok()) {
    h2_.reset();
    return Fail(kProtocolError, s.message());
  }
  in_flight_ = false;
  result_ = FetchResult{};
  h2_->last_start = std::chrono::steady_clock::now();
  // Holding the connection idle between spaced requests longer than the
  // idle timeout is what HTTP/1.1 avoids too: one request per connection.
  if (delay_between_ > options_.idle_timeout) h2_->stopping = true;
  H2Read();
  H2Pump();
}

void FetchSession::H2StartMore() {
  H2Connection& c = *h2_;
  while (!c.stopping && !c.parked && !cancelled_ && c.exchange.CanStart()) {
    while (h2_next_ < urls_.size() && early_.count(h2_next_) > 0) ++h2_next_;
    if (h2_next_ >= urls_.size()) return;
    const auto now = std::chrono::steady_clock::now();
    if (delay_between_.count() > 0) {
      // With a crawl delay, one request at a time, the next one the delay
      // after the previous one ended, as over HTTP/1.1: spaced from its
      // start, a server that logged a request a few ms late saw two starts
      // closer than the delay (crawl_h2_test under ASan: 992.7 ms for 1 s).
      if (c.exchange.active() > 0) return;
      if (c.last_start && now < *c.last_start + delay_between_) return;  // timer
    }
    auto parts = url::Split(urls_[h2_next_].url);
    if (!parts.ok() || !(Origin{parts->scheme, parts->host, parts->port} == origin_)) {
      c.stopping = true;  // the HTTP/1.1 path reports it or opens its connection
      return;
    }
    if (budget_ && !budget_->TryStart([self = shared_from_this(), conn = h2_] {
          net::post(self->strand_, [self, conn] {
            if (conn != self->h2_ || !conn->parked) return;
            conn->parked = false;
            self->H2Pump();
          });
        })) {
      c.parked = true;
      return;
    }
    FetchResult result;
    result.url = urls_[h2_next_].url;
    result.start_unix_us = std::chrono::duration_cast<std::chrono::microseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
    if (!c.exchange.Start(h2_next_, urls_[h2_next_], parts->target, std::move(result), now).ok()) {
      c.stopping = true;  // out of stream ids: the URL goes on a new connection
      return;
    }
    {
      MutexLock lock(shared_->mu);
      ++shared_->in_flight;
    }
    ++h2_next_;
  }
}

// Runs after every event: starts what may start, writes what is queued,
// hands on finished results, and ends the connection when it has no more use.
void FetchSession::H2Pump() {
  if (!h2_ || h2_->closing) return;
  H2Connection& c = *h2_;
  // Finished results go first: their bodies count in the result budget
  // before another request may start.
  H2TakeFinished();
  H2StartMore();
  if (Status s = c.exchange.TakeOutput(c.out); !s.ok()) return H2ConnectionLost(kProtocolError, s.message());
  if (!c.writing && !c.out.empty()) H2Write();
  H2TakeFinished();
  const bool more = !c.stopping && !cancelled_ && !c.exchange.going_away() && h2_next_ < urls_.size();
  if (c.exchange.active() == 0 && !more) return H2Close();
  H2ArmTimer();
}

void FetchSession::H2TakeFinished() {
  auto& finished = h2_->exchange.finished();
  if (finished.empty()) return;
  if (delay_between_.count() > 0) h2_->last_start = std::chrono::steady_clock::now();
  {
    MutexLock lock(shared_->mu);
    shared_->in_flight -= finished.size();
  }
  for (auto& [index, result] : finished) early_.insert_or_assign(index, std::move(result));
  finished.clear();
  FlushEarly();
}

void FetchSession::H2ArmTimer() {
  H2Connection& c = *h2_;
  std::optional<std::chrono::steady_clock::time_point> at = c.exchange.NextDeadline();
  if (delay_between_.count() > 0 && c.last_start && c.exchange.active() == 0 && !c.stopping && !c.parked &&
      h2_next_ < urls_.size()) {
    const auto next_start = *c.last_start + delay_between_;
    if (!at || next_start < *at) at = next_start;
  }
  if (!at) return;
  c.timer.expires_at(*at);
  c.timer.async_wait([self = shared_from_this(), conn = h2_](beast::error_code ec) {
    if (ec || conn != self->h2_ || conn->closing) return;
    conn->exchange.Expire(std::chrono::steady_clock::now());
    self->H2Pump();
  });
}

void FetchSession::H2Read() {
  h2_->reading = true;
  WithStream([this](auto& stream) {
    stream.async_read_some(net::buffer(h2_->in), [self = shared_from_this(), conn = h2_](beast::error_code ec,
                                                                                         size_t bytes) {
      conn->reading = false;
      if (conn->closing) return self->H2MaybeDrop(conn);
      if (self->cancelled_) return self->H2ConnectionLost(kCancelled, "cancelled");
      if (ec) {
        return self->H2ConnectionLost(ClassifyH2IoError(ec), "reading HTTP/2 frames: " + ec.message());
      }
      if (Status s = conn->exchange.Receive({conn->in.data(), bytes}); !s.ok()) {
        return self->H2ConnectionLost(kProtocolError, s.message());
      }
      self->H2Read();
      self->H2Pump();
    });
  });
}

void FetchSession::H2Write() {
  H2Connection& c = *h2_;
  c.writing = true;
  c.sending = std::move(c.out);
  c.out.clear();
  WithStream([this](auto& stream) {
    net::async_write(stream, net::buffer(h2_->sending),
                     [self = shared_from_this(), conn = h2_](beast::error_code ec, size_t) {
                       conn->writing = false;
                       if (conn->closing) return self->H2MaybeDrop(conn);
                       if (ec) {
                         return self->H2ConnectionLost(ClassifyH2IoError(ec), "sending HTTP/2 frames: " + ec.message());
                       }
                       if (!conn->out.empty()) self->H2Write();
                       self->H2Pump();
                     });
  });
}

void FetchSession::H2ConnectionLost(int status, std::string message) {
  if (!h2_ || h2_->closing) return;
  if (cancelled_) {
    status = kCancelled;
    message = "cancelled";
  }
  h2_->exchange.FailAll(status, message);
  H2TakeFinished();
  H2Close();
}

// Closes the socket (pending operations end with operation_aborted); the
// stream objects stay until no operation refers to them (H2MaybeDrop).
void FetchSession::H2Close() {
  H2Connection& c = *h2_;
  c.closing = true;
  c.timer.cancel();
  beast::error_code ignored;
  Tcp().socket().shutdown(tcp::socket::shutdown_both, ignored);
  Tcp().close();
  H2MaybeDrop(h2_);
}

void FetchSession::H2MaybeDrop(const std::shared_ptr<H2Connection>& conn) {
  if (conn != h2_ || conn->reading || conn->writing) return;
  // Streams that ended with the connection are failed by now; the ones the
  // server refused unprocessed go again on the next connection, once.
  for (size_t index : conn->exchange.TakeRefused()) {
    {
      MutexLock lock(shared_->mu);
      --shared_->in_flight;
    }
    if (h2_refused_.insert(index).second && !cancelled_) continue;
    FetchResult result;
    result.url = urls_[index].url;
    result.status = cancelled_ ? kCancelled : kConnectError;
    result.error = cancelled_ ? "cancelled" : "the server refused the request twice (HTTP/2 GOAWAY or REFUSED_STREAM)";
    early_.emplace(index, std::move(result));
  }
  H2TakeFinished();
  h2_.reset();
  CloseConnection();
  FlushEarly();
  net::post(strand_, [self = shared_from_this()] { self->NextUrl(); });
}

}  // namespace crawl::fetcher
