// See h2_session.h.
#include "fetcher/http/h2_session.h"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <cstring>
#include <utility>

#include "common/base/clock.h"
#include "common/url/url.h"

namespace crawl::fetcher {

namespace {

int ClassifyH2IoError(const beast::error_code& ec) {
  if (ec.category() == net::error::get_ssl_category() && ec != ssl::error::stream_truncated) return kTlsError;
  return kConnectError;
}

}  // namespace

H2Session::H2Session(Owner& owner, const FetcherOptions& options, Strand& strand, Connection& connection,
                     const std::vector<FetchTarget>& urls, std::shared_ptr<ResultBudget> budget,
                     const HostPacer& pacer, Origin origin, std::string authority, std::string remote)
    : owner_(owner),
      options_(options),
      strand_(strand),
      connection_(connection),
      urls_(urls),
      budget_(std::move(budget)),
      pacer_(pacer),
      origin_(std::move(origin)),
      exchange_(options, origin_.scheme, std::move(authority), std::move(remote)),
      timer_(strand) {}

bool H2Session::Negotiated(const FetcherOptions& options, Connection& connection) {
  if (options.h2_streams == 0) return false;
  TlsStream* tls = connection.tls();
  if (tls == nullptr) return options.h2_prior_knowledge;
  const unsigned char* protocol = nullptr;
  unsigned int length = 0;
  SSL_get0_alpn_selected(tls->native_handle(), &protocol, &length);
  return length == 2 && std::memcmp(protocol, "h2", 2) == 0;
}

Status H2Session::Open(size_t index, std::string target, FetchResult result,
                       std::chrono::steady_clock::time_point start) {
  if (Status s = exchange_.Open(); !s.ok()) return s;
  // Frames go out as they are made (a request, a WINDOW_UPDATE) while
  // earlier ones are unacknowledged: Nagle's algorithm would hold each
  // behind the server's delayed ACK.
  beast::error_code ignored;
  connection_.Tcp().socket().set_option(tcp::no_delay(true), ignored);
  next_ = index + 1;
  if (Status s = exchange_.Start(index, urls_[index], std::move(target), std::move(result), start); !s.ok()) {
    return s;
  }
  last_start_ = std::chrono::steady_clock::now();
  // Holding the connection idle between spaced requests longer than the
  // idle timeout is what HTTP/1.1 avoids too: one request per connection.
  if (pacer_.Gap() > options_.idle_timeout) stopping_ = true;
  return Status::Ok();
}

void H2Session::Run() {
  Read();
  Pump();
}

void H2Session::StartMore() {
  while (!stopping_ && !parked_ && !owner_.Cancelled() && exchange_.CanStart()) {
    while (next_ < urls_.size() && owner_.HasResult(next_)) ++next_;
    if (next_ >= urls_.size()) return;
    const auto now = std::chrono::steady_clock::now();
    const auto gap = pacer_.Gap();
    if (gap.count() > 0) {
      // With a pacing gap (a crawl delay, adaptive pacing), one request at a
      // time, the next one the gap after the previous one ended, as over
      // HTTP/1.1: spaced from its start, a server that logged a request a
      // few ms late saw two starts closer than the delay (crawl_h2_test
      // under ASan: 992.7 ms for 1 s); and a gap that follows the response
      // time means nothing with several requests in flight.
      if (exchange_.active() > 0) return;
      if (gap > options_.idle_timeout) {
        stopping_ = true;  // the HTTP/1.1 path waits with the connection closed
        return;
      }
      if (last_start_ && now < *last_start_ + gap) return;  // timer
    }
    auto parts = url::Split(urls_[next_].url);
    if (!parts.ok() || !(Origin{parts->scheme, parts->host, parts->port} == origin_)) {
      stopping_ = true;  // the HTTP/1.1 path reports it or opens its connection
      return;
    }
    if (budget_ && !budget_->TryStart([self = shared_from_this(), owner = owner_.Hold()] {
          net::post(self->strand_, [self, owner] {
            if (self->closing_ || !self->parked_) return;
            self->parked_ = false;
            self->Pump();
          });
        })) {
      parked_ = true;
      return;
    }
    FetchResult result;
    result.url = urls_[next_].url;
    result.pace_ms = static_cast<uint32_t>(gap.count());
    result.start_unix_us = NowUnixUs();
    if (!exchange_.Start(next_, urls_[next_], parts->target, std::move(result), now).ok()) {
      stopping_ = true;  // out of stream ids: the URL goes on a new connection
      return;
    }
    owner_.CountInFlight(1);
    ++next_;
  }
}

// Runs after every event: starts what may start, writes what is queued,
// hands on finished results, and ends the connection when it has no more use.
void H2Session::Pump() {
  if (closing_) return;
  // Finished results go first: their bodies count in the result budget
  // before another request may start.
  TakeFinished();
  StartMore();
  if (Status s = exchange_.TakeOutput(out_); !s.ok()) return ConnectionLost(kProtocolError, s.message());
  if (!writing_ && !out_.empty()) Write();
  TakeFinished();
  const bool more = !stopping_ && !owner_.Cancelled() && !exchange_.going_away() && next_ < urls_.size();
  if (exchange_.active() == 0 && !more) return Close();
  ArmTimer();
}

void H2Session::TakeFinished() {
  auto& finished = exchange_.finished();
  if (finished.empty()) return;
  last_start_ = std::chrono::steady_clock::now();  // the pacing gap runs from here
  owner_.CountInFlight(-static_cast<ptrdiff_t>(finished.size()));
  for (auto& [index, result] : finished) owner_.TakeResult(index, std::move(result));
  finished.clear();
  owner_.FlushResults();
}

void H2Session::ArmTimer() {
  std::optional<std::chrono::steady_clock::time_point> at = exchange_.NextDeadline();
  const auto gap = pacer_.Gap();
  if (gap.count() > 0 && last_start_ && exchange_.active() == 0 && !stopping_ && !parked_ &&
      next_ < urls_.size()) {
    const auto next_start = *last_start_ + gap;
    if (!at || next_start < *at) at = next_start;
  }
  if (!at) return;
  timer_.expires_at(*at);
  timer_.async_wait([self = shared_from_this(), owner = owner_.Hold()](beast::error_code ec) {
    if (ec || self->closing_) return;
    self->exchange_.Expire(std::chrono::steady_clock::now());
    self->Pump();
  });
}

void H2Session::Read() {
  reading_ = true;
  connection_.WithStream([this](auto& stream) {
    stream.async_read_some(net::buffer(in_), [self = shared_from_this(), owner = owner_.Hold()](
                                                 beast::error_code ec, size_t bytes) {
      self->reading_ = false;
      if (self->closing_) return self->MaybeDrop();
      if (self->owner_.Cancelled()) return self->ConnectionLost(kCancelled, "cancelled");
      if (ec) return self->ConnectionLost(ClassifyH2IoError(ec), "reading HTTP/2 frames: " + ec.message());
      if (Status s = self->exchange_.Receive({self->in_.data(), bytes}); !s.ok()) {
        return self->ConnectionLost(kProtocolError, s.message());
      }
      self->Read();
      self->Pump();
    });
  });
}

void H2Session::Write() {
  writing_ = true;
  sending_ = std::move(out_);
  out_.clear();
  connection_.WithStream([this](auto& stream) {
    net::async_write(stream, net::buffer(sending_),
                     [self = shared_from_this(), owner = owner_.Hold()](beast::error_code ec, size_t) {
                       self->writing_ = false;
                       if (self->closing_) return self->MaybeDrop();
                       if (ec) {
                         return self->ConnectionLost(ClassifyH2IoError(ec),
                                                     "sending HTTP/2 frames: " + ec.message());
                       }
                       if (!self->out_.empty()) self->Write();
                       self->Pump();
                     });
  });
}

void H2Session::ConnectionLost(int status, std::string message) {
  if (closing_) return;
  if (owner_.Cancelled()) {
    status = kCancelled;
    message = "cancelled";
  }
  exchange_.FailAll(status, message);
  TakeFinished();
  Close();
}

// Closes the socket (pending operations end with operation_aborted); the
// stream objects stay until no operation refers to them (MaybeDrop).
void H2Session::Close() {
  closing_ = true;
  timer_.cancel();
  connection_.Close();
  MaybeDrop();
}

void H2Session::MaybeDrop() {
  if (dropped_ || reading_ || writing_) return;
  dropped_ = true;
  auto self = shared_from_this();  // the owner lets go of it in H2Ended()
  // Streams that ended with the connection are failed by now; the ones the
  // server refused unprocessed go again on the next connection, once.
  for (size_t index : exchange_.TakeRefused()) {
    owner_.CountInFlight(-1);
    if (owner_.MayAskAgain(index)) continue;
    FetchResult result;
    result.url = urls_[index].url;
    const bool cancelled = owner_.Cancelled();
    result.status = cancelled ? kCancelled : kConnectError;
    result.error =
        cancelled ? "cancelled" : "the server refused the request twice (HTTP/2 GOAWAY or REFUSED_STREAM)";
    owner_.TakeResult(index, std::move(result));
  }
  TakeFinished();
  owner_.H2Ended();
}

}  // namespace crawl::fetcher
