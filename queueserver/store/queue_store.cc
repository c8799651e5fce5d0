// QueueStore: opening the database (its column families tuned one by one,
// older layouts migrated) and listing its crawls; Load is in
// queue_store_load.cc, the writer in shard_writer*.cc.
#include "queueserver/store/queue_store.h"

#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/memtablerep.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include <filesystem>
#include <memory>
#include <string_view>

#include "queueserver/store/queue_store_codec.h"
#include "queueserver/store/queue_store_db.h"
#include "queueserver/store/queue_store_migrate.h"
#include "queueserver/store/rocksdb_crc32c.h"
#include "queueserver/store/segment_files.h"
#include "queueserver/store/store_memory.h"

namespace crawl::queueserver {
namespace {

// Every family's blocks, index and filter blocks included, go in the one
// cache of `memory` (store_memory.h), so its capacity bounds them; L0's
// index and filter blocks stay pinned there.
rocksdb::BlockBasedTableOptions TableOptions(const StoreMemory& memory) {
  rocksdb::BlockBasedTableOptions table_options;
  table_options.block_cache = memory.cache();
  table_options.cache_index_and_filter_blocks = true;
  table_options.pin_l0_filter_and_index_blocks_in_cache = true;
  // Index and filter blocks in partitions of about 4 KiB, with a small top
  // level kept in the cache: a Get reads the one partition it needs. Whole,
  // a large table's filter (hundreds of KiB) outgrew a cache shard and was
  // read again from its file, checksummed, for every Get: at 200,000 pages
  // per queue server that was 58% of its CPU (docs/BENCHMARKS.md "Soak").
  table_options.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
  table_options.partition_filters = true;
  table_options.metadata_block_size = 4096;
  table_options.cache_index_and_filter_blocks_with_high_priority = true;
  table_options.pin_top_level_index_and_filter = true;
  return table_options;
}

// Summaries are written raw (queueserver/index/doc_summary.h). A page's
// summary goes to a blob file (RocksDB's BlobDB): compressed with zstd
// once, when its memtable is flushed, after which compactions move only
// its key and blob reference. Kept in the tables, every summary was
// recompressed each time its level was compacted: doc ids are hashes,
// so each L0 compaction rewrote all of L1, and on a 10M-page crawl the
// queue servers spent nearly all their CPU there (docs/BENCHMARKS.md
// "Soak"). Link documents' summaries (a URL and an anchor text) stay in
// the tables: DocExists probes them for every link, and a Get of a
// blob reads its file. Blobs are not cached: only search results read
// them, and in the block cache they would push out the index and filter
// blocks every Get needs. The tables (link summaries, blob references)
// take LZ4, cheaper than zstd at each compaction. No blob garbage
// collection: it rewrote (and recompressed) the oldest files' blobs at
// every compaction that met them, which is every compaction here. A
// blob file goes when all its summaries are deleted (a deleted crawl at
// once; summaries that index compaction drops free their file's space
// only with the rest of the file).
void KeepSummariesInBlobFiles(rocksdb::ColumnFamilyOptions& options) {
  options.compression = rocksdb::kLZ4Compression;
  options.enable_blob_files = true;
  options.min_blob_size = 256;
  options.blob_compression_type = rocksdb::kZSTD;
}

// The default family (unused) and ours, in the order of Cf, each tuned to
// how it is written and read.
std::vector<rocksdb::ColumnFamilyDescriptor> FamilyDescriptors(const StoreMemory& memory) {
  const rocksdb::BlockBasedTableOptions table_options = TableOptions(memory);
  std::shared_ptr<rocksdb::TableFactory> table_factory(rocksdb::NewBlockBasedTableFactory(table_options));
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  families.emplace_back(rocksdb::kDefaultColumnFamilyName, rocksdb::ColumnFamilyOptions());
  for (int cf = 0; cf < kCfCount; ++cf) {
    rocksdb::ColumnFamilyOptions cf_options;
    cf_options.table_factory = table_factory;
    // Write-mostly families (the URL-seen set, the queues, the crawl log):
    // nothing reads them by key while the process runs (the in-memory
    // frontier answers), only a full scan at start-up. A vector memtable
    // appends in O(1) and sorts once at flush; the default skip list spent
    // a third of link ingest finding insert positions.
    if (cf == kSeen || cf == kQueue || cf == kLog)
      cf_options.memtable_factory.reset(new rocksdb::VectorRepFactory());
    // The tier queues are read by range, so they keep the skip list; but
    // each tier is written in ascending sequence numbers (pushes at the
    // back, erases at the head), so a per-tier insert hint (prefix: crawl
    // id, 'T', tier) saves most of the search for each insert position.
    if (cf == kTiers)
      cf_options.memtable_insert_with_hint_prefix_extractor.reset(
          rocksdb::NewFixedPrefixTransform(8 + 1 + 4));
    // The index families are read at query time (and doc ids probed at
    // indexing): bloom filters make misses cheap.
    // fetch_state is read by key on every lease (mostly misses: new URLs).
    if (cf == kDocs || cf == kDocMap || cf == kPostings || cf == kTerms || cf == kFetchState) {
      rocksdb::BlockBasedTableOptions table = table_options;
      table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
      cf_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    }
    if (cf == kDocs) KeepSummariesInBlobFiles(cf_options);
    // Postings are varint gaps already: Snappy barely shrinks them and
    // costs CPU at every flush and compaction.
    if (cf == kPostings) cf_options.compression = rocksdb::kNoCompression;
    // Docs, fetch states and page liveness (in the doc map) are probed by
    // key for every page and every link document (SearchIndex::DocExists,
    // MakeLive) and every lease, mostly for keys not there: a whole-key
    // bloom filter on the memtable answers those without searching its
    // skip list.
    if (cf == kDocs || cf == kFetchState || cf == kDocMap) {
      cf_options.memtable_whole_key_filtering = true;
      cf_options.memtable_prefix_bloom_size_ratio = 0.02;
    }
    families.emplace_back(kCfNames[cf], cf_options);
  }
  return families;
}

}  // namespace

QueueStore::QueueStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
QueueStore::~QueueStore() = default;

Result<std::unique_ptr<QueueStore>> QueueStore::Open(const std::string& dir, Options options) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::IoError("cannot create " + dir + ": " + ec.message());
  rocksdb::DBOptions db_options;
  db_options.create_if_missing = true;
  db_options.create_missing_column_families = true;
  db_options.max_background_jobs = 2;
  // The vector memtables (FamilyDescriptors) do not take concurrent
  // writers (we have one writer per request anyway).
  db_options.allow_concurrent_memtable_write = false;
  auto memory = std::make_shared<StoreMemory>(options.memory_bytes);
  db_options.write_buffer_manager = memory->write_buffers();
  std::vector<rocksdb::ColumnFamilyDescriptor> families = FamilyDescriptors(*memory);
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(db_options, dir, families, &handles, &raw);
  if (!s.ok()) return FromRocks(s, "opening queue store " + dir);
  // The LOG says "Fast CRC32 supported: Not supported on x86" of the
  // library's own; say which one the store really uses (rocksdb_crc32c.h).
  rocksdb::Log(rocksdb::InfoLogLevel::INFO_LEVEL, raw->GetDBOptions().info_log, "crawl: CRC-32C on %s",
               RocksdbCrc32cPath());
  auto impl = std::make_unique<Impl>();
  impl->db.reset(raw);
  // handles[0] is the default family, which we do not use.
  (void)raw->DestroyColumnFamilyHandle(handles[0]);
  impl->cf.assign(handles.begin() + 1, handles.end());
  impl->write_options.sync = options.sync;
  impl->write_options.disableWAL = false;
  impl->dir = dir;
  impl->memory = std::move(memory);
  std::unique_ptr<QueueStore> store(new QueueStore(std::move(impl)));
  auto crawls = store->ListCrawls();
  if (!crawls.ok()) return crawls.status();
  // Segment files of a crawl deleted just before a kill.
  if (Status s = SegmentFiles::RemoveOtherCrawls(dir, *crawls); !s.ok()) return s;
  if (Status migrated = MigrateOldLayouts(*store->impl_, *crawls); !migrated.ok()) return migrated;
  return store;
}

void QueueStore::FailWritesForTest(bool fail) { impl_->fail_writes = fail; }

QueueStore::MemoryUse QueueStore::FitMemoryToData() {
  uint64_t tables = 0, memtables = 0;
  uint64_t blobs = 0;
  (void)impl_->db->GetAggregatedIntProperty(rocksdb::DB::Properties::kTotalSstFilesSize, &tables);
  (void)impl_->db->GetAggregatedIntProperty(rocksdb::DB::Properties::kTotalBlobFileSize, &blobs);
  (void)impl_->db->GetAggregatedIntProperty(rocksdb::DB::Properties::kCurSizeAllMemTables, &memtables);
  // Blob files (page summaries, FamilyDescriptors) count as data: the
  // cache follows what the store holds, as it did with summaries in tables.
  tables += blobs;
  MemoryUse use;
  use.capacity = impl_->memory->FitTo(tables + memtables);
  use.cache_used = impl_->memory->cache()->GetUsage();
  use.memtables = memtables;
  use.data = tables + memtables;
  return use;
}

Result<std::vector<uint64_t>> QueueStore::ListCrawls() const {
  std::vector<uint64_t> ids;
  Status s = impl_->Scan(kMeta, "", [&](std::string_view k, std::string_view) {
    if (k.size() == 9 && k[8] == 'i') ids.push_back(ReadU64(k));
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return ids;
}

Status QueueStore::DeleteCrawl(uint64_t crawl_id) {
  if (crawl_id == 0 || crawl_id == UINT64_MAX)
    return Status::InvalidArgument("cannot delete crawl " + std::to_string(crawl_id));
  if (impl_->fail_writes) return Status::IoError("writes failing (test)");
  const std::string begin = Prefix(crawl_id);
  const std::string end = Prefix(crawl_id + 1);
  rocksdb::WriteBatch batch;
  for (int cf = 0; cf < kCfCount; ++cf) {
    if (auto s = batch.DeleteRange(impl_->cf[cf], begin, end); !s.ok())
      return FromRocks(s, "deleting crawl " + std::to_string(crawl_id));
  }
  if (auto s = impl_->db->Write(impl_->write_options, &batch); !s.ok())
    return FromRocks(s, "deleting crawl " + std::to_string(crawl_id));
  // After the records: files left by a kill here are removed at Open.
  return SegmentFiles::RemoveCrawl(impl_->dir, crawl_id);
}

void QueueStore::CompactCrawl(uint64_t crawl_id) {
  if (crawl_id == UINT64_MAX) return;
  const std::string begin = Prefix(crawl_id);
  const std::string end = Prefix(crawl_id + 1);
  const rocksdb::Slice from(begin), to(end);
  rocksdb::CompactRangeOptions compact;
  for (int cf = 0; cf < kCfCount; ++cf) (void)impl_->db->CompactRange(compact, impl_->cf[cf], &from, &to);
}

}  // namespace crawl::queueserver
