// Schedule production through the real queue-server path
// (run by hand): a frontier of N queued URLs over H hosts (robots.txt known,
// host_budget tiers from real link ingest) is written to a RocksDB
// QueueStore, the shard is loaded back as after a restart (the tier queues
// stay on disk), and then CrawlShard::GetSchedule is called by F fetchers in
// turn: Frontier::Lease (round-robin over tiers, one schedule per origin),
// the lease journal writes and the commit, and the response. Each fetcher
// holds its schedule until its next turn, then reports every URL fetched
// (SubmitResults, final), so F schedules are always out and hold their
// origins. Prints URLs placed into schedules per CPU second of GetSchedule
// (this thread), and per CPU second of GetSchedule + SubmitResults.
//
//   build/bin/schedule_bench [--urls 1000000] [--hosts 100000] [--schedule 5000] [--fetchers 8]
//                            [--order host_budget|bfs] [--dir DIR]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <random>
#include <string>

#include "common/base/clock.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/frontier/frontier.h"
#include "queueserver/store/queue_store.h"
#include "tests/bench/bench_util.h"

namespace qs = crawl::queueserver;

using crawl::bench::CpuModel;
using crawl::bench::RssBytes;
using crawl::bench::ThreadCpuSeconds;

namespace {

std::string Host(uint64_t h) { return "http://www.host" + std::to_string(h) + ".example.test"; }

int Fail(const crawl::Status& s, const char* what) {
  std::fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t target = 1'000'000, hosts = 100'000, schedule = 5000, fetchers = 8;
  std::string order = "host_budget";
  std::string dir = "/tmp/schedule-bench";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--urls"))
      target = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--hosts"))
      hosts = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--schedule"))
      schedule = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--fetchers"))
      fetchers = std::strtoull(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--order"))
      order = argv[i + 1];
    else if (!std::strcmp(argv[i], "--dir"))
      dir = argv[i + 1];
    else {
      std::fprintf(stderr,
                   "usage: schedule_bench [--urls N] [--hosts H] [--schedule S] [--fetchers F] "
                   "[--order host_budget|bfs] [--dir DIR]\n");
      return 2;
    }
  }
  if (hosts == 0 || schedule == 0 || fetchers == 0) {
    std::fprintf(stderr, "--hosts, --schedule and --fetchers must be positive\n");
    return 2;
  }
  std::printf("machine: %s, %ld CPUs\n", CpuModel().c_str(), sysconf(_SC_NPROCESSORS_ONLN));
  std::filesystem::remove_all(dir);
  auto store = qs::QueueStore::Open(dir, {});
  if (!store.ok()) return Fail(store.status(), "open");

  crawl::v1::CrawlInfo crawl;
  crawl.set_crawl_id(1);
  crawl.set_state(crawl::v1::CRAWL_STATE_RUNNING);
  crawl.mutable_params()->set_order(order);
  crawl.mutable_params()->set_schedule_size(static_cast<uint32_t>(schedule));
  crawl.mutable_params()->set_lease_seconds(3600);
  auto options = qs::CrawlShard::FrontierOptionsFor(crawl.params());
  if (!options.ok()) return Fail(options.status(), "params");

  // ---- Build the frontier: robots.txt of every host known (404), then
  // links ingested page by page until `target` URLs are queued.
  crawl::ManualClock clock;
  const int64_t now = clock.NowUnixMs();
  {
    auto writer = (*store)->NewWriter(1);
    qs::Frontier frontier(*options, writer.get(), writer.get());
    frontier.SetJournal(writer.get());
    writer->PutCrawl(crawl);
    for (uint64_t h = 0; h < hosts; ++h) {
      qs::FrontierEntry e;
      e.url = Host(h) + "/";
      frontier.Add(e, now, hosts);
    }
    for (;;) {
      qs::Schedule s = frontier.Lease("setup", 5000, now, /*max_pages=*/0);
      if (s.id == 0) break;
      for (const auto& e : s.entries) {
        qs::FetchOutcome o;
        o.url = e.url;
        o.kind = e.kind;
        o.status = 404;
        (void)frontier.Report(s.id, o, now);
      }
      frontier.Complete(s.id, now);
      if (auto st = writer->Commit(); !st.ok()) return Fail(st, "commit");
    }
    std::mt19937_64 rng(7);
    uint64_t next = 0;
    const uint64_t per_page = 50;
    std::vector<qs::LinkInput> page;
    while (frontier.Counters().frontier_size < target) {
      page.clear();
      const uint64_t referrer_host = rng() % hosts;
      const std::string referrer = Host(referrer_host) + "/p" + std::to_string(next > 0 ? rng() % next : 0);
      for (uint64_t i = 0; i < per_page; ++i) {
        qs::LinkInput l;
        const uint64_t host = (i % 5 == 4) ? rng() % hosts : referrer_host;
        l.entry.url = Host(host) + "/p" + std::to_string(next++);
        l.entry.referrer = referrer;
        l.entry.depth = 2;
        l.link_rank = static_cast<uint32_t>(i);
        l.links_on_page = static_cast<uint32_t>(per_page);
        page.push_back(std::move(l));
      }
      frontier.AddLinks(std::move(page), now);
      page = {};
      if (auto st = writer->Commit(); !st.ok()) return Fail(st, "commit");
    }
    std::printf("frontier: %llu URLs queued over %llu hosts, order %s\n",
                static_cast<unsigned long long>(frontier.Counters().frontier_size),
                static_cast<unsigned long long>(hosts), order.c_str());
  }

  // ---- Load it back as after a restart.
  const auto load_wall0 = std::chrono::steady_clock::now();
  const double load_cpu0 = ThreadCpuSeconds();
  auto loaded = qs::CrawlShard::Load(store->get(), 1, &clock);
  if (!loaded.ok()) return Fail(loaded.status(), "load");
  qs::CrawlShard& shard = **loaded;
  std::printf("load: %.2f s wall, %.2f s CPU, RSS %.0f MB\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - load_wall0).count(),
              ThreadCpuSeconds() - load_cpu0, static_cast<double>(RssBytes()) / 1e6);

  // ---- Schedules.
  struct Open {
    uint64_t id = 0;
    std::string fetcher;
    std::vector<std::string> urls;
  };
  std::deque<Open> open;
  double get_cpu = 0, submit_cpu = 0;
  uint64_t scheduled = 0, schedules = 0, empty = 0;
  const uint64_t queued0 = shard.frontier_counters().frontier_size;
  const auto wall0 = std::chrono::steady_clock::now();
  auto submit = [&](Open& o) -> crawl::Status {
    crawl::v1::SubmitResultsRequest req;
    req.set_crawl_id(1);
    req.set_fetcher_id(o.fetcher);
    req.set_schedule_id(o.id);
    req.set_sequence(0);
    req.set_final(true);
    for (const std::string& u : o.urls) {
      auto* r = req.add_records();
      r->set_url(u);
      r->set_status(200);
      r->set_bytes(1000);
      r->set_kind(crawl::v1::URL_KIND_PAGE);
    }
    crawl::v1::SubmitResultsResponse resp;
    const double c0 = ThreadCpuSeconds();
    crawl::Status s = shard.SubmitResults(req, &resp);
    submit_cpu += ThreadCpuSeconds() - c0;
    return s;
  };
  uint64_t turn = 0;
  while (scheduled < queued0 * 9 / 10) {
    const std::string fetcher = "f" + std::to_string(turn++ % fetchers);
    // This fetcher's previous schedule is done: it reports it first.
    for (auto it = open.begin(); it != open.end(); ++it) {
      if (it->fetcher != fetcher) continue;
      if (auto s = submit(*it); !s.ok()) return Fail(s, "submit");
      open.erase(it);
      break;
    }
    crawl::v1::GetScheduleRequest req;
    req.set_crawl_id(1);
    req.set_fetcher_id(fetcher);
    crawl::v1::GetScheduleResponse resp;
    const double c0 = ThreadCpuSeconds();
    if (auto s = shard.GetSchedule(req, &resp); !s.ok()) return Fail(s, "get schedule");
    get_cpu += ThreadCpuSeconds() - c0;
    if (resp.schedule_id() == 0) {
      if (open.empty() || ++empty > 1000) break;
      continue;
    }
    ++schedules;
    scheduled += static_cast<uint64_t>(resp.urls_size());
    Open o{resp.schedule_id(), fetcher, {}};
    for (const auto& u : resp.urls()) o.urls.push_back(u.url());
    open.push_back(std::move(o));
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  std::printf("schedules: %llu of up to %llu URLs, %llu fetchers; %llu URLs scheduled\n",
              static_cast<unsigned long long>(schedules), static_cast<unsigned long long>(schedule),
              static_cast<unsigned long long>(fetchers), static_cast<unsigned long long>(scheduled));
  std::printf("GetSchedule: %.0f URLs per CPU second (%.2f s CPU)\n",
              static_cast<double>(scheduled) / get_cpu, get_cpu);
  std::printf("GetSchedule + SubmitResults: %.0f URLs per CPU second; %.0f URLs per wall second\n",
              static_cast<double>(scheduled) / (get_cpu + submit_cpu), static_cast<double>(scheduled) / wall);
  std::printf("RSS at the end: %.0f MB\n", static_cast<double>(RssBytes()) / 1e6);
  loaded->reset();
  store->reset();
  std::filesystem::remove_all(dir);
  return 0;
}
