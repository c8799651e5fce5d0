#include "nameserver/service.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/reflection.h>

#include "common/grpc_util.h"
#include "common/host_glob.h"
#include "common/metrics.h"
#include "common/process.h"
#include "common/rendezvous.h"
#include "common/url.h"

namespace crawl::nameserver {
namespace {

constexpr auto kRpcTimeout = std::chrono::seconds(5);

grpc::Status ToGrpc(const Status& s) {
  switch (s.code()) {
    case StatusCode::kOk: return grpc::Status::OK;
    case StatusCode::kInvalidArgument: return {grpc::StatusCode::INVALID_ARGUMENT, s.message()};
    case StatusCode::kNotFound: return {grpc::StatusCode::NOT_FOUND, s.message()};
    case StatusCode::kFailedPrecondition: return {grpc::StatusCode::FAILED_PRECONDITION, s.message()};
    case StatusCode::kUnavailable: return {grpc::StatusCode::UNAVAILABLE, s.message()};
    default: return {grpc::StatusCode::INTERNAL, s.message()};
  }
}

void AddTotals(const v1::QueueServerStats& s, v1::QueueServerStats* t) {
  t->set_frontier_size(t->frontier_size() + s.frontier_size());
  t->set_leased_urls(t->leased_urls() + s.leased_urls());
  t->set_outstanding_schedules(t->outstanding_schedules() + s.outstanding_schedules());
  t->set_pages_fetched(t->pages_fetched() + s.pages_fetched());
  t->set_fetch_attempts(t->fetch_attempts() + s.fetch_attempts());
  t->set_urls_seen(t->urls_seen() + s.urls_seen());
  t->set_hosts(t->hosts() + s.hosts());
  t->set_robots_disallowed(t->robots_disallowed() + s.robots_disallowed());
  t->set_activity_counter(t->activity_counter() + s.activity_counter());
  t->set_bytes_fetched(t->bytes_fetched() + s.bytes_fetched());
  t->set_fetch_errors(t->fetch_errors() + s.fetch_errors());
}

}  // namespace

Status NormalizeParams(v1::CrawlParams* p) {
  // host_budget is the default order (DESIGN.md 5.1).
  if (p->order().empty()) p->set_order("host_budget");
  if (p->order() != "bfs" && p->order() != "host_budget" && p->order() != "opic" && p->order() != "structure")
    return Status::InvalidArgument("unknown crawl order '" + p->order() +
                                   "' (available: bfs, host_budget, opic, structure)");
  // Order options (the queue server checks them again, with the filter names).
  if (!p->wseen_increment().empty() && p->wseen_increment() != "log" && p->wseen_increment() != "min")
    return Status::InvalidArgument("unknown wseen_increment '" + p->wseen_increment() + "' (log or min)");
  if (!p->opic_split().empty() && p->opic_split() != "cld" && p->opic_split() != "plain")
    return Status::InvalidArgument("unknown opic_split '" + p->opic_split() + "' (cld or plain)");
  if (!p->scoring_filters().empty() && p->order() != "opic")
    return Status::InvalidArgument("scoring_filters apply to the opic order only");
  if (p->schedule_size() == 0) p->set_schedule_size(5000);
  if (p->schedule_size() > 100'000) return Status::InvalidArgument("schedule_size above 100000");
  if (p->lease_seconds() == 0) p->set_lease_seconds(300);
  if (p->page_range_bytes() == 0) p->set_page_range_bytes(1'000'000);
  if (p->page_range_bytes() > 100'000'000) return Status::InvalidArgument("page_range_bytes above 100 MB");
  if (p->results_batch_pages() == 0) p->set_results_batch_pages(400);
  if (p->user_agent().empty()) p->set_user_agent("crawlbot");
  for (char c : p->user_agent()) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-';
    if (!ok) return Status::InvalidArgument("user agent token may hold only letters, '_' and '-'");
  }
  if (p->fetch_timeout_ms() == 0) p->set_fetch_timeout_ms(30'000);
  if (p->max_links_per_page() == 0) p->set_max_links_per_page(300);
  if (auto s = ValidateHostPatterns({p->include_hosts().begin(), p->include_hosts().end()}, "include_hosts"); !s.ok())
    return s;
  if (auto s = ValidateHostPatterns({p->exclude_hosts().begin(), p->exclude_hosts().end()}, "exclude_hosts"); !s.ok())
    return s;
  if (p->min_host_delay_ms() > 60'000) return Status::InvalidArgument("min_host_delay_ms above 60000");
  return Status::Ok();
}

NameServerServiceImpl::NameServerServiceImpl(Options options, const Clock* clock, RegistryStore* store)
    : options_(options), clock_(clock), store_(store) {
  RegisterSearchMetrics();
}

Status NameServerServiceImpl::Load() {
  auto image = store_->Load();
  if (!image.ok()) return image.status();
  std::lock_guard lock(mu_);
  crawls_ = std::move(image->crawls);
  active_crawl_ = image->active_crawl;
  crawl_stats_ = std::move(image->stats);
  for (auto& [id, info] : image->members) {
    Member& m = members_[id];
    m.info = std::move(info);
    m.last_seen_ms = 0;  // not heard from since this start
  }
  if (active_crawl_ != 0) {
    detector_ = std::make_unique<CompletionDetector>(crawls_[active_crawl_].params().max_pages());
    spdlog::info("resuming the watch over running crawl {}", active_crawl_);
  }
  spdlog::info("registry loaded: {} crawls, {} queue servers", crawls_.size(), members_.size());
  return Status::Ok();
}

void NameServerServiceImpl::NoteStoreError(const Status& s) {
  if (!s.ok()) spdlog::error("{}", s.message());
}

std::vector<std::string> NameServerServiceImpl::TellQueueServers(const v1::CrawlInfo& crawl) {
  std::vector<std::string> failed;
  for (const auto& qs : crawl.queue_servers()) {
    auto stub = StubFor(qs.address());
    grpc::ClientContext ctx;
    SetTimeout(ctx, kRpcTimeout);
    v1::InjectSeedsRequest req;
    *req.mutable_crawl() = crawl;
    v1::InjectSeedsResponse resp;
    grpc::Status s = stub->InjectSeeds(&ctx, req, &resp);
    if (!s.ok()) {
      spdlog::warn("could not tell queue server {} about crawl {}: {}", qs.id(), crawl.crawl_id(), s.error_message());
      failed.push_back(qs.id());
    }
  }
  return failed;
}

NameServerServiceImpl::~NameServerServiceImpl() { StopMonitor(); }

void NameServerServiceImpl::StartMonitor() { monitor_ = std::thread([this] { MonitorLoop(); }); }

void NameServerServiceImpl::StopMonitor() {
  {
    std::lock_guard lock(monitor_mu_);
    monitor_stop_ = true;
  }
  monitor_cv_.notify_all();
  if (monitor_.joinable()) monitor_.join();
}

std::unique_ptr<v1::QueueServer::Stub> NameServerServiceImpl::StubFor(const std::string& address) {
  return v1::QueueServer::NewStub(SharedChannel(address, {security::Role::kQueueServer}));
}

v1::CrawlInfo* NameServerServiceImpl::FindCrawl(uint64_t id) {
  if (id == 0) id = active_crawl_ != 0 ? active_crawl_ : (crawls_.empty() ? 0 : crawls_.rbegin()->first);
  auto it = crawls_.find(id);
  return it == crawls_.end() ? nullptr : &it->second;
}

grpc::Status NameServerServiceImpl::RegisterQueueServer(grpc::ServerContext* ctx,
                                                        const v1::RegisterQueueServerRequest* req,
                                                        v1::RegisterQueueServerResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.NameServer/RegisterQueueServer"); !denied.ok()) return denied;
  const auto& info = req->server();
  if (info.id().empty()) return {grpc::StatusCode::INVALID_ARGUMENT, "queue server id missing"};
  if (auto s = ValidateHostPort(info.address()); !s.ok()) return ToGrpc(s);
  std::lock_guard lock(mu_);
  Member& m = members_[info.id()];
  const bool changed = m.info.SerializeAsString() != info.SerializeAsString();
  m.info = info;
  m.last_seen_ms = clock_->NowUnixMs();
  if (changed) NoteStoreError(store_->PutMember(info));
  spdlog::info("queue server {} registered at {}", info.id(), info.address());
  if (v1::CrawlInfo* crawl = FindCrawl(active_crawl_); crawl && active_crawl_ != 0) {
    // A member of the running crawl that comes back (possibly on a new port)
    // resumes its share; fetchers learn the new address from the version bump.
    for (auto& qs : *crawl->mutable_queue_servers()) {
      if (qs.id() == info.id() && qs.address() != info.address()) {
        qs.set_address(info.address());
        crawl->set_params_version(crawl->params_version() + 1);
        NoteStoreError(store_->PutCrawl(*crawl));
      }
    }
    *resp->mutable_active_crawl() = *crawl;
  }
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::Heartbeat(grpc::ServerContext* ctx, const v1::HeartbeatRequest* req,
                                              v1::HeartbeatResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.NameServer/Heartbeat"); !denied.ok()) return denied;
  std::lock_guard lock(mu_);
  auto it = members_.find(req->server().id());
  if (it == members_.end() || it->second.info.address() != req->server().address()) {
    resp->set_known(false);
    return grpc::Status::OK;
  }
  it->second.last_seen_ms = clock_->NowUnixMs();
  it->second.stats = req->stats();
  resp->set_known(true);
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::GetCrawlState(grpc::ServerContext* ctx, const v1::GetCrawlStateRequest* req,
                                                  v1::GetCrawlStateResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.NameServer/GetCrawlState"); !denied.ok()) return denied;
  std::lock_guard lock(mu_);
  if (!req->fetcher_id().empty() && req->fetcher_id().size() <= 256) {
    // Bounded: a misbehaving client inventing ids cannot grow this forever.
    if (fetchers_.size() < 10'000 || fetchers_.count(req->fetcher_id())) {
      FetcherSeen& f = fetchers_[req->fetcher_id()];
      f.last_seen_ms = clock_->NowUnixMs();
      f.stats = req->stats();
    }
  }
  if (active_crawl_ == 0) return grpc::Status::OK;
  resp->set_active(true);
  *resp->mutable_crawl() = crawls_[active_crawl_];
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::StartCrawl(grpc::ServerContext* ctx, const v1::StartCrawlRequest* req,
                                               v1::StartCrawlResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.NameServer/StartCrawl"); !denied.ok()) return denied;
  std::lock_guard start_lock(start_mu_);
  v1::CrawlParams params = req->params();
  if (auto s = NormalizeParams(&params); !s.ok()) return ToGrpc(s);

  // Seeds: canonical http(s) URLs; the rest are reported back.
  std::vector<std::string> seeds;
  for (const std::string& raw : req->seeds()) {
    auto canonical = url::Canonicalize(raw);
    if (canonical.ok()) {
      seeds.push_back(*canonical);
    } else {
      resp->add_rejected_seeds(raw + ": " + canonical.status().message());
    }
  }
  if (seeds.empty()) return {grpc::StatusCode::INVALID_ARGUMENT, "no valid seed URL"};

  v1::CrawlInfo crawl;
  {
    std::lock_guard lock(mu_);
    if (active_crawl_ != 0)
      return {grpc::StatusCode::FAILED_PRECONDITION,
              "crawl " + std::to_string(active_crawl_) + " is running; stop it first"};
    const int64_t now = clock_->NowUnixMs();
    for (const auto& [id, m] : members_) {
      if (now - m.last_seen_ms <= options_.member_timeout.count()) *crawl.add_queue_servers() = m.info;
    }
    if (crawl.queue_servers_size() == 0)
      return {grpc::StatusCode::UNAVAILABLE, "no queue server is registered"};
    uint64_t id = static_cast<uint64_t>(now / 1000);
    if (!crawls_.empty() && crawls_.rbegin()->first >= id) id = crawls_.rbegin()->first + 1;
    crawl.set_crawl_id(id);
    crawl.set_state(v1::CRAWL_STATE_RUNNING);
    *crawl.mutable_params() = params;
    crawl.set_params_version(1);
    crawl.set_started_unix_ms(now);
    crawl.set_seed_count(seeds.size());
  }

  // Partition the seeds by owning queue server (rendezvous hash of the host).
  std::vector<std::string> ids;
  for (const auto& qs : crawl.queue_servers()) ids.push_back(qs.id());
  std::vector<v1::InjectSeedsRequest> requests(ids.size());
  for (auto& r : requests) *r.mutable_crawl() = crawl;
  for (const std::string& seed : seeds) requests[OwnerIndex(ids, url::HostOf(seed))].add_urls(seed);
  for (size_t i = 0; i < requests.size(); ++i) {
    auto stub = StubFor(crawl.queue_servers(static_cast<int>(i)).address());
    grpc::ClientContext ctx;
    SetTimeout(ctx, kRpcTimeout);
    // Wait for the connection within the deadline instead of failing at once
    // on a channel still in its first connect attempt (a queue server that
    // registered a moment ago on a loaded machine).
    ctx.set_wait_for_ready(true);
    v1::InjectSeedsResponse r;
    grpc::Status s = stub->InjectSeeds(&ctx, requests[i], &r);
    if (!s.ok()) {
      // Nothing was registered as running; queue servers that did join are
      // told the crawl ended, so no fetcher works on a half-started crawl.
      for (size_t j = 0; j < i; ++j) {
        auto other = StubFor(crawl.queue_servers(static_cast<int>(j)).address());
        grpc::ClientContext c2;
        SetTimeout(c2, kRpcTimeout);
        v1::EndCrawlRequest end;
        end.set_crawl_id(crawl.crawl_id());
        end.set_state(v1::CRAWL_STATE_STOPPED);
        v1::EndCrawlResponse ignored;
        (void)other->EndCrawl(&c2, end, &ignored);
      }
      return {grpc::StatusCode::UNAVAILABLE, "queue server " + ids[i] + " did not take its seeds: " +
                                                 s.error_message()};
    }
  }

  {
    std::lock_guard lock(mu_);
    // Seeds are with the queue servers; if this write fails the crawl still
    // runs now, and the operator is told it will not survive a restart.
    if (auto s = store_->PutCrawlAndActive(crawl, crawl.crawl_id()); !s.ok()) {
      NoteStoreError(s);
      resp->add_warnings("crawl not saved, a name server restart forgets it: " + s.message());
    }
    crawls_[crawl.crawl_id()] = crawl;
    active_crawl_ = crawl.crawl_id();
    detector_ = std::make_unique<CompletionDetector>(params.max_pages());
  }
  spdlog::info("crawl {} started: {} seeds over {} queue servers, order {}", crawl.crawl_id(), seeds.size(),
               ids.size(), params.order());
  *resp->mutable_crawl() = crawl;
  return grpc::Status::OK;
}

void NameServerServiceImpl::EndCrawl(uint64_t id, v1::CrawlState state, const std::string& reason) {
  std::vector<v1::QueueServerInfo> servers;
  {
    std::lock_guard lock(mu_);
    auto it = crawls_.find(id);
    if (it == crawls_.end() || it->second.state() != v1::CRAWL_STATE_RUNNING) return;
    it->second.set_state(state);
    it->second.set_end_reason(reason);
    it->second.set_ended_unix_ms(clock_->NowUnixMs());
    if (active_crawl_ == id) active_crawl_ = 0;
    NoteStoreError(store_->PutCrawlAndActive(it->second, active_crawl_));
    servers.assign(it->second.queue_servers().begin(), it->second.queue_servers().end());
  }
  spdlog::info("crawl {} ended: {}", id, reason);
  v1::CrawlInfo ended;
  ended.set_crawl_id(id);
  for (const auto& qs : servers) *ended.add_queue_servers() = qs;
  for (const auto& qs : servers) {
    auto stub = StubFor(qs.address());
    grpc::ClientContext ctx;
    SetTimeout(ctx, kRpcTimeout);
    v1::EndCrawlRequest req;
    req.set_crawl_id(id);
    req.set_state(state);
    v1::EndCrawlResponse resp;
    grpc::Status s = stub->EndCrawl(&ctx, req, &resp);
    if (!s.ok()) spdlog::warn("could not tell {} that crawl {} ended: {}", qs.id(), id, s.error_message());
  }
  // Final numbers: no schedule is handed out any more, so these stay exact
  // (results of schedules still in flight may add a few pages).
  bool complete = true;
  auto final_round = PollStats(ended, &complete);
  std::lock_guard lock(mu_);
  for (auto& st : final_round) {
    NoteStoreError(store_->PutStats(id, st));
    crawl_stats_[id][st.queue_server_id()] = std::move(st);
  }
}

grpc::Status NameServerServiceImpl::StopCrawl(grpc::ServerContext* ctx, const v1::StopCrawlRequest* req,
                                              v1::StopCrawlResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.NameServer/StopCrawl"); !denied.ok()) return denied;
  std::lock_guard start_lock(start_mu_);
  uint64_t id = 0;
  {
    std::lock_guard lock(mu_);
    id = req->crawl_id() != 0 ? req->crawl_id() : active_crawl_;
    if (id == 0) return {grpc::StatusCode::FAILED_PRECONDITION, "no crawl is running"};
    auto it = crawls_.find(id);
    if (it == crawls_.end()) return {grpc::StatusCode::NOT_FOUND, "no crawl " + std::to_string(id)};
    if (it->second.state() != v1::CRAWL_STATE_RUNNING)
      return {grpc::StatusCode::FAILED_PRECONDITION, "crawl " + std::to_string(id) + " is not running"};
  }
  EndCrawl(id, v1::CRAWL_STATE_STOPPED, "stopped");
  std::lock_guard lock(mu_);
  *resp->mutable_crawl() = crawls_[id];
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::CrawlStatus(grpc::ServerContext* ctx, const v1::CrawlStatusRequest* req,
                                                v1::CrawlStatusResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.NameServer/CrawlStatus"); !denied.ok()) return denied;
  std::lock_guard lock(mu_);
  v1::CrawlInfo* crawl = FindCrawl(req->crawl_id());
  if (!crawl) {
    if (req->crawl_id() != 0) return {grpc::StatusCode::NOT_FOUND, "no crawl " + std::to_string(req->crawl_id())};
    return {grpc::StatusCode::NOT_FOUND, "no crawl has been started"};
  }
  *resp->mutable_crawl() = *crawl;
  for (const auto& qs : crawl->queue_servers()) {
    v1::QueueServerStats s;
    const auto& polled = crawl_stats_[crawl->crawl_id()];
    if (auto live = polled.find(qs.id()); live != polled.end()) {
      s = live->second;
    } else if (auto m = members_.find(qs.id()); m != members_.end() && m->second.stats.crawl_id() == crawl->crawl_id()) {
      s = m->second.stats;
    }
    s.set_queue_server_id(qs.id());
    s.set_crawl_id(crawl->crawl_id());
    AddTotals(s, resp->mutable_totals());
    *resp->add_queue_servers() = std::move(s);
  }
  resp->mutable_totals()->set_crawl_id(crawl->crawl_id());
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::ListCrawls(grpc::ServerContext* ctx, const v1::ListCrawlsRequest*,
                                               v1::ListCrawlsResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.NameServer/ListCrawls"); !denied.ok()) return denied;
  std::lock_guard lock(mu_);
  for (const auto& [id, c] : crawls_) *resp->add_crawls() = c;
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::ListQueueServers(grpc::ServerContext* ctx, const v1::ListQueueServersRequest*,
                                                     v1::ListQueueServersResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.NameServer/ListQueueServers"); !denied.ok()) return denied;
  std::lock_guard lock(mu_);
  const int64_t now = clock_->NowUnixMs();
  for (const auto& [id, m] : members_) {
    *resp->add_servers() = m.info;
    resp->add_last_seen_ms_ago(now - m.last_seen_ms);
  }
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::GetCrawlLog(grpc::ServerContext* ctx, const v1::GetCrawlLogRequest* req,
                                                grpc::ServerWriter<v1::CrawlLogChunk>* writer) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.NameServer/GetCrawlLog"); !denied.ok()) return denied;
  v1::CrawlInfo crawl;
  {
    std::lock_guard lock(mu_);
    v1::CrawlInfo* c = FindCrawl(req->crawl_id());
    if (!c) return {grpc::StatusCode::NOT_FOUND, "no such crawl"};
    crawl = *c;
  }
  std::vector<v1::FetchRecord> records;
  for (const auto& qs : crawl.queue_servers()) {
    auto stub = StubFor(qs.address());
    uint64_t offset = 0;
    for (;;) {
      grpc::ClientContext ctx;
      SetTimeout(ctx, std::chrono::seconds(30));
      v1::GetCrawlLogRequest page;
      page.set_crawl_id(crawl.crawl_id());
      page.set_offset(offset);
      page.set_limit(10'000);
      v1::CrawlLogChunk chunk;
      grpc::Status s = stub->GetCrawlLog(&ctx, page, &chunk);
      if (!s.ok())
        return {grpc::StatusCode::UNAVAILABLE, "queue server " + qs.id() + ": " + s.error_message()};
      offset += chunk.records_size();
      for (auto& r : *chunk.mutable_records()) records.push_back(std::move(r));
      if (chunk.end() || chunk.records_size() == 0) break;
    }
  }
  std::stable_sort(records.begin(), records.end(), [](const v1::FetchRecord& a, const v1::FetchRecord& b) {
    return a.timestamp_unix_us() < b.timestamp_unix_us();
  });
  v1::CrawlLogChunk out;
  for (size_t i = 0; i < records.size(); ++i) {
    *out.add_records() = std::move(records[i]);
    if (out.records_size() == 1000 || i + 1 == records.size()) {
      out.set_end(i + 1 == records.size());
      if (!writer->Write(out)) return {grpc::StatusCode::CANCELLED, "client went away"};
      out.Clear();
    }
  }
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::ResumeCrawl(grpc::ServerContext* ctx, const v1::ResumeCrawlRequest* req,
                                                v1::ResumeCrawlResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.NameServer/ResumeCrawl"); !denied.ok()) return denied;
  std::lock_guard start_lock(start_mu_);
  v1::CrawlInfo crawl;
  {
    std::lock_guard lock(mu_);
    if (active_crawl_ != 0)
      return {grpc::StatusCode::FAILED_PRECONDITION,
              "crawl " + std::to_string(active_crawl_) + " is running; stop it first"};
    v1::CrawlInfo* c = FindCrawl(req->crawl_id());
    if (!c) return {grpc::StatusCode::NOT_FOUND, req->crawl_id() == 0 ? "no crawl has been started"
                                                                      : "no crawl " + std::to_string(req->crawl_id())};
    if (c->state() != v1::CRAWL_STATE_STOPPED && c->state() != v1::CRAWL_STATE_DONE)
      return {grpc::StatusCode::FAILED_PRECONDITION, "crawl " + std::to_string(c->crawl_id()) + " is not stopped"};
    crawl = *c;
  }
  crawl.set_state(v1::CRAWL_STATE_RUNNING);
  crawl.set_end_reason("");
  crawl.set_ended_unix_ms(0);
  crawl.set_params_version(crawl.params_version() + 1);
  // Every queue server of the frozen list must take the crawl up again: a
  // missing one would leave its hosts unfetched while the crawl looks done.
  if (auto failed = TellQueueServers(crawl); !failed.empty()) {
    v1::CrawlInfo back = crawl;
    back.set_state(v1::CRAWL_STATE_STOPPED);
    back.set_end_reason("stopped");
    back.set_ended_unix_ms(clock_->NowUnixMs());
    (void)TellQueueServers(back);
    std::string ids;
    for (const auto& id : failed) ids += (ids.empty() ? "" : ", ") + id;
    return {grpc::StatusCode::UNAVAILABLE, "cannot resume: queue server(s) " + ids + " unreachable"};
  }
  {
    std::lock_guard lock(mu_);
    if (auto s = store_->PutCrawlAndActive(crawl, crawl.crawl_id()); !s.ok()) return ToGrpc(s);
    crawls_[crawl.crawl_id()] = crawl;
    active_crawl_ = crawl.crawl_id();
    detector_ = std::make_unique<CompletionDetector>(crawl.params().max_pages());
  }
  spdlog::info("crawl {} resumed", crawl.crawl_id());
  *resp->mutable_crawl() = crawl;
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::SetCrawlParams(grpc::ServerContext* ctx, const v1::SetCrawlParamsRequest* req,
                                                   v1::SetCrawlParamsResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.NameServer/SetCrawlParams"); !denied.ok()) return denied;
  std::lock_guard start_lock(start_mu_);
  if (req->fields().empty()) return {grpc::StatusCode::INVALID_ARGUMENT, "no parameter named"};
  v1::CrawlInfo crawl;
  {
    std::lock_guard lock(mu_);
    v1::CrawlInfo* c = FindCrawl(req->crawl_id());
    if (!c) return {grpc::StatusCode::NOT_FOUND, req->crawl_id() == 0 ? "no crawl has been started"
                                                                      : "no crawl " + std::to_string(req->crawl_id())};
    crawl = *c;
  }
  const auto* descriptor = v1::CrawlParams::descriptor();
  const auto* reflection = v1::CrawlParams::GetReflection();
  v1::CrawlParams params = crawl.params();
  for (const std::string& name : req->fields()) {
    const auto* field = descriptor->FindFieldByName(name);
    if (!field) return {grpc::StatusCode::INVALID_ARGUMENT, "no crawl parameter '" + name + "'"};
    if (name == "order" || name == "user_agent")
      return {grpc::StatusCode::INVALID_ARGUMENT, "'" + name + "' cannot change during a crawl"};
    // Copy one field, whatever its type: clear it, then merge a message
    // holding only it (a proto3 default, such as max_pages 0, merges as
    // "unset" and so stays cleared, which is the value asked for).
    reflection->ClearField(&params, field);
    v1::CrawlParams only = req->params();
    std::vector<const google::protobuf::FieldDescriptor*> present;
    reflection->ListFields(only, &present);
    for (const auto* f : present)
      if (f != field) reflection->ClearField(&only, f);
    params.MergeFrom(only);
  }
  if (auto s = NormalizeParams(&params); !s.ok()) return ToGrpc(s);
  *crawl.mutable_params() = params;
  crawl.set_params_version(crawl.params_version() + 1);
  {
    std::lock_guard lock(mu_);
    if (auto s = store_->PutCrawl(crawl); !s.ok()) return ToGrpc(s);
    crawls_[crawl.crawl_id()] = crawl;
    if (active_crawl_ == crawl.crawl_id()) {
      // The page budget may have changed; completion is judged against it.
      detector_ = std::make_unique<CompletionDetector>(params.max_pages());
    }
  }
  if (crawl.state() == v1::CRAWL_STATE_RUNNING) (void)TellQueueServers(crawl);
  spdlog::info("crawl {} parameters changed (version {})", crawl.crawl_id(), crawl.params_version());
  *resp->mutable_crawl() = crawl;
  return grpc::Status::OK;
}

NameServerServiceImpl::Snapshot NameServerServiceImpl::TakeSnapshot() {
  Snapshot snap;
  std::lock_guard lock(mu_);
  snap.crawls = crawls_;
  snap.active_crawl = active_crawl_;
  const int64_t now = clock_->NowUnixMs();
  for (const auto& [id, m] : members_) {
    Snapshot::MemberView v;
    v.info = m.info;
    v.last_seen_ms_ago = m.last_seen_ms == 0 ? -1 : now - m.last_seen_ms;
    v.stats = m.stats;
    snap.members.push_back(std::move(v));
  }
  if (v1::CrawlInfo* c = FindCrawl(0)) snap.crawl_stats = crawl_stats_[c->crawl_id()];
  for (const auto& [id, f] : fetchers_) snap.fetchers.push_back({id, now - f.last_seen_ms, f.stats});
  snap.history.assign(history_.begin(), history_.end());
  snap.history_crawl = history_crawl_;
  return snap;
}

void NameServerServiceImpl::RecordSample(uint64_t crawl_id) {
  constexpr int64_t kSampleMs = 2000;
  constexpr size_t kMaxSamples = 1800;  // one hour at one sample per 2 s
  const int64_t now = clock_->NowUnixMs();
  if (history_crawl_ != crawl_id) {
    history_.clear();
    history_crawl_ = crawl_id;
  }
  if (!history_.empty() && now - history_.back().unix_ms < kSampleMs) return;
  Snapshot::Sample sample;
  sample.unix_ms = now;
  for (const auto& [id, st] : crawl_stats_[crawl_id]) {
    sample.pages += st.pages_fetched();
    sample.bytes += st.bytes_fetched();
    sample.frontier += st.frontier_size();
    sample.errors += st.fetch_errors();
    sample.urls_seen += st.urls_seen();
  }
  history_.push_back(sample);
  if (history_.size() > kMaxSamples) history_.pop_front();
}

void NameServerServiceImpl::UpdateMembershipGauges() {
  static auto& queue_servers_up =
      metrics::GaugeFamily("crawl_nameserver_queue_servers_up", "Queue servers heard from within the member timeout")
          .Add({});
  static auto& fetchers_up =
      metrics::GaugeFamily("crawl_nameserver_fetchers_up", "Fetchers that polled within the member timeout").Add({});
  static auto& active_pages =
      metrics::GaugeFamily("crawl_nameserver_crawl_pages_fetched", "Pages fetched by the active crawl").Add({});
  static auto& active_frontier =
      metrics::GaugeFamily("crawl_nameserver_crawl_frontier_urls", "Frontier size of the active crawl").Add({});
  std::lock_guard lock(mu_);
  const int64_t now = clock_->NowUnixMs();
  double qs = 0, fetchers = 0, pages = 0, frontier = 0;
  for (const auto& [id, m] : members_)
    if (m.last_seen_ms != 0 && now - m.last_seen_ms <= options_.member_timeout.count()) ++qs;
  for (const auto& [id, f] : fetchers_)
    if (now - f.last_seen_ms <= options_.member_timeout.count()) ++fetchers;
  if (active_crawl_ != 0) {
    for (const auto& [id, st] : crawl_stats_[active_crawl_]) {
      pages += static_cast<double>(st.pages_fetched());
      frontier += static_cast<double>(st.frontier_size());
    }
  }
  queue_servers_up.Set(qs);
  fetchers_up.Set(fetchers);
  active_pages.Set(pages);
  active_frontier.Set(frontier);
}

void NameServerServiceImpl::MonitorLoop() {
  for (;;) {
    PollActiveCrawl();
    UpdateMembershipGauges();
    std::unique_lock lock(monitor_mu_);
    if (monitor_cv_.wait_for(lock, options_.poll_interval, [this] { return monitor_stop_; })) return;
  }
}

std::vector<v1::QueueServerStats> NameServerServiceImpl::PollStats(const v1::CrawlInfo& crawl, bool* complete,
                                                                  const std::map<std::string, uint64_t>* page_caps) {
  std::vector<v1::QueueServerStats> round;
  *complete = true;
  for (const auto& qs : crawl.queue_servers()) {
    auto stub = StubFor(qs.address());
    grpc::ClientContext ctx;
    SetTimeout(ctx, std::chrono::seconds(2));
    v1::StatsRequest req;
    req.set_crawl_id(crawl.crawl_id());
    if (page_caps) {
      auto cap = page_caps->find(qs.id());
      req.set_limit_pages(true);
      req.set_page_cap(cap == page_caps->end() ? 0 : cap->second);
    }
    v1::StatsResponse resp;
    grpc::Status s = stub->Stats(&ctx, req, &resp);
    if (!s.ok() || resp.stats().crawl_id() != crawl.crawl_id()) {
      *complete = false;
      continue;
    }
    round.push_back(resp.stats());
  }
  return round;
}

void NameServerServiceImpl::PollActiveCrawl() {
  v1::CrawlInfo crawl;
  {
    std::lock_guard lock(mu_);
    if (active_crawl_ == 0) return;
    crawl = crawls_[active_crawl_];
  }
  // Page budget: each server may hold what it has committed (fetched +
  // leased, as last reported) plus an even share of what is left. Its own
  // later leases count against that cap, so stale numbers cannot overshoot.
  std::map<std::string, uint64_t> caps;
  if (const uint64_t budget = crawl.params().max_pages(); budget > 0) {
    std::lock_guard lock(mu_);
    const auto& last = crawl_stats_[crawl.crawl_id()];
    uint64_t committed = 0;
    for (const auto& [id, st] : last) committed += st.pages_fetched() + st.leased_urls();
    const uint64_t left = budget > committed ? budget - committed : 0;
    const uint64_t n = static_cast<uint64_t>(crawl.queue_servers_size());
    for (const auto& qs : crawl.queue_servers()) {
      auto it = last.find(qs.id());
      const uint64_t mine = it == last.end() ? 0 : it->second.pages_fetched() + it->second.leased_urls();
      caps[qs.id()] = mine + (left + n - 1) / n;
    }
  }
  bool complete = true;
  std::vector<v1::QueueServerStats> round = PollStats(crawl, &complete, caps.empty() ? nullptr : &caps);
  std::string reason;
  {
    std::lock_guard lock(mu_);
    if (active_crawl_ != crawl.crawl_id() || !detector_) return;
    for (const auto& s : round) {
      crawl_stats_[crawl.crawl_id()][s.queue_server_id()] = s;
      NoteStoreError(store_->PutStats(crawl.crawl_id(), s));
    }
    RecordSample(crawl.crawl_id());
    if (complete) {
      reason = detector_->OnRound(round);
    } else {
      detector_->OnIncompleteRound();
    }
  }
  if (!reason.empty()) EndCrawl(crawl.crawl_id(), v1::CRAWL_STATE_DONE, reason);
}

}  // namespace crawl::nameserver
