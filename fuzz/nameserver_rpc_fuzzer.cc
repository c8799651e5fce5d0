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

#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

#include "common/clock.h"
#include "nameserver/service.h"

namespace {

namespace v1 = crawl::v1;
using S = crawl::nameserver::NameServerServiceImpl;

template <typename Req, typename Resp, typename Handler>
void Call(S& service, std::string_view bytes, Handler handler) {
  Req req;
  if (!req.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return;
  Resp resp;
  grpc::ServerContext context;
  (void)(service.*handler)(&context, &req, &resp);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Protobuf logs every string field with invalid UTF-8 it rejects.
  google::protobuf::SetLogHandler(nullptr);
  spdlog::set_level(spdlog::level::off);  // one log line per call would drown the fuzzer's output
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

  std::string_view in(reinterpret_cast<const char*>(data), size);
  int calls = 0;
  while (!in.empty() && calls++ < 64) {
    const uint8_t selector = static_cast<uint8_t>(in[0]);
    in.remove_prefix(1);
    size_t len = in.size();
    if (in.size() >= 2) {
      len = static_cast<uint8_t>(in[0]) | (static_cast<size_t>(static_cast<uint8_t>(in[1])) << 8);
      in.remove_prefix(2);
      if (len > in.size()) len = in.size();
    }
    const std::string_view bytes = in.substr(0, len);
    in.remove_prefix(len);
    switch (selector % 12) {
      case 0: Call<v1::RegisterQueueServerRequest, v1::RegisterQueueServerResponse>(service, bytes, &S::RegisterQueueServer); break;
      case 1: Call<v1::HeartbeatRequest, v1::HeartbeatResponse>(service, bytes, &S::Heartbeat); break;
      case 2: Call<v1::GetCrawlStateRequest, v1::GetCrawlStateResponse>(service, bytes, &S::GetCrawlState); break;
      case 3: Call<v1::StartCrawlRequest, v1::StartCrawlResponse>(service, bytes, &S::StartCrawl); break;
      case 4: Call<v1::StopCrawlRequest, v1::StopCrawlResponse>(service, bytes, &S::StopCrawl); break;
      case 5: Call<v1::CrawlStatusRequest, v1::CrawlStatusResponse>(service, bytes, &S::CrawlStatus); break;
      case 6: Call<v1::ListCrawlsRequest, v1::ListCrawlsResponse>(service, bytes, &S::ListCrawls); break;
      case 7: Call<v1::ListQueueServersRequest, v1::ListQueueServersResponse>(service, bytes, &S::ListQueueServers); break;
      case 8: {
        v1::GetCrawlLogRequest req;
        if (!req.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) break;
        grpc::ServerContext context;
        (void)service.GetCrawlLog(&context, &req, nullptr);
        break;
      }
      case 9: Call<v1::ResumeCrawlRequest, v1::ResumeCrawlResponse>(service, bytes, &S::ResumeCrawl); break;
      case 10: Call<v1::SetCrawlParamsRequest, v1::SetCrawlParamsResponse>(service, bytes, &S::SetCrawlParams); break;
      case 11: (void)service.TakeSnapshot(); break;
    }
  }
  return 0;
}
