// The console's log page (/console/log): the filters of console_log.h, the
// latest 500 matching rows as a table, and the whole match as TSV or JSON
// lines (format=tsv|jsonl) to download.
#include "nameserver/console_log.h"

#include <charconv>
#include <ctime>

#include "common/report_text.h"
#include "common/url.h"
#include "nameserver/console.h"
#include "nameserver/console_html.h"

namespace crawl::nameserver {
namespace {

// "2026-11-25T12:00" or "2026-11-25T12:00:30" (UTC) as Unix microseconds.
Result<int64_t> ParseUtc(const std::string& name, const std::string& text) {
  std::tm tm{};
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  char tail = 0;
  const int n = std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &s, &tail);
  const bool ok = (n == 5 || n == 6 || (n == 7 && tail == 'Z')) && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 &&
                  h >= 0 && h < 24 && mi >= 0 && mi < 60 && s >= 0 && s < 61 && y >= 1970 && y < 3000;
  if (!ok)
    return Status::InvalidArgument(name + " must look like 2026-11-25T12:00:00 (UTC), not '" + text + "'");
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = s;
  return static_cast<int64_t>(timegm(&tm)) * 1'000'000;
}

std::string Field(const std::string& v) {
  std::string out = v.empty() ? "-" : v;
  for (char& c : out)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return out;
}

std::string Get(const std::map<std::string, std::string>& q, const char* name) {
  const auto it = q.find(name);
  return it == q.end() ? "" : it->second;
}

}  // namespace

Result<LogFilter> ParseLogFilter(const std::map<std::string, std::string>& query) {
  LogFilter f;
  const std::string status = Get(query, "status");
  if (status == "errors") {
    f.errors_only = true;
  } else if (!status.empty()) {
    auto [ptr, ec] = std::from_chars(status.data(), status.data() + status.size(), f.status);
    if (ec != std::errc() || ptr != status.data() + status.size() || f.status < 0 || f.status > 999)
      return Status::InvalidArgument("status must be an HTTP status or 'errors', not '" + status + "'");
  }
  f.host = Get(query, "host");
  for (const char* name : {"since", "until"}) {
    const std::string text = Get(query, name);
    if (text.empty()) continue;
    auto t = ParseUtc(name, text);
    if (!t.ok()) return t.status();
    (name[0] == 's' ? f.since_us : f.until_us) = *t;
  }
  return f;
}

bool LogRowMatches(const v1::FetchRecord& r, const LogFilter& f) {
  if (f.status >= 0 && r.status() != f.status) return false;
  if (f.errors_only && r.error().empty() && r.status() < 400) return false;
  if (f.since_us > 0 && r.timestamp_unix_us() < f.since_us) return false;
  if (f.until_us > 0 && r.timestamp_unix_us() >= f.until_us) return false;
  return f.host.empty() || url::HostOf(r.url()) == f.host;
}

grpc::Status ConsoleLogRows(NameServerServiceImpl& service, uint64_t crawl_id, const LogFilter& f,
                            std::vector<v1::FetchRecord>* rows) {
  std::vector<v1::FetchRecord> all;
  if (auto s = service.ReadCrawlLog(crawl_id, &all); !s.ok()) return s;
  for (auto& r : all)
    if (LogRowMatches(r, f)) rows->push_back(std::move(r));
  std::stable_sort(rows->begin(), rows->end(), [](const auto& a, const auto& b) {
    return a.timestamp_unix_us() < b.timestamp_unix_us();
  });
  return grpc::Status::OK;
}

std::string LogRowTsv(const v1::FetchRecord& r) {
  return Iso8601Micros(r.timestamp_unix_us()) + "\t" + std::to_string(r.status()) + "\t" +
         std::to_string(r.bytes()) + "\t" + Field(r.url()) + "\t" + Field(url::HostOf(r.url())) + "\t" +
         Field(r.mime_type()) + "\t" + std::to_string(r.fetch_ms()) + "\t" + Field(r.title()) + "\t" +
         Field(r.error()) + "\n";
}

std::string LogRowJson(const v1::FetchRecord& r) {
  return "{\"time\":" + JsonString(Iso8601Micros(r.timestamp_unix_us())) +
         ",\"status\":" + std::to_string(r.status()) + ",\"bytes\":" + std::to_string(r.bytes()) +
         ",\"url\":" + JsonString(r.url()) + ",\"host\":" + JsonString(url::HostOf(r.url())) +
         ",\"mime_type\":" + JsonString(r.mime_type()) + ",\"fetch_ms\":" + std::to_string(r.fetch_ms()) +
         ",\"title\":" + JsonString(r.title()) + ",\"error\":" + JsonString(r.error()) + "}\n";
}

namespace {

std::string FilterForm(const ConsoleCall& call) {
  auto input = [&](const char* name, const char* label, const char* hint) {
    return std::string("<label>") + label + " <input name=\"" + name + "\" id=\"log-" + name + "\" value=\"" +
           HtmlEscape(call.Q(name)) + "\" placeholder=\"" + hint + "\"></label>";
  };
  return "<form method=\"get\" action=\"/console/log\" id=\"log-filter\">" +
         input("crawl", "crawl", "active or latest") + input("status", "status", "200, 404 or errors") +
         input("host", "host", "example.com") + input("since", "since", "2026-11-25T12:00 UTC") +
         input("until", "until", "UTC") + "<button type=\"submit\" id=\"filter\">Filter</button></form>";
}

std::string Table(const std::vector<v1::FetchRecord>& rows) {
  const size_t shown = std::min<size_t>(rows.size(), 500);
  std::string o =
      "<p id=\"log-count\">" + Thousands(rows.size()) + " records match" +
      (rows.size() > shown ? "; the latest 500 are shown, newest first" : ", newest first") +
      ".</p><table id=\"log\"><tr><th>time</th><th>status</th><th>bytes</th><th>url</th><th>type</th>"
      "<th>ms</th><th>title</th><th>error</th></tr>";
  for (size_t i = 0; i < shown; ++i) {
    const v1::FetchRecord& r = rows[rows.size() - 1 - i];
    o += "<tr><td>" + HtmlEscape(Iso8601Micros(r.timestamp_unix_us())) + "</td><td>" +
         std::to_string(r.status()) + "</td><td class=\"num\">" + Thousands(r.bytes()) + "</td><td>" +
         HtmlEscape(r.url()) + "</td><td>" + HtmlEscape(r.mime_type()) + "</td><td class=\"num\">" +
         std::to_string(r.fetch_ms()) + "</td><td>" + HtmlEscape(r.title()) + "</td><td>" +
         HtmlEscape(r.error()) + "</td></tr>";
  }
  return o + "</table>";
}

}  // namespace

HttpReply ConsoleLogPage(const ConsoleDeps& deps, const ConsoleCall& call) {
  const std::string role(ConsoleRoleName(call.role));
  const std::string form = FilterForm(call);
  auto filter = ParseLogFilter(call.query);
  uint64_t crawl = 0;
  const std::string text = call.Q("crawl");
  if (!text.empty()) {
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), crawl);
    if (ec != std::errc() || ptr != text.data() + text.size())
      return ConsoleHtml(400, {"log", role, "crawl must be a number", true, 0}, form);
  }
  if (!filter.ok()) return ConsoleHtml(400, {"log", role, filter.status().message(), true, 0}, form);
  std::vector<v1::FetchRecord> rows;
  if (auto s = ConsoleLogRows(*deps.service, crawl, *filter, &rows); !s.ok())
    return ConsoleHtml(s.error_code() == grpc::StatusCode::NOT_FOUND ? 404 : 503,
                       {"log", role, s.error_message(), true, 0}, form);
  const std::string format = call.Q("format");
  if (format == "tsv" || format == "jsonl") {
    std::string body;
    for (const auto& r : rows) body += format == "tsv" ? LogRowTsv(r) : LogRowJson(r);
    return {200,
            format == "tsv" ? "text/tab-separated-values; charset=utf-8" : "application/x-ndjson",
            body,
            {{"Content-Disposition", "attachment; filename=\"crawl-log." + format + "\""}}};
  }
  std::string same = call.req->query;  // the filters as given, for the download links
  const std::string links = "<p>Download: <a id=\"download-tsv\" href=\"/console/log?" + HtmlEscape(same) +
                            (same.empty() ? "" : "&amp;") +
                            "format=tsv\">TSV</a> · <a id=\"download-jsonl\" "
                            "href=\"/console/log?" +
                            HtmlEscape(same) + (same.empty() ? "" : "&amp;") +
                            "format=jsonl\">JSON lines</a></p>";
  return ConsoleHtml(200, {"log", role, "", false, 0}, form + links + Table(rows));
}

}  // namespace crawl::nameserver
