// ControlServer (control_server.h): one self-owning Session per control
// connection, reading a line at a time with a bounded buffer.
#include "tests/faults/control_server.h"

#include <array>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <istream>
#include <memory>
#include <utility>

namespace crawl::faults {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using boost::system::error_code;

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, const ControlServer::Handler& handler)
      : socket_(std::move(socket)), handler_(handler), input_(kMaxControlLine + 1) {}

  void ReadLine() {
    asio::async_read_until(socket_, input_, '\n', [self = shared_from_this()](error_code ec, size_t n) {
      if (ec == asio::error::not_found) return self->Answer("error line too long", /*then_close=*/true);
      if (ec) return self->Close();
      std::string line(asio::buffers_begin(self->input_.data()),
                       asio::buffers_begin(self->input_.data()) + static_cast<std::ptrdiff_t>(n - 1));
      self->input_.consume(n);
      self->Answer(self->handler_(line), /*then_close=*/false);
    });
  }

 private:
  void Answer(std::string answer, bool then_close) {
    answer_ = std::move(answer) + "\n";
    asio::async_write(socket_, asio::buffer(answer_),
                      [self = shared_from_this(), then_close](error_code ec, size_t) {
                        if (ec) return self->Close();
                        if (then_close) return self->DrainThenClose();
                        self->ReadLine();
                      });
  }

  // Ends the connection without an RST: closing with unread bytes would
  // send one, and the client could lose the answer. Sends FIN, then reads
  // and drops what the client still sends (at most kMaxDrain bytes) until
  // its EOF.
  void DrainThenClose() {
    error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_send, ignored);
    socket_.async_read_some(asio::buffer(drain_), [self = shared_from_this()](error_code ec, size_t n) {
      self->drained_ += n;
      if (ec || self->drained_ > kMaxDrain) return self->Close();
      self->DrainThenClose();
    });
  }

  void Close() {
    error_code ignored;
    socket_.close(ignored);
  }

  tcp::socket socket_;
  const ControlServer::Handler handler_;  // a copy: sessions may outlive the server
  asio::streambuf input_;
  std::string answer_;
  static constexpr size_t kMaxDrain = 64 * 1024;
  std::array<char, 4096> drain_{};
  size_t drained_ = 0;
};

}  // namespace

ControlServer::ControlServer(asio::io_context& ioc, Handler handler)
    : acceptor_(ioc), handler_(std::move(handler)) {}

ControlServer::~ControlServer() {
  error_code ignored;
  acceptor_.close(ignored);
}

Status ControlServer::Start(uint16_t port) {
  error_code ec;
  const tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), port);
  if (acceptor_.open(endpoint.protocol(), ec); !ec)
    acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    return Status::Unavailable("fault proxy control: cannot listen on 127.0.0.1:" + std::to_string(port) +
                               ": " + ec.message());
  port_ = acceptor_.local_endpoint().port();
  Accept();
  return Status::Ok();
}

void ControlServer::Accept() {
  acceptor_.async_accept([this](error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
    if (!ec) std::make_shared<Session>(std::move(socket), handler_)->ReadLine();
    Accept();
  });
}

}  // namespace crawl::faults
