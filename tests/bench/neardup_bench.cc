// Near-duplicate costs (docs/ARCHITECTURE.md "Near-duplicates"):
//  1. simhash per page (fetcher/page/simhash.h): MB/s of page text and µs
//     per 20 KB page, from text (tokenizing included) and from the words
//     AnalyzeText already has (what the fetcher adds per page);
//  2. the MatchFingerprints look-up on a RocksDB store
//     (queueserver/neardup/fingerprint_table.h) holding N fingerprints
//     (default 10,000,000: random 64-bit values, one in 100 planted within
//     3 bits of an earlier one), all 4 tables on one server: µs per probe
//     (look-up and insert) and the store's bytes per fingerprint on disk.
//
//   neardup_bench [--fingerprints N] [--probes P] [--dir DIR]
// Run in an optimised build (build/ is RelWithDebInfo, -O2); CPU times of
// this thread (bench_util.h).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>

#include "common/base/hash.h"
#include "common/text/tokenizer.h"
#include "fetcher/page/simhash.h"
#include "queueserver/neardup/fingerprint_table.h"
#include "queueserver/neardup/kv_store.h"
#include "tests/bench/bench_util.h"

namespace {

using crawl::queueserver::neardup::FingerprintEntry;
using crawl::queueserver::neardup::FingerprintTable;

std::string PageText(std::mt19937_64& rng, size_t bytes) {
  static const char* const kWords[] = {"the",     "crawler",   "fetches", "pages",  "from",    "hosts",
                                       "and",     "queues",    "links",   "while",  "index",   "terms",
                                       "rank",    "documents", "servers", "answer", "queries", "over",
                                       "network", "shards",    "quickly"};
  std::string text;
  while (text.size() < bytes) {
    text += kWords[rng() % 21];
    text += (rng() % 12 == 0) ? ". " : " ";
  }
  return text;
}

void BenchSimhash() {
  std::mt19937_64 rng(7);
  std::vector<std::string> pages;
  for (int i = 0; i < 200; ++i) pages.push_back(PageText(rng, 20'000));
  std::vector<std::string> words;
  for (const std::string& p : pages) {
    std::string w;
    crawl::text::ForEachToken(p, [&](std::string_view t) {
      if (!w.empty()) w.push_back(' ');
      w.append(t);
    });
    words.push_back(std::move(w));
  }
  uint64_t sink = 0;
  const int rounds = 20;
  double bytes = 0;
  double t0 = crawl::bench::ThreadCpuSeconds();
  for (int r = 0; r < rounds; ++r) {
    for (const std::string& p : pages) {
      sink += crawl::fetcher::SimhashOfText(p);
      bytes += static_cast<double>(p.size());
    }
  }
  const double text_s = crawl::bench::ThreadCpuSeconds() - t0;
  t0 = crawl::bench::ThreadCpuSeconds();
  for (int r = 0; r < rounds; ++r) {
    for (const std::string& w : words) sink += crawl::fetcher::SimhashOfWords(w);
  }
  const double words_s = crawl::bench::ThreadCpuSeconds() - t0;
  const double n = rounds * static_cast<double>(pages.size());
  std::printf("simhash of text (tokenizing included): %.1f MB/s, %.1f us per 20 KB page\n",
              bytes / text_s / 1e6, text_s / n * 1e6);
  std::printf(
      "simhash of the words (the fetcher's added cost): %.1f MB/s of page text, %.1f us per 20 KB page\n",
      bytes / words_s / 1e6, words_s / n * 1e6);
  std::printf("(checksum %016llx)\n", static_cast<unsigned long long>(sink));
}

// Loads n entries straight into the 4 tables (the state n probes would leave).
void Load(crawl::queueserver::neardup::KvStore& store, uint64_t n, std::mt19937_64& rng,
          std::vector<uint64_t>* sample) {
  std::vector<std::pair<std::string, std::string>> batch;
  uint64_t last = 0;
  for (uint64_t i = 0; i < n; ++i) {
    FingerprintEntry e;
    // One in 100 planted within 3 bits of the one before.
    e.fingerprint = (i % 100 == 99) ? last ^ (1ULL << (rng() % 64)) ^ (1ULL << (rng() % 64)) : rng();
    last = e.fingerprint;
    const std::string url = "http://h" + std::to_string(i % 100'000) + ".test/p/" + std::to_string(i);
    e.url_hash = crawl::hash::Hash8(url);
    e.cluster = e.url_hash;
    e.cluster_url = url;
    e.fetched_unix_us = static_cast<int64_t>(i);
    e.cluster_fetched_unix_us = e.fetched_unix_us;
    for (uint32_t t = 0; t < 4; ++t) {
      for (auto& kv : crawl::queueserver::neardup::EntryWrites(1, t, e)) batch.push_back(std::move(kv));
    }
    if (i % 1000 == 0 && sample->size() < 100'000) sample->push_back(e.fingerprint);
    if (batch.size() >= 80'000) {
      if (!store.Put(batch).ok()) std::abort();
      batch.clear();
    }
    if ((i + 1) % 1'000'000 == 0)
      std::fprintf(stderr, "loaded %llu\n", static_cast<unsigned long long>(i + 1));
  }
  if (!batch.empty() && !store.Put(batch).ok()) std::abort();
}

void BenchLookups(uint64_t n, uint64_t probes, const std::string& dir) {
  std::filesystem::remove_all(dir);
  auto store = crawl::queueserver::neardup::OpenRocksKvStore(dir);
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.status().ToString().c_str());
    std::exit(1);
  }
  std::mt19937_64 rng(11);
  std::vector<uint64_t> sample;
  const auto load_start = std::chrono::steady_clock::now();
  Load(**store, n, rng, &sample);
  const double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
  const uint64_t disk = (*store)->DiskBytes();
  std::printf("loaded %llu fingerprints in %.0f s; %.1f bytes per fingerprint on disk (4 tables, %.2f GB)\n",
              static_cast<unsigned long long>(n), load_s, static_cast<double>(disk) / static_cast<double>(n),
              static_cast<double>(disk) / 1e9);
  FingerprintTable table(store->get());
  uint64_t matched = 0;
  const double t0 = crawl::bench::ThreadCpuSeconds();
  const auto w0 = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < probes; ++i) {
    crawl::v1::MatchFingerprintsRequest req;
    req.set_crawl_id(1);
    req.set_max_distance(3);
    crawl::v1::FingerprintProbe* p = req.add_probes();
    // Half new pages, half near copies of loaded ones.
    const uint64_t fp = (i % 2 == 0) ? rng() : sample[i % sample.size()] ^ (1ULL << (i % 64));
    p->set_fingerprint(fp);
    const std::string url = "http://probe.test/" + std::to_string(i);
    p->set_url(url);
    p->set_url_hash(crawl::hash::Hash8(url));
    p->set_fetched_unix_us(static_cast<int64_t>(n + i));
    for (uint32_t t = 0; t < 4; ++t) p->add_tables(t);
    crawl::v1::MatchFingerprintsResponse resp;
    if (!table.Match(req, &resp).ok()) std::abort();
    matched += static_cast<uint64_t>(resp.matches_size());
  }
  const double cpu = crawl::bench::ThreadCpuSeconds() - t0;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  std::printf(
      "MatchFingerprints, one probe of 4 tables per call: %.1f us CPU, %.1f us wall per probe "
      "(%llu probes, %llu matched)\n",
      cpu / static_cast<double>(probes) * 1e6, wall / static_cast<double>(probes) * 1e6,
      static_cast<unsigned long long>(probes), static_cast<unsigned long long>(matched));
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t n = 10'000'000, probes = 100'000;
  std::string dir = (std::filesystem::temp_directory_path() / "neardup_bench").string();
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--fingerprints") == 0) n = std::stoull(argv[i + 1]);
    if (std::strcmp(argv[i], "--probes") == 0) probes = std::stoull(argv[i + 1]);
    if (std::strcmp(argv[i], "--dir") == 0) dir = argv[i + 1];
  }
  std::printf("cpu: %s\n", crawl::bench::CpuModel().c_str());
  BenchSimhash();
  BenchLookups(n, probes, dir);
  std::filesystem::remove_all(dir);
  return 0;
}
