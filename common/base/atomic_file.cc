// Write-then-rename files; see atomic_file.h.
#include "common/base/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace crawl {

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp") {}

AtomicFile::~AtomicFile() {
  if (!committed_ && out_.is_open()) {
    out_.close();
    std::remove(tmp_.c_str());
  }
}

Status AtomicFile::Open() {
  out_.open(tmp_, std::ios::out | std::ios::trunc | std::ios::binary);
  if (!out_) return Status::IoError("cannot create " + tmp_ + ": " + std::strerror(errno));
  return Status::Ok();
}

Status AtomicFile::Commit() {
  if (!out_.is_open()) return Status::FailedPrecondition("file not open: " + tmp_);
  out_.flush();
  const bool good = static_cast<bool>(out_);
  out_.close();
  if (!good || out_.fail()) {
    std::remove(tmp_.c_str());
    return Status::IoError("cannot write " + tmp_);
  }
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp_.c_str());
    return Status::IoError("cannot rename " + tmp_ + " to " + path_ + ": " + why);
  }
  committed_ = true;
  return Status::Ok();
}

Status WriteFileAtomically(const std::string& path, const std::string& content) {
  AtomicFile file(path);
  if (Status s = file.Open(); !s.ok()) return s;
  file.stream() << content;
  return file.Commit();
}

}  // namespace crawl
