// crawlctl's search, near-duplicates and cache commands (log: log_command.h).
#include "crawlctl/crawl_data_commands.h"

#include <chrono>
#include <iostream>

#include "common/url/url.h"
#include "crawlctl/crawlctl_format.h"
#include "crawlctl/search_format.h"

namespace crawl::crawlctl {

Status RunSearch(const NameServerClient& client, const SearchOptions& options) {
  if (options.limit == 0) return Status::InvalidArgument("--limit must be at least 1");
  grpc::ClientContext ctx;
  client.Prepare(ctx, std::chrono::seconds(30));
  crawl::v1::SearchRequest req;
  req.set_crawl_id(options.crawl_id);
  req.set_query(options.query);
  req.set_limit(options.limit);
  crawl::v1::SearchResponse resp;
  if (auto s = client.Check(client.stub->Search(&ctx, req, &resp)); !s.ok()) return s;
  std::cout << (options.json ? crawl::crawlctl::SearchJson(resp)
                             : crawl::crawlctl::SearchText(resp, options.explain));
  return Status::Ok();
}

Status RunNearDuplicates(const NameServerClient& client, const NearDuplicatesOptions& options) {
  if (options.limit == 0) return Status::InvalidArgument("--limit must be at least 1");
  grpc::ClientContext ctx;
  client.Prepare(ctx, std::chrono::seconds(60));
  crawl::v1::NearDuplicateClustersRequest req;
  req.set_crawl_id(options.crawl_id);
  req.set_limit(options.limit);
  crawl::v1::NearDuplicateClustersResponse resp;
  if (auto s = client.Check(client.stub->NearDuplicateClusters(&ctx, req, &resp)); !s.ok()) return s;
  std::cout << (options.json ? NearDuplicatesJson(resp) : NearDuplicatesText(resp));
  return Status::Ok();
}

Status RunCache(const NameServerClient& client, const CacheOptions& options) {
  auto canonical = crawl::url::Canonicalize(options.url);
  if (!canonical.ok()) return Status::InvalidArgument("bad URL: " + canonical.status().message());
  grpc::ClientContext ctx;
  client.Prepare(ctx, std::chrono::seconds(60));
  crawl::v1::CachedPageRequest req;
  req.set_crawl_id(options.crawl_id);
  req.set_url(*canonical);
  crawl::v1::CachedPageResponse resp;
  if (auto s = client.Check(client.stub->GetCachedPage(&ctx, req, &resp)); !s.ok()) return s;
  if (!resp.found()) return Status::NotFound("no cached page for " + *canonical);
  if (options.info) {
    std::cout << "url " << resp.url() << "\nstatus " << resp.status() << "\ntype " << resp.mime_type()
              << "\nbytes " << resp.body().size() << "\nwarc " << resp.warc_file() << " offset "
              << resp.warc_offset() << "\nqueue server " << resp.queue_server_id() << "\n";
  } else {
    std::cout << resp.body();
  }
  return Status::Ok();
}

}  // namespace crawl::crawlctl
