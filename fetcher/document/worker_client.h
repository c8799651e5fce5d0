// The fetcher's side of the document worker (docs/ARCHITECTURE.md "The
// document worker"): a DocumentParser owns a few worker processes (the
// fetcher's binary re-executed with fetcher/document/worker_process.h's
// argument) and sends each document to one over a socket
// (fetcher/document/worker_protocol.h). A document that takes longer than
// the time limit, or that kills its worker (a crash, the memory or CPU
// limit, a forbidden system call), is an error for that document only: the
// worker is killed and reaped, one warning line names the URL and the
// reason, and a fresh worker is started for the next document.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"
#include "fetcher/document/document.h"
#include "fetcher/document/worker_spawner.h"
#include "proto/crawl.pb.h"

namespace crawl::fetcher {

struct DocumentParserOptions {
  // The binary to run ("/proc/self/exe": the fetcher itself, even if its
  // file was replaced since) and extra arguments after kDocumentWorkerArg.
  std::string executable = "/proc/self/exe";
  std::vector<std::string> extra_args;
  // Worker processes (documents parsed at once).
  size_t workers = 1;
  // Wall-clock time one document may take, from request to answer.
  std::chrono::milliseconds timeout{10'000};
  // The worker's RLIMIT_AS and RLIMIT_CPU (over its life).
  size_t memory_bytes = size_t{1} << 30;
  unsigned cpu_seconds = 3600;
  // "kill", "trap" or "off" (worker_sandbox.h).
  std::string seccomp = "kill";
  // Largest answer (a bigger one is an error for the document).
  size_t max_response_bytes = size_t{64} << 20;
  // The parser's text and link limits.
  DocumentLimits limits;
};

class DocumentParser {
 public:
  explicit DocumentParser(DocumentParserOptions options);
  // Kills and reaps the workers. REQUIRES: no Parse call in progress.
  ~DocumentParser();
  DocumentParser(const DocumentParser&) = delete;
  DocumentParser& operator=(const DocumentParser&) = delete;

  // Parses `body` as `type` in a worker (started on first use). An error
  // when the parser rejects the document (StatusCode::kInvalidArgument,
  // its message) or the worker failed on it (kUnavailable, "document
  // worker: <reason>"). Thread-safe: up to options.workers calls run at
  // once, the others wait for a free worker. `url` is for the log only.
  [[nodiscard]] Result<v1::ParsedDocument> Parse(DocumentType type, std::string_view url,
                                                 std::string_view body) const;

  // As Parse with a type name as the request carries it (kinds the worker's
  // test hooks know, e.g. "test:spin", reach the worker this way).
  [[nodiscard]] Result<v1::ParsedDocument> ParseNamed(std::string_view type_name, std::string_view url,
                                                      std::string_view body) const;

  // Process ids of the running workers (tests kill them). Thread-safe.
  [[nodiscard]] std::vector<int> WorkerPids() const;

  const DocumentParserOptions& options() const { return options_; }

 private:
  struct Worker;

  Worker* Acquire() const;
  void Release(Worker* worker) const;
  Status Spawn(Worker& worker) const;
  // Kills (unless it already ended) and reaps the worker; returns why it
  // ended when it was not killed here (`killed_for` otherwise).
  std::string Reap(Worker& worker, const std::string& killed_for) const;
  Result<v1::ParsedDocument> ParseOn(Worker& worker, const std::string& request, std::string_view url) const;

  const DocumentParserOptions options_;
  const std::unique_ptr<WorkerSpawner> spawner_;
  mutable std::mutex mu_;
  mutable std::condition_variable free_cv_;
  std::vector<std::unique_ptr<Worker>> workers_;
  mutable std::vector<Worker*> free_;
};

}  // namespace crawl::fetcher
