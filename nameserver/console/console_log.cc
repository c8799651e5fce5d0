// The console's log page (/console/log): the filters of console_log.h, the
// latest 500 matching rows as a table, and the whole match as TSV or JSON
// lines (format=tsv|jsonl) to download.
#include "nameserver/console/console_log.h"

#include <charconv>
#include <ctime>

#include "common/base/json.h"
#include "common/crawl/log_filter.h"
#include "common/crawl/log_time.h"
#include "common/crawl/report_text.h"
#include "common/url/url.h"
#include "nameserver/console/console.h"
#include "nameserver/console/console_html.h"

namespace crawl::nameserver {
namespace {

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

Result<v1::GetCrawlLogRequest> ConsoleLogRequest(const std::map<std::string, std::string>& query) {
  v1::GetCrawlLogRequest req;
  const std::string status = Get(query, "status");
  req.set_status(status == "errors" ? "4xx,5xx,error" : status);
  req.set_host(Get(query, "host"));
  for (const char* name : {"since", "until"}) {
    std::string text = Get(query, name);
    if (text.empty()) continue;
    // A browser's datetime-local field: "2026-11-25T12:00", no zone (UTC here).
    if (text.size() == 16 && text[10] == 'T') text += ":00";
    if (text.size() >= 19 && text[10] == 'T' && text.back() != 'Z') text += 'Z';
    auto t = ParseLogTime(text);
    if (!t.ok()) return Status::InvalidArgument(std::string(name) + ": " + t.status().message());
    if (name[0] == 's')
      req.set_since_unix_us(*t);
    else
      req.set_until_unix_us(*t);
  }
  if (auto f = LogFilter::Parse(req); !f.ok()) return f.status();
  return req;
}

grpc::Status ConsoleLogTail(NameServerServiceImpl& service, uint64_t crawl_id,
                            const v1::GetCrawlLogRequest& req, size_t keep, LogTail* tail) {
  std::deque<v1::FetchRecord> latest;
  const grpc::Status s = service.StreamLog(crawl_id, req, [&](const v1::CrawlLogChunk& chunk) {
    for (const auto& r : chunk.records()) {
      ++tail->matched;
      if (keep == 0) continue;
      if (latest.size() == keep) latest.pop_front();
      latest.push_back(r);
    }
    return true;
  });
  tail->rows.assign(std::make_move_iterator(latest.begin()), std::make_move_iterator(latest.end()));
  return s;
}

std::string LogRowTsv(const v1::FetchRecord& r) {
  return Iso8601Micros(r.timestamp_unix_us()) + "\t" + std::to_string(r.status()) + "\t" +
         std::to_string(r.bytes()) + "\t" + Field(r.url()) + "\t" + Field(url::HostOf(r.url())) + "\t" +
         Field(r.mime_type()) + "\t" + std::to_string(r.fetch_ms()) + "\t" + Field(r.title()) + "\t" +
         Field(r.error()) + "\n";
}

std::string LogRowJson(const v1::FetchRecord& r) {
  return JsonLine(boost::json::object{{"time", Iso8601Micros(r.timestamp_unix_us())},
                                      {"status", r.status()},
                                      {"bytes", r.bytes()},
                                      {"url", JsonText(r.url())},
                                      {"host", JsonText(url::HostOf(r.url()))},
                                      {"mime_type", JsonText(r.mime_type())},
                                      {"fetch_ms", r.fetch_ms()},
                                      {"title", JsonText(r.title())},
                                      {"error", JsonText(r.error())},
                                      {"near_duplicate_of", JsonText(r.near_duplicate_of())}});
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

std::string Table(const LogTail& tail) {
  const std::vector<v1::FetchRecord>& rows = tail.rows;
  const size_t shown = rows.size();
  std::string o =
      "<p id=\"log-count\">" + Thousands(tail.matched) + " records match" +
      (tail.matched > shown ? "; the latest " + Thousands(shown) + " are shown, newest first"
                            : ", newest first") +
      ".</p><table id=\"log\"><tr><th>time</th><th>status</th><th>bytes</th><th>url</th><th>type</th>"
      "<th>ms</th><th>title</th><th>error</th></tr>";
  for (size_t i = 0; i < shown; ++i) {
    const v1::FetchRecord& r = rows[rows.size() - 1 - i];
    o += "<tr><td>" + HtmlEscape(Iso8601Micros(r.timestamp_unix_us())) + "</td><td>" +
         std::to_string(r.status()) + "</td><td class=\"num\">" + Thousands(r.bytes()) + "</td><td>" +
         HtmlEscape(r.url()) +
         (r.near_duplicate_of().empty() ? ""
                                        : " <span class=\"neardup\">(near-duplicate of " +
                                              HtmlEscape(r.near_duplicate_of()) + ")</span>") +
         "</td><td>" + HtmlEscape(r.mime_type()) + "</td><td class=\"num\">" + std::to_string(r.fetch_ms()) +
         "</td><td>" + HtmlEscape(r.title()) + "</td><td>" + HtmlEscape(r.error()) + "</td></tr>";
  }
  return o + "</table>";
}

}  // namespace

HttpReply ConsoleLogPage(const ConsoleDeps& deps, const ConsoleCall& call) {
  const std::string role(ConsoleRoleName(call.role));
  const std::string form = FilterForm(call);
  auto filter = ConsoleLogRequest(call.query);
  uint64_t crawl = 0;
  const std::string text = call.Q("crawl");
  if (!text.empty()) {
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), crawl);
    if (ec != std::errc() || ptr != text.data() + text.size())
      return ConsoleHtml(400, {"log", role, "crawl must be a number", true, 0}, form);
  }
  if (!filter.ok()) return ConsoleHtml(400, {"log", role, filter.status().message(), true, 0}, form);
  auto failed = [&](const grpc::Status& s) {
    return ConsoleHtml(s.error_code() == grpc::StatusCode::NOT_FOUND ? 404 : 503,
                       {"log", role, s.error_message(), true, 0}, form);
  };
  const std::string format = call.Q("format");
  if (format == "tsv" || format == "jsonl") {
    // The download is built as it streams in, up to kConsoleDownloadRecords
    // (crawlctl log has no limit); a cut file says so in a header.
    std::string body;
    uint64_t records = 0;
    const grpc::Status s = deps.service->StreamLog(crawl, *filter, [&](const v1::CrawlLogChunk& chunk) {
      for (const auto& r : chunk.records()) {
        if (records == kConsoleDownloadRecords) return false;
        body += format == "tsv" ? LogRowTsv(r) : LogRowJson(r);
        ++records;
      }
      return true;
    });
    const bool cut = s.error_code() == grpc::StatusCode::CANCELLED && records == kConsoleDownloadRecords;
    if (!s.ok() && !cut) return failed(s);
    HttpReply reply{200,
                    format == "tsv" ? "text/tab-separated-values; charset=utf-8" : "application/x-ndjson",
                    std::move(body),
                    {{"Content-Disposition", "attachment; filename=\"crawl-log." + format + "\""}}};
    if (cut)
      reply.headers.emplace_back("X-Crawl-Log-Cut", std::to_string(records) + " records; use crawlctl log");
    return reply;
  }
  LogTail tail;
  if (auto s = ConsoleLogTail(*deps.service, crawl, *filter, 500, &tail); !s.ok()) return failed(s);
  std::string same = call.req->query;  // the filters as given, for the download links
  const std::string links = "<p>Download: <a id=\"download-tsv\" href=\"/console/log?" + HtmlEscape(same) +
                            (same.empty() ? "" : "&amp;") +
                            "format=tsv\">TSV</a> · <a id=\"download-jsonl\" "
                            "href=\"/console/log?" +
                            HtmlEscape(same) + (same.empty() ? "" : "&amp;") +
                            "format=jsonl\">JSON lines</a></p>";
  return ConsoleHtml(200, {"log", role, "", false, 0}, form + links + Table(tail));
}

}  // namespace crawl::nameserver
