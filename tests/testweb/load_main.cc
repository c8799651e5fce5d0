// testweb_load: a keep-alive HTTP/1.1 load generator for the testweb server
// (tests/bench/testweb_rate.sh). It builds the same Universe as the server
// from the same flags, so it knows real page paths, then keeps C connections
// busy, each sending one GET at a time (no pipelining: what a crawler does)
// to one host's address from the hosts file, reconnecting to another host
// after R requests. Raw non-blocking sockets and epoll, one event loop per
// thread, so the client costs far less CPU per request than the server.
//
//   testweb_load --hosts-file F --seed S --hosts H --pages P [--page-kb K]
//                [--preset clean] [--connections 64] [--threads 1]
//                [--seconds 10] [--requests-per-connection 1000]
//
// Prints requests/s, MB/s (body + header bytes received), status counts.
// Only fixed-length (Content-Length) responses are understood: the clean
// preset has no others; anything else counts as an error.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "common/net/hosts_file.h"
#include "tests/testweb/rng.h"
#include "tests/testweb/universe.h"

namespace crawl::testweb {
namespace {

struct Target {
  sockaddr_in address{};
  std::string host;
  std::vector<std::string> requests;  // ready-to-send "GET ... \r\n\r\n" texts
};

struct Totals {
  uint64_t requests = 0;
  uint64_t bytes = 0;
  uint64_t errors = 0;
  uint64_t connects = 0;
  std::map<int, uint64_t> statuses;
};

class LoadLoop {
 public:
  LoadLoop(const std::vector<Target>& targets, int connections, int per_connection, uint64_t seed)
      : targets_(targets), per_connection_(per_connection), rng_(seed), conns_(connections) {}

  Totals Run(std::chrono::steady_clock::time_point until) {
    epoll_ = epoll_create1(0);
    for (size_t i = 0; i < conns_.size(); ++i) Open(i);
    epoll_event events[256];
    while (std::chrono::steady_clock::now() < until) {
      const int n = epoll_wait(epoll_, events, 256, 100);
      for (int e = 0; e < n; ++e) OnEvent(events[e].data.u64, events[e].events);
    }
    for (auto& c : conns_) {
      if (c.fd >= 0) close(c.fd);
    }
    close(epoll_);
    return totals_;
  }

 private:
  struct Conn {
    int fd = -1;
    const Target* target = nullptr;
    int sent_requests = 0;
    std::string out;
    size_t out_sent = 0;
    std::string in;
    size_t header_end = 0;  // 0 until the header is complete
    size_t body_length = 0;
    bool connecting = false;
    bool watching_out = false;
  };

  void Open(size_t i) {
    Conn& c = conns_[i];
    if (c.fd >= 0) {
      epoll_ctl(epoll_, EPOLL_CTL_DEL, c.fd, nullptr);
      close(c.fd);
    }
    c = Conn();
    c.target = &targets_[rng_.Below(targets_.size())];
    c.fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    const int one = 1;
    setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ++totals_.connects;
    const int rc = connect(c.fd, reinterpret_cast<const sockaddr*>(&c.target->address), sizeof(sockaddr_in));
    if (rc != 0 && errno != EINPROGRESS) {
      ++totals_.errors;
      close(c.fd);
      c.fd = -1;
      return;
    }
    c.connecting = true;
    Watch(i, EPOLLOUT, EPOLL_CTL_ADD);
    StartRequest(c);
  }

  void Watch(size_t i, uint32_t events, int op) {
    epoll_event ev{};
    ev.events = events;
    ev.data.u64 = i;
    epoll_ctl(epoll_, op, conns_[i].fd, &ev);
  }

  // Sends what is left of the request; watches for writability only while
  // something is left (level-triggered EPOLLOUT would spin otherwise).
  bool Send(size_t i) {
    Conn& c = conns_[i];
    const ssize_t n = send(c.fd, c.out.data() + c.out_sent, c.out.size() - c.out_sent, MSG_NOSIGNAL);
    if (n < 0 && errno != EAGAIN) return false;
    if (n > 0) c.out_sent += static_cast<size_t>(n);
    const bool more = c.out_sent < c.out.size();
    if (more != c.watching_out) {
      Watch(i, EPOLLIN | (more ? EPOLLOUT : 0U), EPOLL_CTL_MOD);
      c.watching_out = more;
    }
    return true;
  }

  void StartRequest(Conn& c) {
    const auto& reqs = c.target->requests;
    c.out = reqs[rng_.Below(reqs.size())];
    c.out_sent = 0;
    c.in.clear();
    c.header_end = 0;
    c.body_length = 0;
  }

  void OnEvent(size_t i, uint32_t events) {
    Conn& c = conns_[i];
    if (c.fd < 0) return Open(i);
    if (events & (EPOLLERR | EPOLLHUP)) {
      ++totals_.errors;
      return Open(i);
    }
    if (c.connecting && (events & EPOLLOUT)) {
      c.connecting = false;
      c.watching_out = true;  // as registered: EPOLLOUT only
      Watch(i, EPOLLIN | EPOLLOUT, EPOLL_CTL_MOD);
    }
    if ((events & EPOLLOUT) && !Send(i)) {
      ++totals_.errors;
      return Open(i);
    }
    if (events & EPOLLIN) {
      char buf[65536];
      while (true) {
        const ssize_t n = recv(c.fd, buf, sizeof buf, 0);
        if (n == 0 || (n < 0 && errno != EAGAIN)) {
          ++totals_.errors;
          return Open(i);
        }
        if (n < 0) break;
        totals_.bytes += static_cast<uint64_t>(n);
        c.in.append(buf, static_cast<size_t>(n));
        if (!Parse(c)) {
          ++totals_.errors;
          return Open(i);
        }
        if (c.header_end != 0 && c.in.size() >= c.header_end + c.body_length) {
          ++totals_.requests;
          if (++c.sent_requests >= per_connection_) return Open(i);
          StartRequest(c);
          if (!Send(i)) {
            ++totals_.errors;
            return Open(i);
          }
          break;
        }
      }
    }
  }

  // Header parsing, once: status and Content-Length. False: unusable answer.
  bool Parse(Conn& c) {
    if (c.header_end != 0) return true;
    const size_t end = c.in.find("\r\n\r\n");
    if (end == std::string::npos) return c.in.size() < 65536;
    c.header_end = end + 4;
    if (c.in.size() < 12 || c.in.compare(0, 5, "HTTP/") != 0) return false;
    ++totals_.statuses[std::atoi(c.in.c_str() + 9)];
    const std::string_view head(c.in.data(), end);
    size_t at = 0;
    while ((at = head.find("\r\n", at)) != std::string_view::npos) {
      at += 2;
      if (head.size() - at > 15 && strncasecmp(head.data() + at, "content-length:", 15) == 0) {
        c.body_length = std::strtoull(head.data() + at + 15, nullptr, 10);
        return true;
      }
    }
    return false;
  }

  const std::vector<Target>& targets_;
  int per_connection_;
  Rng rng_;
  std::vector<Conn> conns_;
  int epoll_ = -1;
  Totals totals_;
};

int Main(int argc, char** argv) {
  CLI::App app("testweb_load: keep-alive GET load on a testweb server (tests/bench/testweb_rate.sh)");
  UniverseOptions o;
  std::string hosts_path;
  uint32_t page_kb = 0;
  int connections = 64, threads = 1, seconds = 10, per_connection = 1000, paths_per_host = 64;
  app.add_option("--hosts-file", hosts_path, "The hosts file testweb serve wrote")->required();
  app.add_option("--seed", o.seed, "Universe seed (as given to testweb serve)")->required();
  app.add_option("--hosts", o.hosts, "Universe hosts")->required();
  app.add_option("--pages", o.pages, "Universe pages")->required();
  app.add_option("--preset", o.preset, "Universe preset")->capture_default_str();
  app.add_option("--page-kb", page_kb, "Median page KiB, if the server was given one");
  app.add_option("--connections", connections, "Concurrent keep-alive connections")->capture_default_str();
  app.add_option("--threads", threads, "Client threads (epoll loops)")->capture_default_str();
  app.add_option("--seconds", seconds, "How long to run")->capture_default_str();
  app.add_option("--requests-per-connection", per_connection, "Reconnect (to another host) after this many")
      ->capture_default_str();
  app.add_option("--paths-per-host", paths_per_host, "Distinct pages requested per host")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (connections < 1 || threads < 1 || seconds < 1 || per_connection < 1 || paths_per_host < 1) {
    std::fprintf(stderr, "testweb_load: counts must be positive\n");
    return 1;
  }
  if (Status s = ApplyPreset(o); !s.ok()) {
    std::fprintf(stderr, "testweb_load: %s\n", s.message().c_str());
    return 1;
  }
  if (page_kb != 0) o.page_kb = page_kb;
  auto universe = Universe::Create(o);
  if (!universe.ok()) {
    std::fprintf(stderr, "testweb_load: %s\n", universe.status().message().c_str());
    return 1;
  }
  auto hosts_file = HostsFile::Load(hosts_path);
  if (!hosts_file.ok()) {
    std::fprintf(stderr, "testweb_load: %s\n", hosts_file.status().message().c_str());
    return 1;
  }
  std::vector<Target> targets;
  Rng rng(o.seed);
  for (uint32_t h = 0; h < universe->HostCount(); ++h) {
    const std::string name = universe->HostName(h);
    const auto entry = hosts_file->Lookup(name);
    if (!entry || !entry->address.is_v4() || !entry->port) {
      std::fprintf(stderr, "testweb_load: %s: no IPv4 address and port in the hosts file\n", name.c_str());
      return 1;
    }
    if (universe->PageUrl(h, 0).starts_with("https:")) continue;  // plain HTTP only
    Target t;
    t.host = name;
    t.address.sin_family = AF_INET;
    t.address.sin_port = htons(*entry->port);
    t.address.sin_addr.s_addr = htonl(entry->address.to_v4().to_uint());
    const uint64_t n = universe->PageCount(h);
    for (int k = 0; k < paths_per_host && static_cast<uint64_t>(k) < n; ++k) {
      const uint64_t page = k == 0 ? 0 : rng.Below(n);
      t.requests.push_back("GET " + universe->PagePath(h, page) + " HTTP/1.1\r\nHost: " + name +
                           "\r\nUser-Agent: testweb_load\r\nAccept: */*\r\n\r\n");
    }
    targets.push_back(std::move(t));
  }
  if (targets.empty()) {
    std::fprintf(stderr, "testweb_load: no plain-HTTP host to load\n");
    return 1;
  }
  const auto start = std::chrono::steady_clock::now();
  const auto until = start + std::chrono::seconds(seconds);
  std::vector<Totals> totals(static_cast<size_t>(threads));
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    const int share = connections / threads + (t < connections % threads ? 1 : 0);
    workers.emplace_back([&, t, share] {
      LoadLoop loop(targets, std::max(1, share), per_connection, Hash(o.seed, static_cast<uint64_t>(t)));
      totals[static_cast<size_t>(t)] = loop.Run(until);
    });
  }
  for (auto& w : workers) w.join();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Totals sum;
  for (const auto& t : totals) {
    sum.requests += t.requests;
    sum.bytes += t.bytes;
    sum.errors += t.errors;
    sum.connects += t.connects;
    for (const auto& [k, v] : t.statuses) sum.statuses[k] += v;
  }
  std::printf("requests %llu in %.2f s: %.0f requests/s, %.1f MB/s received, %.1f KB per response\n",
              static_cast<unsigned long long>(sum.requests), wall, static_cast<double>(sum.requests) / wall,
              static_cast<double>(sum.bytes) / wall / 1e6,
              sum.requests ? static_cast<double>(sum.bytes) / static_cast<double>(sum.requests) / 1e3 : 0.0);
  std::printf("connections opened %llu, errors %llu, statuses:",
              static_cast<unsigned long long>(sum.connects), static_cast<unsigned long long>(sum.errors));
  for (const auto& [k, v] : sum.statuses) std::printf(" %d=%llu", k, static_cast<unsigned long long>(v));
  std::printf("\n");
  return sum.requests > 0 ? 0 : 1;
}

}  // namespace
}  // namespace crawl::testweb

int main(int argc, char** argv) { return crawl::testweb::Main(argc, argv); }
