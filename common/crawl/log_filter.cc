#include "common/crawl/log_filter.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "common/crawl/fetch_error.h"
#include "common/url/host_glob.h"
#include "common/url/url.h"

namespace crawl {
namespace {

constexpr size_t kMaxStatusItems = 64;

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

Status LogFilter::ParseStatusItem(std::string_view item, std::vector<StatusRange>* out) {
  const std::string lower = Lower(item);
  if (lower == "error") {
    out->push_back({INT32_MIN, -1});
    return Status::Ok();
  }
  // "4xx": an HTTP class.
  if (lower.size() == 3 && lower[0] >= '1' && lower[0] <= '5' && lower.substr(1) == "xx") {
    const int32_t base = (lower[0] - '0') * 100;
    out->push_back({base, base + 99});
    return Status::Ok();
  }
  int32_t code = 0;
  const char* end = lower.data() + lower.size();
  if (auto [p, ec] = std::from_chars(lower.data(), end, code); ec == std::errc() && p == end) {
    out->push_back({code, code});
    return Status::Ok();
  }
  // An error kind's name, looked up over the codes FetchErrorName knows.
  for (int32_t c = -1; c >= -64; --c) {
    if (lower == FetchErrorName(c)) {
      out->push_back({c, c});
      return Status::Ok();
    }
  }
  return Status::InvalidArgument(
      "status: '" + std::string(item) +
      "' is not a code (404), a class (4xx), 'error' or an error kind (timeout, dns_error, ...)");
}

Result<LogFilter> LogFilter::Parse(const v1::GetCrawlLogRequest& req) {
  LogFilter f;
  std::string_view rest = req.status();
  while (!Trim(rest).empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = Trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (item.empty()) return Status::InvalidArgument("status: empty item in '" + req.status() + "'");
    if (f.statuses_.size() >= kMaxStatusItems) return Status::InvalidArgument("status: more than 64 items");
    if (Status s = ParseStatusItem(item, &f.statuses_); !s.ok()) return s;
  }
  if (!req.host().empty()) {
    if (Status s = ValidateHostPatterns({req.host()}, "host"); !s.ok()) return s;
    f.host_ = Lower(req.host());
  }
  if (req.since_unix_us() < 0 || req.until_unix_us() < 0)
    return Status::InvalidArgument("since/until: must not be negative");
  if (req.since_unix_us() != 0 && req.until_unix_us() != 0 && req.until_unix_us() <= req.since_unix_us())
    return Status::InvalidArgument("until must be later than since");
  f.since_us_ = req.since_unix_us();
  f.until_us_ = req.until_unix_us();
  return f;
}

bool LogFilter::Empty() const {
  return statuses_.empty() && host_.empty() && since_us_ == 0 && until_us_ == 0;
}

bool LogFilter::Matches(const v1::FetchRecord& r) const {
  const int64_t t = r.timestamp_unix_us();
  if (since_us_ != 0 && t < since_us_) return false;
  if (until_us_ != 0 && t >= until_us_) return false;
  if (!statuses_.empty()) {
    const int32_t s = r.status();
    if (std::none_of(statuses_.begin(), statuses_.end(),
                     [s](const StatusRange& x) { return s >= x.low && s <= x.high; }))
      return false;
  }
  if (!host_.empty() && !HostGlobMatch(host_, url::HostOf(r.url()))) return false;
  return true;
}

}  // namespace crawl
