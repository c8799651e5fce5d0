// MemoryIndexJournal (index_journal.h): the index records in memory, and
// snapshots that read them under a shared lock, as they were when taken.
// Also IndexJournal's postings segments as records.
#include <mutex>
#include <shared_mutex>

#include "queueserver/index/index_journal.h"
#include "queueserver/index/index_records.h"

namespace crawl::queueserver {

void IndexJournal::AppendSegment(uint32_t partition, uint32_t first_doc, std::string segment) {
  std::string key = "c";
  PutU32Be(&key, partition);
  PutU32Be(&key, first_doc);
  PutIndex(IndexFamily::kPostings, key, segment);
}

Status IndexJournal::ScanSegments(uint32_t partition,
                                  const std::function<bool(uint32_t, std::string_view)>& visit,
                                  uint64_t* lost) {
  *lost = 0;
  std::string prefix = "c";
  PutU32Be(&prefix, partition);
  bool ok = true;
  Status s = ScanIndex(IndexFamily::kPostings, prefix, [&](std::string_view k, std::string_view v) {
    if (k.size() != 9) return ok = false;
    return visit(static_cast<uint32_t>(ReadBe(k.substr(5), 4)), v);
  });
  if (!s.ok()) return s;
  if (!ok)
    return Status::Internal("corrupt index postings segment key in partition " + std::to_string(partition));
  return Status::Ok();
}

void MemoryIndexJournal::State::Write(int family, const std::string& key,
                                      const std::optional<std::string>& value) {
  auto& m = families[family];
  auto it = m.find(key);
  if (!snapshots.empty()) {
    std::optional<std::string> before;
    if (it != m.end()) before = it->second;
    history[{family, key}].emplace_back(sequence, std::move(before));
  }
  ++sequence;
  if (value) {
    m[key] = *value;
  } else if (it != m.end()) {
    m.erase(it);
  }
}

void MemoryIndexJournal::PutIndex(IndexFamily family, const std::string& key, const std::string& value) {
  std::unique_lock lock(state_->mu);
  state_->Write(static_cast<int>(family), key, value);
}
// The writing thread's own reads need no lock (no one else writes).
Status MemoryIndexJournal::GetIndex(IndexFamily family, const std::string& key, std::string* value) {
  const auto& m = families[static_cast<int>(family)];
  auto it = m.find(key);
  if (it == m.end()) return Status::NotFound("no index record");
  *value = it->second;
  return Status::Ok();
}
Status MemoryIndexJournal::ScanIndex(IndexFamily family, const std::string& prefix,
                                     const std::function<bool(std::string_view, std::string_view)>& visit) {
  const auto& m = families[static_cast<int>(family)];
  for (auto it = m.lower_bound(prefix); it != m.end() && it->first.starts_with(prefix); ++it) {
    if (!visit(it->first, it->second)) break;
  }
  return Status::Ok();
}
Status MemoryIndexJournal::WriteIndexNow(const std::vector<Put>& puts, const std::vector<Key>& deletes,
                                         IndexFamily erase_family, const std::string& erase_from,
                                         const std::string& erase_to) {
  // One lock: a snapshot sees all of the write or none of it.
  std::unique_lock lock(state_->mu);
  for (const Put& p : puts) state_->Write(static_cast<int>(p.family), p.key, p.value);
  for (const Key& k : deletes) state_->Write(static_cast<int>(k.family), k.key, std::nullopt);
  if (!erase_from.empty()) {
    const int f = static_cast<int>(erase_family);
    auto& m = families[f];
    std::vector<std::string> keys;
    for (auto it = m.lower_bound(erase_from); it != m.end() && it->first < erase_to; ++it)
      keys.push_back(it->first);
    for (const std::string& k : keys) state_->Write(f, k, std::nullopt);
  }
  return Status::Ok();
}

namespace {
class MemoryIndexSnapshot final : public IndexSnapshot {
 public:
  explicit MemoryIndexSnapshot(std::shared_ptr<MemoryIndexJournal::State> state) : state_(std::move(state)) {
    std::unique_lock lock(state_->mu);
    sequence_ = state_->sequence;
    state_->snapshots.insert(sequence_);
  }
  ~MemoryIndexSnapshot() override {
    std::unique_lock lock(state_->mu);
    state_->snapshots.erase(state_->snapshots.find(sequence_));
    if (state_->snapshots.empty()) state_->history.clear();
  }
  MemoryIndexSnapshot(const MemoryIndexSnapshot&) = delete;
  MemoryIndexSnapshot& operator=(const MemoryIndexSnapshot&) = delete;

  Status GetIndex(IndexFamily family, const std::string& key, std::string* value) const override {
    std::shared_lock lock(state_->mu);
    const int f = static_cast<int>(family);
    // The first write at or after this snapshot noted the value it saw.
    if (auto h = state_->history.find({f, key}); h != state_->history.end()) {
      for (const auto& [sequence, before] : h->second) {
        if (sequence < sequence_) continue;
        if (!before) return Status::NotFound("no index record");
        *value = *before;
        return Status::Ok();
      }
    }
    const auto& m = state_->families[f];
    auto it = m.find(key);
    if (it == m.end()) return Status::NotFound("no index record");
    *value = it->second;
    return Status::Ok();
  }

 private:
  std::shared_ptr<MemoryIndexJournal::State> state_;
  uint64_t sequence_ = 0;
};
}  // namespace

std::shared_ptr<const IndexSnapshot> MemoryIndexJournal::SnapshotIndex() {
  return std::make_shared<MemoryIndexSnapshot>(state_);
}

}  // namespace crawl::queueserver
