// Relay (relay.h): two Directions (client to upstream, upstream to client).
// A Direction reads into a queue of chunks, each with the time it falls due
// (latency, jitter and bandwidth decide it when the chunk is read), and
// writes every chunk that is due in one gathered write when its timer fires.
#include "tests/faults/relay.h"

#include <algorithm>
#include <boost/asio/buffer.hpp>
#include <boost/asio/write.hpp>
#include <utility>
#include <vector>

namespace crawl::faults {

namespace asio = boost::asio;
using boost::system::error_code;

void ProxyShared::Queued(int64_t delta, size_t direction_now) {
  queued_bytes.fetch_add(static_cast<uint64_t>(delta));
  if (direction_now > peak_queued_bytes.load()) peak_queued_bytes.store(direction_now);
}

Relay::Relay(tcp::socket client, std::shared_ptr<ProxyShared> shared)
    : client_(std::move(client)),
      upstream_(client_.get_executor()),
      shared_(std::move(shared)),
      directions_{Direction(client_, upstream_), Direction(upstream_, client_)} {}

void Relay::Start(const tcp::endpoint& upstream) {
  upstream_.async_connect(upstream, [self = shared_from_this()](error_code ec) {
    if (self->closed_) return;
    if (ec) return self->Close(false);
    error_code ignored;
    self->client_.set_option(tcp::no_delay(true), ignored);
    self->upstream_.set_option(tcp::no_delay(true), ignored);
    self->Read(0);
    self->Read(1);
  });
}

bool Relay::Reset() {
  if (closed_) return false;
  Close(true);
  return true;
}

void Relay::Read(int d) {
  Direction& dir = directions_[d];
  const size_t max = shared_->max_queued_bytes;
  if (closed_ || dir.reading || dir.eof_read || dir.queued_bytes >= max) return;
  size_t size = std::min(dir.buffer.size(), max - dir.queued_bytes);
  // Under a bandwidth limit, read about a tenth of a second's worth at a
  // time, so the bytes leave evenly rather than in bursts.
  if (const uint64_t rate = shared_->Snapshot().bandwidth; rate > 0)
    size = std::min<size_t>(size, std::max<uint64_t>(1, rate / 10));
  dir.reading = true;
  dir.from.async_read_some(asio::buffer(dir.buffer.data(), size),
                           [self = shared_from_this(), d](error_code ec, size_t n) {
                             Direction& dir = self->directions_[d];
                             dir.reading = false;
                             if (self->closed_) return;
                             if (ec == asio::error::eof) {
                               dir.eof_read = true;
                               const Clock::time_point due = std::max(Clock::now(), dir.last_due);
                               dir.queue.push_back({due, {}});
                               return self->Schedule(d);
                             }
                             if (ec) return self->Close(ec == asio::error::connection_reset);
                             self->OnRead(d, n);
                           });
}

void Relay::OnRead(int d, size_t n) {
  Direction& dir = directions_[d];
  const Toxics toxics = shared_->Snapshot();
  if (toxics.blackhole) {
    shared_->bytes_dropped.fetch_add(n);
  } else {
    dir.queue.push_back({DueTime(d, n, toxics), std::string(dir.buffer.data(), n)});
    dir.queued_bytes += n;
    shared_->Queued(static_cast<int64_t>(n), dir.queued_bytes);
    Schedule(d);
  }
  Read(d);
}

// Bandwidth first (the chunk leaves once the link has carried it and all
// before it), then latency and jitter; never before the chunk ahead.
Relay::Clock::time_point Relay::DueTime(int d, size_t n, const Toxics& toxics) {
  Direction& dir = directions_[d];
  const Clock::time_point now = Clock::now();
  Clock::time_point sent = now;
  if (toxics.bandwidth > 0) {
    const auto carry = std::chrono::nanoseconds(
        static_cast<int64_t>(static_cast<double>(n) * 1e9 / static_cast<double>(toxics.bandwidth)));
    dir.link_free = std::max(dir.link_free, now) + carry;
    sent = dir.link_free;
  }
  int64_t delay_us = int64_t{toxics.latency_ms} * 1000;
  if (toxics.jitter_ms > 0) {
    const int64_t jitter_us = int64_t{toxics.jitter_ms} * 1000;
    std::uniform_int_distribution<int64_t> spread(-jitter_us, jitter_us);
    delay_us = std::max<int64_t>(0, delay_us + spread(shared_->rng));
  }
  dir.last_due = std::max(dir.last_due, sent + std::chrono::microseconds(delay_us));
  return dir.last_due;
}

// Waits for the front chunk to fall due, then writes it with every chunk
// due by then.
void Relay::Schedule(int d) {
  Direction& dir = directions_[d];
  if (closed_ || dir.waiting || dir.queue.empty()) return;
  dir.waiting = true;
  dir.timer.expires_at(dir.queue.front().due);
  dir.timer.async_wait([self = shared_from_this(), d](error_code) {
    if (!self->closed_) self->WriteDue(d);
  });
}

void Relay::WriteDue(int d) {
  Direction& dir = directions_[d];
  const Clock::time_point now = Clock::now();
  std::vector<asio::const_buffer> due;
  size_t count = 0;
  while (count < dir.queue.size() && dir.queue[count].due <= now && !dir.queue[count].bytes.empty()) {
    due.push_back(asio::buffer(dir.queue[count].bytes));
    ++count;
  }
  if (count == 0) return PassEof(d);
  // A blackhole turned on while these waited swallows them too.
  if (shared_->Snapshot().blackhole) return DropDue(d, count);
  dir.writing_chunks = count;
  asio::async_write(dir.to, due, [self = shared_from_this(), d](error_code ec, size_t n) {
    if (self->closed_) return;
    if (ec) return self->Close(ec == asio::error::connection_reset);
    self->shared_->bytes_relayed[d].fetch_add(n);
    self->Dequeue(d, self->directions_[d].writing_chunks);
  });
}

void Relay::DropDue(int d, size_t count) {
  size_t bytes = 0;
  for (size_t i = 0; i < count; ++i) bytes += directions_[d].queue[i].bytes.size();
  shared_->bytes_dropped.fetch_add(bytes);
  Dequeue(d, count);
}

// The first `count` chunks are gone: account for them and go on.
void Relay::Dequeue(int d, size_t count) {
  Direction& dir = directions_[d];
  size_t bytes = 0;
  for (size_t i = 0; i < count; ++i) {
    bytes += dir.queue.front().bytes.size();
    dir.queue.pop_front();
  }
  dir.queued_bytes -= bytes;
  shared_->Queued(-static_cast<int64_t>(bytes), dir.queued_bytes);
  dir.writing_chunks = 0;
  dir.waiting = false;
  Schedule(d);
  Read(d);
}

// The front chunk is the sender's EOF: pass it on; once both sides have
// ended, the relay is done.
void Relay::PassEof(int d) {
  Direction& dir = directions_[d];
  dir.queue.pop_front();
  dir.waiting = false;
  dir.eof_passed = true;
  error_code ignored;
  dir.to.shutdown(tcp::socket::shutdown_send, ignored);
  if (directions_[1 - d].eof_passed) Close(false);
}

// Cancels what is under way (the handlers then see closed_ and stop) and
// closes both sockets, with an RST (SO_LINGER 0) if `rst`.
void Relay::Close(bool rst) {
  if (closed_) return;
  closed_ = true;
  error_code ignored;
  for (Direction& dir : directions_) {
    dir.timer.cancel();
    shared_->Queued(-static_cast<int64_t>(dir.queued_bytes), 0);
    dir.queued_bytes = 0;
  }
  for (tcp::socket* socket : {&client_, &upstream_}) {
    if (rst && socket->is_open()) socket->set_option(asio::socket_base::linger(true, 0), ignored);
    socket->close(ignored);
  }
}

}  // namespace crawl::faults
