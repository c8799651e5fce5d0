// MatchFingerprints over the block tables (fingerprint_table.h).
#include "queueserver/neardup/fingerprint_table.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "common/crawl/fingerprint_blocks.h"

namespace crawl::queueserver::neardup {

namespace {

void PutBe(std::string* out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t GetBe(std::string_view in, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<unsigned char>(in[at + i]);
  return v;
}

std::string BucketPrefix(uint64_t crawl_id, uint32_t table, uint16_t block) {
  std::string k;
  k.reserve(28);
  PutBe(&k, crawl_id, 8);
  k.push_back('f');
  PutBe(&k, table, 1);
  PutBe(&k, block, 2);
  return k;
}

std::string UrlKey(uint64_t crawl_id, uint32_t table, uint64_t url_hash) {
  std::string k;
  PutBe(&k, crawl_id, 8);
  k.push_back('u');
  PutBe(&k, table, 1);
  PutBe(&k, url_hash, 8);
  return k;
}

// Whether `a` leads `b` (fetched first; equal times: the lower URL hash).
bool Earlier(int64_t a_us, uint64_t a_hash, int64_t b_us, uint64_t b_hash) {
  return a_us != b_us ? a_us < b_us : a_hash < b_hash;
}

}  // namespace

std::string EntryKey(uint64_t crawl_id, uint32_t table, const FingerprintEntry& e) {
  std::string k = BucketPrefix(crawl_id, table, FingerprintBlock(e.fingerprint, table));
  PutBe(&k, e.fingerprint, 8);
  PutBe(&k, e.url_hash, 8);
  return k;
}

std::string EntryValue(const FingerprintEntry& e) {
  std::string v;
  v.reserve(24 + e.cluster_url.size());
  PutBe(&v, e.cluster, 8);
  PutBe(&v, static_cast<uint64_t>(e.fetched_unix_us), 8);
  PutBe(&v, static_cast<uint64_t>(e.cluster_fetched_unix_us), 8);
  v += e.cluster_url;
  return v;
}

bool DecodeEntry(std::string_view key, std::string_view value, FingerprintEntry* e) {
  if (key.size() != 28 || value.size() < 24) return false;
  e->fingerprint = GetBe(key, 12, 8);
  e->url_hash = GetBe(key, 20, 8);
  e->cluster = GetBe(value, 0, 8);
  e->fetched_unix_us = static_cast<int64_t>(GetBe(value, 8, 8));
  e->cluster_fetched_unix_us = static_cast<int64_t>(GetBe(value, 16, 8));
  e->cluster_url.assign(value.substr(24));
  return true;
}

std::vector<std::pair<std::string, std::string>> EntryWrites(uint64_t crawl_id, uint32_t table,
                                                             const FingerprintEntry& e) {
  std::string url_value;
  PutBe(&url_value, FingerprintBlock(e.fingerprint, table), 2);
  PutBe(&url_value, e.fingerprint, 8);
  return {{EntryKey(crawl_id, table, e), EntryValue(e)},
          {UrlKey(crawl_id, table, e.url_hash), std::move(url_value)}};
}

Status FingerprintTable::ProbeTable(uint64_t crawl_id, uint32_t table, uint32_t max_distance,
                                    const v1::FingerprintProbe& probe, FingerprintEntry* best,
                                    uint32_t* distance, bool* found) {
  const uint64_t fp = probe.fingerprint();
  std::string value;
  bool known = false;
  if (Status s = store_->Get(UrlKey(crawl_id, table, probe.url_hash()), &value, &known); !s.ok()) return s;
  FingerprintEntry match;
  bool matched = false;
  if (known) {  // a refetch: its first entry stands, with that entry's cluster
    if (value.size() != 10) return Status::Internal("near-duplicate store: bad URL entry");
    FingerprintEntry own;
    own.fingerprint = GetBe(value, 2, 8);
    own.url_hash = probe.url_hash();
    std::string key = EntryKey(crawl_id, table, own);
    if (Status s = store_->Get(key, &value, &known); !s.ok()) return s;
    if (!known || !DecodeEntry(key, value, &match))
      return Status::Internal("near-duplicate store: entry lost");
    if (match.cluster == probe.url_hash()) return Status::Ok();  // it leads its cluster
    matched = true;
  } else {
    Status s = store_->Scan(
        BucketPrefix(crawl_id, table, FingerprintBlock(fp, table)),
        [&](std::string_view k, std::string_view v) {
          if (k.size() != 28 || FingerprintDistance(GetBe(k, 12, 8), fp) > max_distance) return true;
          FingerprintEntry e;
          if (!DecodeEntry(k, v, &e) || e.url_hash == probe.url_hash()) return true;
          if (!matched || Earlier(e.fetched_unix_us, e.url_hash, match.fetched_unix_us, match.url_hash)) {
            match = std::move(e);
            matched = true;
          }
          return true;
        });
    if (!s.ok()) return s;
    FingerprintEntry own;
    own.fingerprint = fp;
    own.url_hash = probe.url_hash();
    own.fetched_unix_us = probe.fetched_unix_us();
    own.cluster = matched ? match.cluster : probe.url_hash();
    own.cluster_url = matched ? match.cluster_url : probe.url();
    own.cluster_fetched_unix_us = matched ? match.cluster_fetched_unix_us : probe.fetched_unix_us();
    if (s = store_->Put(EntryWrites(crawl_id, table, own)); !s.ok()) return s;
  }
  if (!matched) return Status::Ok();
  if (!*found ||
      Earlier(match.cluster_fetched_unix_us, match.cluster, best->cluster_fetched_unix_us, best->cluster)) {
    *distance = FingerprintDistance(match.fingerprint, fp);
    *best = std::move(match);
    *found = true;
  }
  return Status::Ok();
}

Status FingerprintTable::Match(const v1::MatchFingerprintsRequest& req, v1::MatchFingerprintsResponse* resp) {
  if (req.crawl_id() == 0) return Status::InvalidArgument("crawl id missing");
  for (const v1::FingerprintProbe& probe : req.probes()) {
    if (probe.fingerprint() == 0) return Status::InvalidArgument("a probe without a fingerprint");
    for (uint32_t t : probe.tables()) {
      if (t >= kFingerprintTables)
        return Status::InvalidArgument("no fingerprint table " + std::to_string(t));
    }
  }
  const uint32_t max_distance = std::min(req.max_distance(), kMaxFingerprintDistance);
  MutexLock lock(mu_);
  for (int i = 0; i < req.probes_size(); ++i) {
    const v1::FingerprintProbe& probe = req.probes(i);
    FingerprintEntry best;
    uint32_t distance = 0;
    bool found = false;
    for (uint32_t t : probe.tables()) {
      if (Status s = ProbeTable(req.crawl_id(), t, max_distance, probe, &best, &distance, &found); !s.ok())
        return s;
    }
    if (!found) continue;
    v1::FingerprintMatch* m = resp->add_matches();
    m->set_probe(static_cast<uint32_t>(i));
    m->set_cluster(best.cluster);
    m->set_cluster_url(best.cluster_url);
    m->set_fetched_unix_us(best.cluster_fetched_unix_us);
    m->set_distance(distance);
  }
  return Status::Ok();
}

Status FingerprintTable::DeleteCrawl(uint64_t crawl_id) {
  std::string prefix;
  PutBe(&prefix, crawl_id, 8);
  MutexLock lock(mu_);
  if (Status s = store_->DeletePrefix(prefix + 'f'); !s.ok()) return s;
  return store_->DeletePrefix(prefix + 'u');
}

}  // namespace crawl::queueserver::neardup
