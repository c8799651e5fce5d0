// Where a crawl's page cache keeps each URL's newest response record
// (warc_writer.h): URL -> WARC file number and offset of the record's gzip
// member. WarcWriter reads and writes it through this interface. The queue
// store implements it in RocksDB (family warc_loc, queue_store.h:
// QueueStore::WarcLocations), so neither the writer's RAM nor its start-up
// work grows with the crawl; MemoryWarcLocationIndex is
// the index of a queue server without a store (whose whole state is in RAM
// anyway) and of tests. A mark per crawl (MarkIndexed) says every WARC
// file so far has its locations in the index.
//
// Also the value's codec (pure functions): a version byte (1), the URL
// (u32 length + bytes), the file number (u32) and the offset (u64), all
// big-endian (queue_store_codec.h's encodings).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"

namespace crawl::queueserver {

// One response record's place: DIR/crawl-<id>-<file_number>.warc.gz, at
// byte `offset`.
struct WarcLocationEntry {
  std::string url;
  uint32_t file_number = 0;
  uint64_t offset = 0;
  bool operator==(const WarcLocationEntry&) const = default;
};

// One crawl's locations. Implementations need not be thread-safe: a
// WarcWriter uses its index under the service mutex.
class WarcLocationIndex {
 public:
  virtual ~WarcLocationIndex() = default;

  // Stores `entries` in one atomic write; of two entries for one URL the
  // later wins. Keys are the URL's 8-byte hash: of two URLs with one hash,
  // the one put last wins and the other reads as not found (its records
  // stay in the WARC files). kIoError when the write fails (nothing written).
  [[nodiscard]] virtual Status PutLocations(const std::vector<WarcLocationEntry>& entries) = 0;
  // The location stored for `url`; nullopt when there is none or the slot
  // holds another URL (a hash collision). kInternal for a damaged record,
  // kIoError when it cannot be read.
  [[nodiscard]] virtual Result<std::optional<WarcLocationEntry>> GetLocation(
      const std::string& url) const = 0;
  // Whether MarkIndexed was called for the crawl: false for a new crawl
  // and for a data directory from before this index (WarcWriter::Open then
  // scans every WARC file of the crawl once, then marks it).
  [[nodiscard]] virtual Result<bool> Indexed() const = 0;
  // Records that every WARC file of the crawl so far has its locations
  // here. kIoError when the write fails.
  [[nodiscard]] virtual Status MarkIndexed() = 0;
};

// In RAM: grows with the crawl's cached pages.
class MemoryWarcLocationIndex final : public WarcLocationIndex {
 public:
  [[nodiscard]] Status PutLocations(const std::vector<WarcLocationEntry>& entries) override;
  [[nodiscard]] Result<std::optional<WarcLocationEntry>> GetLocation(const std::string& url) const override;
  [[nodiscard]] Result<bool> Indexed() const override { return indexed_; }
  [[nodiscard]] Status MarkIndexed() override {
    indexed_ = true;
    return Status::Ok();
  }

 private:
  std::map<std::string, WarcLocationEntry> where_;
  bool indexed_ = false;
};

// The stored value of `e` (version 1, see the file header).
[[nodiscard]] std::string EncodeWarcLocation(const WarcLocationEntry& e);
// False for an unknown version, a cut or an over-long value; `*e` is then
// unspecified.
[[nodiscard]] bool DecodeWarcLocation(std::string_view d, WarcLocationEntry* e);

}  // namespace crawl::queueserver
