// Fuzz target: every request the queue server accepts (proto service
// crawl.v1.QueueServer, queueserver/service.h), decoded from wire bytes and
// handed to the service in-process, the way gRPC would.
// Input: a sequence of calls, each [rpc selector byte][2-byte little-endian
// length][that many bytes of serialized request]; the last call takes the
// rest of the input. Calls go to one fresh in-memory service (no store) with
// a manual clock, so a sequence can build a crawl (InjectSeeds) and then
// schedule, submit results, add URLs and end it. Bytes that do not parse as
// the message are rejected like gRPC would (no call).
// A handler must answer every request with a status; anything else (crash,
// sanitizer report, abort) is a finding.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

#include "common/clock.h"
#include "queueserver/service.h"

namespace {

using crawl::v1::QueueServer;

template <typename Req, typename Resp, typename Handler>
void Call(crawl::queueserver::QueueServerServiceImpl& service, std::string_view bytes, Handler handler) {
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
  spdlog::set_level(spdlog::level::off);  // keep the fuzzer's output readable
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  crawl::ManualClock clock;
  crawl::queueserver::QueueServerServiceImpl service("qs-fuzz", &clock);
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
    namespace v1 = crawl::v1;
    using S = crawl::queueserver::QueueServerServiceImpl;
    switch (selector % 9) {
      case 0: Call<v1::InjectSeedsRequest, v1::InjectSeedsResponse>(service, bytes, &S::InjectSeeds); break;
      case 1: Call<v1::GetScheduleRequest, v1::GetScheduleResponse>(service, bytes, &S::GetSchedule); break;
      case 2: Call<v1::SubmitResultsRequest, v1::SubmitResultsResponse>(service, bytes, &S::SubmitResults); break;
      case 3: Call<v1::AddUrlsRequest, v1::AddUrlsResponse>(service, bytes, &S::AddUrls); break;
      case 4: Call<v1::StatsRequest, v1::StatsResponse>(service, bytes, &S::Stats); break;
      case 5: Call<v1::EndCrawlRequest, v1::EndCrawlResponse>(service, bytes, &S::EndCrawl); break;
      case 6: Call<v1::GetCrawlLogRequest, v1::CrawlLogChunk>(service, bytes, &S::GetCrawlLog); break;
      case 7: service.Tick(); break;  // the periodic work (lease expiry) in between
      case 8: clock.Advance(std::chrono::milliseconds(1000L * (static_cast<uint8_t>(bytes.empty() ? 0 : bytes[0]) + 1))); break;
    }
  }
  crawl::v1::QueueServerStats stats;
  service.FillStats(&stats);
  return 0;
}
