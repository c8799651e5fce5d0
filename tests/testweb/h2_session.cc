// See h2_session.h. One H2Session per connection, on the socket's strand:
// a read loop feeds nghttp2, one write at a time drains it.
#include "tests/testweb/h2_session.h"

#include <nghttp2/nghttp2.h>

#include <array>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <cctype>
#include <cstring>
#include <map>
#include <string>
#include <string_view>

#include "tests/testweb/request_handler.h"

namespace crawl::testweb {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

constexpr uint32_t kMaxStreams = 100;

// Fields HTTP/2 forbids in a response (RFC 9113 8.2.2).
bool ConnectionSpecific(std::string_view name) {
  return name == "connection" || name == "keep-alive" || name == "transfer-encoding" || name == "upgrade" ||
         name == "proxy-connection";
}

class H2Session : public std::enable_shared_from_this<H2Session> {
 public:
  H2Session(beast::tcp_stream&& stream, beast::flat_buffer&& buffer,
            std::shared_ptr<const ServerContext> context)
      : stream_(std::move(stream)),
        buffer_(std::move(buffer)),
        context_(std::move(context)),
        connection_(++context_->connections) {}
  ~H2Session() {
    if (session_ != nullptr) nghttp2_session_del(session_);
  }

  void Run() {
    beast::error_code ec;
    const auto local = stream_.socket().local_endpoint(ec);
    if (!ec) {
      const auto it = context_->host_by_address.find(local.address().to_string());
      if (it != context_->host_by_address.end()) fallback_host_ = it->second;
    }
    const auto remote = stream_.socket().remote_endpoint(ec);
    remote_ = ec ? "-" : remote.address().to_string() + ":" + std::to_string(remote.port());
    asio::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->Start(); });
  }

 private:
  struct Stream {
    Request request;
    Handled handled;
    std::string body;
    size_t sent = 0;
    bool endless = false;
    std::chrono::system_clock::time_point started_wall;
    std::chrono::steady_clock::time_point started;
  };

  void Start() {
    nghttp2_session_callbacks* callbacks = nullptr;
    if (nghttp2_session_callbacks_new(&callbacks) != 0) return;
    nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, &OnBeginHeaders);
    nghttp2_session_callbacks_set_on_header_callback(callbacks, &OnHeader);
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &OnFrameRecv);
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &OnStreamClose);
    const int rv = nghttp2_session_server_new(&session_, callbacks, this);
    nghttp2_session_callbacks_del(callbacks);
    if (rv != 0) return Close();
    const nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, kMaxStreams}};
    (void)nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, settings, 1);
    const auto data = buffer_.data();
    if (!Feed({static_cast<const char*>(data.data()), data.size()})) return;
    buffer_.consume(buffer_.size());
    DoRead();
  }

  bool Feed(std::string_view bytes) {
    if (nghttp2_session_mem_recv(session_, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()) <
        0) {
      Close();
      return false;
    }
    Flush();
    return true;
  }

  void DoRead() {
    if (closed_) return;
    stream_.expires_after(context_->read_timeout);
    stream_.async_read_some(asio::buffer(in_), [self = shared_from_this()](beast::error_code ec, size_t n) {
      if (ec || self->closed_) return self->Close();
      if (self->Feed({self->in_.data(), n})) self->DoRead();
    });
  }

  void Flush() {
    if (writing_ || closed_) return;
    out_.clear();
    for (;;) {
      const uint8_t* data = nullptr;
      const ssize_t n = nghttp2_session_mem_send(session_, &data);
      if (n < 0) return Close();
      if (n == 0) break;
      out_.append(reinterpret_cast<const char*>(data), static_cast<size_t>(n));
    }
    if (out_.empty()) {
      if (nghttp2_session_want_read(session_) == 0 && nghttp2_session_want_write(session_) == 0) Close();
      return;
    }
    writing_ = true;
    stream_.expires_after(context_->write_timeout);
    asio::async_write(stream_, asio::buffer(out_), [self = shared_from_this()](beast::error_code ec, size_t) {
      self->writing_ = false;
      if (ec) return self->Close();
      self->Flush();
    });
  }

  void Close() {
    if (closed_) return;
    closed_ = true;
    // Streams cut by the close are logged as HTTP/1.1 logs a dropped answer.
    for (auto& [id, stream] : streams_) {
      if (stream.started.time_since_epoch().count() != 0) Log(stream, stream.sent);
    }
    streams_.clear();
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

  static H2Session& Self(void* user_data) { return *static_cast<H2Session*>(user_data); }

  static int OnBeginHeaders(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    Self(user_data).streams_[frame->hd.stream_id].request.version(11);
    return 0;
  }

  static int OnHeader(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name, size_t namelen,
                      const uint8_t* value, size_t valuelen, uint8_t, void* user_data) {
    auto it = Self(user_data).streams_.find(frame->hd.stream_id);
    if (it == Self(user_data).streams_.end()) return 0;
    Request& request = it->second.request;
    const std::string_view n(reinterpret_cast<const char*>(name), namelen);
    const std::string_view v(reinterpret_cast<const char*>(value), valuelen);
    if (n == ":method") {
      request.method_string(v);
    } else if (n == ":path") {
      request.target(v);
    } else if (n == ":authority") {
      request.set(http::field::host, v);
    } else if (!n.empty() && n[0] != ':') {
      request.insert(n, v);
    }
    return 0;
  }

  static int OnFrameRecv(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    const bool request_end = (frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA) &&
                             (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0;
    if (request_end) Self(user_data).OnRequest(frame->hd.stream_id);
    return 0;
  }

  static int OnStreamClose(nghttp2_session*, int32_t id, uint32_t error_code, void* user_data) {
    auto& self = Self(user_data);
    auto it = self.streams_.find(id);
    if (it == self.streams_.end()) return 0;
    Stream& stream = it->second;
    if (stream.started.time_since_epoch().count() != 0) {
      const bool whole = error_code == NGHTTP2_NO_ERROR && !stream.endless;
      self.Log(stream, whole ? stream.handled.body_bytes : stream.sent);
    }
    self.streams_.erase(it);
    return 0;
  }

  static ssize_t ReadBody(nghttp2_session*, int32_t, uint8_t* buf, size_t length, uint32_t* flags,
                          nghttp2_data_source* source, void*) {
    Stream& stream = *static_cast<Stream*>(source->ptr);
    if (stream.endless) {
      const std::string& chunk = EndlessChunk();
      const size_t n = std::min(length, chunk.size());
      std::memcpy(buf, chunk.data(), n);
      stream.sent += n;
      return static_cast<ssize_t>(n);
    }
    const size_t n = std::min(length, stream.body.size() - stream.sent);
    std::memcpy(buf, stream.body.data() + stream.sent, n);
    stream.sent += n;
    if (stream.sent == stream.body.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(n);
  }

  void OnRequest(int32_t id) {
    Stream& stream = streams_[id];
    stream.started_wall = std::chrono::system_clock::now();
    stream.started = std::chrono::steady_clock::now();
    stream.handled = HandleRequest(*context_->universe, stream.request, fallback_host_, /*tls=*/false,
                                   context_->clock, context_->robots_control);
    if (stream.handled.close) return Close();  // robots-unreachable: the connection dies
    if (stream.handled.stream == Served::Stream::kSlowloris) return;  // never answered
    if (context_->degrading != nullptr) {
      stream.handled.first_byte_delay += context_->degrading->Delay(stream.handled.host, stream.started);
    }
    const int pieces = std::max(1, stream.handled.trickle_pieces);
    const auto delay = stream.handled.first_byte_delay + stream.handled.trickle_interval * (pieces - 1);
    if (delay.count() == 0) return Answer(id);
    auto timer = std::make_shared<asio::steady_timer>(stream_.get_executor(), delay);
    timer->async_wait([self = shared_from_this(), timer, id](beast::error_code ec) {
      if (!ec && !self->closed_) self->Answer(id);
    });
  }

  void Answer(int32_t id) {
    auto it = streams_.find(id);
    if (it == streams_.end()) return;  // the client reset it meanwhile
    Stream& stream = it->second;
    Response& response = stream.handled.response;
    stream.endless = stream.handled.stream == Served::Stream::kEndlessBody;
    const std::string status = std::to_string(stream.endless ? 200 : response.result_int());
    std::vector<std::pair<std::string, std::string>> fields;
    if (!stream.endless) {
      for (const auto& field : response) {
        std::string name(field.name_string());
        for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (!ConnectionSpecific(name)) fields.emplace_back(std::move(name), std::string(field.value()));
      }
      stream.body = std::move(response.body());
    }
    std::vector<nghttp2_nv> nva = {Nv(":status", status)};
    for (const auto& [name, value] : fields) nva.push_back(Nv(name, value));
    nghttp2_data_provider provider{};
    provider.source.ptr = &stream;
    provider.read_callback = &ReadBody;
    const bool has_body = stream.endless || stream.request.method() != http::verb::head;
    (void)nghttp2_submit_response(session_, id, nva.data(), nva.size(), has_body ? &provider : nullptr);
    Flush();
  }

  static nghttp2_nv Nv(std::string_view name, std::string_view value) {  // views of live strings or literals
    return {reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
            reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
            NGHTTP2_NV_FLAG_NONE};
  }

  void Log(const Stream& stream, uint64_t bytes) {
    if (context_->access_log == nullptr || stream.handled.admin) return;
    const unsigned status = stream.handled.close ? 0
                            : stream.endless || stream.handled.stream != Served::Stream::kNone
                                ? 200
                                : stream.handled.response.result_int();
    const auto elapsed = std::chrono::steady_clock::now() - stream.started;
    context_->access_log->Write(stream.started_wall, stream.handled.host, stream.request.target(), status,
                                bytes, remote_, std::chrono::duration<double, std::milli>(elapsed).count(),
                                connection_);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::shared_ptr<const ServerContext> context_;
  const uint64_t connection_;
  std::optional<uint32_t> fallback_host_;
  std::string remote_;
  nghttp2_session* session_ = nullptr;
  std::map<int32_t, Stream> streams_;  // std::map: a Stream's address is the data source's
  std::array<char, 16 * 1024> in_;
  std::string out_;
  bool writing_ = false;
  bool closed_ = false;
};

}  // namespace

void ServeH2(beast::tcp_stream&& stream, beast::flat_buffer&& buffer,
             std::shared_ptr<const ServerContext> context) {
  std::make_shared<H2Session>(std::move(stream), std::move(buffer), std::move(context))->Run();
}

}  // namespace crawl::testweb
