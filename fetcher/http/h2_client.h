// H2Client: the client side of one HTTP/2 connection (RFC 9113) as a pure
// protocol engine around libnghttp2's session (Debian's libnghttp2): bytes
// read from the connection go in through Receive(), frames to write come
// out of TakeOutput(), and what happens on each stream is reported to an
// H2Events handler. No sockets and no clock: H2Session (h2_session.h) does the
// I/O and the deadlines. Internal to the fetcher.
//
// nghttp2 does the framing, HPACK, flow control (it acknowledges DATA with
// WINDOW_UPDATE as it is received), SETTINGS and PING answers, and rejects
// malformed frames (a connection error ends the session: Receive fails).
// What it does not bound, the handler must: the size of a header list (it
// may refuse a field, which resets the stream) and of a body (it resets the
// stream with ResetStream once it has had enough).
//
// Not thread-safe; the handler's methods run inside Receive() and must not
// destroy the H2Client.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/base/status.h"

struct nghttp2_session;

namespace crawl::fetcher {

// What the peer did on the connection. Stream ids are those SubmitGet gave.
class H2Events {
 public:
  virtual ~H2Events() = default;
  // One response header field (":status" included). False refuses it: the
  // stream is reset (then OnStreamClose follows).
  virtual bool OnHeader(int32_t stream, std::string_view name, std::string_view value) = 0;
  // A header block of `stream` is complete (an interim or the final one).
  virtual void OnHeadersDone(int32_t stream) = 0;
  virtual void OnData(int32_t stream, std::string_view data) = 0;
  // The stream ended: error_code is 0 (NO_ERROR) after a complete response,
  // else the RST_STREAM / GOAWAY code (RFC 9113 7), e.g. REFUSED_STREAM for
  // a stream the server never processed.
  virtual void OnStreamClose(int32_t stream, uint32_t error_code) = 0;
  // The server will close the connection; streams above last_stream_id
  // were not processed (each also gets OnStreamClose, REFUSED_STREAM).
  virtual void OnGoAway(int32_t last_stream_id, uint32_t error_code) = 0;
};

class H2Client {
 public:
  // A session that has queued its connection preface and SETTINGS (no server
  // push, `max_header_list_bytes` advertised, flow-control windows of
  // `stream_window` bytes per stream and kConnectionWindow for the
  // connection: bodies are consumed as they arrive, so small windows would
  // only add WINDOW_UPDATE round trips). `events` must outlive it.
  [[nodiscard]] static Result<std::unique_ptr<H2Client>> Create(H2Events& events,
                                                                size_t max_header_list_bytes,
                                                                uint32_t stream_window);
  static constexpr int32_t kConnectionWindow = 32 << 20;
  ~H2Client();
  H2Client(const H2Client&) = delete;
  H2Client& operator=(const H2Client&) = delete;

  // Queues a GET with the pseudo-headers `:scheme`, `:authority`, `:path`
  // and `fields` (lower-case names). Returns the new stream's id.
  [[nodiscard]] Result<int32_t> SubmitGet(std::string_view scheme, std::string_view authority,
                                          std::string_view path,
                                          const std::vector<std::pair<std::string, std::string>>& fields);
  // Queues RST_STREAM(CANCEL): the stream's remaining frames are dropped.
  void ResetStream(int32_t stream);

  // Feeds bytes read from the connection; an error is a connection error
  // (the session is over).
  [[nodiscard]] Status Receive(std::string_view bytes);
  // Appends the bytes to write now to `out`.
  [[nodiscard]] Status TakeOutput(std::string& out);

  // The server's SETTINGS_MAX_CONCURRENT_STREAMS (unlimited until known).
  [[nodiscard]] uint32_t RemoteMaxStreams() const;
  // The server's first SETTINGS frame has arrived (its limits are known).
  [[nodiscard]] bool SettingsReceived() const { return settings_received_; }

 private:
  explicit H2Client(H2Events& events) : events_(events) {}

  H2Events& events_;
  nghttp2_session* session_ = nullptr;
  bool settings_received_ = false;
  friend struct H2Callbacks;
};

}  // namespace crawl::fetcher
