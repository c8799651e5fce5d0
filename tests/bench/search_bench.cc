// search_bench: index build rate and query latency of one queue server's
// SearchIndex (DESIGN.md sections 7-8) on synthetic documents with a Zipf
// vocabulary (like testweb's text: words drawn with Zipf exponent 1 from a
// vocabulary, titles of 5 words, bodies of `--tokens` words).
//
//   search_bench [DOCS=200000] [TOKENS=150] [VOCABULARY=50000]
//
// Build: documents/s of SearchIndex::AddPage + Flush per 400-page batch,
// with the journal encoding every record (postings codec, zlib summaries)
// but not writing RocksDB. Queries: p50/p95 of 300 queries each of 1, 2 and
// 3 terms drawn from vocabulary ranks 10-2000, n = 200 matches.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <random>
#include <thread>
#include <string>
#include <unordered_map>
#include <vector>

#include "tests/bench/bench_util.h"
#include "common/clock.h"
#include "common/hash.h"
#include "fetcher/stemmer.h"
#include "queueserver/search_index.h"

using crawl::bench::CpuModel;
using crawl::bench::RssBytes;
using crawl::bench::ThreadCpuSeconds;

using namespace crawl::queueserver;
namespace v1 = crawl::v1;

namespace {

struct CountingJournal final : IndexJournal {
  uint64_t bytes = 0;
  void PutIndex(IndexFamily, const std::string& k, const std::string& v) override { bytes += k.size() + v.size(); }
};

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(p * static_cast<double>(v.size() - 1))];
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t docs = argc > 1 ? std::stoull(argv[1]) : 200'000;
  const uint32_t tokens = argc > 2 ? static_cast<uint32_t>(std::stoul(argv[2])) : 150;
  const uint32_t vocabulary = argc > 3 ? static_cast<uint32_t>(std::stoul(argv[3])) : 50'000;
  std::mt19937_64 rng(42);
  // Zipf(1) over ranks 1..V by inverse CDF on a table.
  std::vector<double> cdf(vocabulary);
  double sum = 0;
  for (uint32_t r = 0; r < vocabulary; ++r) cdf[r] = (sum += 1.0 / (r + 1));
  auto draw = [&] {
    const double u = std::uniform_real_distribution<double>(0, sum)(rng);
    return static_cast<uint32_t>(std::lower_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
  };
  auto word = [](uint32_t r) { return "w" + std::to_string(r) + "x"; };

  CountingJournal journal;
  SearchIndex index({}, &journal);
  double build_seconds = 0, build_cpu = 0;
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
    r.set_title(title);
    r.add_description()->set_text(text);
    r.set_text_hash(crawl::hash::Hash8(r.url()));
    if (batch.size() == 400 || d + 1 == docs) {
      const auto t0 = std::chrono::steady_clock::now();
      const double c0 = ThreadCpuSeconds();
      for (const auto& rec : batch) (void)index.AddPage(rec);
      index.Flush();
      build_cpu += ThreadCpuSeconds() - c0;
      build_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      batch.clear();
    }
  }
  std::printf("machine: %s, %u cores\n", CpuModel().c_str(), std::thread::hardware_concurrency());
  std::printf("index build: %llu documents of %u tokens: %.0f documents/s per core (CPU %.2f s), %.0f/s wall; "
              "%.1f MB of records\n",
              static_cast<unsigned long long>(docs), tokens + 5, static_cast<double>(docs) / build_cpu, build_cpu,
              static_cast<double>(docs) / build_seconds, static_cast<double>(journal.bytes) / 1e6);

  crawl::fetcher::Stemmer en("en");
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
      SearchOutcome out = index.Search(*query, o, clock, en);
      cpu_ms.push_back((ThreadCpuSeconds() - c0) * 1000);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      results += out.hits.size();
    }
    std::printf("%d-term queries: wall p50 %.2f ms, p95 %.2f ms; CPU p50 %.2f ms, p95 %.2f ms (300 queries, %.1f "
                "results on average)\n",
                terms, Percentile(ms, 0.5), Percentile(ms, 0.95), Percentile(cpu_ms, 0.5), Percentile(cpu_ms, 0.95),
                static_cast<double>(results) / 300.0);
  }
  return 0;
}
