// Near-duplicate look-ups before shipping (near_duplicate_probe.h).
#include "fetcher/near_duplicate_probe.h"

#include <spdlog/spdlog.h>

#include <future>
#include <string>
#include <vector>

#include "common/base/hash.h"
#include "common/crawl/fingerprint_blocks.h"
#include "fetcher/fetcher_metrics.h"

namespace crawl::fetcher {

FingerprintPlan PlanFingerprintProbes(const v1::CrawlInfo& info,
                                      const google::protobuf::RepeatedPtrField<v1::FetchRecord>& records) {
  FingerprintPlan plan;
  std::vector<std::string> ids;
  for (const v1::QueueServerInfo& q : info.queue_servers()) ids.push_back(q.id());
  if (ids.empty() || info.params().no_near_duplicates()) return plan;
  plan.requests.resize(ids.size());
  plan.record_of.resize(ids.size());
  const uint32_t distance = EffectiveFingerprintDistance(info.params().near_duplicate_bits());
  for (v1::MatchFingerprintsRequest& r : plan.requests) {
    r.set_crawl_id(info.crawl_id());
    r.set_max_distance(distance);
  }
  for (int i = 0; i < records.size(); ++i) {
    const v1::FetchRecord& r = records[i];
    if (r.simhash() == 0) continue;
    // The probe's tables, grouped by owner: one probe per (record, owner).
    std::vector<v1::FingerprintProbe*> probe_at(ids.size(), nullptr);
    for (uint32_t t = 0; t < kFingerprintTables; ++t) {
      const size_t owner = FingerprintBucketOwner(ids, t, FingerprintBlock(r.simhash(), t));
      if (!probe_at[owner]) {
        v1::FingerprintProbe* p = plan.requests[owner].add_probes();
        p->set_fingerprint(r.simhash());
        p->set_url_hash(hash::Hash8(r.url()));
        p->set_url(r.url());
        p->set_fetched_unix_us(r.timestamp_unix_us());
        plan.record_of[owner].push_back(i);
        probe_at[owner] = p;
      }
      probe_at[owner]->add_tables(t);
    }
  }
  return plan;
}

size_t ApplyFingerprintMatches(const FingerprintPlan& plan,
                               const std::vector<const v1::MatchFingerprintsResponse*>& answers,
                               google::protobuf::RepeatedPtrField<v1::FetchRecord>* records) {
  std::vector<const v1::FingerprintMatch*> best(static_cast<size_t>(records->size()), nullptr);
  for (size_t s = 0; s < answers.size() && s < plan.record_of.size(); ++s) {
    if (!answers[s]) continue;
    for (const v1::FingerprintMatch& m : answers[s]->matches()) {
      if (m.probe() >= plan.record_of[s].size()) continue;  // not ours: ignored
      const auto i = static_cast<size_t>(plan.record_of[s][m.probe()]);
      const v1::FingerprintMatch* b = best[i];
      if (!b || m.fetched_unix_us() < b->fetched_unix_us() ||
          (m.fetched_unix_us() == b->fetched_unix_us() && m.cluster() < b->cluster()))
        best[i] = &m;
    }
  }
  size_t marked = 0;
  for (size_t i = 0; i < best.size(); ++i) {
    v1::FetchRecord& r = (*records)[static_cast<int>(i)];
    if (!best[i] || best[i]->cluster() == 0 || best[i]->cluster() == hash::Hash8(r.url())) continue;
    r.set_near_duplicate_cluster(best[i]->cluster());
    r.set_near_duplicate_of(best[i]->cluster_url());
    ++marked;
  }
  return marked;
}

void MarkNearDuplicates(const v1::CrawlInfo& info, const MatchCall& call,
                        google::protobuf::RepeatedPtrField<v1::FetchRecord>* records) {
  const FingerprintPlan plan = PlanFingerprintProbes(info, *records);
  std::vector<v1::MatchFingerprintsResponse> responses(plan.requests.size());
  std::vector<const v1::MatchFingerprintsResponse*> answers(plan.requests.size(), nullptr);
  // Per record: 1 probed, 2 some owner of its tables did not answer.
  std::vector<uint8_t> state(static_cast<size_t>(records->size()), 0);
  // Every owner at once: each call is a round trip to a queue server.
  std::vector<std::future<bool>> calls(plan.requests.size());
  for (size_t s = 0; s < plan.requests.size(); ++s) {
    if (plan.requests[s].probes_size() == 0) continue;
    calls[s] = std::async(std::launch::async, [&, s] { return call(s, plan.requests[s], &responses[s]); });
  }
  for (size_t s = 0; s < plan.requests.size(); ++s) {
    if (!calls[s].valid()) continue;
    const bool answered = calls[s].get();
    if (answered) answers[s] = &responses[s];
    for (int i : plan.record_of[s]) state[static_cast<size_t>(i)] |= answered ? 1 : 2;
  }
  size_t probed = 0, unreachable = 0;
  for (uint8_t st : state) {
    probed += st != 0;
    unreachable += (st & 2) != 0;
  }
  if (probed == 0) return;
  const size_t marked = ApplyFingerprintMatches(plan, answers, records);
  auto& family = Metrics().near_duplicate_probes;
  family.Add({{"outcome", "matched"}}).Increment(static_cast<double>(marked));
  family.Add({{"outcome", "unmatched"}}).Increment(static_cast<double>(probed - marked));
  if (unreachable > 0) {
    family.Add({{"outcome", "unreachable"}}).Increment(static_cast<double>(unreachable));
    spdlog::warn("near-duplicates: {} of {} pages shipped without every fingerprint table", unreachable,
                 probed);
  }
}

}  // namespace crawl::fetcher
