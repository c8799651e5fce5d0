// The document worker's main loop (worker_process.h).
#include "fetcher/document/worker_process.h"

#include <iconv.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "fetcher/document/document.h"
#include "fetcher/document/worker_protocol.h"
#include "fetcher/document/worker_sandbox.h"
#include "proto/crawl.pb.h"

namespace crawl::fetcher {
namespace {

struct WorkerArgs {
  WorkerSandboxOptions sandbox;
  size_t max_response_bytes = size_t{64} << 20;
  bool test_hooks = false;
};

bool NumberArg(std::string_view arg, std::string_view name, size_t* out) {
  if (!arg.starts_with(name)) return false;
  *out = std::strtoull(std::string(arg.substr(name.size())).c_str(), nullptr, 10);
  return true;
}

WorkerArgs ParseArgs(int argc, char** argv) {
  WorkerArgs args;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    size_t n = 0;
    if (NumberArg(arg, "--memory-mb=", &n) && n > 0) {
      args.sandbox.memory_bytes = n << 20;
    } else if (NumberArg(arg, "--cpu-s=", &n) && n > 0) {
      args.sandbox.cpu_seconds = static_cast<unsigned>(n);
    } else if (NumberArg(arg, "--max-response-bytes=", &n) && n > 0) {
      args.max_response_bytes = n;
    } else if (arg.starts_with("--seccomp=")) {
      (void)ParseSeccompMode(std::string(arg.substr(10)), &args.sandbox.seccomp);
    } else if (arg == "--test-hooks") {
      args.test_hooks = true;
    }
  }
  return args;
}

// The test hooks: documents that misbehave on purpose.
v1::DocumentParseResponse RunTestHook(const v1::DocumentParseRequest& request) {
  v1::DocumentParseResponse response;
  const std::string& type = request.type();
  if (type == "test:spin") {
    volatile uint64_t x = 0;
    for (;;) x = x + 1;  // until the fetcher's time limit or RLIMIT_CPU
  } else if (type == "test:abort") {
    std::abort();
  } else if (type == "test:alloc") {
    std::vector<std::string*> held;
    for (;;) held.push_back(new std::string(size_t{64} << 20, 'x'));  // until RLIMIT_AS
  } else if (type == "test:syscall") {
    // A socket is no business of a parser: the filter kills the process.
    response.set_error("socket() returned " + std::to_string(socket(AF_INET, SOCK_STREAM, 0)));
  } else if (type == "test:echo") {
    response.mutable_document()->set_text(request.body());
    response.mutable_document()->mutable_info()->set_type("echo");
  } else {
    response.set_error("unknown test hook " + type);
  }
  return response;
}

v1::DocumentParseResponse Answer(const v1::DocumentParseRequest& request, bool test_hooks) {
  if (request.type().starts_with("test:")) {
    try {
      if (test_hooks) return RunTestHook(request);
    } catch (const std::bad_alloc&) {
      _exit(kWorkerExitOutOfMemory);
    }
    v1::DocumentParseResponse refused;
    refused.set_error("test hooks are off");
    return refused;
  }
  v1::DocumentParseResponse response;
  const std::optional<DocumentType> type = DocumentTypeFromName(request.type());
  if (!type) {
    response.set_error("unknown document type \"" + request.type().substr(0, 40) + "\"");
    return response;
  }
  DocumentLimits limits;
  if (request.max_text_bytes() > 0) limits.max_text_bytes = request.max_text_bytes();
  if (request.max_links() > 0) limits.max_links = request.max_links();
  try {
    Result<v1::ParsedDocument> parsed = ParseDocument(*type, request.body(), limits);
    if (parsed.ok()) {
      *response.mutable_document() = std::move(*parsed);
    } else {
      response.set_error(parsed.status().message());
    }
  } catch (const std::bad_alloc&) {
    _exit(kWorkerExitOutOfMemory);  // the heap may be unusable: a fresh worker takes over
  } catch (const std::exception& e) {
    response.Clear();
    response.set_error(std::string("parser exception: ") + e.what());
  }
  return response;
}

// A one-page PDF with an Info dictionary (xref offsets left for poppler to
// reconstruct).
constexpr std::string_view kWarmUpPdf =
    "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
    "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n"
    "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R "
    "/Resources << /Font << /F1 5 0 R >> >> >> endobj\n"
    "4 0 obj << /Length 44 >> stream\nBT /F1 12 Tf 20 100 Td (warm up \\351t\\351) Tj ET\nendstream endobj\n"
    "5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj\n"
    "6 0 obj << /Title (warm up) /Author <FEFF0077> /CreationDate (D:20200101000000Z) >> endobj\n"
    "trailer << /Root 1 0 R /Info 6 0 R >>\n%%EOF\n";

// Loads what the parsers open lazily, while files can still be opened:
// glibc's iconv modules (poppler-cpp converts its UTF-16 strings with
// iconv; the descriptors stay open so the modules stay loaded), locale
// data, poppler's global tables.
void WarmUp() {
  static const char* const kPairs[][2] = {{"UTF-8", "UTF-16LE"}, {"UTF-8", "UTF-16BE"},   {"UTF-8", "UTF-16"},
                                          {"UTF-16BE", "UTF-8"}, {"UTF-8", "ISO-8859-1"}, {"UTF-8", "UTF-8"}};
  for (const auto& pair : kPairs) (void)iconv_open(pair[0], pair[1]);
  (void)ParseDocument(DocumentType::kPdf, kWarmUpPdf, DocumentLimits{});
}

}  // namespace

bool IsDocumentWorkerCommand(int argc, char** argv) {
  return argc >= 2 && argv[1] != nullptr && std::string_view(argv[1]) == kDocumentWorkerArg;
}

int RunDocumentWorker(int argc, char** argv) {
  const WorkerArgs args = ParseArgs(argc, argv);
  // Allocation failures below the limit end the process rather than
  // return null into a parser that does not check.
  std::set_new_handler(nullptr);
  WarmUp();
  v1::DocumentParseResponse hello;
  hello.set_error(std::string(kWorkerHelloPrefix) + EnterWorkerSandbox(args.sandbox));
  if (!WriteFrame(1, hello.SerializeAsString()).ok()) return 0;
  for (;;) {
    auto frame = ReadFrame(0, kMaxDocumentRequestFrame);
    if (!frame.ok()) return kWorkerExitBadFrame;
    if (!frame->has_value()) return 0;
    v1::DocumentParseRequest request;
    if (!request.ParseFromString(**frame)) return kWorkerExitBadFrame;
    frame->reset();
    v1::DocumentParseResponse response = Answer(request, args.test_hooks);
    std::string out = response.SerializeAsString();
    if (out.size() > args.max_response_bytes) {
      response.Clear();
      response.set_error("response of " + std::to_string(out.size()) + " bytes over the limit of " +
                         std::to_string(args.max_response_bytes));
      out = response.SerializeAsString();
    }
    if (!WriteFrame(1, out).ok()) return 0;
  }
}

}  // namespace crawl::fetcher
