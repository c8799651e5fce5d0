// Joining write batches (queueserver/store/batch_append.h): the byte append
// must be taken with this librocksdb and give exactly the records that
// copying them through the public API gives; the copy is the fallback.
#include "queueserver/store/batch_append.h"

#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "tests/unit/support/temp_dir.h"

namespace crawl::queueserver {
namespace {

// Every record of a batch as text, in order.
class RecordList : public rocksdb::WriteBatch::Handler {
 public:
  std::vector<std::string> records;
  rocksdb::Status PutCF(uint32_t cf, const rocksdb::Slice& k, const rocksdb::Slice& v) override {
    records.push_back("put " + std::to_string(cf) + " " + k.ToString() + "=" + v.ToString());
    return rocksdb::Status::OK();
  }
  rocksdb::Status DeleteCF(uint32_t cf, const rocksdb::Slice& k) override {
    records.push_back("delete " + std::to_string(cf) + " " + k.ToString());
    return rocksdb::Status::OK();
  }
  rocksdb::Status SingleDeleteCF(uint32_t cf, const rocksdb::Slice& k) override {
    records.push_back("single-delete " + std::to_string(cf) + " " + k.ToString());
    return rocksdb::Status::OK();
  }
};

std::vector<std::string> Records(const rocksdb::WriteBatch& batch) {
  RecordList list;
  REQUIRE(batch.Iterate(&list).ok());
  return list.records;
}

// A store with the default family and two more, in a fresh directory.
struct TwoFamilyDb {
  test_support::TempDir dir;
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> families;

  TwoFamilyDb() {
    rocksdb::Options options;
    options.create_if_missing = true;
    options.create_missing_column_families = true;
    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors = {
        {rocksdb::kDefaultColumnFamilyName, {}}, {"one", {}}, {"two", {}}};
    rocksdb::DB* raw = nullptr;
    REQUIRE(rocksdb::DB::Open(options, dir.path.string(), descriptors, &families, &raw).ok());
    db.reset(raw);
  }
  ~TwoFamilyDb() {
    for (auto* family : families) (void)db->DestroyColumnFamilyHandle(family);
    db.reset();
  }
};

TEST_CASE("joined batches hold the first's records, then the second's, on the fast path", "[unit]") {
  REQUIRE(BatchLayoutAsExpected());
  TwoFamilyDb store;
  rocksdb::WriteBatch first;
  REQUIRE(first.Put(store.families[0], "a", "1").ok());
  REQUIRE(first.Put(store.families[1], "b", std::string(300, 'x')).ok());
  REQUIRE(first.Delete(store.families[1], "c").ok());
  rocksdb::WriteBatch second;
  REQUIRE(second.Put(store.families[2], "d", "4").ok());
  REQUIRE(second.SingleDelete(store.families[2], "e").ok());
  REQUIRE(second.Delete(store.families[0], "f").ok());

  std::vector<std::string> expected = Records(first);
  for (const std::string& r : Records(second)) expected.push_back(r);

  rocksdb::WriteBatch joined;
  bool fast = false;
  REQUIRE(JoinBatches(first, second, store.families, 0, &joined, &fast).ok());
  CHECK(fast);
  CHECK(joined.Count() == 6);
  CHECK(Records(joined) == expected);

  rocksdb::WriteBatch copied;
  REQUIRE(CopyRecords(first, store.families, &copied).ok());
  REQUIRE(CopyRecords(second, store.families, &copied).ok());
  CHECK(Records(copied) == expected);
  CHECK(copied.Count() == joined.Count());

  // The joined batch writes what its records say.
  REQUIRE(store.db->Write(rocksdb::WriteOptions(), &joined).ok());
  std::string value;
  REQUIRE(store.db->Get(rocksdb::ReadOptions(), store.families[2], "d", &value).ok());
  CHECK(value == "4");
  REQUIRE(store.db->Get(rocksdb::ReadOptions(), store.families[1], "b", &value).ok());
  CHECK(value == std::string(300, 'x'));
}

TEST_CASE("joining with an empty batch on either side keeps the other's records", "[unit]") {
  TwoFamilyDb store;
  rocksdb::WriteBatch some;
  REQUIRE(some.Put(store.families[1], "k", "v").ok());
  rocksdb::WriteBatch none;
  rocksdb::WriteBatch joined;
  REQUIRE(JoinBatches(some, none, store.families, 1024, &joined).ok());
  CHECK(Records(joined) == Records(some));
  REQUIRE(JoinBatches(none, some, store.families, 0, &joined).ok());
  CHECK(Records(joined) == Records(some));
  REQUIRE(JoinBatches(none, none, store.families, 0, &joined).ok());
  CHECK(joined.Count() == 0);
}

TEST_CASE("copying a record of a family the store does not have is refused", "[unit]") {
  TwoFamilyDb store;
  rocksdb::WriteBatch batch;
  REQUIRE(batch.Put(store.families[2], "k", "v").ok());
  rocksdb::WriteBatch out;
  const rocksdb::Status s = CopyRecords(batch, std::span(store.families).first(2), &out);
  CHECK(s.IsInvalidArgument());
}

}  // namespace
}  // namespace crawl::queueserver
