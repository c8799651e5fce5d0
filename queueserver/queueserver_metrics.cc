#include "queueserver/queueserver_metrics.h"

#include <string>

namespace crawl::queueserver {

using metrics::CounterFamily;
using metrics::GaugeFamily;

QueueServerMetrics::QueueServerMetrics(prometheus::Registry& r)
    : schedules(CounterFamily(r, "crawl_queueserver_schedules_total", "Schedules by event: leased, expired")),
      leased(schedules.Add({{"event", "leased"}})),
      expired(schedules.Add({{"event", "expired"}})),
      leased_urls(
          CounterFamily(r, "crawl_queueserver_leased_urls_total", "URLs handed out in schedules").Add({})),
      batches(CounterFamily(r, "crawl_queueserver_batches_total", "Result batches by rpc and result")),
      frontier(GaugeFamily(r, "crawl_queueserver_frontier_urls", "URLs queued per tier (active crawl)")),
      urls_seen(GaugeFamily(r, "crawl_queueserver_urls_seen", "Distinct URLs seen (active crawl)").Add({})),
      refused(GaugeFamily(
          r, "crawl_queueserver_refused_urls",
          "URLs the active crawl refused to queue, by reason: cld_budget (host_budget), trap_rules")),
      over_budget(refused.Add({{"reason", "cld_budget"}})),
      trap_refused(refused.Add({{"reason", "trap_rules"}})),
      due_pages(GaugeFamily(r, "crawl_queueserver_due_pages",
                            "Pages waiting for their next visit in memory (recrawl)")
                    .Add({})),
      revisits(GaugeFamily(r, "crawl_queueserver_revisits",
                           "Recrawl revisits of the active crawl by event: entered (due pages re-entered), "
                           "unchanged, changed")),
      revisits_entered(revisits.Add({{"event", "entered"}})),
      revisits_unchanged(revisits.Add({{"event", "unchanged"}})),
      revisits_changed(revisits.Add({{"event", "changed"}})),
      index_documents(GaugeFamily(r, "crawl_queueserver_index_documents",
                                  "Documents (pages and link documents) in this queue server's index of the "
                                  "current crawl")
                          .Add({})),
      index_pages(
          GaugeFamily(r, "crawl_queueserver_index_pages",
                      "Pages of the current crawl's index replaced by a new version (event=replaced) or "
                      "taken out of search (event=removed: gone, moved, noindex) since this queue server "
                      "took the crawl")),
      index_replaced(index_pages.Add({{"event", "replaced"}})),
      index_removed(index_pages.Add({{"event", "removed"}})),
      index_compacted(
          GaugeFamily(r, "crawl_queueserver_index_documents_compacted",
                      "Dead documents (replaced page versions) compacted out of the current crawl's "
                      "index: postings, summaries and doc map entries deleted")
              .Add({})),
      host_pace(
          GaugeFamily(r, "crawl_queueserver_host_pace_ms",
                      "The gap (ms) before the last request to each of the 20 hosts with the largest "
                      "pace reported in the last 5 minutes (active crawl; the set changes as they do)")),
      host_response(GaugeFamily(r, "crawl_queueserver_host_response_ms",
                                "Median response time (ms) of the last 16 fetches of each host of "
                                "crawl_queueserver_host_pace_ms")),
      hosts_backing_off(GaugeFamily(r, "crawl_queueserver_hosts_backing_off",
                                    "Origins of the active crawl backed off now after 429/503 or network "
                                    "failures (parked ones included)")
                            .Add({})),
      hosts_parked(GaugeFamily(r, "crawl_queueserver_hosts_parked",
                               "Origins of the active crawl parked now (8 failures in a row)")
                       .Add({})),
      store_memory(GaugeFamily(r, "crawl_queueserver_store_memory_bytes",
                               "The queue store's memory (docs/OPERATIONS.md \"Memory\"): part=capacity "
                               "(its block cache, memtables charged in it, following the data), used, "
                               "memtables, and data (tables on disk plus memtables)")) {
  metrics::AddSeries(store_memory, "part", {"capacity", "used", "memtables", "data"});
  for (const char* rpc : {"submit_results", "add_urls"}) {
    for (const char* result : {"applied", "duplicate", "error"})
      (void)batches.Add({{"rpc", rpc}, {"result", result}});
  }
  frontier.Add({{"tier", "0"}}).Set(0);
}

void QueueServerMetrics::StoreMemory(const QueueStore::MemoryUse& use) {
  store_memory.Add({{"part", "capacity"}}).Set(static_cast<double>(use.capacity));
  store_memory.Add({{"part", "used"}}).Set(static_cast<double>(use.cache_used));
  store_memory.Add({{"part", "memtables"}}).Set(static_cast<double>(use.memtables));
  store_memory.Add({{"part", "data"}}).Set(static_cast<double>(use.data));
}

void QueueServerMetrics::Batch(const char* rpc, const grpc::Status& s, bool duplicate) {
  const char* result = !s.ok() ? "error" : duplicate ? "duplicate" : "applied";
  batches.Add({{"rpc", rpc}, {"result", result}}).Increment();
}

void QueueServerMetrics::FromStats(const v1::QueueServerStats& st, uint64_t leases_expired) {
  urls_seen.Set(static_cast<double>(st.urls_seen()));
  over_budget.Set(static_cast<double>(st.over_budget_urls()));
  trap_refused.Set(static_cast<double>(st.trap_refused_links()));
  due_pages.Set(static_cast<double>(st.due_pages()));
  revisits_entered.Set(static_cast<double>(st.revisits_entered()));
  revisits_unchanged.Set(static_cast<double>(st.revisits_unchanged()));
  revisits_changed.Set(static_cast<double>(st.revisits_changed()));
  std::set<int32_t> now;
  for (const auto& t : st.tiers()) {
    frontier.Add({{"tier", std::to_string(t.tier())}}).Set(static_cast<double>(t.urls()));
    now.insert(t.tier());
  }
  ZeroTiersBut(now);
  tiers_shown_.insert(now.begin(), now.end());
  if (leases_expired > expired_seen_) expired.Increment(static_cast<double>(leases_expired - expired_seen_));
  expired_seen_ = leases_expired;
}

void QueueServerMetrics::IndexStats(const v1::QueueServerStats& st) {
  index_documents.Set(static_cast<double>(st.index_documents()));
  index_replaced.Set(static_cast<double>(st.index_pages_replaced()));
  index_removed.Set(static_cast<double>(st.index_pages_removed()));
  index_compacted.Set(static_cast<double>(st.index_documents_compacted()));
}

void QueueServerMetrics::Politeness(const std::vector<HostPace>& top, uint64_t backing_off, uint64_t parked) {
  hosts_backing_off.Set(static_cast<double>(backing_off));
  hosts_parked.Set(static_cast<double>(parked));
  std::set<std::string> now;
  for (const HostPace& h : top) {
    if (now.size() == kPaceHostsShown) break;
    now.insert(h.host);
    auto [it, added] = hosts_shown_.try_emplace(h.host);
    if (added) it->second = {&host_pace.Add({{"host", h.host}}), &host_response.Add({{"host", h.host}})};
    it->second.first->Set(h.pace_ms);
    it->second.second->Set(h.median_ms);
  }
  for (auto it = hosts_shown_.begin(); it != hosts_shown_.end();) {
    if (now.count(it->first)) {
      ++it;
      continue;
    }
    host_pace.Remove(it->second.first);
    host_response.Remove(it->second.second);
    it = hosts_shown_.erase(it);
  }
}

void QueueServerMetrics::ZeroTiersBut(const std::set<int32_t>& now) {
  for (int32_t old : tiers_shown_)
    if (!now.count(old)) frontier.Add({{"tier", std::to_string(old)}}).Set(0);
}

QueueServerMetrics& Metrics() {
  static auto* m = new QueueServerMetrics(metrics::Registry());
  return *m;
}

}  // namespace crawl::queueserver
