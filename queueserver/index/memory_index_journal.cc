// MemoryIndexJournal (search_index.h): the index records in memory, and
// snapshots that read them under a shared lock.
#include "queueserver/index/search_index.h"

namespace crawl::queueserver {

void MemoryIndexJournal::PutIndex(IndexFamily family, const std::string& key, const std::string& value) {
  std::unique_lock lock(state_->mu);
  families[static_cast<int>(family)][key] = value;
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
Status MemoryIndexJournal::WriteIndexNow(const std::vector<Put>& puts, IndexFamily erase_family,
                                         const std::string& erase_from, const std::string& erase_to) {
  for (const Put& p : puts) PutIndex(p.family, p.key, p.value);
  if (!erase_from.empty()) {
    std::unique_lock lock(state_->mu);
    auto& m = families[static_cast<int>(erase_family)];
    m.erase(m.lower_bound(erase_from), m.lower_bound(erase_to));
  }
  return Status::Ok();
}

namespace {
class MemoryIndexSnapshot final : public IndexSnapshot {
 public:
  explicit MemoryIndexSnapshot(std::shared_ptr<void> state, std::shared_mutex* mu,
                               const std::map<std::string, std::string>* families)
      : state_(std::move(state)), mu_(mu), families_(families) {}
  Status GetIndex(IndexFamily family, const std::string& key, std::string* value) const override {
    std::shared_lock lock(*mu_);
    const auto& m = families_[static_cast<int>(family)];
    auto it = m.find(key);
    if (it == m.end()) return Status::NotFound("no index record");
    *value = it->second;
    return Status::Ok();
  }

 private:
  std::shared_ptr<void> state_;  // keeps mu_ and families_ alive
  std::shared_mutex* mu_;
  const std::map<std::string, std::string>* families_;
};
}  // namespace

std::shared_ptr<const IndexSnapshot> MemoryIndexJournal::SnapshotIndex() {
  return std::make_shared<MemoryIndexSnapshot>(state_, &state_->mu, state_->families);
}

}  // namespace crawl::queueserver
