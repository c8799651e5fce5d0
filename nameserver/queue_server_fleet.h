// The queue servers of a crawl as the name server calls them (docs/DESIGN.md
// section 1): seeds partitioned by owning server and handed out, with a
// rollback when one refuses; crawl updates and ends told to each; Stats
// polls (with each server's page cap) and crawl-log reads fanned out.
//
// Makes RPCs and holds no state: thread-safe. Callers must not hold a lock.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "proto/crawl.grpc.pb.h"

namespace crawl::nameserver {

class QueueServerFleet {
 public:
  // A stub over the shared channel to the queue server at `address`.
  [[nodiscard]] static std::unique_ptr<v1::QueueServer::Stub> StubFor(const std::string& address);

  // Partitions `seeds` by owning queue server (rendezvous hash of the host)
  // and hands each server of `crawl` its share along with the crawl. When
  // one refuses, those that took theirs are told the crawl stopped (no
  // fetcher works on a half-started crawl) and the error names it.
  // `after_each` (tests: fault injection), when set, is called after server i
  // took its seeds; true makes StartCrawl return ABORTED at once, as a
  // process killed there would (nothing rolled back).
  [[nodiscard]] grpc::Status StartCrawl(const v1::CrawlInfo& crawl, const std::vector<std::string>& seeds,
                                        const std::function<bool(size_t)>& after_each = {}) const;

  // Tells each queue server of `pending` to drop crawl `pending.crawl_id()`
  // (DeleteCrawl: its data and WARC files). Returns the ids of those that
  // did (or did not have it); failures are logged.
  [[nodiscard]] std::vector<std::string> Delete(const v1::CrawlInfo& pending) const;

  // Sends `crawl` (no seeds) to each of its queue servers, so they take up
  // its state and parameters. Returns the ids of those that could not be told.
  [[nodiscard]] std::vector<std::string> Update(const v1::CrawlInfo& crawl) const;

  // Tells `servers` that crawl `crawl_id` ended with `state` (failures are
  // logged).
  void End(uint64_t crawl_id, v1::CrawlState state, const std::vector<v1::QueueServerInfo>& servers) const;

  // Asks the queue server of `crawl` that owns `req.host()` (the rendezvous
  // hash StartCrawl partitions seeds by) for the host's queue
  // (QueueServer.HostQueue) and names it in resp->queue_server_id(). An
  // error names the server; a crawl without queue servers is
  // FAILED_PRECONDITION.
  [[nodiscard]] grpc::Status HostQueue(const v1::CrawlInfo& crawl, const v1::HostQueueRequest& req,
                                       v1::HostQueueResponse* resp) const;

  // Asks the queue server of `crawl` that owns IP address `address`
  // (OwnerIndex over the crawl's queue server ids and the address text, as
  // fetchers pick where to take a slot) for its slots
  // (QueueServer.AddressStatus) and names it in resp->queue_server_id().
  // Called by method name: until a queue server implements it, the answer
  // is UNIMPLEMENTED. A crawl without queue servers is FAILED_PRECONDITION.
  [[nodiscard]] grpc::Status AddressStatus(const v1::CrawlInfo& crawl, const std::string& address,
                                           v1::AddressStatusResponse* resp) const;

  // Asks every queue server of `crawl` for its Stats; complete is false when
  // one did not answer for this crawl. `page_caps` (by server id), when
  // given, are sent along: each server's share of the crawl's page budget.
  std::vector<v1::QueueServerStats> PollStats(
      const v1::CrawlInfo& crawl, bool* complete,
      const std::map<std::string, uint64_t>* page_caps = nullptr) const;
};

}  // namespace crawl::nameserver
