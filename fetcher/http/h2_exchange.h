// H2Exchange: the requests of one FetchSession over one HTTP/2 connection
// (RFC 9113), turned into the same FetchResults the HTTP/1.1 path gives
// (http_fetcher.h): the same request fields (Range, Accept-Encoding,
// validators; no Connection, RFC 9113 8.2.2), the body cut at
// page_range_bytes (the stream is reset, the connection lives on), content
// decoding under the same cap, interim responses skipped, 3xx not followed,
// Retry-After, a 416 asked once more without Range, and the first-byte and
// total time limits per stream. Pure: the caller feeds it bytes and the
// time and writes what it produces (H2Session, h2_session.h). Internal.
//
// Stream outcomes beyond HTTP/1.1's: RST_STREAM from the server and a
// connection error fail the URL (kConnectError, or kProtocolError for an
// HTTP/2 protocol error); a stream the server refused unprocessed
// (REFUSED_STREAM, or above a GOAWAY's last stream id) is handed back by
// TakeRefused() so the caller can ask again on a new connection.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/base/status.h"
#include "fetcher/http/h2_client.h"
#include "fetcher/http/http_fetcher.h"

namespace crawl::fetcher {

class H2Exchange final : private H2Events {
 public:
  using Clock = std::chrono::steady_clock;

  // `options` must outlive this object. `authority` is the Host header's
  // value; `remote` the "ip:port" every result reports.
  H2Exchange(const FetcherOptions& options, std::string scheme, std::string authority, std::string remote);
  ~H2Exchange() override;

  // Creates the nghttp2 session (preface and SETTINGS queued).
  [[nodiscard]] Status Open();

  // Starts `target` (the URL at `index` of the sequence) for request path
  // `path`; `result` carries its url and start time, `start` its clock.
  // REQUIRES: Open() succeeded; CanStart().
  [[nodiscard]] Status Start(size_t index, const FetchTarget& target, std::string path, FetchResult result,
                             Clock::time_point start);
  // Streams may be started: no GOAWAY yet and fewer than the limit active.
  [[nodiscard]] bool CanStart() const;
  // min(options.h2_streams, the server's SETTINGS_MAX_CONCURRENT_STREAMS);
  // 1 until the server's SETTINGS arrive.
  [[nodiscard]] size_t StreamLimit() const;
  [[nodiscard]] size_t active() const { return streams_.size(); }
  [[nodiscard]] bool going_away() const { return going_away_; }

  // Resets the streams whose first-byte or total limit passed at `now`;
  // they end as kTimeout.
  void Expire(Clock::time_point now);
  // The earliest limit of an active stream, if any.
  [[nodiscard]] std::optional<Clock::time_point> NextDeadline() const;

  // Bytes read from the connection. An error is fatal to the connection.
  [[nodiscard]] Status Receive(std::string_view bytes);
  // Appends what is to be written now (also restarts 416s without Range).
  [[nodiscard]] Status TakeOutput(std::string& out);
  // The connection is gone: every active stream ends with status/message.
  void FailAll(int status, const std::string& message);

  // Results of ended streams, by sequence index; the caller takes them.
  std::map<size_t, FetchResult>& finished() { return finished_; }
  // Indices of streams the server refused unprocessed (asked again by the
  // caller, or failed); emptied by the call.
  std::vector<size_t> TakeRefused();

 private:
  struct Stream {
    size_t index = 0;
    const FetchTarget* target = nullptr;
    std::string path;
    FetchResult result;
    Clock::time_point start;
    Clock::time_point first_byte_deadline;
    Clock::time_point total_deadline;
    bool without_range = false;
    bool responded = false;   // a HEADERS frame arrived
    size_t header_bytes = 0;  // of the current header block
    int interim_responses = 0;
    std::map<std::string, std::string, std::less<>> fields;  // lower-case names
    std::string raw;                                         // content-coded body so far
    // Why the URL failed, once it has (streams_ holds live streams only: a
    // stream we cut, time out or refuse is finished at once).
    int fail_status = 0;
    std::string fail_message;
  };

  bool OnHeader(int32_t stream, std::string_view name, std::string_view value) override;
  void OnHeadersDone(int32_t stream) override;
  void OnData(int32_t stream, std::string_view data) override;
  void OnStreamClose(int32_t stream, uint32_t error_code) override;
  void OnGoAway(int32_t last_stream_id, uint32_t error_code) override;

  [[nodiscard]] Status Submit(Stream stream);
  void Complete(Stream& stream);
  void Finish(Stream& stream);
  void FailStream(int32_t id, Stream& stream, int status, std::string message);
  Stream* Find(int32_t id);

  const FetcherOptions& options_;
  const std::string scheme_;
  const std::string authority_;
  const std::string remote_;
  std::unique_ptr<H2Client> client_;
  std::map<int32_t, Stream> streams_;  // active, by stream id
  std::vector<Stream> again_;          // 416 answers to ask again without Range
  std::map<size_t, FetchResult> finished_;
  std::vector<size_t> refused_;
  bool going_away_ = false;
};

}  // namespace crawl::fetcher
