// The name server's crawl registry (crawl_registry.h).
#include "nameserver/crawl_registry.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace crawl::nameserver {
namespace {

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
  t->set_due_pages(t->due_pages() + s.due_pages());
  t->set_revisits_entered(t->revisits_entered() + s.revisits_entered());
  t->set_revisits_unchanged(t->revisits_unchanged() + s.revisits_unchanged());
  t->set_revisits_changed(t->revisits_changed() + s.revisits_changed());
}

// The pending delete of `crawl`: its id and queue servers.
v1::CrawlInfo PendingOf(const v1::CrawlInfo& crawl) {
  v1::CrawlInfo pending;
  pending.set_crawl_id(crawl.crawl_id());
  *pending.mutable_queue_servers() = crawl.queue_servers();
  return pending;
}

Status NoSuchCrawl(uint64_t requested) {
  return Status::NotFound(requested == 0 ? "no crawl has been started"
                                         : "no crawl " + std::to_string(requested));
}

}  // namespace

void NoteStoreError(const Status& s) {
  if (!s.ok()) spdlog::error("{}", s.message());
}

CrawlRegistry::CrawlRegistry(const Clock* clock, RegistryStore* store,
                             std::chrono::milliseconds member_timeout)
    : clock_(clock), store_(store), member_timeout_(member_timeout) {}

Status CrawlRegistry::Load() {
  auto image = store_->Load();
  if (!image.ok()) return image.status();
  MutexLock lock(mu_);
  crawls_ = std::move(image->crawls);
  active_crawl_ = image->active_crawl;
  crawl_stats_ = std::move(image->stats);
  pending_deletes_ = std::move(image->pending_deletes);
  // A start cut short (the name server was killed before it answered):
  // roll it back, so the queue servers that took seeds drop the crawl.
  for (auto& [id, crawl] : image->starting) {
    v1::CrawlInfo pending = PendingOf(crawl);
    if (auto s = store_->DeleteCrawl(id, pending); !s.ok()) return s;
    spdlog::warn(
        "crawl {} was being started when the name server stopped: rolled back, {} queue servers to drop it",
        id, pending.queue_servers_size());
    pending_deletes_[id] = std::move(pending);
  }
  for (auto& [id, info] : image->members) {
    Member& m = members_[id];
    m.info = std::move(info);
    m.last_seen_ms = 0;  // not heard from since this start
  }
  spdlog::info("registry loaded: {} crawls, {} queue servers", crawls_.size(), members_.size());
  return Status::Ok();
}

const v1::CrawlInfo* CrawlRegistry::FindLocked(uint64_t id) const {
  if (id == 0) id = active_crawl_ != 0 ? active_crawl_ : (crawls_.empty() ? 0 : crawls_.rbegin()->first);
  auto it = crawls_.find(id);
  return it == crawls_.end() ? nullptr : &it->second;
}

v1::CrawlInfo* CrawlRegistry::FindLocked(uint64_t id) {
  return const_cast<v1::CrawlInfo*>(static_cast<const CrawlRegistry*>(this)->FindLocked(id));
}

std::optional<v1::CrawlInfo> CrawlRegistry::RegisterMember(const v1::QueueServerInfo& info) {
  MutexLock lock(mu_);
  Member& m = members_[info.id()];
  const bool changed = m.info.SerializeAsString() != info.SerializeAsString();
  m.info = info;
  m.last_seen_ms = clock_->NowUnixMs();
  if (changed) NoteStoreError(store_->PutMember(info));
  spdlog::info("queue server {} registered at {}", info.id(), info.address());
  if (active_crawl_ == 0) return std::nullopt;
  v1::CrawlInfo* crawl = FindLocked(active_crawl_);
  if (!crawl) return std::nullopt;
  // A member of the running crawl that comes back (possibly on a new port)
  // resumes its share; fetchers learn the new address from the version bump.
  for (auto& qs : *crawl->mutable_queue_servers()) {
    if (qs.id() == info.id() && qs.address() != info.address()) {
      qs.set_address(info.address());
      crawl->set_params_version(crawl->params_version() + 1);
      NoteStoreError(store_->PutCrawl(*crawl));
    }
  }
  return *crawl;
}

bool CrawlRegistry::Heartbeat(const v1::QueueServerInfo& server, const v1::QueueServerStats& stats) {
  MutexLock lock(mu_);
  auto it = members_.find(server.id());
  if (it == members_.end() || it->second.info.address() != server.address()) return false;
  it->second.last_seen_ms = clock_->NowUnixMs();
  it->second.stats = stats;
  return true;
}

std::map<std::string, CrawlRegistry::Member> CrawlRegistry::Members() const {
  MutexLock lock(mu_);
  return members_;
}

size_t CrawlRegistry::LiveMembers() const {
  MutexLock lock(mu_);
  const int64_t now = clock_->NowUnixMs();
  size_t live = 0;
  for (const auto& [id, m] : members_)
    if (m.last_seen_ms != 0 && now - m.last_seen_ms <= member_timeout_.count()) ++live;
  return live;
}

uint64_t CrawlRegistry::ActiveId() const {
  MutexLock lock(mu_);
  return active_crawl_;
}

std::optional<v1::CrawlInfo> CrawlRegistry::Active() const {
  MutexLock lock(mu_);
  if (active_crawl_ == 0) return std::nullopt;
  auto it = crawls_.find(active_crawl_);
  return it == crawls_.end() ? v1::CrawlInfo() : it->second;
}

std::optional<v1::CrawlInfo> CrawlRegistry::WaitActive(std::chrono::milliseconds at_most) const {
  MutexLock lock(mu_);
  const auto deadline = std::chrono::steady_clock::now() + at_most;
  while (active_crawl_ == 0 && activated_.WaitUntil(mu_, deadline)) {
  }
  if (active_crawl_ == 0) return std::nullopt;
  auto it = crawls_.find(active_crawl_);
  return it == crawls_.end() ? v1::CrawlInfo() : it->second;
}

std::optional<v1::CrawlInfo> CrawlRegistry::Find(uint64_t id) const {
  MutexLock lock(mu_);
  const v1::CrawlInfo* c = FindLocked(id);
  if (!c) return std::nullopt;
  return *c;
}

std::map<uint64_t, v1::CrawlInfo> CrawlRegistry::Crawls() const {
  MutexLock lock(mu_);
  return crawls_;
}

Result<v1::CrawlInfo> CrawlRegistry::NewCrawl(const v1::CrawlParams& params, uint64_t seed_count) const {
  MutexLock lock(mu_);
  if (active_crawl_ != 0)
    return Status::FailedPrecondition("crawl " + std::to_string(active_crawl_) +
                                      " is running; stop it first");
  v1::CrawlInfo crawl;
  const int64_t now = clock_->NowUnixMs();
  for (const auto& [id, m] : members_) {
    if (now - m.last_seen_ms <= member_timeout_.count()) *crawl.add_queue_servers() = m.info;
  }
  if (crawl.queue_servers_size() == 0) return Status::Unavailable("no queue server is registered");
  uint64_t id = static_cast<uint64_t>(now / 1000);
  if (!crawls_.empty() && crawls_.rbegin()->first >= id) id = crawls_.rbegin()->first + 1;
  if (!pending_deletes_.empty() && pending_deletes_.rbegin()->first >= id)
    id = pending_deletes_.rbegin()->first + 1;
  crawl.set_crawl_id(id);
  crawl.set_state(v1::CRAWL_STATE_RUNNING);
  *crawl.mutable_params() = params;
  crawl.set_params_version(1);
  crawl.set_started_unix_ms(now);
  crawl.set_seed_count(seed_count);
  return crawl;
}

Result<v1::CrawlInfo> CrawlRegistry::ResumedCrawl(uint64_t id) const {
  v1::CrawlInfo crawl;
  {
    MutexLock lock(mu_);
    if (active_crawl_ != 0)
      return Status::FailedPrecondition("crawl " + std::to_string(active_crawl_) +
                                        " is running; stop it first");
    const v1::CrawlInfo* c = FindLocked(id);
    if (!c) return NoSuchCrawl(id);
    if (c->state() != v1::CRAWL_STATE_STOPPED && c->state() != v1::CRAWL_STATE_DONE)
      return Status::FailedPrecondition("crawl " + std::to_string(c->crawl_id()) + " is not stopped");
    crawl = *c;
  }
  crawl.set_state(v1::CRAWL_STATE_RUNNING);
  crawl.set_end_reason("");
  crawl.set_ended_unix_ms(0);
  crawl.set_params_version(crawl.params_version() + 1);
  return crawl;
}

Result<uint64_t> CrawlRegistry::RunningCrawl(uint64_t requested) const {
  MutexLock lock(mu_);
  const uint64_t id = requested != 0 ? requested : active_crawl_;
  if (id == 0) return Status::FailedPrecondition("no crawl is running");
  auto it = crawls_.find(id);
  if (it == crawls_.end()) return Status::NotFound("no crawl " + std::to_string(id));
  if (it->second.state() != v1::CRAWL_STATE_RUNNING)
    return Status::FailedPrecondition("crawl " + std::to_string(id) + " is not running");
  return id;
}

Status CrawlRegistry::ActivateStarted(const v1::CrawlInfo& crawl) {
  MutexLock lock(mu_);
  Status stored = store_->PutCrawlAndActive(crawl, crawl.crawl_id());
  crawls_[crawl.crawl_id()] = crawl;
  active_crawl_ = crawl.crawl_id();
  activated_.NotifyAll();
  return stored;
}

Status CrawlRegistry::ActivateResumed(const v1::CrawlInfo& crawl) {
  MutexLock lock(mu_);
  if (auto s = store_->PutCrawlAndActive(crawl, crawl.crawl_id()); !s.ok()) return s;
  crawls_[crawl.crawl_id()] = crawl;
  active_crawl_ = crawl.crawl_id();
  activated_.NotifyAll();
  return Status::Ok();
}

Result<bool> CrawlRegistry::PutParams(const v1::CrawlInfo& crawl) {
  MutexLock lock(mu_);
  if (auto s = store_->PutCrawl(crawl); !s.ok()) return s;
  crawls_[crawl.crawl_id()] = crawl;
  return active_crawl_ == crawl.crawl_id();
}

std::optional<std::vector<v1::QueueServerInfo>> CrawlRegistry::End(uint64_t id, v1::CrawlState state,
                                                                   const std::string& reason) {
  MutexLock lock(mu_);
  auto it = crawls_.find(id);
  if (it == crawls_.end() || it->second.state() != v1::CRAWL_STATE_RUNNING) return std::nullopt;
  it->second.set_state(state);
  it->second.set_end_reason(reason);
  it->second.set_ended_unix_ms(clock_->NowUnixMs());
  if (active_crawl_ == id) active_crawl_ = 0;
  settling_.insert(id);
  NoteStoreError(store_->PutCrawlAndActive(it->second, active_crawl_));
  return std::vector<v1::QueueServerInfo>(it->second.queue_servers().begin(),
                                          it->second.queue_servers().end());
}

void CrawlRegistry::Settled(uint64_t id) {
  {
    MutexLock lock(mu_);
    settling_.erase(id);
  }
  settled_.NotifyAll();
}

void CrawlRegistry::WaitWhileRunning(uint64_t id, std::chrono::milliseconds at_most) const {
  MutexLock lock(mu_);
  const v1::CrawlInfo* crawl = FindLocked(id);
  if (crawl == nullptr) return;
  const uint64_t crawl_id = crawl->crawl_id();
  const auto deadline = std::chrono::steady_clock::now() + at_most;
  for (;;) {
    auto it = crawls_.find(crawl_id);  // a delete cannot come while it runs; still, not found ends the wait
    if (it == crawls_.end() ||
        (it->second.state() != v1::CRAWL_STATE_RUNNING && !settling_.contains(crawl_id)))
      return;
    if (!settled_.WaitUntil(mu_, deadline)) return;
  }
}

Status CrawlRegistry::RecordStarting(const v1::CrawlInfo& crawl) {
  MutexLock lock(mu_);
  return store_->PutStarting(crawl);
}

Status CrawlRegistry::RollBackStart(const v1::CrawlInfo& crawl) {
  MutexLock lock(mu_);
  v1::CrawlInfo pending = PendingOf(crawl);
  // In memory even when the write fails: this process still retries it (a
  // restart would find the start record and roll it back again).
  pending_deletes_[crawl.crawl_id()] = pending;
  return store_->DeleteCrawl(crawl.crawl_id(), pending);
}

Result<v1::CrawlInfo> CrawlRegistry::Delete(uint64_t id, bool* existed) {
  MutexLock lock(mu_);
  *existed = false;
  auto it = crawls_.find(id);
  if (it == crawls_.end()) {
    auto pending = pending_deletes_.find(id);
    if (pending != pending_deletes_.end()) return pending->second;
    v1::CrawlInfo none;
    none.set_crawl_id(id);
    return none;
  }
  if (active_crawl_ == id || it->second.state() == v1::CRAWL_STATE_RUNNING)
    return Status::FailedPrecondition("crawl " + std::to_string(id) +
                                      " is running; stop it first (crawlctl stop)");
  v1::CrawlInfo pending = PendingOf(it->second);
  if (auto s = store_->DeleteCrawl(id, pending); !s.ok()) return s;
  crawls_.erase(it);
  crawl_stats_.erase(id);
  pending_deletes_[id] = pending;
  *existed = true;
  return pending;
}

void CrawlRegistry::DeleteDone(uint64_t id, const std::vector<std::string>& reached) {
  MutexLock lock(mu_);
  auto it = pending_deletes_.find(id);
  if (it == pending_deletes_.end() || reached.empty()) return;
  auto* servers = it->second.mutable_queue_servers();
  for (int i = servers->size() - 1; i >= 0; --i) {
    if (std::find(reached.begin(), reached.end(), servers->Get(i).id()) != reached.end())
      servers->DeleteSubrange(i, 1);
  }
  NoteStoreError(store_->PutPendingDelete(it->second));
  if (servers->empty()) {
    spdlog::info("crawl {} deleted from every queue server", id);
    pending_deletes_.erase(it);
  }
}

std::vector<v1::CrawlInfo> CrawlRegistry::PendingDeletesToLive() const {
  MutexLock lock(mu_);
  const int64_t now = clock_->NowUnixMs();
  std::vector<v1::CrawlInfo> out;
  for (const auto& [id, pending] : pending_deletes_) {
    v1::CrawlInfo live;
    live.set_crawl_id(id);
    for (const auto& qs : pending.queue_servers()) {
      auto m = members_.find(qs.id());
      if (m == members_.end() || m->second.last_seen_ms == 0 ||
          now - m->second.last_seen_ms > member_timeout_.count())
        continue;
      *live.add_queue_servers() = m->second.info;
    }
    if (live.queue_servers_size() > 0) out.push_back(std::move(live));
  }
  return out;
}

std::map<uint64_t, v1::CrawlInfo> CrawlRegistry::PendingDeletes() const {
  MutexLock lock(mu_);
  return pending_deletes_;
}

bool CrawlRegistry::PutStats(uint64_t crawl_id, const std::vector<v1::QueueServerStats>& round,
                             bool only_while_active) {
  MutexLock lock(mu_);
  if (only_while_active && active_crawl_ != crawl_id) return false;
  for (const auto& s : round) {
    crawl_stats_[crawl_id][s.queue_server_id()] = s;
    NoteStoreError(store_->PutStats(crawl_id, s));
  }
  return true;
}

std::map<std::string, v1::QueueServerStats> CrawlRegistry::StatsOf(uint64_t crawl_id) const {
  MutexLock lock(mu_);
  auto it = crawl_stats_.find(crawl_id);
  return it == crawl_stats_.end() ? std::map<std::string, v1::QueueServerStats>() : it->second;
}

Status CrawlRegistry::FillCrawlStatus(uint64_t id, v1::CrawlStatusResponse* resp) const {
  MutexLock lock(mu_);
  const v1::CrawlInfo* crawl = FindLocked(id);
  if (!crawl) return NoSuchCrawl(id);
  *resp->mutable_crawl() = *crawl;
  static const std::map<std::string, v1::QueueServerStats> kNone;
  auto polled_it = crawl_stats_.find(crawl->crawl_id());
  const auto& polled = polled_it == crawl_stats_.end() ? kNone : polled_it->second;
  for (const auto& qs : crawl->queue_servers()) {
    v1::QueueServerStats s;
    if (auto live = polled.find(qs.id()); live != polled.end()) {
      s = live->second;
    } else if (auto m = members_.find(qs.id());
               m != members_.end() && m->second.stats.crawl_id() == crawl->crawl_id()) {
      s = m->second.stats;
    }
    s.set_queue_server_id(qs.id());
    s.set_crawl_id(crawl->crawl_id());
    AddTotals(s, resp->mutable_totals());
    *resp->add_queue_servers() = std::move(s);
  }
  resp->mutable_totals()->set_crawl_id(crawl->crawl_id());
  return Status::Ok();
}

}  // namespace crawl::nameserver
