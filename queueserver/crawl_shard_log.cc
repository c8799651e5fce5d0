// CrawlShard's crawl log reads (GetCrawlLog): pages by record number, and
// pages by cursor with the request's filters applied here, so that a
// filtered export moves only the matching records.
#include <algorithm>
#include <string>

#include "common/crawl/log_filter.h"
#include "queueserver/crawl_shard.h"

namespace crawl::queueserver {
namespace {

constexpr uint32_t kDefaultLogPage = 10'000;
constexpr uint32_t kMaxLogPage = 50'000;
// Records examined per page at most: bounds a page's time (and the service
// lock) when a filter matches few records.
constexpr uint64_t kLogScanBudget = 100'000;

// The cursor: the number of the next record to examine, 8 bytes big-endian.
std::string EncodeCursor(uint64_t next) {
  std::string out(8, '\0');
  for (int i = 7; i >= 0; --i, next >>= 8) out[static_cast<size_t>(i)] = static_cast<char>(next & 0xff);
  return out;
}

Result<uint64_t> DecodeCursor(const std::string& cursor) {
  if (cursor.size() != 8)
    return Status::InvalidArgument("crawl log: bad cursor (" + std::to_string(cursor.size()) + " bytes)");
  uint64_t v = 0;
  for (char c : cursor) v = (v << 8) | static_cast<unsigned char>(c);
  return v;
}

}  // namespace

Status CrawlShard::ReadLog(uint64_t offset, uint32_t limit, v1::CrawlLogChunk* chunk) const {
  v1::GetCrawlLogRequest req;
  req.set_offset(offset);
  req.set_limit(limit);
  return ReadLogPage(req, chunk);
}

Status CrawlShard::ReadLogPage(const v1::GetCrawlLogRequest& req, v1::CrawlLogChunk* chunk) const {
  auto filter = LogFilter::Parse(req);
  if (!filter.ok()) return filter.status();
  uint64_t next = req.offset();
  if (!req.cursor().empty()) {
    auto start = DecodeCursor(req.cursor());
    if (!start.ok()) return start.status();
    next = *start;
  }
  const uint32_t limit = req.limit() == 0 ? kDefaultLogPage : std::min(req.limit(), kMaxLogPage);
  const uint64_t scan_end =
      next >= log_size_ ? next : std::min(log_size_, next + std::max<uint64_t>(kLogScanBudget, limit));
  const bool all = filter->Empty();
  // Each step examines at most as many records as the page still has room
  // for, so a step never collects more than `limit`.
  while (next < scan_end && static_cast<uint32_t>(chunk->records_size()) < limit) {
    const uint64_t want =
        std::min<uint64_t>(scan_end - next, limit - static_cast<uint32_t>(chunk->records_size()));
    if (writer_) {
      uint64_t read_end = next;
      Status s = writer_->ScanLog(
          next, want,
          [&](v1::FetchRecord&& r) {
            if (all || filter->Matches(r)) *chunk->add_records() = std::move(r);
          },
          &read_end);
      if (!s.ok()) return s;
      if (read_end != next + want)
        return Status::Internal("crawl log: records " + std::to_string(read_end) + "-" +
                                std::to_string(next + want) + " missing");
    } else {
      for (uint64_t i = next; i < next + want; ++i)
        if (all || filter->Matches(memory_log_[i])) *chunk->add_records() = memory_log_[i];
    }
    next += want;
  }
  chunk->set_cursor(EncodeCursor(next));
  chunk->set_end(next >= log_size_);
  return Status::Ok();
}

}  // namespace crawl::queueserver
