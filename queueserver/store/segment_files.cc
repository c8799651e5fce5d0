// SegmentFiles (segment_files.h): postings segments in append-only files.
#include "queueserver/store/segment_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <set>
#include <system_error>

#include "queueserver/store/rocksdb_crc32c.h"

namespace crawl::queueserver::store_internal {
namespace {

constexpr size_t kHeader = 12;  // length(4) first doc(4) crc(4)
constexpr char kDirName[] = "postings-segments";
constexpr char kSuffix[] = ".seg";

void PutU32Le(char* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}
uint32_t ReadU32Le(const char* in) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t{static_cast<uint8_t>(in[i])} << (8 * i);
  return v;
}
// The CRC-32C of a frame: its length and first document, then the segment.
uint32_t FrameCrc(const char* header, std::string_view segment) {
  return rocksdb::crc32c::Extend(rocksdb::crc32c::Extend(0, header, 8), segment.data(), segment.size());
}
Status Errno(const std::string& what, const std::string& path) {
  return Status::IoError(what + " " + path + ": " + std::strerror(errno));
}
std::string Hex16(uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[i] = kDigits[v & 15];
  return s;
}
// Whole-buffer pread; false on an error or end of file.
bool ReadAt(int fd, char* out, size_t n, uint64_t offset) {
  while (n > 0) {
    const ssize_t r = pread(fd, out, n, static_cast<off_t>(offset));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    out += r;
    n -= static_cast<size_t>(r);
    offset += static_cast<uint64_t>(r);
  }
  return true;
}
// Removes the files of the crawls `remove` says to (by their hex id).
Status RemoveFiles(const std::string& store_dir,
                   const std::function<bool(std::string_view crawl_hex)>& remove) {
  const std::filesystem::path dir = std::filesystem::path(store_dir) / kDirName;
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) return Status::Ok();
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() < 17 || name[16] != '-' || !name.ends_with(kSuffix)) continue;
    if (!remove(std::string_view(name).substr(0, 16))) continue;
    std::error_code rm;
    std::filesystem::remove(entry.path(), rm);
    if (rm) return Status::IoError("cannot remove " + entry.path().string() + ": " + rm.message());
  }
  if (ec) return Status::IoError("cannot list " + dir.string() + ": " + ec.message());
  return Status::Ok();
}

}  // namespace

SegmentFiles::SegmentFiles(const std::string& store_dir, uint64_t crawl_id)
    : dir_((std::filesystem::path(store_dir) / kDirName).string()), crawl_hex_(Hex16(crawl_id)) {}

SegmentFiles::~SegmentFiles() {
  for (auto& [partition, file] : files_) {
    if (file.fd >= 0) close(file.fd);
  }
}

std::string SegmentFiles::Path(uint32_t partition) const {
  return dir_ + "/" + crawl_hex_ + "-" + std::to_string(partition) + kSuffix;
}

void SegmentFiles::Stage(uint32_t partition, uint32_t first_doc, std::string segment) {
  staged_.push_back({partition, first_doc, std::move(segment)});
}

void SegmentFiles::Abandon() {
  staged_.clear();
  for (auto& [partition, file] : files_) file.written = file.committed;
}

void SegmentFiles::Committed() {
  for (auto& [partition, file] : files_) file.committed = file.written;
}

Result<SegmentFiles::File*> SegmentFiles::Open(uint32_t partition, const CommittedLength& committed,
                                               bool sync) {
  auto it = files_.find(partition);
  if (it != files_.end() && it->second.fd >= 0) return &it->second;
  uint64_t length = 0;
  if (it != files_.end()) {
    length = it->second.committed;  // known from Read
  } else {
    Result<uint64_t> c = committed(partition);
    if (!c.ok()) return c.status();
    length = *c;
  }
  std::error_code ec;
  const bool made_dir = std::filesystem::create_directories(dir_, ec);
  if (ec) return Status::IoError("cannot create " + dir_ + ": " + ec.message());
  const std::string path = Path(partition);
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Errno("cannot open", path);
  if (sync) {
    // The new file's name (and the new directory's) survive a power cut.
    for (const std::string& d :
         made_dir ? std::vector<std::string>{dir_, std::filesystem::path(dir_).parent_path()}
                  : std::vector<std::string>{dir_}) {
      const int dfd = open(d.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (dfd < 0 || fsync(dfd) != 0) {
        Status s = Errno("cannot sync directory", d);
        if (dfd >= 0) close(dfd);
        close(fd);
        return s;
      }
      close(dfd);
    }
  }
  File& file = files_[partition];
  file.fd = fd;
  file.committed = file.written = length;
  return &file;
}

Status SegmentFiles::Write(bool sync, const CommittedLength& committed,
                           std::vector<std::pair<uint32_t, uint64_t>>* lengths) {
  lengths->clear();
  std::vector<char> headers(staged_.size() * kHeader);
  std::set<uint32_t> touched;
  for (size_t i = 0; i < staged_.size();) {
    // The run of segments of one partition: one pwritev.
    const uint32_t partition = staged_[i].partition;
    Result<File*> opened = Open(partition, committed, sync);
    if (!opened.ok()) return opened.status();
    File& file = **opened;
    std::vector<iovec> io;
    uint64_t bytes = 0;
    for (; i < staged_.size() && staged_[i].partition == partition; ++i) {
      const Staged& s = staged_[i];
      if (s.segment.size() > UINT32_MAX) return Status::InvalidArgument("postings segment over 4 GiB");
      char* h = &headers[i * kHeader];
      PutU32Le(h, static_cast<uint32_t>(s.segment.size()));
      PutU32Le(h + 4, s.first_doc);
      PutU32Le(h + 8, FrameCrc(h, s.segment));
      io.push_back({h, kHeader});
      io.push_back({const_cast<char*>(s.segment.data()), s.segment.size()});
      bytes += kHeader + s.segment.size();
    }
    // pwritev may write less than asked: go on from where it stopped.
    uint64_t offset = file.written;
    size_t first = 0;
    while (first < io.size()) {
      const ssize_t n =
          pwritev(file.fd, io.data() + first, static_cast<int>(std::min<size_t>(io.size() - first, IOV_MAX)),
                  static_cast<off_t>(offset));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Errno("cannot write", Path(partition));
      offset += static_cast<uint64_t>(n);
      for (size_t left = static_cast<size_t>(n); left > 0 && first < io.size();) {
        const size_t take = std::min(left, io[first].iov_len);
        io[first].iov_base = static_cast<char*>(io[first].iov_base) + take;
        io[first].iov_len -= take;
        left -= take;
        if (io[first].iov_len == 0) ++first;
      }
    }
    file.written += bytes;
    touched.insert(partition);
  }
  for (uint32_t partition : touched) {
    File& file = files_[partition];
    if (sync && fdatasync(file.fd) != 0) return Errno("cannot sync", Path(partition));
    lengths->emplace_back(partition, file.written);
  }
  staged_.clear();
  return Status::Ok();
}

Status SegmentFiles::Read(uint32_t partition, uint64_t committed,
                          const std::function<bool(uint32_t first_doc, std::string_view segment)>& visit,
                          uint64_t* intact) {
  *intact = 0;
  const std::string path = Path(partition);
  const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0 && errno != ENOENT) return Errno("cannot open", path);
  uint64_t at = 0;
  bool more = true;
  std::string segment;
  char h[kHeader];
  while (fd >= 0 && more && committed - at >= kHeader && ReadAt(fd, h, kHeader, at)) {
    const uint32_t length = ReadU32Le(h);
    if (length > committed - at - kHeader) break;
    segment.resize(length);
    if (!ReadAt(fd, segment.data(), length, at + kHeader) || FrameCrc(h, segment) != ReadU32Le(h + 8)) break;
    at += kHeader + length;
    more = visit(ReadU32Le(h + 4), segment);
  }
  if (!more) at = committed;  // the caller stopped: nothing is known lost
  *intact = at;
  if (fd < 0) return Status::Ok();
  Status s;
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    s = Errno("cannot stat", path);
  } else if (static_cast<uint64_t>(st.st_size) > at && ftruncate(fd, static_cast<off_t>(at)) != 0) {
    s = Errno("cannot truncate", path);
  }
  close(fd);
  if (!s.ok()) return s;
  // Appends go after the intact frames (an open file of this partition
  // would be at the old length: close it).
  if (auto it = files_.find(partition); it != files_.end() && it->second.fd >= 0) close(it->second.fd);
  File& file = files_[partition];
  file.fd = -1;
  file.committed = file.written = at;
  return Status::Ok();
}

Status SegmentFiles::Drop(uint32_t partition) {
  if (auto it = files_.find(partition); it != files_.end()) {
    if (it->second.fd >= 0) close(it->second.fd);
    files_.erase(it);
  }
  const std::string path = Path(partition);
  if (unlink(path.c_str()) != 0 && errno != ENOENT) return Errno("cannot remove", path);
  return Status::Ok();
}

Status SegmentFiles::RemoveOtherCrawls(const std::string& store_dir, const std::vector<uint64_t>& crawls) {
  std::set<std::string> keep;
  for (uint64_t c : crawls) keep.insert(Hex16(c));
  return RemoveFiles(store_dir, [&](std::string_view hex) { return !keep.contains(std::string(hex)); });
}

Status SegmentFiles::RemoveCrawl(const std::string& store_dir, uint64_t crawl) {
  const std::string hex = Hex16(crawl);
  return RemoveFiles(store_dir, [&](std::string_view h) { return h == hex; });
}

}  // namespace crawl::queueserver::store_internal
