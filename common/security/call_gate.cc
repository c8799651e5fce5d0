#include "common/security/call_gate.h"

#include <spdlog/spdlog.h>

#include "common/base/metrics.h"

namespace crawl::security {
namespace {

std::string_view Find(const grpc::AuthMetadataProcessor::InputMetadata& md, std::string_view key) {
  auto it = md.find(grpc::string_ref(key.data(), key.size()));
  if (it == md.end()) return {};
  return {it->second.data(), it->second.size()};
}

}  // namespace

CallGate::CallGate(const Authorizer* authorizer)
    : authorizer_(authorizer),
      refused_metric_(
          &metrics::CounterFamily("crawl_grpc_calls_refused_total",
                                  "gRPC calls refused from their metadata (caller or role), before "
                                  "their message was read")
               .Add({})) {}

grpc::Status CallGate::Decide(std::string_view path, std::string_view authorization,
                              const grpc::AuthContext* context) const {
  std::string_view method = path;
  if (!method.empty() && method.front() == '/') method.remove_prefix(1);
  if (FindRpcPolicy(method) != nullptr) return authorizer_->CheckCall(method, authorization, context);
  auto caller = authorizer_->IdentifyCall(authorization, context);
  if (!caller.ok()) return {grpc::StatusCode::UNAUTHENTICATED, caller.status().message()};
  return grpc::Status::OK;
}

grpc::Status CallGate::Process(const InputMetadata& auth_metadata, grpc::AuthContext* context,
                               OutputMetadata* /*consumed_auth_metadata*/,
                               OutputMetadata* /*response_metadata*/) {
  grpc::Status status = Decide(Find(auth_metadata, ":path"), Find(auth_metadata, "authorization"), context);
  if (!status.ok()) {
    const uint64_t n = refused_.fetch_add(1, std::memory_order_relaxed) + 1;
    refused_metric_->Increment();
    // One line per refusal would let a flood of bad calls fill the log.
    if ((n & (n - 1)) == 0)
      spdlog::warn("refused call {} before reading it ({} so far): {}",
                   std::string(Find(auth_metadata, ":path")), n, status.error_message());
  }
  return status;
}

}  // namespace crawl::security
