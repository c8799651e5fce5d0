// H2Client over nghttp2's memory-buffer API (nghttp2_session_mem_recv /
// nghttp2_session_mem_send); see h2_client.h.
#include "fetcher/http/h2_client.h"

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <cstdint>
#include <iterator>

namespace crawl::fetcher {

namespace {

std::string LibError(const char* what, long code) {
  return std::string(what) + ": " + nghttp2_strerror(static_cast<int>(code));
}

nghttp2_nv Field(std::string_view name, std::string_view value) {
  // nghttp2 copies names and values (no NO_COPY flags), so views are fine.
  return {reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
          reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
          NGHTTP2_NV_FLAG_NONE};
}

}  // namespace

// nghttp2's C callbacks, forwarding to the H2Client's handler.
struct H2Callbacks {
  static H2Events& Events(void* user_data) { return static_cast<H2Client*>(user_data)->events_; }

  static int OnHeader(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name, size_t namelen,
                      const uint8_t* value, size_t valuelen, uint8_t, void* user_data) {
    if (frame->hd.type != NGHTTP2_HEADERS) return 0;  // no PUSH_PROMISE: push is off
    const bool ok =
        Events(user_data).OnHeader(frame->hd.stream_id, {reinterpret_cast<const char*>(name), namelen},
                                   {reinterpret_cast<const char*>(value), valuelen});
    return ok ? 0 : NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;  // resets the stream
  }

  static int OnFrameRecv(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    if (frame->hd.type == NGHTTP2_SETTINGS && (frame->hd.flags & NGHTTP2_FLAG_ACK) == 0) {
      static_cast<H2Client*>(user_data)->settings_received_ = true;
    } else if (frame->hd.type == NGHTTP2_HEADERS) {
      Events(user_data).OnHeadersDone(frame->hd.stream_id);
    } else if (frame->hd.type == NGHTTP2_GOAWAY) {
      Events(user_data).OnGoAway(frame->goaway.last_stream_id, frame->goaway.error_code);
    }
    return 0;
  }

  static int OnData(nghttp2_session*, uint8_t, int32_t stream, const uint8_t* data, size_t len,
                    void* user_data) {
    Events(user_data).OnData(stream, {reinterpret_cast<const char*>(data), len});
    return 0;
  }

  static int OnStreamClose(nghttp2_session*, int32_t stream, uint32_t error_code, void* user_data) {
    Events(user_data).OnStreamClose(stream, error_code);
    return 0;
  }
};

Result<std::unique_ptr<H2Client>> H2Client::Create(H2Events& events, size_t max_header_list_bytes,
                                                   uint32_t stream_window) {
  std::unique_ptr<H2Client> client(new H2Client(events));
  nghttp2_session_callbacks* callbacks = nullptr;
  if (nghttp2_session_callbacks_new(&callbacks) != 0) return Status::Internal("nghttp2: out of memory");
  nghttp2_session_callbacks_set_on_header_callback(callbacks, &H2Callbacks::OnHeader);
  nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &H2Callbacks::OnFrameRecv);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, &H2Callbacks::OnData);
  nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &H2Callbacks::OnStreamClose);
  const int rv = nghttp2_session_client_new(&client->session_, callbacks, client.get());
  nghttp2_session_callbacks_del(callbacks);
  if (rv != 0) return Status::Internal(LibError("nghttp2_session_client_new", rv));
  const nghttp2_settings_entry settings[] = {
      {NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
      {NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE,
       static_cast<uint32_t>(std::min<size_t>(max_header_list_bytes, UINT32_MAX))},
      {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE,
       std::clamp<uint32_t>(stream_window, 65'535, NGHTTP2_MAX_WINDOW_SIZE)},
  };
  const int sv = nghttp2_submit_settings(client->session_, NGHTTP2_FLAG_NONE, settings, std::size(settings));
  if (sv != 0) return Status::Internal(LibError("nghttp2_submit_settings", sv));
  const int wv =
      nghttp2_session_set_local_window_size(client->session_, NGHTTP2_FLAG_NONE, 0, kConnectionWindow);
  if (wv != 0) return Status::Internal(LibError("nghttp2_session_set_local_window_size", wv));
  return client;
}

H2Client::~H2Client() { nghttp2_session_del(session_); }

Result<int32_t> H2Client::SubmitGet(std::string_view scheme, std::string_view authority,
                                    std::string_view path,
                                    const std::vector<std::pair<std::string, std::string>>& fields) {
  std::vector<nghttp2_nv> nva = {Field(":method", "GET"), Field(":scheme", scheme),
                                 Field(":authority", authority), Field(":path", path)};
  for (const auto& [name, value] : fields) nva.push_back(Field(name, value));
  const int32_t stream = nghttp2_submit_request(session_, nullptr, nva.data(), nva.size(), nullptr, nullptr);
  if (stream < 0) return Status::Unavailable(LibError("submitting the request", stream));
  return stream;
}

void H2Client::ResetStream(int32_t stream) {
  // Fails only for a stream already closed, which is what we want anyway.
  (void)nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, stream, NGHTTP2_CANCEL);
}

Status H2Client::Receive(std::string_view bytes) {
  const auto n =
      nghttp2_session_mem_recv(session_, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (n < 0) return Status::IoError(LibError("HTTP/2", n));
  return Status::Ok();
}

Status H2Client::TakeOutput(std::string& out) {
  for (;;) {
    const uint8_t* data = nullptr;
    const auto n = nghttp2_session_mem_send(session_, &data);
    if (n < 0) return Status::IoError(LibError("HTTP/2", n));
    if (n == 0) return Status::Ok();
    out.append(reinterpret_cast<const char*>(data), static_cast<size_t>(n));
  }
}

uint32_t H2Client::RemoteMaxStreams() const {
  return nghttp2_session_get_remote_settings(session_, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS);
}

}  // namespace crawl::fetcher
