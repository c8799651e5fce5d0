// search_bench: index build rate and query latency of one queue server's
// SearchIndex (docs/DESIGN.md §7-8) on synthetic documents with a Zipf
// vocabulary (like testweb's text: words drawn with Zipf exponent 1 from a
// vocabulary, titles of 5 words, bodies of `--tokens` words).
//
//   search_bench [DOCS=200000] [TOKENS=150] [VOCABULARY=50000] [DIR=$TMPDIR]
//
// The index lives in a queue server's RocksDB store (QueueStore under a
// fresh directory in DIR, removed at the end), as in a crawl: per 400-page
// batch SearchIndex::AddPage, Flush, the ShardWriter's Commit, and the merge
// of a partition that closed (100,000 documents each). Build: documents per
// CPU second of the indexing thread (RocksDB's background flushes and
// compactions are reported apart, as process CPU). Queries: p50/p95 of 300
// queries each of 1, 2 and 3 terms drawn from vocabulary ranks 10-2000,
// n = 200 matches, postings read from the store. Peak RSS at the end.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "common/base/clock.h"
#include "common/base/hash.h"
#include "common/text/packed_terms.h"
#include "common/text/stemmer.h"
#include "queueserver/index/search_index.h"
#include "queueserver/store/queue_store.h"
#include "tests/bench/bench_util.h"

using crawl::bench::CpuModel;
using crawl::bench::RssBytes;
using crawl::bench::ThreadCpuSeconds;

using namespace crawl::queueserver;
namespace v1 = crawl::v1;

namespace {

double ProcessCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

// Peak resident set size (VmHWM) in MB.
double PeakRssMb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  }
  return 0;
}

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(p * static_cast<double>(v.size() - 1))];
}

// Positional arguments: DOCS TOKENS VOCABULARY DIR (each optional).
struct BenchArgs {
  uint64_t docs = 200'000;
  uint32_t tokens = 150;
  uint32_t vocabulary = 50'000;
  std::string dir = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
};

constexpr const char* kUsage =
    "usage: search_bench [DOCS=200000] [TOKENS=150] [VOCABULARY=50000] [DIR=$TMPDIR]\n";

// A positive whole number, or nullopt with a message on stderr.
std::optional<uint64_t> PositiveNumber(const char* name, const char* text, uint64_t max) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (*text == '\0' || *text == '-' || *end != '\0' || errno != 0 || v == 0 || v > max) {
    std::fprintf(stderr, "search_bench: %s must be a whole number from 1 to %llu, got '%s'\n%s", name,
                 static_cast<unsigned long long>(max), text, kUsage);
    return std::nullopt;
  }
  return v;
}

// Returns nullopt (after printing usage or an error) when main should exit.
std::optional<BenchArgs> ParseArgs(int argc, char** argv, int& exit_code) {
  BenchArgs a;
  exit_code = 2;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-h") == 0 || std::strcmp(argv[i], "--help") == 0) {
      std::fputs(kUsage, stdout);
      exit_code = 0;
      return std::nullopt;
    }
  }
  if (argc > 5) {
    std::fprintf(stderr, "search_bench: at most 4 arguments\n%s", kUsage);
    return std::nullopt;
  }
  const uint64_t u32 = std::numeric_limits<uint32_t>::max();
  if (argc > 1) {
    auto v = PositiveNumber("DOCS", argv[1], std::numeric_limits<uint64_t>::max());
    if (!v) return std::nullopt;
    a.docs = *v;
  }
  if (argc > 2) {
    auto v = PositiveNumber("TOKENS", argv[2], u32);
    if (!v) return std::nullopt;
    a.tokens = static_cast<uint32_t>(*v);
  }
  if (argc > 3) {
    auto v = PositiveNumber("VOCABULARY", argv[3], u32);
    if (!v) return std::nullopt;
    a.vocabulary = static_cast<uint32_t>(*v);
  }
  if (argc > 4) a.dir = argv[4];
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  const auto args = ParseArgs(argc, argv, exit_code);
  if (!args) return exit_code;
  const uint64_t docs = args->docs;
  const uint32_t tokens = args->tokens;
  const uint32_t vocabulary = args->vocabulary;
  std::mt19937_64 rng(42);
  // Zipf(1) over ranks 1..V by inverse CDF on a table.
  std::vector<double> cdf(vocabulary);
  double sum = 0;
  for (uint32_t r = 0; r < vocabulary; ++r) cdf[r] = (sum += 1.0 / (r + 1));
  auto draw = [&] {
    const double u = std::uniform_real_distribution<double>(0, sum)(rng);
    return static_cast<uint32_t>(std::lower_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
  };
  // Appended piecewise: GCC 12's -Wrestrict misfires on "w" + to_string(r) + "x" at -O3.
  auto word = [](uint32_t r) {
    std::string w = "w";
    w += std::to_string(r);
    w += 'x';
    return w;
  };

  const std::string& parent = args->dir;
  const std::string dir = parent + "/search_bench." + std::to_string(getpid());
  auto store = QueueStore::Open(dir, {});
  if (!store.ok()) {
    std::fprintf(stderr, "search_bench: %s\n", store.status().message().c_str());
    return 1;
  }
  auto writer = (*store)->NewWriter(1);
  SearchIndex index({}, writer.get());
  double build_seconds = 0, build_cpu = 0;
  const double process_cpu0 = ProcessCpuSeconds(), thread_cpu0 = ThreadCpuSeconds();
  std::vector<v1::FetchRecord> batch;
  for (uint64_t d = 0; d < docs; ++d) {
    v1::FetchRecord& r = batch.emplace_back();
    r.set_url("http://h" + std::to_string(d % 5000) + ".test/p" + std::to_string(d));
    r.set_kind(v1::URL_KIND_PAGE);
    r.set_status(200);
    r.set_language("en");
    v1::MiniIndex* mi = r.mutable_mini_index();
    std::unordered_map<uint32_t, v1::IndexTerm*> terms;
    std::string title, text;
    for (uint32_t p = 0; p < tokens + 5; ++p) {
      const uint32_t w = draw();
      v1::IndexTerm*& t = terms[w];
      if (!t) {
        t = mi->add_terms();
        t->set_term(word(w));
      }
      t->add_positions(p);
      if (p < 5) {
        t->set_title_count(t->title_count() + 1);
        title += word(w) + " ";
      } else {
        t->set_body_count(t->body_count() + 1);
        if (p < 40) text += word(w) + " ";
      }
    }
    mi->set_title_tokens(5);
    mi->set_token_count(tokens + 5);
    if (!crawl::text::PackTerms(mi).ok()) std::abort();  // as fetchers send it; positions ascend
    r.set_title(title);
    r.add_description()->set_text(text);
    r.set_text_hash(crawl::hash::Hash8(r.url()));
    if (batch.size() == 400 || d + 1 == docs) {
      const auto t0 = std::chrono::steady_clock::now();
      const double c0 = ThreadCpuSeconds();
      for (const auto& rec : batch) (void)index.AddPage(rec);
      index.Flush();
      if (auto st = writer->Commit(); !st.ok()) {
        std::fprintf(stderr, "search_bench: commit: %s\n", st.message().c_str());
        return 1;
      }
      if (index.merge_pending()) {
        if (auto st = index.MergeClosed(); !st.ok()) {
          std::fprintf(stderr, "search_bench: merge: %s\n", st.message().c_str());
          return 1;
        }
      }
      build_cpu += ThreadCpuSeconds() - c0;
      build_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      batch.clear();
    }
  }
  // Other threads: RocksDB's flushes and compactions.
  const double background_cpu = (ProcessCpuSeconds() - process_cpu0) - (ThreadCpuSeconds() - thread_cpu0);
  uint64_t disk = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) disk += e.file_size();
  }
  std::printf("machine: %s, %u cores\n", CpuModel().c_str(), std::thread::hardware_concurrency());
  std::printf(
      "index build: %llu documents of %u tokens: %.0f documents/s per CPU second of the indexing thread "
      "(%.1f s), %.0f/s wall; RocksDB background threads %.1f s CPU (%.0f documents/s counting both); store "
      "%.0f MB; "
      "RSS after build %.0f MB\n",
      static_cast<unsigned long long>(docs), tokens + 5, static_cast<double>(docs) / build_cpu, build_cpu,
      static_cast<double>(docs) / build_seconds, background_cpu,
      static_cast<double>(docs) / (build_cpu + background_cpu), static_cast<double>(disk) / 1e6,
      static_cast<double>(RssBytes()) / 1e6);

  crawl::text::Stemmer en("en");
  crawl::SystemClock clock;
  for (int terms = 1; terms <= 3; ++terms) {
    std::vector<double> ms, cpu_ms;
    uint64_t results = 0;
    for (int q = 0; q < 300; ++q) {
      std::string text;
      for (int t = 0; t < terms; ++t) text += word(10 + static_cast<uint32_t>(rng() % 1990)) + " ";
      auto query = ParseQuery(text, en);
      if (!query.ok()) return 1;
      SearchOptions o;
      o.max_matches = 200;
      o.deadline_unix_ms = clock.NowUnixMs() + 10'000;
      const auto t0 = std::chrono::steady_clock::now();
      const double c0 = ThreadCpuSeconds();
      auto searched = index.Search(*query, o, clock, en);
      if (!searched.ok()) {
        std::fprintf(stderr, "search_bench: %s\n", searched.status().message().c_str());
        return 1;
      }
      const SearchOutcome& out = *searched;
      cpu_ms.push_back((ThreadCpuSeconds() - c0) * 1000);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      results += out.hits.size();
    }
    std::printf(
        "%d-term queries: wall p50 %.2f ms, p95 %.2f ms; CPU p50 %.2f ms, p95 %.2f ms (300 queries, %.1f "
        "results on average)\n",
        terms, Percentile(ms, 0.5), Percentile(ms, 0.95), Percentile(cpu_ms, 0.5), Percentile(cpu_ms, 0.95),
        static_cast<double>(results) / 300.0);
  }
  std::printf("peak RSS %.0f MB\n", PeakRssMb());
  writer.reset();
  store->reset();
  std::filesystem::remove_all(dir);
  return 0;
}
