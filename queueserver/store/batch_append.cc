// Joining write batches (see batch_append.h).
#include "queueserver/store/batch_append.h"

#include <algorithm>

namespace crawl::queueserver {
namespace {

constexpr size_t kHeaderBytes = 12;  // sequence (8) + count (4)

uint32_t ReadCount(const std::string& rep) {
  uint32_t count = 0;
  for (int i = 0; i < 4; ++i) count |= uint32_t{static_cast<uint8_t>(rep[8 + i])} << (8 * i);
  return count;
}

void WriteCount(std::string* rep, uint32_t count) {
  for (int i = 0; i < 4; ++i) (*rep)[8 + i] = static_cast<char>((count >> (8 * i)) & 0xff);
}

// Re-issues each record on `out`, finding the family handle by id.
class RecordCopier : public rocksdb::WriteBatch::Handler {
 public:
  RecordCopier(std::span<rocksdb::ColumnFamilyHandle* const> families, rocksdb::WriteBatch* out)
      : families_(families), out_(out) {}

  rocksdb::Status PutCF(uint32_t id, const rocksdb::Slice& key, const rocksdb::Slice& value) override {
    rocksdb::ColumnFamilyHandle* family = Family(id);
    return family ? out_->Put(family, key, value) : Unknown(id);
  }
  rocksdb::Status DeleteCF(uint32_t id, const rocksdb::Slice& key) override {
    rocksdb::ColumnFamilyHandle* family = Family(id);
    return family ? out_->Delete(family, key) : Unknown(id);
  }
  rocksdb::Status SingleDeleteCF(uint32_t id, const rocksdb::Slice& key) override {
    rocksdb::ColumnFamilyHandle* family = Family(id);
    return family ? out_->SingleDelete(family, key) : Unknown(id);
  }
  rocksdb::Status MergeCF(uint32_t id, const rocksdb::Slice& key, const rocksdb::Slice& value) override {
    rocksdb::ColumnFamilyHandle* family = Family(id);
    return family ? out_->Merge(family, key, value) : Unknown(id);
  }
  rocksdb::Status DeleteRangeCF(uint32_t id, const rocksdb::Slice& begin,
                                const rocksdb::Slice& end) override {
    rocksdb::ColumnFamilyHandle* family = Family(id);
    return family ? out_->DeleteRange(family, begin, end) : Unknown(id);
  }

 private:
  rocksdb::ColumnFamilyHandle* Family(uint32_t id) const {
    for (rocksdb::ColumnFamilyHandle* family : families_) {
      if (family != nullptr && family->GetID() == id) return family;
    }
    return nullptr;
  }
  static rocksdb::Status Unknown(uint32_t id) {
    return rocksdb::Status::InvalidArgument("write batch: a record of unknown column family " +
                                            std::to_string(id));
  }

  std::span<rocksdb::ColumnFamilyHandle* const> families_;
  rocksdb::WriteBatch* out_;
};

}  // namespace

bool BatchLayoutAsExpected() {
  static const bool expected = [] {
    rocksdb::WriteBatch one;
    if (!one.Put("k", "v").ok()) return false;
    const std::string& rep = one.Data();
    return rocksdb::WriteBatch().GetDataSize() == kHeaderBytes && rep.size() > kHeaderBytes &&
           ReadCount(rep) == 1;
  }();
  return expected;
}

rocksdb::Status CopyRecords(const rocksdb::WriteBatch& src,
                            std::span<rocksdb::ColumnFamilyHandle* const> families,
                            rocksdb::WriteBatch* out) {
  RecordCopier copier(families, out);
  return src.Iterate(&copier);
}

rocksdb::Status JoinBatches(const rocksdb::WriteBatch& first, const rocksdb::WriteBatch& second,
                            std::span<rocksdb::ColumnFamilyHandle* const> families, size_t reserve,
                            rocksdb::WriteBatch* out, bool* fast_path) {
  const uint32_t count = first.Count() + second.Count();
  std::string rep;
  // Room for everything at once: grown record by record, the batch was
  // reallocated and its new pages faulted in over and over.
  rep.reserve(std::max(reserve, first.GetDataSize() + second.GetDataSize()));
  rep.assign(first.Data());
  const bool fast = BatchLayoutAsExpected();
  if (fast && second.Count() > 0) {
    WriteCount(&rep, ReadCount(rep) + second.Count());
    rep.append(second.Data(), kHeaderBytes, std::string::npos);
  }
  *out = rocksdb::WriteBatch(std::move(rep));
  if (fast_path != nullptr) *fast_path = fast;
  if (fast && out->Count() == count) return rocksdb::Status::OK();
  if (fast_path != nullptr) *fast_path = false;
  out->Clear();
  if (rocksdb::Status s = CopyRecords(first, families, out); !s.ok()) return s;
  return CopyRecords(second, families, out);
}

}  // namespace crawl::queueserver
