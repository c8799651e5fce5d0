// Fuzz target: every request the name server accepts (proto service
// crawl.v1.NameServer, nameserver/service.h), decoded from wire bytes and
// handed to the service in-process, the way gRPC would.
// Input: a sequence of calls, each [rpc selector byte][2-byte little-endian
// length][that many bytes of serialized request]; the last call takes the
// rest of the input. Calls go to one fresh service per input over an
// in-memory registry (RegistryStore::Open("")) with a manual clock. Bytes
// that do not parse as the message are rejected like gRPC would (no call).
//
// No network: the member timeout is negative, so no registered queue server
// is ever offered to a crawl, StartCrawl stops at "no queue server" after
// checking parameters and seeds, and no crawl exists for the calls that
// would talk to queue servers (they answer NOT_FOUND / FAILED_PRECONDITION).
// GetCrawlLog's stream writer is therefore never used (null here).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "common/base/clock.h"
#include "fuzz/rpc_fuzz.h"
#include "nameserver/service.h"

namespace {

namespace v1 = crawl::v1;
using S = crawl::nameserver::NameServerServiceImpl;
using crawl::fuzz::CallRpc;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  crawl::fuzz::SilenceLibraryLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto store = crawl::nameserver::RegistryStore::Open("");
  if (!store.ok()) std::abort();
  crawl::ManualClock clock;
  S::Options options;
  options.member_timeout = std::chrono::milliseconds(-1);
  S service(options, &clock, store->get());
  if (!service.Load().ok()) std::abort();

  crawl::fuzz::ForEachCall(data, size, [&](uint8_t selector, std::string_view bytes) {
    switch (selector % 13) {
      case 0:
        CallRpc<v1::RegisterQueueServerRequest, v1::RegisterQueueServerResponse>(service, bytes,
                                                                                 &S::RegisterQueueServer);
        break;
      case 1:
        CallRpc<v1::HeartbeatRequest, v1::HeartbeatResponse>(service, bytes, &S::Heartbeat);
        break;
      case 2:
        CallRpc<v1::GetCrawlStateRequest, v1::GetCrawlStateResponse>(service, bytes, &S::GetCrawlState);
        break;
      case 3:
        CallRpc<v1::StartCrawlRequest, v1::StartCrawlResponse>(service, bytes, &S::StartCrawl);
        break;
      case 4:
        CallRpc<v1::StopCrawlRequest, v1::StopCrawlResponse>(service, bytes, &S::StopCrawl);
        break;
      case 5:
        CallRpc<v1::CrawlStatusRequest, v1::CrawlStatusResponse>(service, bytes, &S::CrawlStatus);
        break;
      case 6:
        CallRpc<v1::ListCrawlsRequest, v1::ListCrawlsResponse>(service, bytes, &S::ListCrawls);
        break;
      case 7:
        CallRpc<v1::ListQueueServersRequest, v1::ListQueueServersResponse>(service, bytes,
                                                                           &S::ListQueueServers);
        break;
      case 8: {
        v1::GetCrawlLogRequest req;
        if (!req.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return;
        grpc::ServerContext context;
        (void)service.GetCrawlLog(&context, &req, nullptr);
        return;
      }
      case 9:
        CallRpc<v1::ResumeCrawlRequest, v1::ResumeCrawlResponse>(service, bytes, &S::ResumeCrawl);
        break;
      case 10:
        CallRpc<v1::SetCrawlParamsRequest, v1::SetCrawlParamsResponse>(service, bytes, &S::SetCrawlParams);
        break;
      case 11:
        (void)service.TakeSnapshot();
        break;
      case 12:
        CallRpc<v1::DeleteCrawlRequest, v1::DeleteCrawlResponse>(service, bytes, &S::DeleteCrawl);
        break;
    }
  });
  return 0;
}
