// The page cache's location index in the queue store (family warc_loc,
// queue_store.h; warc_location_index.h): key crawl id(8) + Hash8(url), the
// key layout of fetch_state; value EncodeWarcLocation; and one mark, key
// crawl id(8) + 'M', once every WARC file of the crawl was indexed. Written in its own
// small batch with the write-ahead log, not in a request's commit: the WARC
// records it points at are appended after that commit.
#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "common/base/hash.h"
#include "queueserver/store/queue_store.h"
#include "queueserver/store/queue_store_codec.h"
#include "queueserver/store/queue_store_db.h"

namespace crawl::queueserver {
namespace {

// The mark of WarcLocationIndex::MarkIndexed, after the crawl id.
constexpr char kIndexedMark = 'M';

class StoreWarcLocations final : public WarcLocationIndex {
 public:
  StoreWarcLocations(StoreDb* db, uint64_t crawl_id) : db_(db), prefix_(Prefix(crawl_id)) {}

  Status PutLocations(const std::vector<WarcLocationEntry>& entries) override {
    if (entries.empty()) return Status::Ok();
    if (db_->fail_writes) return Status::IoError("writes failing (test)");
    rocksdb::WriteBatch batch;
    for (const WarcLocationEntry& e : entries) {
      if (auto s = batch.Put(db_->cf[kWarcLoc], Key(e.url), EncodeWarcLocation(e)); !s.ok())
        return FromRocks(s, "writing page cache locations");
    }
    return FromRocks(db_->db->Write(db_->write_options, &batch), "writing page cache locations");
  }

  Result<std::optional<WarcLocationEntry>> GetLocation(const std::string& url) const override {
    const std::string key = Key(url);
    std::string value;
    const rocksdb::Status rs = db_->db->Get(rocksdb::ReadOptions(), db_->cf[kWarcLoc], key, &value);
    if (rs.IsNotFound()) return std::optional<WarcLocationEntry>();
    if (!rs.ok()) return FromRocks(rs, "reading a page cache location");
    WarcLocationEntry e;
    if (!DecodeWarcLocation(value, &e)) return Corrupt("page cache location", key);
    if (e.url != url) return std::optional<WarcLocationEntry>();  // another URL with the same hash
    return std::optional<WarcLocationEntry>(std::move(e));
  }

  Result<bool> Indexed() const override {
    std::string value;
    const rocksdb::Status rs = db_->db->Get(rocksdb::ReadOptions(), db_->cf[kWarcLoc], MarkKey(), &value);
    if (rs.IsNotFound()) return false;
    if (!rs.ok()) return FromRocks(rs, "reading the page cache's index mark");
    return true;
  }

  Status MarkIndexed() override {
    if (db_->fail_writes) return Status::IoError("writes failing (test)");
    return FromRocks(db_->db->Put(db_->write_options, db_->cf[kWarcLoc], MarkKey(), std::string(1, '\1')),
                     "writing the page cache's index mark");
  }

 private:
  std::string Key(const std::string& url) const {
    std::string k = prefix_;
    PutU64(&k, hash::Hash8(url));
    return k;
  }

  // Location keys are 16 bytes: a 9-byte key cannot be one.
  std::string MarkKey() const { return prefix_ + kIndexedMark; }

  StoreDb* db_;
  std::string prefix_;
};

}  // namespace

std::unique_ptr<WarcLocationIndex> QueueStore::WarcLocations(uint64_t crawl_id) {
  return std::make_unique<StoreWarcLocations>(impl_.get(), crawl_id);
}

}  // namespace crawl::queueserver
