// The document worker's cost per document (run by hand): a small document
// parsed N times in process (ParseDocument) and N times through a worker
// process (DocumentParser::Parse: request frame, the worker's parse, answer
// frame), best of 5 rounds. The difference is the worker's overhead: two
// socket round trips, protobuf copies of body and result, and the context
// switches. Wall time (the worker is another process), and this thread's
// CPU time.
//
//   build/bin/document_worker_bench build/bin/fetcher tests/data/documents/gpl_preamble.rtf rtf [N]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "fetcher/document/worker_client.h"
#include "tests/bench/bench_util.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Timing {
  double wall_us = 1e18;
  double cpu_us = 1e18;
};

template <typename F>
Timing Best(int n, F&& parse) {
  Timing best;
  for (int round = 0; round < 5; ++round) {
    const auto start = Clock::now();
    const double cpu = crawl::bench::ThreadCpuSeconds();
    for (int i = 0; i < n; ++i) {
      if (!parse()) {
        std::fprintf(stderr, "parse failed\n");
        std::exit(1);
      }
    }
    const double wall = std::chrono::duration<double, std::micro>(Clock::now() - start).count() / n;
    best.wall_us = std::min(best.wall_us, wall);
    best.cpu_us = std::min(best.cpu_us, (crawl::bench::ThreadCpuSeconds() - cpu) * 1e6 / n);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s FETCHER_BINARY DOCUMENT TYPE [N]\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[2], std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string body = ss.str();
  const auto type = crawl::fetcher::DocumentTypeFromName(argv[3]);
  if (!type) {
    std::fprintf(stderr, "unknown type %s\n", argv[3]);
    return 2;
  }
  const int n = argc > 4 ? std::atoi(argv[4]) : 200;
  crawl::fetcher::DocumentParserOptions options;
  options.executable = argv[1];
  crawl::fetcher::DocumentParser parser(options);
  const crawl::fetcher::DocumentLimits limits;
  if (!parser.Parse(*type, "bench", body).ok()) {  // starts the worker
    std::fprintf(stderr, "the worker cannot parse %s\n", argv[2]);
    return 1;
  }
  const Timing local = Best(n, [&] { return crawl::fetcher::ParseDocument(*type, body, limits).ok(); });
  const Timing remote = Best(n, [&] { return parser.Parse(*type, "bench", body).ok(); });
  std::printf("cpu: %s\ndocument: %s (%zu bytes, %s), %d parses per round, best of 5\n",
              crawl::bench::CpuModel().c_str(), argv[2], body.size(), argv[3], n);
  std::printf("in process:     %9.1f us wall, %9.1f us CPU per document\n", local.wall_us, local.cpu_us);
  std::printf("through worker: %9.1f us wall, %9.1f us CPU (this thread) per document\n", remote.wall_us,
              remote.cpu_us);
  std::printf("overhead:       %9.1f us wall per document\n", remote.wall_us - local.wall_us);
  return 0;
}
