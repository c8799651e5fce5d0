// The whole per-page pipeline without the network, run by
// hand: every page of a corpus (HTML files, one path a line) goes, on one
// thread, through what the fetcher does after a download and what the queue
// server does with the result, with the defaults of a crawl scoped to its
// site (no link pruning, 100,000 links a page, the crawl's host_budget order):
//   fetcher  ProcessFetch (text, links, mini index, digests) on a 200
//            text/html answer, ResultBatcher, a SubmitResultsRequest
//            serialised every results batch (400 pages, or 20,000 links:
//            WorkerOptions::max_batch_links);
//   queue    the batch parsed, then CrawlShard::SubmitResults into a fresh
//            RocksDB QueueStore (frontier, crawl log, search index, commit).
// Prints thread CPU ms per page for each side and what they produced, so
// that two builds are compared on the same input (A/B): the side figures
// say where a change went, the output counts that it computed the same.
//
// Page URLs are http://docs.test/<path>, so relative links between corpus
// files resolve to corpus pages, as on a crawl of the site.
//
// Usage: ingest_bench [--repeat N] FILE_LIST
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/base/clock.h"
#include "common/text/packed_terms.h"
#include "fetcher/crawl_worker.h"
#include "fetcher/page/page_processor.h"
#include "fetcher/result_batch.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/store/queue_store.h"
#include "tests/bench/bench_util.h"

namespace v1 = crawl::v1;
using crawl::bench::CpuModel;
using crawl::bench::ThreadCpuSeconds;

namespace {

struct Page {
  std::string url;
  std::string body;
};

struct Totals {
  double fetcher_s = 0, queue_s = 0;
  size_t batches = 0, wire_bytes = 0, links = 0, terms = 0;
  uint64_t urls_seen = 0, frontier = 0;
  uint64_t store_bytes = 0, compacted_store_bytes = 0;
};

v1::CrawlInfo Crawl() {
  v1::CrawlInfo c;
  c.set_crawl_id(1);
  c.set_state(v1::CRAWL_STATE_RUNNING);
  v1::CrawlParams* p = c.mutable_params();
  p->set_order("host_budget");
  p->set_schedule_size(5000);
  p->set_lease_seconds(300);
  p->set_results_batch_pages(400);
  p->set_max_links_per_page(100'000);
  p->set_link_pruning("none");
  p->add_include_hosts("docs.test");
  return c;
}

std::vector<Page> ReadCorpus(const std::string& list) {
  std::vector<Page> pages;
  for (crawl::bench::CorpusFile& file : crawl::bench::ReadCorpusList(list))
    pages.push_back({"http://docs.test" + file.path, std::move(file.body)});
  return pages;
}

// Ships `batcher`'s batch as the fetcher would and ingests it as the queue
// server would, timing each side.
void ShipAndIngest(crawl::fetcher::ResultBatcher& batcher, crawl::queueserver::CrawlShard& shard,
                   uint64_t sequence, Totals& t) {
  double start = ThreadCpuSeconds();
  crawl::fetcher::ResultBatch batch = batcher.Take();
  std::string wire;
  {
    v1::SubmitResultsRequest req;
    req.set_crawl_id(1);
    req.set_fetcher_id("bench");
    req.set_schedule_id(1);
    req.set_sequence(sequence);
    // As CrawlWorker::Ship builds it: the batch's lists swapped in whole.
    req.mutable_records()->Swap(&batch.records);
    req.mutable_links()->Swap(&batch.links_by_server[0]);
    t.links += static_cast<size_t>(req.links_size());
    wire = req.SerializeAsString();
  }
  t.fetcher_s += ThreadCpuSeconds() - start;
  t.wire_bytes += wire.size();
  ++t.batches;
  start = ThreadCpuSeconds();
  {
    v1::SubmitResultsRequest req;
    v1::SubmitResultsResponse resp;
    if (!req.ParseFromString(wire) || !shard.SubmitResults(req, &resp).ok()) {
      std::cerr << "ingest_bench: batch " << sequence << " failed\n";
      std::exit(1);
    }
  }
  t.queue_s += ThreadCpuSeconds() - start;
}

uint64_t DirectoryBytes(const std::filesystem::path& dir) {
  uint64_t bytes = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec)) {
    if (e.is_regular_file(ec)) bytes += e.file_size(ec);
  }
  return bytes;
}

Totals RunOnce(const std::vector<Page>& pages, const std::filesystem::path& dir) {
  std::filesystem::remove_all(dir);
  auto store = crawl::queueserver::QueueStore::Open(dir.string(), {});
  if (!store.ok()) {
    std::cerr << "ingest_bench: " << store.status().ToString() << "\n";
    std::exit(1);
  }
  crawl::ManualClock clock;
  crawl::queueserver::CrawlShard shard(Crawl(), &clock, (*store)->NewWriter(1));
  if (!shard.Create().ok()) std::exit(1);
  crawl::fetcher::ProcessOptions options;
  options.max_links = 100'000;
  options.link_pruning = crawl::LinkPruning::kNone;
  const size_t max_links = crawl::fetcher::WorkerOptions{}.max_batch_links;
  crawl::fetcher::ResultBatcher batcher({"qs0"}, nullptr, 0);
  Totals t;
  uint64_t sequence = 0;
  for (const Page& page : pages) {
    const double start = ThreadCpuSeconds();
    v1::ScheduledUrl s;
    s.set_url(page.url);
    s.set_kind(v1::URL_KIND_PAGE);
    s.set_depth(1);
    crawl::fetcher::FetchResult r;
    r.url = page.url;
    r.status = 200;
    r.body = page.body;  // the copy is part of what a fetcher does too
    r.mime_type = "text/html";
    r.content_type = "text/html";
    crawl::fetcher::ProcessedPage processed = crawl::fetcher::ProcessFetch(s, r, options);
    const auto counted = crawl::text::CountPackedTerms(processed.record.mini_index().postings());
    t.terms += counted.ok() ? *counted : 0;
    batcher.Add(std::move(processed), &s);
    t.fetcher_s += ThreadCpuSeconds() - start;
    if (batcher.pages() >= 400 || batcher.links() >= max_links) ShipAndIngest(batcher, shard, sequence++, t);
  }
  if (batcher.pages() > 0) ShipAndIngest(batcher, shard, sequence++, t);
  const crawl::queueserver::FrontierCounters c = shard.frontier_counters();
  t.urls_seen = c.urls_seen;
  t.frontier = c.frontier_size;
  // What the store takes on disk as the crawl left it (the write-ahead log
  // holds what the memtables do), then once everything is flushed and
  // compacted into tables, as after a long crawl.
  t.store_bytes = DirectoryBytes(dir);
  (*store)->CompactCrawl(1);
  t.compacted_store_bytes = DirectoryBytes(dir);
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  crawl::bench::CorpusArgs args;
  if (!crawl::bench::ParseCorpusArgs(argc, argv, "ingest_bench", &args)) return 2;
  const int repeat = args.repeat;
  const std::string& list = args.list;
  const std::vector<Page> pages = ReadCorpus(list);
  if (pages.empty()) {
    std::cerr << "ingest_bench: no readable page in " << list << "\n";
    return 2;
  }
  std::random_device rd;
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("ingest_bench." + std::to_string(rd()) + std::to_string(rd()));
  std::printf("machine: %s; %u hardware threads; one thread measured; best of %d\n", CpuModel().c_str(),
              std::thread::hardware_concurrency(), repeat);
  Totals best;
  for (int i = 0; i < repeat; ++i) {
    const Totals t = RunOnce(pages, dir);
    if (i == 0 || t.fetcher_s + t.queue_s < best.fetcher_s + best.queue_s) best = t;
  }
  std::filesystem::remove_all(dir);
  const double n = static_cast<double>(pages.size());
  std::printf("pages %zu, batches %zu, %.1f MB on the wire, links %zu, index terms %zu\n", pages.size(),
              best.batches, static_cast<double>(best.wire_bytes) / 1e6, best.links, best.terms);
  std::printf("queue server: urls seen %llu, frontier %llu\n",
              static_cast<unsigned long long>(best.urls_seen),
              static_cast<unsigned long long>(best.frontier));
  std::printf("store %.1f MB as left, %.1f MB flushed and compacted\n",
              static_cast<double>(best.store_bytes) / 1e6,
              static_cast<double>(best.compacted_store_bytes) / 1e6);
  std::printf("fetcher      %.3f CPU ms/page (%.2f s)\n", best.fetcher_s * 1e3 / n, best.fetcher_s);
  std::printf("queue server %.3f CPU ms/page (%.2f s)\n", best.queue_s * 1e3 / n, best.queue_s);
  std::printf("both         %.3f CPU ms/page\n", (best.fetcher_s + best.queue_s) * 1e3 / n);
  return 0;
}
