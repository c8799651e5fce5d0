// The name server's crawl registry (docs/DESIGN.md §1): every crawl with
// its state and parameter version, which one is active, new crawl ids, the
// queue servers that registered (and when they were last heard from), and
// each crawl's last polled numbers per queue server. Every change is written
// through to a RegistryStore.
//
// No RPCs and no thread of its own; time comes from the injected Clock, so
// tests drive it with a ManualClock. Thread-safe: one mutex guards it all,
// and each method is one step under it.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/base/clock.h"
#include "common/base/mutex.h"
#include "common/base/status.h"
#include "nameserver/registry_store.h"
#include "proto/crawl.pb.h"

namespace crawl::nameserver {

class CrawlRegistry {
 public:
  struct Member {
    v1::QueueServerInfo info;
    int64_t last_seen_ms = 0;  // 0: not heard from since this start
    v1::QueueServerStats stats;
  };

  // A queue server unheard of for longer than `member_timeout` is not given
  // new crawls. `clock` and `store` must outlive the registry.
  CrawlRegistry(const Clock* clock, RegistryStore* store, std::chrono::milliseconds member_timeout);

  // Starts from what the store kept. Call once, before anything else.
  [[nodiscard]] Status Load();

  // ---- Queue servers ----
  // A queue server (re)registers. A member of the running crawl that comes
  // back on a new address gets it there too, with the crawl's params version
  // bumped (fetchers learn the address from it). Returns the active crawl.
  std::optional<v1::CrawlInfo> RegisterMember(const v1::QueueServerInfo& info);
  // A heartbeat; false when `server` is not registered at that address.
  bool Heartbeat(const v1::QueueServerInfo& server, const v1::QueueServerStats& stats);
  [[nodiscard]] std::map<std::string, Member> Members() const;
  // How many members were heard from within the member timeout.
  [[nodiscard]] size_t LiveMembers() const;

  // ---- Crawls ----
  [[nodiscard]] uint64_t ActiveId() const;  // 0: none
  [[nodiscard]] std::optional<v1::CrawlInfo> Active() const;
  // Active(), waiting up to `at_most` for a crawl to become active when
  // none is (GetCrawlState's long poll: idle fetchers see a start at once).
  [[nodiscard]] std::optional<v1::CrawlInfo> WaitActive(std::chrono::milliseconds at_most) const;
  // Crawl by id; 0 = the active one, else the latest.
  [[nodiscard]] std::optional<v1::CrawlInfo> Find(uint64_t id) const;
  [[nodiscard]] std::map<uint64_t, v1::CrawlInfo> Crawls() const;

  // A new running crawl over the live members, with a fresh id (the start
  // second, or one past the latest id) and params version 1; neither stored
  // nor active yet. FailedPrecondition while a crawl runs, Unavailable when
  // no queue server is live.
  [[nodiscard]] Result<v1::CrawlInfo> NewCrawl(const v1::CrawlParams& params, uint64_t seed_count) const;
  // Stopped or done crawl `id` (0 = latest) set running again with the next
  // params version; neither stored nor active yet.
  [[nodiscard]] Result<v1::CrawlInfo> ResumedCrawl(uint64_t id) const;
  // The running crawl `id` (0 = the active one) that a stop would end.
  [[nodiscard]] Result<uint64_t> RunningCrawl(uint64_t id) const;

  // Makes `crawl` the active crawl. A started crawl is active even when the
  // store write fails (its seeds are out; the error is returned); a resumed
  // one only once stored.
  [[nodiscard]] Status ActivateStarted(const v1::CrawlInfo& crawl);
  [[nodiscard]] Status ActivateResumed(const v1::CrawlInfo& crawl);
  // Stores `crawl` with changed parameters; true when it is the active crawl.
  [[nodiscard]] Result<bool> PutParams(const v1::CrawlInfo& crawl);
  // Ends running crawl `id` with `state` (no longer active). Returns its
  // queue servers, or nothing when it was not running. The crawl is
  // settling until Settled(id): its final numbers are still being polled.
  std::optional<std::vector<v1::QueueServerInfo>> End(uint64_t id, v1::CrawlState state,
                                                      const std::string& reason);
  // Crawl `id`'s final numbers are in (after End and the last poll).
  void Settled(uint64_t id);
  // CrawlStatus's long poll (`crawlctl wait`): waits up to `at_most` while
  // crawl `id` (0 = the active one, else the latest) is running or settling,
  // so the answer that follows is its final one. At once for a crawl that
  // is neither, or none.
  void WaitWhileRunning(uint64_t id, std::chrono::milliseconds at_most) const;

  // ---- Starting and deleting (no crawl forgotten, none half deleted) ----
  // Durably records `crawl` as being started, before any queue server hears
  // of it; ActivateStarted clears the record. A record left by a name server
  // killed mid-start is rolled back by Load: the crawl becomes a pending
  // delete on its queue servers, so none of them keeps a crawl the name
  // server forgot.
  [[nodiscard]] Status RecordStarting(const v1::CrawlInfo& crawl);
  // A start that failed (a queue server refused): its queue servers are to
  // drop it; the start record goes.
  [[nodiscard]] Status RollBackStart(const v1::CrawlInfo& crawl);
  // Removes crawl `id` from the registry and returns the pending delete (the
  // id and the queue servers to tell); `*existed` says whether it was known.
  // A crawl deleted before whose delete is still pending gives that record
  // again; an unknown crawl gives one naming no queue server.
  // FailedPrecondition while the crawl runs.
  [[nodiscard]] Result<v1::CrawlInfo> Delete(uint64_t id, bool* existed);
  // Queue servers `reached` dropped crawl `id`: they leave its pending delete.
  void DeleteDone(uint64_t id, const std::vector<std::string>& reached);
  // Pending deletes, each naming only its queue servers that are live now
  // (at their current addresses); those with none live are left out.
  [[nodiscard]] std::vector<v1::CrawlInfo> PendingDeletesToLive() const;
  // Every pending delete (tests, status).
  [[nodiscard]] std::map<uint64_t, v1::CrawlInfo> PendingDeletes() const;

  // ---- Numbers ----
  // Keeps `round` as crawl `crawl_id`'s latest numbers; when
  // `only_while_active`, only if it is still the active crawl (returns
  // whether they were kept).
  bool PutStats(uint64_t crawl_id, const std::vector<v1::QueueServerStats>& round, bool only_while_active);
  [[nodiscard]] std::map<std::string, v1::QueueServerStats> StatsOf(uint64_t crawl_id) const;
  // Crawl `id` (0 = active, else latest), one row per queue server of it
  // (polled numbers, else its last heartbeat's for this crawl) and totals.
  [[nodiscard]] Status FillCrawlStatus(uint64_t id, v1::CrawlStatusResponse* resp) const;

 private:
  const v1::CrawlInfo* FindLocked(uint64_t id) const REQUIRES(mu_);
  v1::CrawlInfo* FindLocked(uint64_t id) REQUIRES(mu_);

  const Clock* clock_;
  RegistryStore* store_;
  const std::chrono::milliseconds member_timeout_;

  mutable Mutex mu_;
  std::map<std::string, Member> members_ GUARDED_BY(mu_);     // by id
  std::map<uint64_t, v1::CrawlInfo> crawls_ GUARDED_BY(mu_);  // by id
  uint64_t active_crawl_ GUARDED_BY(mu_) = 0;                 // 0 = none
  mutable CondVar activated_;                                 // a crawl became active
  mutable CondVar settled_;                                   // a crawl's final numbers are in
  std::set<uint64_t> settling_ GUARDED_BY(mu_);               // ended, final numbers not yet in
  // Latest Stats per queue server, per crawl: polled while the crawl runs,
  // and once more when it ends (so a finished crawl reports exact totals).
  std::map<uint64_t, std::map<std::string, v1::QueueServerStats>> crawl_stats_ GUARDED_BY(mu_);
  // Deleted (or rolled-back) crawls and the queue servers still holding
  // them. New crawl ids stay above these: a queue server that still holds
  // an old crawl must never take it for a new one.
  std::map<uint64_t, v1::CrawlInfo> pending_deletes_ GUARDED_BY(mu_);
};

// Logs a failed registry write: the change holds in memory, and the next
// write of the same record carries it.
void NoteStoreError(const Status& s);

}  // namespace crawl::nameserver
