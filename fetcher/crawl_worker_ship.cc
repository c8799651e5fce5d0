// CrawlWorker's shipping (crawl_worker.h): batches queued by the lanes and
// sent in order by one thread, links for other queue servers first, each
// call retried with backoff until its limit. The calls before a batch's
// SubmitResults (links to each other owner, near-duplicate probes of each
// owner) are independent and go out at once: a batch costs two round trips
// to distant queue servers, not one per call (docs/BENCHMARKS.md
// "Distance").
#include <spdlog/spdlog.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "common/net/grpc_util.h"
#include "common/net/rpc_policy.h"
#include "fetcher/crawl_worker.h"
#include "fetcher/near_duplicate_probe.h"

namespace crawl::fetcher {

void CrawlWorker::QueueShip(ShipJob job) {
  MutexLock lock(ship_mu_);
  while (ships_.size() >= kMaxQueuedShips) ship_cv_.Wait(ship_mu_);
  ships_.push_back(std::move(job));
  lock.Unlock();
  ship_cv_.NotifyAll();
}

void CrawlWorker::WaitShipped() {
  MutexLock lock(ship_mu_);
  while (!ships_.empty() || shipping_) ship_cv_.Wait(ship_mu_);
}

void CrawlWorker::ShipLoop() {
  MutexLock lock(ship_mu_);
  for (;;) {
    while (ships_.empty() && !ship_exit_) ship_cv_.Wait(ship_mu_);
    if (ships_.empty()) return;  // ship_exit_, nothing left
    ShipJob job = std::move(ships_.front());
    ships_.pop_front();
    shipping_ = true;
    lock.Unlock();
    ship_cv_.NotifyAll();  // room in the queue
    const auto start = std::chrono::steady_clock::now();
    const size_t records = job.batch.records.size();
    Ship(*job.crawl, job.server_index, job.schedule_id, job.sequence, job.final, std::move(job.batch));
    spdlog::debug(
        "schedule {} batch {}{}: {} records shipped in {} ms", job.schedule_id, job.sequence,
        job.final ? " (final)" : "", records,
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start)
            .count());
    job.crawl.reset();
    lock.Lock();
    shipping_ = false;
    ship_cv_.NotifyAll();
  }
}

template <typename Call>
bool CrawlWorker::Retry(const std::string& what, Call&& call) {
  auto backoff = rpc::kRetryFirstBackoff;
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    grpc::Status s = call();
    if (s.ok()) return true;
    // Shutting down: a few seconds for the last batch, not minutes; what is
    // not delivered comes back to its queue server when the lease ends.
    const auto limit = stop_ ? std::min(options_.ship_retry_limit, std::chrono::milliseconds(3000))
                             : options_.ship_retry_limit;
    if (std::chrono::steady_clock::now() + backoff > start + limit) {
      spdlog::error("{}: giving up after retries: {}", what, s.error_message());
      return false;
    }
    spdlog::warn("{} failed ({}), retrying in {} ms", what, s.error_message(), backoff.count());
    std::this_thread::sleep_for(backoff);
    // At most a second apart: a restarted queue server is back in about one,
    // and every second of delay risks the lease running out.
    backoff = std::min(backoff * 2, rpc::kRetryMaxBackoff);
  }
}

bool CrawlWorker::ShipLinksToOtherOwners(const ActiveCrawl& crawl, size_t server_index, uint64_t schedule_id,
                                         ResultBatch& batch) {
  const v1::CrawlInfo& info = crawl.info;
  std::vector<std::future<bool>> calls;
  for (size_t i = 0; i < batch.links_by_server.size(); ++i) {
    if (i == server_index || batch.links_by_server[i].empty()) continue;
    auto req = std::make_shared<v1::AddUrlsRequest>();
    req->set_crawl_id(info.crawl_id());
    req->set_fetcher_id(options_.fetcher_id);
    req->set_batch_id(std::to_string(schedule_id) + "-" + std::to_string(++add_urls_sequence_));
    req->mutable_links()->Swap(&batch.links_by_server[i]);
    calls.push_back(std::async(std::launch::async, [this, &crawl, &info, i, req] {
      return Retry("AddUrls to " + info.queue_servers(static_cast<int>(i)).id(), [&] {
        grpc::ClientContext ctx;
        SetTimeout(ctx, rpc::kShipBatch.deadline);
        v1::AddUrlsResponse resp;
        return crawl.stubs[i]->AddUrls(&ctx, *req, &resp);
      });
    }));
  }
  bool all_delivered = true;
  for (auto& call : calls) {
    if (!call.get()) {
      counters_.batches_dropped++;
      all_delivered = false;
    }
  }
  return all_delivered;
}

void CrawlWorker::Ship(const ActiveCrawl& crawl, size_t server_index, uint64_t schedule_id, uint64_t sequence,
                       bool final, ResultBatch batch) {
  const v1::CrawlInfo& info = crawl.info;
  // Other owners first: once the final batch ends the lease, every link the
  // schedule found must already be at its owner (see nameserver/completion.h).
  // Meanwhile the near-duplicate probes: the records ship with their
  // clusters. One try per owner, a short deadline: a page without its
  // cluster beats a late batch.
  auto links_delivered = std::async(
      std::launch::async, [&] { return ShipLinksToOtherOwners(crawl, server_index, schedule_id, batch); });
  MarkNearDuplicates(
      info,
      [&](size_t s, const v1::MatchFingerprintsRequest& r, v1::MatchFingerprintsResponse* out) {
        grpc::ClientContext ctx;
        SetTimeout(ctx, rpc::kMatchFingerprints.deadline);
        grpc::Status st = crawl.stubs[s]->MatchFingerprints(&ctx, r, out);
        if (!st.ok())
          spdlog::warn("MatchFingerprints to {}: {}", info.queue_servers(static_cast<int>(s)).id(),
                       st.error_message());
        return st.ok();
      },
      &batch.records);
  const bool links_lost = !links_delivered.get();
  if (links_lost) {
    // The links for an owner that could not be reached are gone with the
    // dropped call. Recording the pages that found them would lose those
    // URLs for good; withheld, the pages go back to their queue server (at
    // the final batch, or when the lease ends) and are fetched again, which
    // finds the links again. A final batch still ends the lease.
    spdlog::warn(
        "schedule {} batch {}: links for another queue server undelivered; its {} pages are withheld "
        "and will be fetched again",
        schedule_id, sequence, batch.records.size());
    batch.records.Clear();
    if (server_index < batch.links_by_server.size()) batch.links_by_server[server_index].Clear();
    batch.host_errors.clear();
    if (!final) return;
  }
  v1::SubmitResultsRequest req;
  req.set_crawl_id(info.crawl_id());
  req.set_fetcher_id(options_.fetcher_id);
  req.set_schedule_id(schedule_id);
  req.set_sequence(sequence);
  req.set_final(final);
  req.mutable_records()->Swap(&batch.records);
  for (const auto& [origin, errors] : batch.host_errors) {
    v1::HostErrorCount* count = req.add_host_errors();
    count->set_origin(origin);
    count->set_errors(errors);
  }
  if (server_index < batch.links_by_server.size())
    req.mutable_links()->Swap(&batch.links_by_server[server_index]);
  const bool ok = Retry("SubmitResults to " + info.queue_servers(static_cast<int>(server_index)).id(), [&] {
    grpc::ClientContext ctx;
    SetTimeout(ctx, rpc::kShipBatch.deadline);
    v1::SubmitResultsResponse resp;
    return crawl.stubs[server_index]->SubmitResults(&ctx, req, &resp);
  });
  if (ok) {
    counters_.batches_shipped++;
    // Shipped while the process stops: say so, results landing after a
    // crawl was declared done are traced to this line.
    if (stop_)
      spdlog::info("stopping: shipped {} records of schedule {} batch {}{} to {}", req.records_size(),
                   schedule_id, sequence, final ? " (final)" : "",
                   info.queue_servers(static_cast<int>(server_index)).id());
  } else {
    counters_.batches_dropped++;
  }
}

}  // namespace crawl::fetcher
