// URL-seen set at scale (run by hand): offers links to
// queueserver::UrlSeenSet until N distinct URLs were seen, one link in
// `--dup-every` repeating an earlier URL (real pages link mostly to pages
// already seen), and prints per million seen URLs: links/s over the last
// interval per second of this process's CPU time (the machine is shared, so
// wall time is printed too; MD5 hash of the canonical URL string included),
// the set's own bytes per URL and the process RSS per URL.
//
//   build/bin/url_seen_bench [--urls 50000000] [--dup-every 2]
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <random>
#include <string>

#include "common/base/hash.h"
#include "queueserver/frontier/url_seen.h"
#include "tests/bench/bench_util.h"

using crawl::bench::CpuModel;
using crawl::bench::RssBytes;
using crawl::bench::ThreadCpuSeconds;

namespace {

// The i-th distinct URL: 100,000 hosts, directory trees, numbered pages.
std::string UrlNumber(uint64_t i, std::string& buf) {
  buf.clear();
  buf += "http://host";
  buf += std::to_string(i % 100'000);
  buf += ".example.test/section";
  buf += std::to_string((i / 100'000) % 50);
  buf += "/page";
  buf += std::to_string(i);
  buf += ".html";
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t target = 50'000'000;
  uint64_t dup_every = 2;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--urls") == 0)
      target = std::strtoull(argv[i + 1], nullptr, 10);
    else if (std::strcmp(argv[i], "--dup-every") == 0)
      dup_every = std::strtoull(argv[i + 1], nullptr, 10);
    else {
      std::fprintf(stderr, "usage: url_seen_bench [--urls N] [--dup-every K]\n");
      return 2;
    }
  }
  if (dup_every < 2) dup_every = 2;
  std::printf("machine: %s, %ld cores\n", CpuModel().c_str(), sysconf(_SC_NPROCESSORS_ONLN));
  std::printf("%12s %12s %16s %16s %14s %14s\n", "seen_urls", "links", "links_per_cpu_s", "links_per_wall_s",
              "set_B_per_url", "rss_B_per_url");
  const size_t rss0 = RssBytes();
  crawl::queueserver::UrlSeenSet seen;
  std::mt19937_64 rng(42);
  std::string buf;
  uint64_t next_new = 0, links = 0, interval_links = 0;
  auto interval_start = std::chrono::steady_clock::now();
  const auto start = interval_start;
  std::clock_t interval_cpu = std::clock();
  while (next_new < target) {
    ++links;
    ++interval_links;
    const bool repeat = next_new > 0 && links % dup_every == 0;
    const uint64_t number = repeat ? rng() % next_new : next_new;
    const bool is_new = seen.Insert(crawl::hash::Hash8(UrlNumber(number, buf)));
    if (is_new != !repeat) {
      std::fprintf(stderr, "membership error at link %llu\n", static_cast<unsigned long long>(links));
      return 1;
    }
    if (!is_new) continue;
    ++next_new;
    if (next_new % 1'000'000 == 0) {
      const auto now = std::chrono::steady_clock::now();
      const double secs = std::chrono::duration<double>(now - interval_start).count();
      const std::clock_t cpu_now = std::clock();
      const double cpu_secs = static_cast<double>(cpu_now - interval_cpu) / CLOCKS_PER_SEC;
      interval_cpu = cpu_now;
      std::printf("%12llu %12llu %16.0f %16.0f %14.2f %14.2f\n", static_cast<unsigned long long>(next_new),
                  static_cast<unsigned long long>(links), static_cast<double>(interval_links) / cpu_secs,
                  static_cast<double>(interval_links) / secs,
                  static_cast<double>(seen.MemoryBytes()) / static_cast<double>(seen.size()),
                  static_cast<double>(RssBytes() - rss0) / static_cast<double>(seen.size()));
      std::fflush(stdout);
      interval_start = now;
      interval_links = 0;
    }
  }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu_total = static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
  std::printf("total: %llu links, %llu distinct, %.1f s wall, %.1f s cpu, %.0f links per cpu second\n",
              static_cast<unsigned long long>(links), static_cast<unsigned long long>(next_new), total,
              cpu_total, static_cast<double>(links) / cpu_total);
  return 0;
}
