#include "queueserver/service.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>

#include "common/net/grpc_util.h"
#include "queueserver/frontier/structure_order.h"
#include "queueserver/queueserver_metrics.h"

namespace crawl::queueserver {
namespace {
grpc::Status UnknownCrawl(uint64_t id) {
  return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                      "this queue server has no crawl " + std::to_string(id));
}
}  // namespace

QueueServerServiceImpl::QueueServerServiceImpl(std::string id, const Clock* clock, QueueStore* store)
    : id_(std::move(id)),
      clock_(clock),
      store_(store),
      neardup_(std::make_unique<neardup::NearDuplicates>(std::make_unique<neardup::MemoryKvStore>())) {
  (void)Metrics();  // exported at zero from the start, before the first event
  ExportAddressSlotMetrics();
}

Status QueueServerServiceImpl::LoadStoredCrawls() {
  if (!store_) return Status::Ok();
  MutexLock lock(mu_);
  auto ids = store_->ListCrawls();
  if (!ids.ok()) return ids.status();
  for (uint64_t id : *ids) {
    auto shard = CrawlShard::Load(store_, id, clock_, index_partition_bytes_);
    if (!shard.ok())
      return Status(shard.status().code(), "crawl " + std::to_string(id) + ": " + shard.status().message());
    v1::QueueServerStats st;
    (*shard)->FillStats(&st);
    spdlog::info(
        "crawl {} loaded from the store: {} urls seen, {} queued, {} leased in {} schedules, {} fetched", id,
        st.urls_seen(), st.frontier_size(), st.leased_urls(), st.outstanding_schedules(), st.pages_fetched());
    if (const auto* so = dynamic_cast<const StructureOrder*>(&(*shard)->frontier().order())) {
      const StructureOrder::Totals t = so->totals();
      spdlog::info("crawl {} structure order: {} sites, {} GC nodes, {} GB nodes restored", id, t.sites,
                   t.gc_nodes, t.gb_nodes);
    }
    AttachSiteReports(**shard);
    shards_[id] = std::move(*shard);
  }
  return Status::Ok();
}

grpc::Status QueueServerServiceImpl::Finish(uint64_t crawl_id, const Status& s) {
  if (s.ok()) return grpc::Status::OK;
  if (s.code() == StatusCode::kInvalidArgument)
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, s.message());
  spdlog::error("crawl {}: {}; reloading its state from the store", crawl_id, s.ToString());
  auto it = shards_.find(crawl_id);
  if (it != shards_.end() && store_) {
    auto fresh = CrawlShard::Load(store_, crawl_id, clock_, index_partition_bytes_);
    if (fresh.ok()) {
      AttachSiteReports(**fresh);
      it->second = std::move(*fresh);
    } else {
      spdlog::error("crawl {}: cannot reload: {}; dropping it", crawl_id, fresh.status().ToString());
      shards_.erase(it);
    }
  }
  return grpc::Status(grpc::StatusCode::UNAVAILABLE, "queue server store: " + s.message());
}

CrawlShard* QueueServerServiceImpl::ShardFor(uint64_t id) {
  if (shards_.empty()) return nullptr;
  if (id == 0) return shards_.rbegin()->second.get();
  auto it = shards_.find(id);
  return it == shards_.end() ? nullptr : it->second.get();
}

void QueueServerServiceImpl::JoinCrawl(const v1::CrawlInfo& crawl) {
  MutexLock lock(mu_);
  JoinCrawlLocked(crawl);
}

void QueueServerServiceImpl::JoinCrawlLocked(const v1::CrawlInfo& crawl) {
  if (CrawlShard* existing = ShardFor(crawl.crawl_id())) {
    if (crawl.state() != v1::CRAWL_STATE_RUNNING) {
      (void)Finish(crawl.crawl_id(), existing->End(crawl.state()));
    } else if (crawl.params_version() > existing->crawl().params_version()) {
      // Resumed or re-parameterised by the name server.
      (void)Finish(crawl.crawl_id(), existing->Update(crawl));
    }
    return;
  }
  if (auto o = CrawlShard::FrontierOptionsFor(crawl.params()); !o.ok()) {
    spdlog::error("cannot join crawl {}: {}", crawl.crawl_id(), o.status().ToString());
    return;
  }
  spdlog::info("joining crawl {}", crawl.crawl_id());
  // One crawl runs at a time: a newer crawl ends whatever was still open.
  std::vector<uint64_t> open;
  for (auto& [id, shard] : shards_) {
    if (!shard->ended()) open.push_back(id);
  }
  for (uint64_t id : open) {
    if (CrawlShard* shard = ShardFor(id)) (void)Finish(id, shard->End(v1::CRAWL_STATE_STOPPED));
  }
  auto shard = std::make_unique<CrawlShard>(
      crawl, clock_, store_ ? store_->NewWriter(crawl.crawl_id()) : nullptr, index_partition_bytes_);
  AttachSiteReports(*shard);
  Status s = shard->Create();
  if (s.ok() && crawl.state() != v1::CRAWL_STATE_RUNNING) s = shard->End(crawl.state());
  if (!s.ok()) {
    spdlog::error("cannot join crawl {}: {}", crawl.crawl_id(), s.ToString());
    return;
  }
  shards_[crawl.crawl_id()] = std::move(shard);
}

grpc::Status QueueServerServiceImpl::InjectSeeds(grpc::ServerContext* ctx, const v1::InjectSeedsRequest* req,
                                                 v1::InjectSeedsResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.QueueServer/InjectSeeds"); !denied.ok()) return denied;
  if (req->crawl().crawl_id() == 0)
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "crawl id missing");
  if (auto o = CrawlShard::FrontierOptionsFor(req->crawl().params()); !o.ok())
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "crawl parameters: " + o.status().message());
  MutexLock lock(mu_);
  JoinCrawlLocked(req->crawl());
  CrawlShard* shard = ShardFor(req->crawl().crawl_id());
  if (!shard) return UnknownCrawl(req->crawl().crawl_id());
  if (grpc::Status s = Finish(req->crawl().crawl_id(), shard->InjectSeeds(*req, resp)); !s.ok()) return s;
  spdlog::info("crawl {}: {} of {} seeds new", req->crawl().crawl_id(), resp->accepted(), req->urls_size());
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::GetSchedule(grpc::ServerContext* ctx, const v1::GetScheduleRequest* req,
                                                 v1::GetScheduleResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.QueueServer/GetSchedule"); !denied.ok()) return denied;
  MutexLock lock(mu_);
  // A caller that has given up (its deadline passed while the request
  // waited: a paused or overloaded server) would never see the schedule,
  // and its URLs would sit leased until the lease ends. Lease nothing.
  if (ctx->IsCancelled() || ctx->deadline() <= std::chrono::system_clock::now())
    return grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED,
                        "the caller's deadline passed before a schedule was leased");
  CrawlShard* shard = req->crawl_id() == 0 ? nullptr : ShardFor(req->crawl_id());
  if (!shard) {
    resp->set_unknown_crawl(true);
    return grpc::Status::OK;
  }
  if (grpc::Status s = Finish(req->crawl_id(), shard->GetSchedule(*req, resp)); !s.ok()) return s;
  // The same when the caller gave up while the schedule was leased (the
  // server was paused mid-call): hand the URLs back at once.
  if (resp->schedule_id() != 0 &&
      (ctx->IsCancelled() || ctx->deadline() <= std::chrono::system_clock::now())) {
    spdlog::warn("schedule {} ({} urls) returned: {} gave up waiting for it", resp->schedule_id(),
                 resp->urls_size(), req->fetcher_id());
    if (grpc::Status s = Finish(req->crawl_id(), shard->ReturnSchedule(resp->schedule_id())); !s.ok())
      return s;
    return grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED,
                        "the caller's deadline passed while a schedule was leased");
  }
  if (resp->schedule_id() != 0) {
    Metrics().leased.Increment();
    Metrics().leased_urls.Increment(resp->urls_size());
  }
  if (resp->schedule_id() != 0)
    spdlog::debug("schedule {} ({} urls) to {}", resp->schedule_id(), resp->urls_size(), req->fetcher_id());
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::SubmitResults(grpc::ServerContext* ctx,
                                                   const v1::SubmitResultsRequest* req,
                                                   v1::SubmitResultsResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.QueueServer/SubmitResults"); !denied.ok()) return denied;
  MutexLock lock(mu_);
  CrawlShard* shard = req->crawl_id() == 0 ? nullptr : ShardFor(req->crawl_id());
  if (!shard) {
    resp->set_unknown_crawl(true);
    return grpc::Status::OK;
  }
  grpc::Status s = Finish(req->crawl_id(), shard->SubmitResults(*req, resp));
  Metrics().Batch("submit_results", s, resp->duplicate());
  if (!s.ok()) return s;
  if (req->final() && !resp->duplicate() && idle_hook_ && shard->Idle()) idle_hook_();
  if (!resp->duplicate()) {
    if (Status n = neardup_->Ingest(req->crawl_id(), req->records()); !n.ok())
      spdlog::error("crawl {}: near-duplicate clusters: {}", req->crawl_id(), n.ToString());
  }
  // After the commit: the cache is written at most once per applied batch.
  if (!resp->duplicate() && shard->crawl().params().keep_page_cache()) {
    if (WarcWriter* warc = WarcFor(*shard)) {
      for (const v1::FetchRecord& r : req->records()) {
        if (r.kind() != v1::URL_KIND_PAGE || r.noarchive() || r.status() <= 0) continue;
        // Unchanged content: a revisit record (warc_writer.h), not the page again.
        auto revisit = shard->last_revisits().find(r.url());
        Status w = revisit == shard->last_revisits().end()
                       ? warc->Write(r, shard->crawl().params().user_agent())
                       : warc->WriteRevisit(r, revisit->second.kind, revisit->second.refers_to_unix_us);
        if (!w.ok()) spdlog::error("crawl {}: page cache: {}", req->crawl_id(), w.ToString());
      }
      // One small write for the batch's locations, after its records.
      if (Status f = warc->FlushLocations(); !f.ok())
        spdlog::error("crawl {}: page cache locations: {}", req->crawl_id(), f.ToString());
    }
  }
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::AddUrls(grpc::ServerContext* ctx, const v1::AddUrlsRequest* req,
                                             v1::AddUrlsResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.QueueServer/AddUrls"); !denied.ok()) return denied;
  MutexLock lock(mu_);
  CrawlShard* shard = req->crawl_id() == 0 ? nullptr : ShardFor(req->crawl_id());
  if (!shard) {
    resp->set_unknown_crawl(true);
    return grpc::Status::OK;
  }
  grpc::Status s = Finish(req->crawl_id(), shard->AddUrls(*req, resp));
  Metrics().Batch("add_urls", s, resp->duplicate());
  return s;
}

grpc::Status QueueServerServiceImpl::Stats(grpc::ServerContext* ctx, const v1::StatsRequest* req,
                                           v1::StatsResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.QueueServer/Stats"); !denied.ok()) return denied;
  MutexLock lock(mu_);
  resp->mutable_stats()->set_queue_server_id(id_);
  if (CrawlShard* shard = ShardFor(req->crawl_id())) {
    if (req->crawl_id() != 0 && req->limit_pages()) shard->SetPageCap(req->page_cap());
    shard->FillStats(resp->mutable_stats());
    if (!shard->ended())
      Metrics().FromStats(resp->stats(), shard->frontier_counters().leases_expired);
    else
      Metrics().CrawlEnded();
  }
  RefreshPolitenessMetrics();
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::EndCrawl(grpc::ServerContext* ctx, const v1::EndCrawlRequest* req,
                                              v1::EndCrawlResponse*) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.QueueServer/EndCrawl"); !denied.ok()) return denied;
  MutexLock lock(mu_);
  CrawlShard* shard = req->crawl_id() == 0 ? nullptr : ShardFor(req->crawl_id());
  if (!shard) return UnknownCrawl(req->crawl_id());
  if (grpc::Status s = Finish(req->crawl_id(), shard->End(req->state())); !s.ok()) return s;
  spdlog::info("crawl {} ended", req->crawl_id());
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::GetCrawlLog(grpc::ServerContext* ctx, const v1::GetCrawlLogRequest* req,
                                                 v1::CrawlLogChunk* chunk) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.QueueServer/GetCrawlLog"); !denied.ok()) return denied;
  MutexLock lock(mu_);
  CrawlShard* shard = ShardFor(req->crawl_id());
  if (!shard) {
    chunk->set_end(true);
    return grpc::Status::OK;
  }
  if (Status s = shard->ReadLogPage(*req, chunk); !s.ok()) {
    if (s.code() == StatusCode::kInvalidArgument)
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, s.message());
    return grpc::Status(grpc::StatusCode::INTERNAL, "crawl log: " + s.message());
  }
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::DeleteCrawl(grpc::ServerContext* ctx, const v1::DeleteCrawlRequest* req,
                                                 v1::DeleteCrawlResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.QueueServer/DeleteCrawl"); !denied.ok()) return denied;
  if (req->crawl_id() == 0) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "crawl id missing");
  {
    MutexLock lock(mu_);
    if (Status s = DropCrawlLocked(req->crawl_id(), resp); !s.ok()) {
      spdlog::error("crawl {}: delete: {}", req->crawl_id(), s.ToString());
      return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                          "deleting crawl " + std::to_string(req->crawl_id()) + ": " + s.message());
    }
  }
  if (Status s = neardup_->DeleteCrawl(req->crawl_id()); !s.ok())
    return grpc::Status(grpc::StatusCode::UNAVAILABLE, "deleting near-duplicate tables: " + s.message());
  // The keys are gone already; giving their disk space back may take a
  // while, and the running crawl's requests need not wait for it.
  if (store_) store_->CompactCrawl(req->crawl_id());
  spdlog::info("crawl {} deleted ({} WARC files removed)", req->crawl_id(), resp->warc_files_removed());
  return grpc::Status::OK;
}

Status QueueServerServiceImpl::DropCrawlLocked(uint64_t crawl_id, v1::DeleteCrawlResponse* resp) {
  bool existed = shards_.erase(crawl_id) > 0;
  if (crawl_id == address_slots_crawl_) address_slots_.Clear();
  warc_.erase(crawl_id);
  if (store_) {
    auto stored = store_->ListCrawls();
    if (!stored.ok()) return stored.status();
    existed = existed || std::find(stored->begin(), stored->end(), crawl_id) != stored->end();
    if (Status s = store_->DeleteCrawl(crawl_id); !s.ok()) return s;
  }
  if (!warc_dir_.empty()) {
    auto removed = RemoveWarcFiles(warc_dir_, crawl_id);
    if (!removed.ok()) return removed.status();
    resp->set_warc_files_removed(*removed);
    existed = existed || *removed > 0;
  }
  if (!report_dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove(report_dir_ + "/crawl-" + std::to_string(crawl_id) + "-sites.jsonl", ec);
    if (ec)
      return Status::IoError("cannot remove the site reports of crawl " + std::to_string(crawl_id) + ": " +
                             ec.message());
  }
  resp->set_existed(existed);
  return Status::Ok();
}

void QueueServerServiceImpl::FillStats(v1::QueueServerStats* stats) {
  MutexLock lock(mu_);
  stats->set_queue_server_id(id_);
  if (CrawlShard* shard = ShardFor(0)) shard->FillStats(stats);
  Metrics().IndexStats(*stats);
  RefreshPolitenessMetrics();
}

void QueueServerServiceImpl::RefreshPolitenessMetrics() {
  const int64_t now = clock_->NowUnixMs();
  if (politeness_refreshed_ms_ != 0 && now - politeness_refreshed_ms_ < kPolitenessRefreshMs) return;
  politeness_refreshed_ms_ = now;
  CrawlShard* shard = ShardFor(0);
  if (!shard || shard->ended()) {
    Metrics().Politeness({}, 0, 0);
    return;
  }
  Frontier& frontier = shard->frontier();
  const BackoffCounts backoffs = frontier.CountBackoffs(now);
  Metrics().Politeness(frontier.TopPaces(QueueServerMetrics::kPaceHostsShown, now), backoffs.backing_off,
                       backoffs.parked);
}

void QueueServerServiceImpl::EnableWarc(std::string dir, uint64_t max_file_bytes) {
  MutexLock lock(mu_);
  warc_dir_ = std::move(dir);
  if (max_file_bytes > 0) warc_max_file_bytes_ = max_file_bytes;
}

void QueueServerServiceImpl::EnableSiteReports(std::string dir) {
  MutexLock lock(mu_);
  report_dir_ = std::move(dir);
}

void QueueServerServiceImpl::AttachSiteReports(CrawlShard& shard) {
  if (report_dir_.empty()) return;
  const std::string path = report_dir_ + "/crawl-" + std::to_string(shard.crawl_id()) + "-sites.jsonl";
  if (Status s = shard.OpenSiteReports(path); !s.ok())
    spdlog::error("crawl {}: site reports: {}", shard.crawl_id(), s.ToString());
}

WarcWriter* QueueServerServiceImpl::WarcFor(const CrawlShard& shard) {
  if (warc_dir_.empty()) return nullptr;
  auto it = warc_.find(shard.crawl_id());
  if (it != warc_.end()) return it->second.writer.get();
  PageCache cache;
  // Without a store the writer keeps its locations in RAM, like the rest of the crawl.
  if (store_) cache.index = store_->WarcLocations(shard.crawl_id());
  cache.writer =
      std::make_unique<WarcWriter>(warc_dir_, shard.crawl_id(), warc_max_file_bytes_, cache.index.get());
  if (Status s = cache.writer->Open(); !s.ok()) {
    spdlog::error("crawl {}: page cache unavailable: {}", shard.crawl_id(), s.ToString());
    return nullptr;
  }
  return warc_.emplace(shard.crawl_id(), std::move(cache)).first->second.writer.get();
}

grpc::Status QueueServerServiceImpl::GetCachedPage(grpc::ServerContext* ctx, const v1::CachedPageRequest* req,
                                                   v1::CachedPageResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.QueueServer/GetCachedPage"); !denied.ok()) return denied;
  MutexLock lock(mu_);
  CrawlShard* shard = ShardFor(req->crawl_id());
  if (!shard) return grpc::Status::OK;
  WarcWriter* warc = WarcFor(*shard);
  if (!warc) return grpc::Status::OK;
  auto found = warc->Find(req->url());
  if (!found.ok()) return grpc::Status(grpc::StatusCode::INTERNAL, found.status().message());
  if (!*found) return grpc::Status::OK;
  const WarcWriter::Location* at = &**found;
  auto record = ReadWarcRecordAt(at->path, at->offset);
  if (!record.ok()) return grpc::Status(grpc::StatusCode::INTERNAL, record.status().message());
  auto http = ParseHttpResponse(record->block);
  if (!http.ok()) return grpc::Status(grpc::StatusCode::INTERNAL, http.status().message());
  resp->set_found(true);
  resp->set_url(req->url());
  resp->set_status(http->status);
  resp->set_mime_type(http->content_type);
  resp->set_body(std::move(http->body));
  resp->set_warc_file(at->path);
  resp->set_warc_offset(at->offset);
  resp->set_queue_server_id(id_);
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::HostQueue(grpc::ServerContext* ctx, const v1::HostQueueRequest* req,
                                               v1::HostQueueResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.QueueServer/HostQueue"); !denied.ok()) return denied;
  if (req->crawl_id() == 0) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "crawl id missing");
  auto host = HostOfRequest(req->host());
  if (!host.ok()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, host.status().message());
  MutexLock lock(mu_);
  CrawlShard* shard = ShardFor(req->crawl_id());
  if (!shard) {
    resp->set_unknown_crawl(true);
    return grpc::Status::OK;
  }
  if (Status s = shard->HostQueue(*host, *req, resp); !s.ok()) {
    spdlog::error("crawl {}: host queue of {}: {}", req->crawl_id(), *host, s.ToString());
    return grpc::Status(grpc::StatusCode::INTERNAL, "host queue: " + s.message());
  }
  resp->set_queue_server_id(id_);
  return grpc::Status::OK;
}

grpc::Status QueueServerServiceImpl::Search(grpc::ServerContext* ctx, const v1::SearchRequest* req,
                                            v1::SearchResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.QueueServer/Search"); !denied.ok()) return denied;
  CrawlShard::SearchJob job;
  {
    // Only the taking of the search holds the lock (copies of the query
    // terms' in-memory lists and a RocksDB snapshot); the walk, which reads
    // postings, doc map entries and summaries from the store, runs without
    // it, so fetch results keep being ingested meanwhile.
    MutexLock lock(mu_);
    CrawlShard* shard = ShardFor(req->crawl_id());
    if (!shard) {
      resp->set_crawl_id(req->crawl_id());
      return grpc::Status::OK;  // no index of that crawl here: no results
    }
    auto prepared = shard->PrepareSearch(*req);
    if (!prepared.ok()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, prepared.status().message());
    job = std::move(*prepared);
  }
  Status s = job(resp);
  if (!s.ok()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, s.message());
  return grpc::Status::OK;
}

void QueueServerServiceImpl::Tick() {
  {
    MutexLock lock(mu_);
    if (CrawlShard* shard = ShardFor(0)) (void)Finish(shard->crawl_id(), shard->Tick());
  }
  // The store's memory follows its data (store_memory.h); RocksDB's own
  // locks, not ours.
  if (store_ != nullptr) Metrics().StoreMemory(store_->FitMemoryToData());
}

void QueueServerServiceImpl::SetIdleHook(std::function<void()> hook) {
  MutexLock lock(mu_);
  idle_hook_ = std::move(hook);
}

}  // namespace crawl::queueserver
