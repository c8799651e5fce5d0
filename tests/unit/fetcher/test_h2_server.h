// An in-process HTTP/2 server for fetcher tests, on libnghttp2's server
// session: 127.0.0.1, port chosen by the kernel, its own thread. Cleartext
// it takes h2 with prior knowledge (RFC 9113 3.3); with a TLS context it
// selects "h2" by ALPN. A handler maps each request to a scripted reply, so
// tests control delays, resets, GOAWAY and endless bodies; the server
// counts connections and the most streams it ever had open at once.
#pragma once

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "common/base/mutex.h"
// The shared aliases (net, tcp) of the test servers.
#include "tests/unit/fetcher/test_http_server.h"

namespace crawl::fetcher::testing {

struct H2Reply {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;  // lower-case names
  std::string body;
  std::chrono::milliseconds delay{0};  // before the response HEADERS
  bool hang = false;                   // never answer the stream
  bool reset = false;                  // RST_STREAM(INTERNAL_ERROR) instead of an answer
  bool goaway = false;                 // GOAWAY(last stream = this one), answer it, then close
  bool endless = false;                // DATA without end
};

struct H2SeenRequest {
  std::map<std::string, std::string> fields;  // ":path", "range", "if-none-match", ...
  int connection = 0;                         // 1-based
  std::string Field(const std::string& name) const {
    auto it = fields.find(name);
    return it == fields.end() ? "" : it->second;
  }
};

class H2TestServer {
 public:
  using Handler = std::function<H2Reply(const H2SeenRequest&)>;

  // `max_streams`: the SETTINGS_MAX_CONCURRENT_STREAMS it announces. With
  // `tls` (not owned, must outlive the server) it speaks h2 over TLS.
  explicit H2TestServer(Handler handler, uint32_t max_streams = 100, net::ssl::context* tls = nullptr)
      : handler_(std::move(handler)),
        max_streams_(max_streams),
        tls_(tls),
        acceptor_(ioc_, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0)) {
    if (tls_ != nullptr) SSL_CTX_set_alpn_select_cb(tls_->native_handle(), &SelectH2, nullptr);
    port_ = acceptor_.local_endpoint().port();
    net::co_spawn(ioc_, Accept(), net::detached);
    thread_ = std::thread([this] { ioc_.run(); });
  }
  ~H2TestServer() {
    ioc_.stop();
    thread_.join();
  }

  std::string base() const {
    return std::string(tls_ ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_);
  }
  int connections() const { return connections_.load(); }
  int max_open_streams() const { return max_open_.load(); }
  std::vector<H2SeenRequest> requests() const {
    MutexLock lock(mu_);
    return requests_;
  }

 private:
  template <typename Stream>
  class Connection;

  static int SelectH2(SSL*, const unsigned char** out, unsigned char* outlen, const unsigned char* in,
                      unsigned int inlen, void*) {
    unsigned char* selected = nullptr;
    if (nghttp2_select_next_protocol(&selected, outlen, in, inlen) != 1) return SSL_TLSEXT_ERR_NOACK;
    *out = selected;
    return SSL_TLSEXT_ERR_OK;
  }

  net::awaitable<void> Accept();  // defined after Connection

  void Opened(int delta) {
    const int now = (open_ += delta);
    int seen = max_open_.load();
    while (now > seen && !max_open_.compare_exchange_weak(seen, now)) {
    }
  }

  Handler handler_;
  const uint32_t max_streams_;
  net::ssl::context* tls_;
  net::io_context ioc_;
  tcp::acceptor acceptor_;
  uint16_t port_ = 0;
  std::atomic<int> connections_{0};
  std::atomic<int> open_{0};
  std::atomic<int> max_open_{0};
  mutable Mutex mu_;
  std::vector<H2SeenRequest> requests_ GUARDED_BY(mu_);
  std::thread thread_;
};

// One connection: nghttp2 server session fed by a read loop; one write at a
// time; everything on the server's single thread.
template <typename Stream>
class H2TestServer::Connection : public std::enable_shared_from_this<Connection<Stream>> {
 public:
  Connection(H2TestServer& server, int id, Stream stream)
      : server_(server), id_(id), stream_(std::move(stream)) {}
  ~Connection() {
    if (session_ != nullptr) nghttp2_session_del(session_);
  }

  void Start() { net::co_spawn(server_.ioc_, Run(this->shared_from_this()), net::detached); }

 private:
  struct StreamState {
    H2SeenRequest request;
    H2Reply reply;
    size_t offset = 0;
  };

  net::awaitable<void> Run(std::shared_ptr<Connection> self) {
    try {
      if constexpr (!std::is_same_v<Stream, tcp::socket>) {
        co_await stream_.async_handshake(net::ssl::stream_base::server, net::use_awaitable);
      }
      Setup();
      Flush();
      std::array<char, 16384> buffer;
      for (;;) {
        const size_t n = co_await stream_.async_read_some(net::buffer(buffer), net::use_awaitable);
        if (nghttp2_session_mem_recv(session_, reinterpret_cast<const uint8_t*>(buffer.data()), n) < 0) break;
        Flush();
      }
    } catch (const std::exception&) {
    }
    Close();
  }

  void Setup() {
    nghttp2_session_callbacks* callbacks = nullptr;
    nghttp2_session_callbacks_new(&callbacks);
    nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, &OnBeginHeaders);
    nghttp2_session_callbacks_set_on_header_callback(callbacks, &OnHeader);
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &OnFrameRecv);
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &OnStreamClose);
    nghttp2_session_server_new(&session_, callbacks, this);
    nghttp2_session_callbacks_del(callbacks);
    nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, server_.max_streams_}};
    nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, settings, 1);
  }

  static Connection& Self(void* user_data) { return *static_cast<Connection*>(user_data); }

  static int OnBeginHeaders(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    auto& self = Self(user_data);
    auto state = std::make_shared<StreamState>();
    state->request.connection = self.id_;
    self.streams_[frame->hd.stream_id] = state;
    self.server_.Opened(+1);
    return 0;
  }

  static int OnHeader(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name, size_t namelen,
                      const uint8_t* value, size_t valuelen, uint8_t, void* user_data) {
    auto it = Self(user_data).streams_.find(frame->hd.stream_id);
    if (it == Self(user_data).streams_.end()) return 0;
    it->second->request.fields[std::string(reinterpret_cast<const char*>(name), namelen)] =
        std::string(reinterpret_cast<const char*>(value), valuelen);
    return 0;
  }

  static int OnFrameRecv(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    if (frame->hd.type == NGHTTP2_HEADERS && (frame->hd.flags & NGHTTP2_FLAG_END_STREAM)) {
      Self(user_data).OnRequest(frame->hd.stream_id);
    }
    return 0;
  }

  static int OnStreamClose(nghttp2_session*, int32_t stream, uint32_t, void* user_data) {
    auto& self = Self(user_data);
    if (self.streams_.erase(stream) > 0) self.server_.Opened(-1);
    if (stream == self.goaway_stream_) self.close_after_write_ = true;
    return 0;
  }

  static ssize_t ReadBody(nghttp2_session*, int32_t, uint8_t* buf, size_t length, uint32_t* flags,
                          nghttp2_data_source* source, void*) {
    auto& state = *static_cast<StreamState*>(source->ptr);
    if (state.reply.endless) {
      std::memset(buf, 'x', length);
      return static_cast<ssize_t>(length);
    }
    const size_t n = std::min(length, state.reply.body.size() - state.offset);
    std::memcpy(buf, state.reply.body.data() + state.offset, n);
    state.offset += n;
    if (state.offset == state.reply.body.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(n);
  }

  void OnRequest(int32_t id) {
    auto state = streams_[id];
    {
      MutexLock lock(server_.mu_);
      server_.requests_.push_back(state->request);
    }
    state->reply = server_.handler_(state->request);
    if (state->reply.hang) return;
    if (state->reply.delay.count() == 0) return Answer(id, state);
    auto timer = std::make_shared<net::steady_timer>(server_.ioc_, state->reply.delay);
    timer->async_wait([self = this->shared_from_this(), timer, id, state](boost::system::error_code ec) {
      if (!ec && !self->closed_) self->Answer(id, state);
    });
  }

  void Answer(int32_t id, const std::shared_ptr<StreamState>& state) {
    if (streams_.count(id) == 0) return;  // the client reset it meanwhile
    if (state->reply.reset) {
      nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, id, NGHTTP2_INTERNAL_ERROR);
      return Flush();
    }
    if (state->reply.goaway) {
      goaway_stream_ = id;
      nghttp2_submit_goaway(session_, NGHTTP2_FLAG_NONE, id, NGHTTP2_NO_ERROR, nullptr, 0);
    }
    const std::string status = std::to_string(state->reply.status);
    std::vector<nghttp2_nv> nva = {Nv(":status", status)};
    for (const auto& [name, value] : state->reply.headers) nva.push_back(Nv(name, value));
    nghttp2_data_provider provider;
    provider.source.ptr = state.get();
    provider.read_callback = &ReadBody;
    nghttp2_submit_response(session_, id, nva.data(), nva.size(), &provider);
    Flush();
  }

  static nghttp2_nv Nv(std::string_view name, std::string_view value) {  // views of live strings or literals
    return {reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
            reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
            NGHTTP2_NV_FLAG_NONE};
  }

  void Flush() {
    if (writing_ || closed_) return;
    std::string out;
    for (;;) {
      const uint8_t* data = nullptr;
      const ssize_t n = nghttp2_session_mem_send(session_, &data);
      if (n <= 0) break;
      out.append(reinterpret_cast<const char*>(data), static_cast<size_t>(n));
    }
    if (out.empty()) {
      if (close_after_write_) Close();
      return;
    }
    writing_ = true;
    auto buffer = std::make_shared<std::string>(std::move(out));
    net::async_write(stream_, net::buffer(*buffer),
                     [self = this->shared_from_this(), buffer](boost::system::error_code ec, size_t) {
                       self->writing_ = false;
                       if (ec) return self->Close();
                       self->Flush();
                     });
  }

  void Close() {
    if (closed_) return;
    closed_ = true;
    server_.Opened(-static_cast<int>(streams_.size()));
    streams_.clear();
    boost::system::error_code ec;
    if constexpr (std::is_same_v<Stream, tcp::socket>) {
      stream_.shutdown(tcp::socket::shutdown_both, ec);
      stream_.close(ec);
    } else {
      stream_.next_layer().shutdown(tcp::socket::shutdown_both, ec);
      stream_.next_layer().close(ec);
    }
  }

  H2TestServer& server_;
  const int id_;
  Stream stream_;
  nghttp2_session* session_ = nullptr;
  std::map<int32_t, std::shared_ptr<StreamState>> streams_;
  int32_t goaway_stream_ = -1;
  bool writing_ = false;
  bool closed_ = false;
  bool close_after_write_ = false;
};

inline net::awaitable<void> H2TestServer::Accept() {
  try {
    for (;;) {
      tcp::socket socket = co_await acceptor_.async_accept(net::use_awaitable);
      const int id = ++connections_;
      if (tls_ == nullptr) {
        std::make_shared<Connection<tcp::socket>>(*this, id, std::move(socket))->Start();
      } else {
        using Tls = net::ssl::stream<tcp::socket>;
        std::make_shared<Connection<Tls>>(*this, id, Tls(std::move(socket), *tls_))->Start();
      }
    }
  } catch (const std::exception&) {
  }
}

}  // namespace crawl::fetcher::testing
