// The document worker process (docs/ARCHITECTURE.md "The document worker"):
// the fetcher's own binary started again as `fetcher --document-worker
// [options]` by the DocumentParser (fetcher/document/worker_client.h). It
// confines itself (fetcher/document/worker_sandbox.h), says how in a first
// frame, then answers DocumentParseRequest frames on stdin with
// DocumentParseResponse frames on stdout (fetcher/document/worker_protocol.h)
// by calling ParseDocument (fetcher/document/document.h), until stdin ends.
//
// Options (after the first argument): --memory-mb=N (RLIMIT_AS),
// --cpu-s=N (RLIMIT_CPU), --seccomp=kill|trap|off, --max-response-bytes=N
// (a larger answer becomes an error), --test-hooks (request types
// "test:spin", "test:abort", "test:alloc", "test:syscall", "test:echo" for
// the tests and the bench; refused otherwise).
//
// Exit codes: 0 at the end of stdin, 2 for a bad request frame, 3 when an
// allocation failed (the memory limit).
#pragma once

#include <string_view>

namespace crawl::fetcher {

inline constexpr std::string_view kDocumentWorkerArg = "--document-worker";
inline constexpr int kWorkerExitBadFrame = 2;
inline constexpr int kWorkerExitOutOfMemory = 3;
// The first frame's DocumentParseResponse.error starts with this, followed
// by how the worker is confined (EnterWorkerSandbox).
inline constexpr std::string_view kWorkerHelloPrefix = "sandbox: ";

// True if argv[1] is kDocumentWorkerArg: main() must then return
// RunDocumentWorker(argc, argv) before anything else.
[[nodiscard]] bool IsDocumentWorkerCommand(int argc, char** argv);

// The worker's main. Never returns to the caller's normal start-up.
[[nodiscard]] int RunDocumentWorker(int argc, char** argv);

}  // namespace crawl::fetcher
