// A queue server's near-duplicate state (near_duplicates.h).
#include "queueserver/neardup/near_duplicates.h"

#include <filesystem>

#include "queueserver/neardup/cluster_counts.h"

namespace crawl::queueserver::neardup {

Result<std::unique_ptr<NearDuplicates>> NearDuplicates::Open(const std::string& dir) {
  if (dir.empty()) return std::make_unique<NearDuplicates>(std::make_unique<MemoryKvStore>());
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::IoError("near-duplicate store: " + dir + ": " + ec.message());
  auto store = OpenRocksKvStore(dir);
  if (!store.ok()) return store.status();
  return std::make_unique<NearDuplicates>(std::move(*store));
}

Status NearDuplicates::Ingest(uint64_t crawl_id,
                              const google::protobuf::RepeatedPtrField<v1::FetchRecord>& records) {
  MutexLock lock(mu_);
  return AddClusterMembers(*store_, crawl_id, records);
}

Status NearDuplicates::Clusters(const v1::NearDuplicateClustersRequest& req,
                                v1::NearDuplicateClustersResponse* resp) {
  if (req.crawl_id() == 0) return Status::InvalidArgument("crawl id missing");
  MutexLock lock(mu_);
  return LargestClusters(*store_, req.crawl_id(), req.limit(), resp);
}

Status NearDuplicates::DeleteCrawl(uint64_t crawl_id) {
  if (Status s = table_.DeleteCrawl(crawl_id); !s.ok()) return s;
  MutexLock lock(mu_);
  return DeleteClusters(*store_, crawl_id);
}

}  // namespace crawl::queueserver::neardup
