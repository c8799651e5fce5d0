// The testweb HTTP/1.1 server (Boost.Beast, asynchronous, one io_context):
// one listener per loopback address, all on the same port, and one
// self-owning session per connection with keep-alive and a timeout on every
// read and write (the shape of Beast's http_server_async example). Each
// connection's first bytes tell TLS from plain HTTP (Beast's
// advanced_server_flex shape): with the https misbehaviour on, every
// address also speaks TLS on the same port, with a self-signed certificate
// made at Start() (tls_cert.h), so one hosts-file line per host serves
// both schemes. Requests
// go to request_handler.h; each is logged to the access log if there is one.
//
// Lifetime and shutdown order: the Universe and the AccessLog must outlive
// the Server. Stop() ends Run(); the destructor closes the listeners and
// then destroys the io_context, which destroys every pending session.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/base/status.h"
#include "tests/testweb/access_log.h"
#include "tests/testweb/change_clock.h"
#include "tests/testweb/degrading_hosts.h"
#include "tests/testweb/hosts_file.h"
#include "tests/testweb/robots_control.h"
#include "tests/testweb/universe.h"

namespace crawl::testweb {

struct ServerContext;  // server.cc: what every connection shares
class ServerListener;  // server.cc: the accept loop of one address

struct ServerOptions {
  // addresses[i] is where host i listens (dotted quads; several hosts may
  // share one address, then only the Host header tells them apart).
  // REQUIRES: addresses.size() == universe.HostCount().
  std::vector<std::string> addresses;
  uint16_t port = 0;      // 0: pick a port free on every address
  int port_attempts = 8;  // with port 0: fresh ports to try if one is taken somewhere
  std::chrono::milliseconds read_timeout{30'000};
  std::chrono::milliseconds write_timeout{30'000};
  AccessLog* access_log = nullptr;  // not owned; null: no log
  // The change model's time (change_clock.h); not owned, must outlive the
  // server; null: t = 0. Requests to its /_testweb/clock are not logged.
  ChangeClock* clock = nullptr;
  // robots.txt replaced by tests (robots_control.h); not owned; null: off.
  RobotsControl* robots_control = nullptr;
  // Hosts whose latency grows with their request rate (degrading_hosts.h);
  // not owned, must outlive the server; null: none.
  DegradingHosts* degrading = nullptr;
};

class Server {
 public:
  Server(const Universe& universe, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and listens on every address (retrying the whole set with a new
  // port when port 0 was asked for and some address refuses the first
  // one), then starts accepting. Unavailable if binding fails.
  // REQUIRES: called once, before Run().
  [[nodiscard]] Status Start();

  // The port every listener is bound to. REQUIRES: Start() succeeded.
  [[nodiscard]] uint16_t port() const { return port_; }

  // One entry per host, for the hosts file. REQUIRES: Start() succeeded.
  [[nodiscard]] std::vector<HostsEntry> Entries() const;

  // Serves on the calling thread plus threads-1 more; returns after Stop().
  void Run(int threads = 1);

  // Makes Run() return. Thread-safe.
  void Stop();

  // For signal handling (signal_set) by the caller.
  [[nodiscard]] boost::asio::io_context& io_context() { return ioc_; }

 private:
  boost::asio::io_context ioc_;  // first member: destroyed last
  ServerOptions options_;
  std::shared_ptr<ServerContext> context_;  // immutable once Start() returns
  std::vector<std::shared_ptr<ServerListener>> listeners_;
  uint16_t port_ = 0;
};

}  // namespace crawl::testweb
