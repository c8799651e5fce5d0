// Joins RocksDB write batches into one, so a commit is a single atomic write.
//
// The fast path appends the second batch's record bytes to the first's and
// adds the counts in the 12-byte header (8-byte sequence, 4-byte
// little-endian count): RocksDB's documented WriteBatch representation,
// which WriteBatch(std::string) and Data() expose but no public function
// appends. The result is then read back through the public API (Count,
// GetDataSize); if the library's layout ever differs, the joined batch is
// rebuilt record by record through WriteBatch::Iterate instead. A library
// update can cost speed, never data; tests/unit/queueserver/batch_append_test.cc
// fails loudly the day the fast path stops being taken.
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <span>
#include <string>

namespace crawl::queueserver {

// Whether this librocksdb lays batches out as the fast path assumes: an
// empty batch is the 12-byte header alone, and a batch of one record says so
// at byte 8. Probed once, through the public API.
bool BatchLayoutAsExpected();

// Copies src's records into `out` through the public API. `families` are the
// store's column family handles, found by their ids.
rocksdb::Status CopyRecords(const rocksdb::WriteBatch& src,
                            std::span<rocksdb::ColumnFamilyHandle* const> families, rocksdb::WriteBatch* out);

// Sets `out` to one batch holding first's records, then second's, with
// `reserve` bytes of room for more. Sets *fast_path (when given) to whether
// the byte append was taken rather than CopyRecords.
rocksdb::Status JoinBatches(const rocksdb::WriteBatch& first, const rocksdb::WriteBatch& second,
                            std::span<rocksdb::ColumnFamilyHandle* const> families, size_t reserve,
                            rocksdb::WriteBatch* out, bool* fast_path = nullptr);

}  // namespace crawl::queueserver
