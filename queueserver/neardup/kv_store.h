// The ordered key-value store under the near-duplicate tables
// (queueserver/neardup/fingerprint_table.h, cluster_counts.h): in memory
// for a queue server without --data-dir and for tests, else a RocksDB
// database of its own under the data directory (DATA/neardup), so the
// fingerprint tables neither slow nor migrate the queue store.
//
// Implementations are not thread-safe: the callers hold their own lock.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"

namespace crawl::queueserver::neardup {

class KvStore {
 public:
  virtual ~KvStore() = default;
  // *value = the value of `key`; *found whether there is one.
  [[nodiscard]] virtual Status Get(std::string_view key, std::string* value, bool* found) = 0;
  // Writes the pairs (one atomic write).
  [[nodiscard]] virtual Status Put(const std::vector<std::pair<std::string, std::string>>& pairs) = 0;
  // Calls visit(key, value) for every key starting with `prefix`, in key
  // order, until it returns false.
  [[nodiscard]] virtual Status Scan(std::string_view prefix,
                                    const std::function<bool(std::string_view, std::string_view)>& visit) = 0;
  // Removes every key starting with `prefix`.
  [[nodiscard]] virtual Status DeletePrefix(std::string_view prefix) = 0;
  // Bytes of the store's files on disk (0 in memory).
  [[nodiscard]] virtual uint64_t DiskBytes() { return 0; }
};

class MemoryKvStore final : public KvStore {
 public:
  Status Get(std::string_view key, std::string* value, bool* found) override;
  Status Put(const std::vector<std::pair<std::string, std::string>>& pairs) override;
  Status Scan(std::string_view prefix,
              const std::function<bool(std::string_view, std::string_view)>& visit) override;
  Status DeletePrefix(std::string_view prefix) override;

 private:
  std::map<std::string, std::string, std::less<>> map_;
};

// A RocksDB database in `dir` (created if missing).
[[nodiscard]] Result<std::unique_ptr<KvStore>> OpenRocksKvStore(const std::string& dir);

}  // namespace crawl::queueserver::neardup
