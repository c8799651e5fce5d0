// The document parsers (fetcher/document/document.h) in-process, on the
// test documents (tests/data/documents/MANIFEST.tsv; run by hand): each
// file parsed N times, then per type documents per second, CPU ms per
// document and per MB of input (this thread's CPU time, so the figures are
// per core). In production ParseDocument runs in the document worker
// process; this measures the parsers alone.
//
//   build/bin/document_bench tests/data/documents [N=200]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fetcher/document/document.h"
#include "tests/bench/bench_util.h"

namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

struct Totals {
  int documents = 0;
  double bytes = 0;
  double cpu_seconds = 0;
  int failures = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = std::string(argc > 1 ? argv[1] : "tests/data/documents") + "/";
  const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 200;
  std::istringstream manifest(ReadFile(dir + "MANIFEST.tsv"));
  std::string line;
  std::getline(manifest, line);
  std::map<std::string, Totals> by_type;
  const crawl::fetcher::DocumentLimits limits;
  while (std::getline(manifest, line)) {
    const std::string file = line.substr(0, line.find('\t'));
    const std::string rest = line.substr(file.size() + 1);
    const std::string type_name = rest.substr(0, rest.find('\t'));
    const auto type = crawl::fetcher::DocumentTypeFromName(type_name);
    const std::string body = ReadFile(dir + file);
    if (!type || body.empty()) continue;
    Totals& totals = by_type[type_name];
    const double start = crawl::bench::ThreadCpuSeconds();
    for (int i = 0; i < rounds; ++i) {
      if (!crawl::fetcher::ParseDocument(*type, body, limits).ok()) ++totals.failures;
    }
    totals.cpu_seconds += crawl::bench::ThreadCpuSeconds() - start;
    totals.documents += rounds;
    totals.bytes += static_cast<double>(body.size()) * rounds;
  }
  std::printf("document_bench: %d rounds per file, CPU %s\n", rounds, crawl::bench::CpuModel().c_str());
  std::printf("%-5s %9s %10s %8s %9s %9s\n", "type", "docs", "docs/s", "ms/doc", "ms/MB", "failures");
  for (const auto& [name, t] : by_type) {
    std::printf("%-5s %9d %10.0f %8.3f %9.1f %9d\n", name.c_str(), t.documents, t.documents / t.cpu_seconds,
                1000 * t.cpu_seconds / t.documents, 1000 * t.cpu_seconds / (t.bytes / 1e6), t.failures);
  }
  return 0;
}
