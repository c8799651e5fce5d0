// H2Session: one HTTP/2 connection (RFC 9113) of a FetchSession. Once the
// session's new connection speaks h2 (ALPN chose it, or prior knowledge on
// cleartext), the session hands it over: the H2Session keeps up to
// H2Exchange::StreamLimit() requests of the sequence in flight on it,
// starting them in order (with a pacing gap > 0, host_pacer.h: one at a
// time, each the gap after the previous one ended), and gives each result back
// to the session, which hands them on in order. See fetch_session.h and
// h2_exchange.h. Internal to the fetcher.
//
// Unlike the HTTP/1.1 steps, a read, a write and a timer may be pending at
// once (all on the session's strand). The connection ends when no stream is
// active and none may start (sequence done, next URL of another origin,
// GOAWAY, cancel, an error); then, with no operation pending, refused
// streams are made to start again (once each) and the session takes over
// (Owner::H2Ended): a URL not yet fetched starts on a new connection, which
// may be h2 again. The socket is closed without a GOAWAY of ours, as TLS
// connections are closed without close_notify: nothing is in flight by
// then, and the server sees the close at once.
#pragma once

#include <array>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/base/status.h"
#include "fetcher/http/connection.h"
#include "fetcher/http/h2_exchange.h"
#include "fetcher/http/host_pacer.h"
#include "fetcher/http/http_fetcher.h"
#include "fetcher/http/result_budget.h"

namespace crawl::fetcher {

class H2Session : public std::enable_shared_from_this<H2Session> {
 public:
  // What the H2Session needs of the session that opened the connection.
  // Called on the strand.
  class Owner {
   public:
    // Keeps the owner alive while an operation of the connection is pending.
    virtual std::shared_ptr<void> Hold() = 0;
    virtual bool Cancelled() const = 0;
    // urls[index] has its result already (waiting for the ones before it).
    virtual bool HasResult(size_t index) const = 0;
    // The result of urls[index]: handed on in order with the others.
    virtual void TakeResult(size_t index, FetchResult result) = 0;
    // Hands on the results that are next in order.
    virtual void FlushResults() = 0;
    // Requests started (+) or ended (-), for HttpFetcher's in-flight count.
    virtual void CountInFlight(ptrdiff_t delta) = 0;
    // urls[index], refused unprocessed by the server, may go again on the
    // next connection: once per URL of the sequence.
    virtual bool MayAskAgain(size_t index) = 0;
    // The connection is closed and no operation is pending on it: the owner
    // drops it and goes on with its next URL.
    virtual void H2Ended() = 0;

   protected:
    ~Owner() = default;
  };

  // The connection's first request comes in Open(). `owner`, `options`,
  // `strand`, `connection` and `urls` must outlive the H2Session.
  // `pacer` (the owner's, updated by it as results come) must outlive it too.
  // `authority` is the Host header's value; `remote` the "ip:port" every
  // result reports.
  H2Session(Owner& owner, const FetcherOptions& options, Strand& strand, Connection& connection,
            const std::vector<FetchTarget>& urls, std::shared_ptr<ResultBudget> budget,
            const HostPacer& pacer, Origin origin, std::string authority, std::string remote);

  // The connection speaks h2: ALPN chose it, or prior knowledge on
  // cleartext. REQUIRES: connection.exists(), set up (TLS handshake done).
  [[nodiscard]] static bool Negotiated(const FetcherOptions& options, Connection& connection);

  // Opens the HTTP/2 session with urls[index] (request path `target`) as its
  // first stream; `result` carries its url and start time, `start` its
  // clock. Its in-flight count moves to the H2Session. On an error nothing
  // was started and the caller fails the URL.
  [[nodiscard]] Status Open(size_t index, std::string target, FetchResult result,
                            std::chrono::steady_clock::time_point start);
  // Starts reading and the further streams. REQUIRES: Open() succeeded.
  void Run();

 private:
  void StartMore();
  void Pump();
  void TakeFinished();
  void ArmTimer();
  void Read();
  void Write();
  void ConnectionLost(int status, std::string message);
  void Close();
  void MaybeDrop();

  Owner& owner_;
  const FetcherOptions& options_;
  Strand& strand_;
  Connection& connection_;
  const std::vector<FetchTarget>& urls_;
  const std::shared_ptr<ResultBudget> budget_;  // may be null
  const HostPacer& pacer_;
  const Origin origin_;

  H2Exchange exchange_;
  net::steady_timer timer_;
  std::array<char, 16 * 1024> in_;
  std::string out_;      // produced, not yet being written
  std::string sending_;  // being written
  size_t next_ = 0;      // the next index of urls_ to start
  bool reading_ = false;
  bool writing_ = false;
  bool closing_ = false;
  bool dropped_ = false;   // handed back to the owner (H2Ended)
  bool stopping_ = false;  // start no more streams on this connection
  bool parked_ = false;    // waiting for room in the result budget
  // With a pacing gap, the next request starts the gap after this:
  // when the connection opened, then when the last request ended.
  std::optional<std::chrono::steady_clock::time_point> last_start_;
};

}  // namespace crawl::fetcher
