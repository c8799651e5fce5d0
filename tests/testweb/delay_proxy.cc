// DelayProxy (delay_proxy.h): one self-owning Relay per accepted connection,
// two Directions in it (client to upstream, upstream to client). A Direction
// reads into a queue of timestamped chunks and writes every chunk that is
// due in one gathered write when its timer fires.
#include "tests/testweb/delay_proxy.h"

#include <array>
#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

namespace crawl::testweb {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using boost::system::error_code;

struct Chunk {
  Clock::time_point due;
  std::string bytes;  // empty: the sender's EOF
};

struct Direction {
  Direction(tcp::socket& from, tcp::socket& to) : from(from), to(to), timer(from.get_executor()) {}
  tcp::socket& from;
  tcp::socket& to;
  asio::steady_timer timer;
  std::deque<Chunk> queue;
  size_t queued_bytes = 0;
  size_t writing_chunks = 0;  // chunks at the queue's front in the write under way
  bool reading = false;
  bool waiting = false;  // the timer or a write is under way
  bool eof_read = false;
  bool eof_passed = false;
  std::array<char, 64 * 1024> buffer{};
};

class Relay : public std::enable_shared_from_this<Relay> {
 public:
  Relay(tcp::socket client, const DelayProxyOptions& options)
      : client_(std::move(client)),
        upstream_(client_.get_executor()),
        delay_(options.one_way_delay),
        max_queued_(options.max_queued_bytes),
        directions_{Direction(client_, upstream_), Direction(upstream_, client_)} {}

  void Start(const tcp::endpoint& upstream) {
    upstream_.async_connect(upstream, [self = shared_from_this()](error_code ec) {
      if (ec) return self->Close();
      error_code ignored;
      self->client_.set_option(tcp::no_delay(true), ignored);
      self->upstream_.set_option(tcp::no_delay(true), ignored);
      self->Read(0);
      self->Read(1);
    });
  }

 private:
  void Read(int d) {
    Direction& dir = directions_[d];
    if (closed_ || dir.reading || dir.eof_read || dir.queued_bytes >= max_queued_) return;
    dir.reading = true;
    dir.from.async_read_some(
        asio::buffer(dir.buffer), [self = shared_from_this(), d](error_code ec, size_t n) {
          Direction& dir = self->directions_[d];
          dir.reading = false;
          if (self->closed_) return;
          if (ec == asio::error::eof) {
            dir.eof_read = true;
            dir.queue.push_back({Clock::now() + self->delay_, {}});
          } else if (ec) {
            return self->Close();
          } else {
            dir.queue.push_back({Clock::now() + self->delay_, std::string(dir.buffer.data(), n)});
            dir.queued_bytes += n;
            self->Read(d);
          }
          self->Schedule(d);
        });
  }

  // Waits for the front chunk to fall due, then writes it with every chunk
  // due by then.
  void Schedule(int d) {
    Direction& dir = directions_[d];
    if (closed_ || dir.waiting || dir.queue.empty()) return;
    dir.waiting = true;
    dir.timer.expires_at(dir.queue.front().due);
    dir.timer.async_wait([self = shared_from_this(), d](error_code) {
      if (!self->closed_) self->WriteDue(d);
    });
  }

  void WriteDue(int d) {
    Direction& dir = directions_[d];
    const Clock::time_point now = Clock::now();
    std::vector<asio::const_buffer> due;
    size_t count = 0;
    while (count < dir.queue.size() && dir.queue[count].due <= now && !dir.queue[count].bytes.empty()) {
      due.push_back(asio::buffer(dir.queue[count].bytes));
      ++count;
    }
    if (count == 0) return PassEof(d);
    dir.writing_chunks = count;
    asio::async_write(dir.to, due, [self = shared_from_this(), d](error_code ec, size_t) {
      if (ec || self->closed_) return self->Close();
      Direction& dir = self->directions_[d];
      for (size_t i = 0; i < dir.writing_chunks; ++i) {
        dir.queued_bytes -= dir.queue.front().bytes.size();
        dir.queue.pop_front();
      }
      dir.writing_chunks = 0;
      dir.waiting = false;
      self->Schedule(d);
      self->Read(d);
    });
  }

  // The front chunk is the sender's EOF: pass it on; once both sides have
  // ended, the relay is done.
  void PassEof(int d) {
    Direction& dir = directions_[d];
    dir.queue.pop_front();
    dir.waiting = false;
    dir.eof_passed = true;
    error_code ignored;
    dir.to.shutdown(tcp::socket::shutdown_send, ignored);
    if (directions_[1 - d].eof_passed) Close();
  }

  void Close() {
    if (closed_) return;
    closed_ = true;
    error_code ignored;
    for (Direction& dir : directions_) dir.timer.cancel();
    client_.close(ignored);
    upstream_.close(ignored);
  }

  tcp::socket client_;
  tcp::socket upstream_;
  const std::chrono::microseconds delay_;
  const size_t max_queued_;
  std::array<Direction, 2> directions_;
  bool closed_ = false;
};

}  // namespace

DelayProxy::DelayProxy(DelayProxyOptions options) : options_(std::move(options)), acceptor_(ioc_) {}

DelayProxy::~DelayProxy() {
  error_code ignored;
  acceptor_.close(ignored);
}

Status DelayProxy::Start() {
  error_code ec;
  const auto listen = asio::ip::make_address(options_.listen_address, ec);
  if (ec) return Status::InvalidArgument("delay proxy: bad listen address '" + options_.listen_address + "'");
  const auto upstream = asio::ip::make_address(options_.upstream_address, ec);
  if (ec)
    return Status::InvalidArgument("delay proxy: bad upstream address '" + options_.upstream_address + "'");
  upstream_ = tcp::endpoint(upstream, options_.upstream_port);
  const tcp::endpoint endpoint(listen, options_.listen_port);
  if (acceptor_.open(endpoint.protocol(), ec); !ec)
    acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return Status::Unavailable("delay proxy: cannot listen on " + options_.listen_address + ":" +
                               std::to_string(options_.listen_port) + ": " + ec.message());
  }
  port_ = acceptor_.local_endpoint().port();
  Accept();
  return Status::Ok();
}

void DelayProxy::Accept() {
  acceptor_.async_accept([this](error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
    if (!ec) {
      accepted_.fetch_add(1);
      std::make_shared<Relay>(std::move(socket), options_)->Start(upstream_);
    }
    Accept();
  });
}

void DelayProxy::Run() {
  const auto guard = asio::make_work_guard(ioc_);
  ioc_.run();
}

void DelayProxy::Stop() { ioc_.stop(); }

}  // namespace crawl::testweb
