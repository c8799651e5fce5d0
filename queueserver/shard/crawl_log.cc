#include "queueserver/shard/crawl_log.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <algorithm>
#include <string>

#include "common/crawl/log_filter.h"
#include "common/url/url.h"

namespace crawl::queueserver {
namespace {

// 16 KiB: a log chunk of 10,000 robots.txt records stays under the channels'
// 256 MiB message limit (common/net/grpc_util.cc).
constexpr size_t kLoggedRobotsBytes = 16 * 1024;

constexpr uint32_t kDefaultLogPage = 10'000;
constexpr uint32_t kMaxLogPage = 50'000;
// Records examined per page at most: bounds a page's time (and the service
// lock) when a filter matches few records.
constexpr uint64_t kLogScanBudget = 100'000;
constexpr size_t kRecentErrors = 20;
constexpr size_t kTopHosts = 10;

// The fields of a FetchRecord the crawl log does not keep: robots rules live
// in the frontier, the description and mini index went to the search index,
// the body to the WARC writer. Kept, they made each log entry (in RAM and in
// RocksDB) larger than the page itself: 54-64 KB per 25 KB testweb page
// (docs/BENCHMARKS.md).
bool LogLeavesOut(const google::protobuf::FieldDescriptor* f) {
  return f->number() == v1::FetchRecord::kRobotsBodyFieldNumber ||
         f->number() == v1::FetchRecord::kMiniIndexFieldNumber ||
         f->number() == v1::FetchRecord::kDescriptionFieldNumber ||
         f->number() == v1::FetchRecord::kBodyFieldNumber;
}

// Every field of `r` but LogLeavesOut's, copied one by one: copying the
// whole record and clearing those fields afterwards cost the queue server a
// copy and a free of every page's mini index (a tenth of its CPU on
// rust-doc; docs/BENCHMARKS.md).
v1::FetchRecord LogCopy(const v1::FetchRecord& r) {
  using google::protobuf::FieldDescriptor;
  static const std::vector<const FieldDescriptor*> kept = [] {
    std::vector<const FieldDescriptor*> fields;
    const auto* d = v1::FetchRecord::descriptor();
    for (int i = 0; i < d->field_count(); ++i)
      if (!LogLeavesOut(d->field(i))) fields.push_back(d->field(i));
    return fields;
  }();
  v1::FetchRecord out;
  const auto* refl = v1::FetchRecord::GetReflection();
  for (const FieldDescriptor* f : kept) {
    if (f->is_repeated() || f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      // Not in today's record: the general (slower) path for such a field.
      if (f->is_repeated() ? refl->FieldSize(r, f) > 0 : refl->HasField(r, f)) {
        v1::FetchRecord whole = r;
        const auto* d = v1::FetchRecord::descriptor();
        for (int i = 0; i < d->field_count(); ++i)
          if (LogLeavesOut(d->field(i))) refl->ClearField(&whole, d->field(i));
        return whole;
      }
      continue;
    }
    if (!refl->HasField(r, f)) continue;  // proto3: at its default
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32:
        refl->SetInt32(&out, f, refl->GetInt32(r, f));
        break;
      case FieldDescriptor::CPPTYPE_INT64:
        refl->SetInt64(&out, f, refl->GetInt64(r, f));
        break;
      case FieldDescriptor::CPPTYPE_UINT32:
        refl->SetUInt32(&out, f, refl->GetUInt32(r, f));
        break;
      case FieldDescriptor::CPPTYPE_UINT64:
        refl->SetUInt64(&out, f, refl->GetUInt64(r, f));
        break;
      case FieldDescriptor::CPPTYPE_DOUBLE:
        refl->SetDouble(&out, f, refl->GetDouble(r, f));
        break;
      case FieldDescriptor::CPPTYPE_FLOAT:
        refl->SetFloat(&out, f, refl->GetFloat(r, f));
        break;
      case FieldDescriptor::CPPTYPE_BOOL:
        refl->SetBool(&out, f, refl->GetBool(r, f));
        break;
      case FieldDescriptor::CPPTYPE_ENUM:
        refl->SetEnumValue(&out, f, refl->GetEnumValue(r, f));
        break;
      case FieldDescriptor::CPPTYPE_STRING:
        refl->SetString(&out, f, refl->GetString(r, f));
        break;
      case FieldDescriptor::CPPTYPE_MESSAGE:
        break;  // handled above
    }
  }
  return out;
}

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

v1::FetchRecord CrawlLog::EntryFor(const v1::FetchRecord& r) {
  v1::FetchRecord entry = LogCopy(r);
  if (r.kind() == v1::URL_KIND_ROBOTS) entry.set_robots_body(r.robots_body().substr(0, kLoggedRobotsBytes));
  return entry;
}

Status CrawlLog::Load() {
  if (!writer_) return Status::Ok();
  return writer_->ScanLog(
      0, 0, [&](v1::FetchRecord&& r) { NoteForStatus(r); }, &size_);
}

void CrawlLog::Append(v1::FetchRecord entry) {
  NoteForStatus(entry);
  if (writer_) {
    writer_->AppendLog(size_, entry);
  } else {
    memory_records_.push_back(std::move(entry));
  }
  ++size_;
}

Status CrawlLog::ReadPage(const v1::GetCrawlLogRequest& req, v1::CrawlLogChunk* chunk) const {
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
      next >= size_ ? next : std::min(size_, next + std::max<uint64_t>(kLogScanBudget, limit));
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
        if (all || filter->Matches(memory_records_[i])) *chunk->add_records() = memory_records_[i];
    }
    next += want;
  }
  chunk->set_cursor(EncodeCursor(next));
  chunk->set_end(next >= size_);
  return Status::Ok();
}

void CrawlLog::NoteForStatus(const v1::FetchRecord& r) {
  if (r.kind() != v1::URL_KIND_PAGE) return;
  if (r.status() < 0 || r.status() >= 400) {
    recent_errors_.push_front(r);
    if (recent_errors_.size() > kRecentErrors) recent_errors_.pop_back();
  }
  const std::string host = url::HostOf(r.url());
  if (!host.empty()) ++host_pages_[host];
}

void CrawlLog::FillStats(v1::QueueServerStats* stats) const {
  // The top hosts by pages: a partial sort of the per-host counts.
  std::vector<std::pair<uint64_t, const std::string*>> hosts;
  hosts.reserve(host_pages_.size());
  for (const auto& [host, pages] : host_pages_) hosts.emplace_back(pages, &host);
  const size_t top = std::min(kTopHosts, hosts.size());
  std::partial_sort(hosts.begin(), hosts.begin() + static_cast<std::ptrdiff_t>(top), hosts.end(),
                    [](const auto& a, const auto& b) {
                      return a.first != b.first ? a.first > b.first : *a.second < *b.second;
                    });
  for (size_t i = 0; i < top; ++i) {
    auto* h = stats->add_top_hosts();
    h->set_host(*hosts[i].second);
    h->set_pages(hosts[i].first);
  }
  for (const auto& r : recent_errors_) {
    auto* e = stats->add_recent_errors();
    e->set_url(r.url());
    e->set_status(r.status());
    e->set_error(r.error());
    e->set_timestamp_unix_us(r.timestamp_unix_us());
  }
}

}  // namespace crawl::queueserver
