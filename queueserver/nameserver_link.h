// The queue server's link to the name server: registration and heartbeats
// (docs/DESIGN.md §1), and the early heartbeat that says a crawl went idle.
#pragma once

#include <chrono>
#include <string>
#include <thread>

#include "common/base/mutex.h"
#include "proto/crawl.pb.h"
#include "queueserver/service.h"

namespace crawl::queueserver {

// Registers with the name server and heartbeats every `interval` until
// Stop(). Re-registers when the name server forgets us (restart).
class NameServerLink {
 public:
  NameServerLink(std::string nameserver, v1::QueueServerInfo self, QueueServerServiceImpl* service,
                 std::chrono::milliseconds interval);
  ~NameServerLink();
  void Start();
  void Stop();
  // Sends the next heartbeat now, saying this server just became idle
  // (HeartbeatRequest.became_idle).
  void Nudge();

 private:
  void Run();

  std::string nameserver_;
  v1::QueueServerInfo self_;
  QueueServerServiceImpl* service_;
  std::chrono::milliseconds interval_;
  Mutex mu_;
  CondVar cv_;
  bool stop_ GUARDED_BY(mu_) = false;
  bool nudged_ GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace crawl::queueserver
