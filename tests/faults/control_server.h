// ControlServer: the line-based control channel of FaultProxy
// (fault_proxy.h). Listens on 127.0.0.1; each connection sends command
// lines and gets one answer line per command from the handler. A line
// longer than kMaxControlLine gets "error line too long" and the
// connection is closed. Threading: lives on the proxy's io thread; the
// handler is called there.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "common/base/status.h"

namespace crawl::faults {

inline constexpr size_t kMaxControlLine = 1024;

class ControlServer {
 public:
  // Returns the answer to one line (without its newline).
  using Handler = std::function<std::string(std::string_view line)>;

  ControlServer(boost::asio::io_context& ioc, Handler handler);
  ~ControlServer();
  ControlServer(const ControlServer&) = delete;
  ControlServer& operator=(const ControlServer&) = delete;

  // Binds 127.0.0.1:port (0: any) and starts accepting; Unavailable if
  // binding fails. REQUIRES: called once.
  [[nodiscard]] Status Start(uint16_t port);
  [[nodiscard]] uint16_t port() const { return port_; }

 private:
  void Accept();

  boost::asio::ip::tcp::acceptor acceptor_;
  Handler handler_;
  uint16_t port_ = 0;
};

}  // namespace crawl::faults
