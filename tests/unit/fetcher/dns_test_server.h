// A tiny DNS server for fetcher tests (RFC 1035 over UDP on 127.0.0.1, port
// chosen by the kernel, its own thread). It answers A queries from a table
// name -> (addresses, TTL); names not in the table get NXDOMAIN; other query
// types get an empty NOERROR answer. It counts queries per name and can
// delay its answers, so tests prove caching, TTL expiry and coalescing.
// It never sends anything off loopback.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <catch2/catch.hpp>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "common/base/mutex.h"

namespace crawl::fetcher::testing {

class DnsTestServer {
 public:
  struct Record {
    std::vector<std::string> ipv4;  // dotted quads
    uint32_t ttl = 60;
  };

  DnsTestServer() {
    fd_ = socket(AF_INET, SOCK_DGRAM, 0);
    REQUIRE(fd_ >= 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    REQUIRE(bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    socklen_t len = sizeof addr;
    REQUIRE(getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { Serve(); });
  }
  ~DnsTestServer() {
    stop_ = true;
    thread_.join();
    close(fd_);
  }

  uint16_t port() const { return port_; }
  // For DnsOptions::servers.
  std::string servers() const { return "127.0.0.1:" + std::to_string(port_); }

  void Set(const std::string& name, Record record) {
    // Checked here, on the test's thread: Catch2 assertions are not
    // thread-safe, so the serving thread must not make any (TSan saw the
    // race, and its runtime then hung while aborting).
    for (const auto& ip : record.ipv4) {
      in_addr addr{};
      REQUIRE(inet_pton(AF_INET, ip.c_str(), &addr) == 1);
    }
    MutexLock lock(mu_);
    records_[name] = std::move(record);
  }
  void Remove(const std::string& name) {
    MutexLock lock(mu_);
    records_.erase(name);
  }
  // Answers are sent this long after the query arrives.
  void SetDelay(std::chrono::milliseconds delay) { delay_ms_ = delay.count(); }
  // Queries are read but never answered (a dead server).
  void SetSilent(bool silent) { silent_ = silent; }
  // A queries received for `name` (any case).
  int Queries(const std::string& name) const {
    MutexLock lock(mu_);
    auto it = queries_.find(name);
    return it == queries_.end() ? 0 : it->second;
  }

 private:
  void Serve() {
    std::vector<std::pair<std::chrono::steady_clock::time_point, std::pair<std::string, sockaddr_in>>>
        pending;
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      const int ready = poll(&p, 1, 10);
      if (ready > 0) {
        std::array<uint8_t, 1500> buf{};
        sockaddr_in from{};
        socklen_t from_len = sizeof from;
        const ssize_t n =
            recvfrom(fd_, buf.data(), buf.size(), 0, reinterpret_cast<sockaddr*>(&from), &from_len);
        if (n > 12) {
          std::string reply = Answer(buf.data(), static_cast<size_t>(n));
          if (!reply.empty() && !silent_) {
            pending.push_back({std::chrono::steady_clock::now() + std::chrono::milliseconds(delay_ms_.load()),
                               {std::move(reply), from}});
          }
        }
      }
      const auto now = std::chrono::steady_clock::now();
      for (size_t i = 0; i < pending.size();) {
        if (pending[i].first <= now) {
          const auto& [reply, to] = pending[i].second;
          sendto(fd_, reply.data(), reply.size(), 0, reinterpret_cast<const sockaddr*>(&to), sizeof to);
          pending.erase(pending.begin() + static_cast<long>(i));
        } else {
          ++i;
        }
      }
    }
  }

  // The reply to one query, or "" to ignore it.
  std::string Answer(const uint8_t* q, size_t n) {
    // Question: QNAME labels, QTYPE, QCLASS after the 12-byte header.
    size_t i = 12;
    std::string name;
    while (i < n && q[i] != 0) {
      const size_t len = q[i];
      if (len > 63 || i + 1 + len > n) return "";
      if (!name.empty()) name.push_back('.');
      for (size_t k = 0; k < len; ++k) name.push_back(static_cast<char>(std::tolower(q[i + 1 + k])));
      i += 1 + len;
    }
    if (i + 5 > n) return "";
    const size_t question_end = i + 5;
    const uint16_t qtype = static_cast<uint16_t>(q[i + 1] << 8 | q[i + 2]);
    Record record;
    bool found = false;
    {
      MutexLock lock(mu_);
      if (qtype == 1) ++queries_[name];
      auto it = records_.find(name);
      if (it != records_.end()) {
        record = it->second;
        found = true;
      }
    }
    std::string out(reinterpret_cast<const char*>(q), question_end);
    out[2] = static_cast<char>(0x80 | (q[2] & 0x01));  // QR, opcode 0, RD copied
    out[3] = static_cast<char>(found ? 0x80 : 0x83);   // RA; rcode 0 or 3 (NXDOMAIN)
    std::vector<in_addr> addrs;                        // Set checked every address
    if (found && qtype == 1) {
      for (const auto& ip : record.ipv4) {
        in_addr addr{};
        if (inet_pton(AF_INET, ip.c_str(), &addr) == 1) addrs.push_back(addr);
      }
    }
    const size_t answers = addrs.size();
    out[4] = 0, out[5] = 1;  // QDCOUNT
    out[6] = static_cast<char>(answers >> 8), out[7] = static_cast<char>(answers & 0xff);
    out[8] = out[9] = out[10] = out[11] = 0;  // NSCOUNT, ARCOUNT (any OPT record dropped)
    for (const in_addr& addr : addrs) {
      const uint8_t rr[] = {0xc0,
                            0x0c,
                            0,
                            1,
                            0,
                            1,
                            static_cast<uint8_t>(record.ttl >> 24),
                            static_cast<uint8_t>(record.ttl >> 16),
                            static_cast<uint8_t>(record.ttl >> 8),
                            static_cast<uint8_t>(record.ttl),
                            0,
                            4};
      out.append(reinterpret_cast<const char*>(rr), sizeof rr);
      out.append(reinterpret_cast<const char*>(&addr.s_addr), 4);
    }
    return out;
  }

  int fd_ = -1;
  uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> delay_ms_{0};
  std::atomic<bool> silent_{false};
  mutable Mutex mu_;
  std::map<std::string, Record> records_ GUARDED_BY(mu_);
  std::map<std::string, int> queries_ GUARDED_BY(mu_);
  std::thread thread_;
};

}  // namespace crawl::fetcher::testing
