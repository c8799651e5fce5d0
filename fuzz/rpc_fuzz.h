// What the two RPC fuzzers share: the input framing (a sequence of
// [selector byte][u16 little-endian length][request bytes], at most 64
// calls), decoding a request and calling a service handler in-process, and
// quieting library logs so libFuzzer's output stays readable.
#pragma once

#include <google/protobuf/stubs/logging.h>
#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace crawl::fuzz {

// Calls fn(selector, request_bytes) for each framed call in the input.
template <typename Fn>
void ForEachCall(const uint8_t* data, size_t size, Fn fn) {
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
    fn(selector, bytes);
  }
}

// Decodes `bytes` as Req (undecodable input is dropped, as gRPC would) and
// hands it to the handler; whatever status comes back is fine, a crash not.
template <typename Req, typename Resp, typename Service, typename Handler>
void CallRpc(Service& service, std::string_view bytes, Handler handler) {
  Req req;
  if (!req.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return;
  Resp resp;
  grpc::ServerContext context;
  (void)(service.*handler)(&context, &req, &resp);
}

// Protobuf logs every string field with invalid UTF-8 it rejects; our
// servers log every bad request. Neither helps a fuzzer's output.
inline void SilenceLibraryLogs() {
  google::protobuf::SetLogHandler(nullptr);
  spdlog::set_level(spdlog::level::off);
}

}  // namespace crawl::fuzz
