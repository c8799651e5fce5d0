// Writing a file so readers see all of it or none of it: write "<path>.tmp",
// then rename it over <path> (rename(2) is atomic within a file system).
// The hosts file relies on this: scripts treat its appearance as "ready".
#pragma once

#include <fstream>
#include <string>

#include "common/base/status.h"

namespace crawl {

// Not thread-safe. Without Commit(), the destructor removes the temporary
// file and leaves <path> untouched.
class AtomicFile {
 public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Creates <path>.tmp. IoError if it cannot be created.
  [[nodiscard]] Status Open();
  // REQUIRES: Open() succeeded.
  [[nodiscard]] std::ostream& stream() { return out_; }
  // Flushes, closes and renames into place. IoError if any write failed.
  [[nodiscard]] Status Commit();

 private:
  std::string path_;
  std::string tmp_;
  std::ofstream out_;
  bool committed_ = false;
};

// Convenience: `content` into `path` atomically.
[[nodiscard]] Status WriteFileAtomically(const std::string& path, const std::string& content);

}  // namespace crawl
