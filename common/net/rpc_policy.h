// The deadline of every call between the cluster's processes and what its
// caller does when the call fails, in one place (docs/OPERATIONS.md "Calls
// between processes"). No call waits without a deadline, so a hung or cut-off
// peer holds a lease, a batch or a lane no longer than written here, and a
// failure degrades only what depends on that peer.
//
// Retries: a policy's `retry_for` is how long a failed call is tried again,
// with a backoff of 200 ms doubling to 1 s (a restarted peer is back within a
// second, see common/net/grpc_util.cc); 0 means one try, after which the
// caller does what the comment says.
#pragma once

#include <array>
#include <chrono>
#include <string_view>

namespace crawl::rpc {

struct Policy {
  std::string_view call;  // "caller -> Service.Method"
  std::chrono::milliseconds deadline;
  std::chrono::milliseconds retry_for{0};
};

// Backoff between the tries of a retried call.
inline constexpr std::chrono::milliseconds kRetryFirstBackoff{200};
inline constexpr std::chrono::milliseconds kRetryMaxBackoff{1000};

// The longest an idle fetcher's crawl-state poll is held by the name server
// (fetcher IdlePollPeriod): a new crawl reaches an idle lane within it.
inline constexpr std::chrono::milliseconds kCrawlStateMaxHold{500};
// Fetcher -> name server, the crawl-state poll (held up to
// kCrawlStateMaxHold while idle). Failure: the fetcher keeps its current
// crawl state and polls again.
inline constexpr Policy kCrawlStatePoll{"fetcher -> NameServer.GetCrawlState", std::chrono::seconds(10)};
// Failure: the lane asks the next queue server; after a round with nothing,
// it pauses (WorkerOptions.idle_backoff).
inline constexpr Policy kGetSchedule{"fetcher -> QueueServer.GetSchedule", std::chrono::seconds(10)};
// A result batch: its AddUrls to other owners, then its SubmitResults. After
// retry_for the batch is dropped: its URLs come back to their queue server
// when the lease ends, and are fetched again.
inline constexpr Policy kShipBatch{"fetcher -> QueueServer.AddUrls, SubmitResults", std::chrono::seconds(10),
                                   std::chrono::seconds(120)};
// Failure: the pages ship without their near-duplicate cluster.
inline constexpr Policy kMatchFingerprints{"fetcher -> QueueServer.MatchFingerprints",
                                           std::chrono::seconds(2)};
// Failure: the connection goes ahead unchecked (counted), and that owner is
// not asked again for 5 s (fetcher/address_slot_client.h).
inline constexpr Policy kAddressSlots{"fetcher -> QueueServer.AddressSlots", std::chrono::seconds(2)};
// Failure: tried again at the next heartbeat, every poll interval; a server
// the name server stops hearing from is shown unreachable.
inline constexpr Policy kQueueServerHeartbeat{"queue server -> NameServer.RegisterQueueServer, Heartbeat",
                                              std::chrono::seconds(5)};
// A crawl's start, seeds, parameter changes, end and deletion. Failure: the
// operator's command says which queue servers were not reached; a start or
// end they missed is told to them when they register again.
inline constexpr Policy kFleetControl{
    "name server -> QueueServer.StartCrawl, InjectSeeds, EndCrawl, DeleteCrawl, AddressStatus",
    std::chrono::seconds(5)};
// The completion check's round. Failure: the round is incomplete, so the
// crawl is not declared over while a member is silent.
inline constexpr Policy kPollStats{"name server -> QueueServer.Stats", std::chrono::seconds(2)};
// Reads that scan: a host's queue (up to max_scan entries), a cached page,
// near-duplicate clusters, a page of the crawl log. Failure: the answer says
// which queue server did not answer (search and log: the rest is returned).
inline constexpr Policy kScanningReads{
    "name server -> QueueServer.HostQueue, GetCachedPage, NearDuplicateClusters, GetCrawlLog",
    std::chrono::seconds(30)};
// Search: the query's own time limit plus this much for the call itself.
inline constexpr Policy kSearchSlack{"name server -> QueueServer.Search (plus the query's limit)",
                                     std::chrono::seconds(5)};

inline constexpr std::array kAll{kCrawlStatePoll, kGetSchedule,          kShipBatch,    kMatchFingerprints,
                                 kAddressSlots,   kQueueServerHeartbeat, kFleetControl, kPollStats,
                                 kScanningReads,  kSearchSlack};

}  // namespace crawl::rpc
