// FaultProxy (fault_proxy.h): the listener, the list of live relays (for
// reset), and the control commands. Relays are in relay.cc, the control
// channel's sockets in control_server.cc.
#include "tests/faults/fault_proxy.h"

#include <boost/asio/ip/address.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <future>
#include <utility>

#include "tests/faults/control_server.h"
#include "tests/faults/relay.h"

namespace crawl::faults {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using boost::system::error_code;

FaultProxy::FaultProxy(FaultProxyOptions options)
    : options_(std::move(options)),
      shared_(std::make_shared<ProxyShared>(options_.max_queued_bytes, options_.initial)),
      acceptor_(ioc_) {}

FaultProxy::~FaultProxy() {
  error_code ignored;
  acceptor_.close(ignored);
}

Status FaultProxy::Start() {
  error_code ec;
  const auto listen = asio::ip::make_address(options_.listen_address, ec);
  if (ec) return Status::InvalidArgument("fault proxy: bad listen address '" + options_.listen_address + "'");
  const auto upstream = asio::ip::make_address(options_.upstream_address, ec);
  if (ec)
    return Status::InvalidArgument("fault proxy: bad upstream address '" + options_.upstream_address + "'");
  if (options_.max_queued_bytes == 0) return Status::InvalidArgument("fault proxy: max_queued_bytes is 0");
  upstream_ = tcp::endpoint(upstream, options_.upstream_port);
  listen_ = tcp::endpoint(listen, options_.listen_port);
  if (Status status = Listen(); !status.ok()) return status;
  port_ = acceptor_.local_endpoint().port();
  listen_.port(port_);  // "up" reopens the same port
  if (options_.control_port) {
    control_ = std::make_unique<ControlServer>(
        ioc_, [this](std::string_view line) { return HandleControlLine(line); });
    if (Status status = control_->Start(*options_.control_port); !status.ok()) return status;
  }
  return Status::Ok();
}

uint16_t FaultProxy::control_port() const { return control_ ? control_->port() : 0; }

Status FaultProxy::Listen() {
  error_code ec;
  if (acceptor_.open(listen_.protocol(), ec); !ec)
    acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_.bind(listen_, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    acceptor_.close(ec);
    return Status::Unavailable("fault proxy: cannot listen on " + listen_.address().to_string() + ":" +
                               std::to_string(listen_.port()) + ": " + ec.message());
  }
  listening_.store(true);
  Accept(++accept_generation_);
  return Status::Ok();
}

void FaultProxy::Accept(uint64_t generation) {
  acceptor_.async_accept([this, generation](error_code ec, tcp::socket socket) {
    // A handler from before a down (and maybe an up since) ends its loop.
    if (generation != accept_generation_ || !acceptor_.is_open()) return;
    if (!ec) {
      shared_->accepted.fetch_add(1);
      if (shared_->Snapshot().refuse) {
        Refuse(std::move(socket));
      } else {
        auto relay = std::make_shared<Relay>(std::move(socket), shared_);
        relay->Start(upstream_);
        relays_.remove_if([](const std::weak_ptr<Relay>& r) { return r.expired(); });
        relays_.push_back(relay);
      }
    }
    Accept(generation);
  });
}

void FaultProxy::Refuse(tcp::socket socket) {
  shared_->connections_reset.fetch_add(1);  // first: the client may look once it sees the RST
  error_code ignored;
  socket.set_option(asio::socket_base::linger(true, 0), ignored);
  socket.close(ignored);
}

void FaultProxy::Run() {
  running_.store(true);
  const auto guard = asio::make_work_guard(ioc_);
  ioc_.run();
  running_.store(false);
}

void FaultProxy::Stop() { ioc_.stop(); }

void FaultProxy::SetToxics(const Toxics& toxics) { shared_->Set(toxics); }

Toxics FaultProxy::toxics() const { return shared_->Snapshot(); }

bool FaultProxy::RunOnIo(const std::function<void()>& fn) {
  if (!running_.load() || ioc_.get_executor().running_in_this_thread()) {
    fn();
    return true;
  }
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> future = done->get_future();
  asio::post(ioc_, [fn, done] {
    fn();
    done->set_value();
  });
  return future.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
}

Status FaultProxy::SetListening(bool listening) {
  // Shared, not on the stack: the io thread may run this after a timeout.
  auto status = std::make_shared<Status>();
  const bool ran = RunOnIo([this, listening, status] {
    if (listening == acceptor_.is_open()) return;
    if (listening) {
      *status = Listen();
    } else {
      ++accept_generation_;
      error_code ignored;
      acceptor_.close(ignored);
      listening_.store(false);
    }
  });
  return ran ? *status : Status::Unavailable("fault proxy: the io thread did not answer");
}

uint64_t FaultProxy::ResetAll() {
  auto count = std::make_shared<uint64_t>(0);
  RunOnIo([this, count] {
    for (const std::weak_ptr<Relay>& weak : relays_) {
      if (const std::shared_ptr<Relay> relay = weak.lock(); relay && relay->Reset()) ++*count;
    }
    relays_.clear();
    shared_->connections_reset.fetch_add(*count);
  });
  return *count;
}

FaultProxyStats FaultProxy::stats() const {
  FaultProxyStats stats;
  stats.accepted = shared_->accepted.load();
  stats.bytes_to_upstream = shared_->bytes_relayed[0].load();
  stats.bytes_to_client = shared_->bytes_relayed[1].load();
  stats.bytes_dropped = shared_->bytes_dropped.load();
  stats.connections_reset = shared_->connections_reset.load();
  stats.queued_bytes = shared_->queued_bytes.load();
  stats.peak_queued_bytes = shared_->peak_queued_bytes.load();
  stats.listening = listening_.load();
  return stats;
}

std::string FaultProxy::HandleControlLine(std::string_view line) {
  const Result<ControlCommand> command = ParseControlCommand(line);
  if (!command.ok()) return "error " + command.status().message();
  auto answer = std::make_shared<std::string>();
  if (!RunOnIo([this, answer, parsed = *command] { *answer = Execute(parsed); }))
    return "error the io thread did not answer";
  return *answer;
}

// On the io thread.
std::string FaultProxy::Execute(const ControlCommand& command) {
  Toxics toxics = shared_->Snapshot();
  const auto on_off = [](bool on) { return on ? std::string("on") : std::string("off"); };
  switch (command.kind) {
    case CommandKind::kLatency:
      toxics.latency_ms = static_cast<uint32_t>(command.value);
      toxics.jitter_ms = static_cast<uint32_t>(command.jitter);
      shared_->Set(toxics);
      return "ok latency " + std::to_string(command.value) + " jitter " + std::to_string(command.jitter);
    case CommandKind::kBandwidth:
      toxics.bandwidth = command.value;
      shared_->Set(toxics);
      return "ok bandwidth " + std::to_string(command.value);
    case CommandKind::kBlackhole:
      toxics.blackhole = command.on;
      shared_->Set(toxics);
      return "ok blackhole " + on_off(command.on);
    case CommandKind::kRefuse:
      toxics.refuse = command.on;
      shared_->Set(toxics);
      return "ok refuse " + on_off(command.on);
    case CommandKind::kReset:
      return "ok reset " + std::to_string(ResetAll());
    case CommandKind::kDown:
    case CommandKind::kUp:
    case CommandKind::kHeal: {
      if (command.kind == CommandKind::kHeal) shared_->Set(Toxics{});
      const Status status = SetListening(command.kind != CommandKind::kDown);
      if (!status.ok()) return "error " + status.message();
      return command.kind == CommandKind::kDown ? "ok down"
             : command.kind == CommandKind::kUp ? "ok up"
                                                : "ok heal";
    }
    case CommandKind::kStats:
      break;
  }
  return FormatStats(stats(), toxics);
}

std::string FormatStats(const FaultProxyStats& stats, const Toxics& toxics) {
  return "ok accepted=" + std::to_string(stats.accepted) +
         " bytes_to_upstream=" + std::to_string(stats.bytes_to_upstream) +
         " bytes_to_client=" + std::to_string(stats.bytes_to_client) +
         " bytes_dropped=" + std::to_string(stats.bytes_dropped) +
         " reset=" + std::to_string(stats.connections_reset) +
         " queued=" + std::to_string(stats.queued_bytes) +
         " peak_queued=" + std::to_string(stats.peak_queued_bytes) +
         " listening=" + (stats.listening ? "1" : "0") + " latency_ms=" + std::to_string(toxics.latency_ms) +
         " jitter_ms=" + std::to_string(toxics.jitter_ms) + " bandwidth=" + std::to_string(toxics.bandwidth) +
         " blackhole=" + (toxics.blackhole ? "1" : "0") + " refuse=" + (toxics.refuse ? "1" : "0");
}

}  // namespace crawl::faults
