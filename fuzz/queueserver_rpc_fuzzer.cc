// Fuzz target: every request the queue server accepts (proto service
// crawl.v1.QueueServer, queueserver/service.h), decoded from wire bytes and
// handed to the service in-process, the way gRPC would.
// Input: a sequence of calls, each [rpc selector byte][2-byte little-endian
// length][that many bytes of serialized request]; the last call takes the
// rest of the input. Calls go to one fresh in-memory service (no store) with
// a manual clock, so a sequence can build a crawl (InjectSeeds) and then
// schedule, submit results, add URLs, search, read a host's queue, end it
// and delete it. Bytes that do not parse as
// the message are rejected like gRPC would (no call).
// A handler must answer every request with a status; anything else (crash,
// sanitizer report, abort) is a finding.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/base/clock.h"
#include "fuzz/rpc_fuzz.h"
#include "queueserver/service.h"

namespace {

namespace v1 = crawl::v1;
using S = crawl::queueserver::QueueServerServiceImpl;
using crawl::fuzz::CallRpc;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  crawl::fuzz::SilenceLibraryLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  crawl::ManualClock clock;
  crawl::queueserver::QueueServerServiceImpl service("qs-fuzz", &clock);
  crawl::fuzz::ForEachCall(data, size, [&](uint8_t selector, std::string_view bytes) {
    switch (selector % 16) {
      case 0:
        CallRpc<v1::InjectSeedsRequest, v1::InjectSeedsResponse>(service, bytes, &S::InjectSeeds);
        break;
      case 1:
        CallRpc<v1::GetScheduleRequest, v1::GetScheduleResponse>(service, bytes, &S::GetSchedule);
        break;
      case 2:
        CallRpc<v1::SubmitResultsRequest, v1::SubmitResultsResponse>(service, bytes, &S::SubmitResults);
        break;
      case 3:
        CallRpc<v1::AddUrlsRequest, v1::AddUrlsResponse>(service, bytes, &S::AddUrls);
        break;
      case 4:
        CallRpc<v1::StatsRequest, v1::StatsResponse>(service, bytes, &S::Stats);
        break;
      case 5:
        CallRpc<v1::EndCrawlRequest, v1::EndCrawlResponse>(service, bytes, &S::EndCrawl);
        break;
      case 6:
        CallRpc<v1::GetCrawlLogRequest, v1::CrawlLogChunk>(service, bytes, &S::GetCrawlLog);
        break;
      case 7:
        service.Tick();
        break;  // the periodic work (lease expiry) in between
      case 8:
        clock.Advance(
            std::chrono::milliseconds(1000L * (static_cast<uint8_t>(bytes.empty() ? 0 : bytes[0]) + 1)));
        break;
      case 9:
        CallRpc<v1::SearchRequest, v1::SearchResponse>(service, bytes, &S::Search);
        break;
      case 10:
        CallRpc<v1::HostQueueRequest, v1::HostQueueResponse>(service, bytes, &S::HostQueue);
        break;
      case 11:
        CallRpc<v1::DeleteCrawlRequest, v1::DeleteCrawlResponse>(service, bytes, &S::DeleteCrawl);
        break;
      case 12:
        CallRpc<v1::MatchFingerprintsRequest, v1::MatchFingerprintsResponse>(service, bytes,
                                                                             &S::MatchFingerprints);
        break;
      case 13:
        CallRpc<v1::NearDuplicateClustersRequest, v1::NearDuplicateClustersResponse>(
            service, bytes, &S::NearDuplicateClusters);
        break;
      case 14:
        CallRpc<v1::AddressSlotsRequest, v1::AddressSlotsResponse>(service, bytes, &S::AddressSlots);
        break;
      case 15:
        CallRpc<v1::AddressStatusRequest, v1::AddressStatusResponse>(service, bytes, &S::AddressStatus);
        break;
    }
  });
  crawl::v1::QueueServerStats stats;
  service.FillStats(&stats);
  return 0;
}
