// ServerContext: what every connection of the testweb server shares,
// HTTP/1.1 (server.cc) and h2c (h2_session.cc) alike.
#pragma once

#include <atomic>
#include <boost/asio/ssl/context.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "tests/testweb/access_log.h"
#include "tests/testweb/change_clock.h"
#include "tests/testweb/degrading_hosts.h"
#include "tests/testweb/robots_control.h"
#include "tests/testweb/universe.h"

namespace crawl::testweb {

// What every session needs; immutable once the server starts.
struct ServerContext {
  const Universe* universe = nullptr;
  AccessLog* access_log = nullptr;
  ChangeClock* clock = nullptr;                               // not owned; the pointee changes (thread-safe)
  RobotsControl* robots_control = nullptr;                    // not owned; null: off
  DegradingHosts* degrading = nullptr;                        // not owned (thread-safe); null: none
  std::unordered_map<std::string, uint32_t> host_by_address;  // first host at each address
  std::chrono::milliseconds read_timeout{};
  std::chrono::milliseconds write_timeout{};
  std::shared_ptr<boost::asio::ssl::context> tls;  // null: no https hosts, TLS bytes are refused
  mutable std::atomic<uint64_t> connections{0};    // numbers sessions for the access log
};

}  // namespace crawl::testweb
