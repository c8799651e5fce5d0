#include "crawlctl/log_command.h"

#include <google/protobuf/util/json_util.h>

#include "common/crawl/log_filter.h"
#include "common/crawl/log_time.h"
#include "crawlctl/crawlctl_format.h"

namespace crawl::crawlctl {

Result<v1::GetCrawlLogRequest> LogRequest(const LogOptions& options) {
  if (options.format != "tsv" && options.format != "jsonl")
    return Status::InvalidArgument("--format must be tsv or jsonl");
  v1::GetCrawlLogRequest req;
  req.set_crawl_id(options.crawl_id);
  req.set_status(options.status);
  req.set_host(options.host);
  for (const auto& [text, flag] :
       {std::pair{&options.since, "--since"}, std::pair{&options.until, "--until"}}) {
    if (text->empty()) continue;
    auto t = ParseLogTime(*text);
    if (!t.ok()) return Status::InvalidArgument(std::string(flag) + ": " + t.status().message());
    if (*t == 0) return Status::InvalidArgument(std::string(flag) + ": must be after 1970-01-01");
    if (text == &options.since)
      req.set_since_unix_us(*t);
    else
      req.set_until_unix_us(*t);
  }
  // The name server and queue servers check these too; failing here names the flag.
  if (auto f = LogFilter::Parse(req); !f.ok()) return Status::InvalidArgument("--" + f.status().message());
  return req;
}

std::string LogJsonLine(const v1::FetchRecord& r) {
  google::protobuf::util::JsonPrintOptions json;
  json.preserve_proto_field_names = true;
  std::string line;
  (void)google::protobuf::util::MessageToJsonString(r, &line, json);
  return line;
}

Status RunLog(const NameServerClient& client, const LogOptions& options, std::ostream& out) {
  auto req = LogRequest(options);
  if (!req.ok()) return req.status();
  const bool jsonl = options.format == "jsonl";
  grpc::ClientContext ctx;
  client.Authenticate(ctx);
  auto reader = client.stub->GetCrawlLog(&ctx, *req);
  v1::CrawlLogChunk chunk;
  while (reader->Read(&chunk)) {
    for (const auto& r : chunk.records()) out << (jsonl ? LogJsonLine(r) : LogLine(r)) << '\n';
  }
  Status s = client.Check(reader->Finish());
  out.flush();
  return s;
}

}  // namespace crawl::crawlctl
