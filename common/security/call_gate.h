// The server-side gate that refuses a call before its message is read.
//
// gRPC's sync server receives a unary call's whole request before any
// handler runs, so a role check inside the handler comes after the server
// has buffered and parsed up to its receive limit: an unauthenticated caller
// could make it allocate that much per call. CallGate runs as the TLS
// credentials' auth metadata processor, on the call's initial metadata
// (path, "authorization" header) and the connection's certificate, and ends
// a call the Authorizer would refuse with UNAUTHENTICATED or
// PERMISSION_DENIED before a byte of its message is accepted. The handlers
// still check (the same Authorizer), so plain-TCP servers, which have no
// processor, keep their per-call checks.
//
// Calls outside crawl.v1 (health checking, reflection) pass the gate when
// the caller is identified at all.
#pragma once

#include <grpcpp/security/auth_metadata_processor.h>
#include <prometheus/counter.h>

#include <atomic>
#include <cstdint>
#include <string_view>

#include "common/security/authorizer.h"

namespace crawl::security {

class CallGate final : public grpc::AuthMetadataProcessor {
 public:
  // `authorizer` must outlive every server the gate is installed on.
  // Exports crawl_grpc_calls_refused_total (at zero from the start).
  explicit CallGate(const Authorizer* authorizer);

  // The check is a table lookup and a cached certificate: it runs inline on
  // gRPC's thread rather than being handed to another.
  bool IsBlocking() const override { return false; }

  grpc::Status Process(const InputMetadata& auth_metadata, grpc::AuthContext* context,
                       OutputMetadata* consumed_auth_metadata, OutputMetadata* response_metadata) override;

  // Calls refused so far. Thread-safe.
  [[nodiscard]] uint64_t refused() const { return refused_.load(std::memory_order_relaxed); }

  // The decision alone, for tests: `path` is ":path" ("/crawl.v1.X/Method").
  [[nodiscard]] grpc::Status Decide(std::string_view path, std::string_view authorization,
                                    const grpc::AuthContext* context) const;

 private:
  const Authorizer* authorizer_;
  std::atomic<uint64_t> refused_{0};
  prometheus::Counter* refused_metric_;
};

}  // namespace crawl::security
