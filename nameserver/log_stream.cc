#include "nameserver/log_stream.h"

#include <algorithm>
#include <memory>
#include <queue>
#include <utility>

#include "common/net/grpc_util.h"
#include "nameserver/queue_server_fleet.h"

namespace crawl::nameserver {
namespace {

// One queue server's read position: the page in hand and where to resume.
struct ServerCursor {
  v1::CrawlLogChunk page;
  int pos = 0;
  bool end = false;
};

bool EarlierRecord(const v1::FetchRecord& a, const v1::FetchRecord& b) {
  return a.timestamp_unix_us() < b.timestamp_unix_us();
}

class LogMerge {
 public:
  LogMerge(const v1::GetCrawlLogRequest& req, uint64_t crawl_id, const std::vector<std::string>& servers,
           const LogPageReader& read, const LogSink& sink, const LogStreamOptions& options)
      : servers_(servers), read_(read), sink_(sink), options_(options), cursors_(servers.size()) {
    page_req_ = req;
    page_req_.set_crawl_id(crawl_id);
    page_req_.set_offset(0);
    page_req_.clear_cursor();
    page_req_.set_limit(std::max<uint32_t>(1, options.page_records));
  }

  grpc::Status Run() {
    for (size_t i = 0; i < cursors_.size(); ++i) {
      if (grpc::Status s = Refill(i); !s.ok()) return s;
      Push(i);
    }
    while (!heads_.empty()) {
      const size_t i = heads_.top().second;
      heads_.pop();
      ServerCursor& c = cursors_[i];
      Hold(std::move(*c.page.mutable_records(c.pos)));
      ++c.pos;
      ++sent_;
      if (held_.size() > options_.reorder_records && !Emit()) return Cancelled();
      if (c.pos == c.page.records_size()) {
        if (grpc::Status s = Refill(i); !s.ok()) return s;
      }
      Push(i);
    }
    while (!held_.empty())
      if (!Emit()) return Cancelled();
    if (!Flush(true)) return Cancelled();
    return grpc::Status::OK;
  }

 private:
  // Fetches pages of server i until one holds a record or the log ended
  // (a filtered page may be empty without being the last).
  grpc::Status Refill(size_t i) {
    ServerCursor& c = cursors_[i];
    while (!c.end) {
      v1::GetCrawlLogRequest req = page_req_;
      req.set_cursor(c.page.cursor());
      v1::CrawlLogChunk next;
      grpc::Status s = read_(i, req, &next);
      if (!s.ok()) {
        const auto code = s.error_code() == grpc::StatusCode::INVALID_ARGUMENT
                              ? s.error_code()
                              : grpc::StatusCode::UNAVAILABLE;
        return {code, "crawl log incomplete: queue server " + servers_[i] + " failed after " +
                          std::to_string(sent_) + " records: " + s.error_message()};
      }
      if (!next.end() && next.cursor().empty())
        return {grpc::StatusCode::UNAVAILABLE, "crawl log incomplete: queue server " + servers_[i] +
                                                   " does not page by cursor (an older version?)"};
      c.page = std::move(next);
      c.pos = 0;
      c.end = c.page.end();
      auto* records = c.page.mutable_records();
      std::stable_sort(records->begin(), records->end(), EarlierRecord);
      if (!c.page.records().empty()) break;
    }
    return grpc::Status::OK;
  }

  void Push(size_t i) {
    const ServerCursor& c = cursors_[i];
    if (c.pos < c.page.records_size()) heads_.emplace(c.page.records(c.pos).timestamp_unix_us(), i);
  }

  // The reorder window: a min-heap by (timestamp, arrival) of the merged
  // records not yet sent, so a record that reached its server late comes
  // out in time order as long as it is fewer than reorder_records behind.
  struct Held {
    int64_t ts;
    uint64_t seq;
    v1::FetchRecord record;
  };
  static bool Later(const Held& a, const Held& b) { return a.ts != b.ts ? a.ts > b.ts : a.seq > b.seq; }

  void Hold(v1::FetchRecord&& r) {
    const int64_t ts = r.timestamp_unix_us();
    held_.push_back(Held{ts, sent_, std::move(r)});
    std::push_heap(held_.begin(), held_.end(), Later);
  }

  // Sends the earliest held record to the chunk, and a full chunk to the
  // sink only when another record follows, so the last chunk (end) is
  // never empty. False when the sink refused.
  bool Emit() {
    if (out_.records_size() >= options_.chunk_records && !Flush(false)) return false;
    std::pop_heap(held_.begin(), held_.end(), Later);
    *out_.add_records() = std::move(held_.back().record);
    held_.pop_back();
    return true;
  }

  // The last chunk carries end(); an empty log sends no chunk at all (the
  // merge's OK return says it ended).
  bool Flush(bool last) {
    if (out_.records().empty()) return true;
    out_.set_end(last);
    const bool ok = sink_(out_);
    out_.Clear();
    return ok;
  }

  static grpc::Status Cancelled() { return {grpc::StatusCode::CANCELLED, "crawl log: the reader went away"}; }

  const std::vector<std::string>& servers_;
  const LogPageReader& read_;
  const LogSink& sink_;
  const LogStreamOptions& options_;
  v1::GetCrawlLogRequest page_req_;
  std::vector<ServerCursor> cursors_;
  // (timestamp, server) of each server's next record; ties go to the lower
  // server index, so the order is deterministic.
  using Head = std::pair<int64_t, size_t>;
  std::priority_queue<Head, std::vector<Head>, std::greater<Head>> heads_;
  std::vector<Held> held_;
  v1::CrawlLogChunk out_;
  uint64_t sent_ = 0;
};

}  // namespace

grpc::Status MergeCrawlLog(const v1::GetCrawlLogRequest& req, uint64_t crawl_id,
                           const std::vector<std::string>& servers, const LogPageReader& read,
                           const LogSink& sink, const LogStreamOptions& options) {
  return LogMerge(req, crawl_id, servers, read, sink, options).Run();
}

grpc::Status StreamCrawlLog(const v1::CrawlInfo& crawl, const v1::GetCrawlLogRequest& req,
                            const LogSink& sink, const LogStreamOptions& options) {
  std::vector<std::string> names;
  std::vector<std::unique_ptr<v1::QueueServer::Stub>> stubs;
  for (const auto& qs : crawl.queue_servers()) {
    names.push_back(qs.id());
    stubs.push_back(QueueServerFleet::StubFor(qs.address()));
  }
  const LogPageReader read = [&](size_t i, const v1::GetCrawlLogRequest& page, v1::CrawlLogChunk* out) {
    grpc::ClientContext ctx;
    SetTimeout(ctx, options.page_deadline);
    return stubs[i]->GetCrawlLog(&ctx, page, out);
  };
  return MergeCrawlLog(req, crawl.crawl_id(), names, read, sink, options);
}

}  // namespace crawl::nameserver
