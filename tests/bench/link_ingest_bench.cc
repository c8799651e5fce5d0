// Link ingest through the real queue-server path (run by
// hand): queueserver::Frontier with the host_budget order (dedup in the
// URL-seen set, CLD statistics, tier placement) journalling every change into
// a RocksDB QueueStore, committed once per page's links as SubmitResults
// does. The tier queues live in the store (a window of each tier's head in
// RAM). Prints, per million seen URLs: links/s per CPU second of the
// ingesting thread, per CPU second of the whole process (RocksDB's flushes
// and compactions included) and per wall second, and process RSS per seen
// URL. At the end the store is loaded back as after a restart: load CPU
// time and the peak memory it took.
//
//   build/bin/link_ingest_bench [--urls 5000000] [--hosts 10000] [--links-per-page 50] [--dir DIR]
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "queueserver/frontier/frontier.h"
#include "queueserver/store/queue_store.h"
#include "tests/bench/bench_util.h"

namespace qs = crawl::queueserver;

using crawl::bench::CpuModel;
using crawl::bench::RssBytes;
using crawl::bench::ThreadCpuSeconds;

namespace {

std::string Host(uint64_t h) { return "http://www.host" + std::to_string(h) + ".example.test"; }

}  // namespace

int main(int argc, char** argv) {
  uint64_t target = 5'000'000, hosts = 10'000, per_page = 50;
  std::string dir = "/tmp/link-ingest-bench";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--urls"))
      target = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--hosts"))
      hosts = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--links-per-page"))
      per_page = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--dir"))
      dir = argv[i + 1];
    else {
      std::fprintf(stderr,
                   "usage: link_ingest_bench [--urls N] [--hosts H] [--links-per-page L] [--dir DIR]\n");
      return 2;
    }
  }
  std::filesystem::remove_all(dir);
  auto store = qs::QueueStore::Open(dir, {});
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.status().ToString().c_str());
    return 1;
  }
  auto writer = (*store)->NewWriter(1);
  qs::FrontierOptions options;
  options.order.kind = qs::OrderKind::kHostBudget;
  qs::Frontier frontier(options, writer.get(), writer.get());
  frontier.SetJournal(writer.get());
  int64_t now = 1'000'000;
  // The crawl's record, so the store can be loaded back at the end.
  crawl::v1::CrawlInfo crawl;
  crawl.set_crawl_id(1);
  crawl.set_state(crawl::v1::CRAWL_STATE_RUNNING);
  crawl.mutable_params()->set_order("host_budget");
  writer->PutCrawl(crawl);

  // Robots of every host known first (404: allow all), so links go to tiers.
  for (uint64_t h = 0; h < hosts; ++h) {
    qs::FrontierEntry e;
    e.url = Host(h) + "/";
    frontier.Add(e, now);
  }
  for (;;) {
    qs::Schedule s = frontier.Lease("bench", 5000, now);
    if (s.id == 0) break;
    for (const auto& e : s.entries) {
      qs::FetchOutcome o;
      o.url = e.url;
      o.kind = e.kind;
      o.status = 404;
      (void)frontier.Report(s.id, o, now);
    }
    frontier.Complete(s.id, now);
    if (auto st = writer->Commit(); !st.ok()) return 1;
  }

  std::printf("machine: %s, %ld CPUs\n", CpuModel().c_str(), sysconf(_SC_NPROCESSORS_ONLN));
  std::printf("host_budget ingest: %llu hosts, %llu links per page, half of them new\n",
              static_cast<unsigned long long>(hosts), static_cast<unsigned long long>(per_page));
  std::printf("%12s %12s %16s %16s %16s %14s\n", "seen_urls", "links", "links_per_cpu_s", "links_per_proc_s",
              "links_per_wall_s", "rss_B_per_url");
  std::mt19937_64 rng(7);
  uint64_t next = 0, links = 0, interval_links = 0, reported = 0;
  auto wall0 = std::chrono::steady_clock::now();
  std::clock_t cpu0 = std::clock();
  double thread0 = ThreadCpuSeconds();
  const size_t rss0 = RssBytes();
  std::vector<qs::LinkInput> page;
  while (frontier.Counters().urls_seen < target) {
    page.clear();
    const uint64_t referrer_host = rng() % hosts;
    const std::string referrer = Host(referrer_host) + "/p" + std::to_string(next > 0 ? rng() % next : 0);
    for (uint64_t i = 0; i < per_page; ++i) {
      qs::LinkInput l;
      // Mostly same host, one in five to another host; half the links are
      // to pages seen before.
      const uint64_t host = (i % 5 == 4) ? rng() % hosts : referrer_host;
      const uint64_t number = (i % 2 == 1 && next > 0) ? rng() % next : next++;
      l.entry.url = Host(host) + "/p" + std::to_string(number);
      l.entry.referrer = referrer;
      l.entry.depth = 2;
      l.link_rank = static_cast<uint32_t>(i);
      l.links_on_page = static_cast<uint32_t>(per_page);
      page.push_back(std::move(l));
    }
    frontier.AddLinks(std::move(page), now);
    page = {};
    if (auto st = writer->Commit(); !st.ok()) {
      std::fprintf(stderr, "commit: %s\n", st.ToString().c_str());
      return 1;
    }
    links += per_page;
    interval_links += per_page;
    const uint64_t seen = frontier.Counters().urls_seen;
    if (seen / 1'000'000 > reported) {
      reported = seen / 1'000'000;
      const auto wall = std::chrono::steady_clock::now();
      const std::clock_t cpu = std::clock();
      const double thread = ThreadCpuSeconds();
      const double wall_s = std::chrono::duration<double>(wall - wall0).count();
      const double cpu_s = static_cast<double>(cpu - cpu0) / CLOCKS_PER_SEC;
      std::printf("%12llu %12llu %16.0f %16.0f %16.0f %14.1f\n", static_cast<unsigned long long>(seen),
                  static_cast<unsigned long long>(links),
                  static_cast<double>(interval_links) / (thread - thread0),
                  static_cast<double>(interval_links) / cpu_s, static_cast<double>(interval_links) / wall_s,
                  static_cast<double>(RssBytes() - rss0) / static_cast<double>(seen));
      std::fflush(stdout);
      wall0 = wall;
      cpu0 = cpu;
      thread0 = thread;
      interval_links = 0;
    }
  }
  // Restart: the store loaded back as CrawlShard::Load does (the seen set
  // is rebuilt from the `seen` family). Peak RSS of the load is read after
  // resetting the kernel's high-water mark (/proc/self/clear_refs).
  writer.reset();
  {
    const size_t seen = frontier.Counters().urls_seen;
    std::ofstream("/proc/self/clear_refs") << "5";
    const size_t rss_before = RssBytes();
    const double cpu_before = ThreadCpuSeconds();
    auto image = (*store)->Load(1);
    if (!image.ok()) {
      std::fprintf(stderr, "load: %s\n", image.status().ToString().c_str());
      return 1;
    }
    const double load_cpu = ThreadCpuSeconds() - cpu_before;
    size_t peak = 0;
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
      if (line.rfind("VmHWM:", 0) == 0) peak = std::strtoull(line.c_str() + 6, nullptr, 10) * 1024;
    std::printf(
        "restart load: %.2f s CPU; seen set %.1f bytes/URL; peak RSS during load %.1f bytes/URL above "
        "the RSS before it\n",
        load_cpu,
        image->frontier.seen_set ? static_cast<double>(image->frontier.seen_set->MemoryBytes()) / seen : 0.0,
        peak > rss_before ? static_cast<double>(peak - rss_before) / seen : 0.0);
  }
  store->reset();
  std::filesystem::remove_all(dir);
  return 0;
}
