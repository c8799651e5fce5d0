// The console's host page (/console/host?crawl=N&host=H): the host's
// robots.txt as fetched (the crawl log keeps its first 16 KiB) and the
// crawl-delay it sets for the crawl's user agent, its fetch and error counts
// and its latest fetches, all read from the crawl log (console_log.h), and
// its queue: URLs queued per tier, waiting for robots.txt and leased, and
// the first queued ones, from the queue server that owns the host
// (QueueServer.HostQueue, which scans that server's queue); its politeness
// (console_politeness.cc) with its address's state across the cluster
// (QueueServer.AddressStatus on the queue server that owns the address). A
// queue server that does not answer leaves an error line in its section,
// not a failed page.
#include <charconv>
#include <deque>
#include <optional>

#include "common/crawl/report_text.h"
#include "common/url/robots.h"
#include "nameserver/console/console.h"
#include "nameserver/console/console_html.h"
#include "nameserver/console/console_log.h"

namespace crawl::nameserver {
namespace {

// What the host page shows of the host's log, gathered as it streams by.
struct HostLog {
  uint64_t fetches = 0, errors = 0;
  std::optional<v1::FetchRecord> robots;  // the latest robots.txt fetch
  std::deque<v1::FetchRecord> last;       // the latest 30, oldest first
  void Add(const v1::FetchRecord& r) {
    ++fetches;
    if (!r.error().empty() || r.status() >= 400) ++errors;
    if (r.url().size() > 11 && r.url().compare(r.url().size() - 11, 11, "/robots.txt") == 0) robots = r;
    if (last.size() == 30) last.pop_front();
    last.push_back(r);
  }
};

std::string Robots(const HostLog& log, const std::string& user_agent) {
  const v1::FetchRecord* robots = log.robots ? &*log.robots : nullptr;
  if (!robots) return "<h2>robots.txt</h2><p id=\"robots-missing\">Not fetched yet.</p>";
  const robots::RobotsRules rules = robots::Parse(robots->robots_body(), user_agent);
  std::string delay = "none";
  if (rules.crawl_delay()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f s", *rules.crawl_delay());
    delay = buf;
  }
  return "<h2>robots.txt</h2><p>Fetched " + HtmlEscape(Iso8601Micros(robots->timestamp_unix_us())) +
         ", status " + std::to_string(robots->status()) + "; crawl-delay for " + HtmlEscape(user_agent) +
         ": <span id=\"crawl-delay\">" + delay + "</span>" +
         (robots->robots_body().size() >= 16 * 1024 ? " (the log keeps its first 16 KiB)" : "") +
         "</p><pre id=\"robots\">" + HtmlEscape(robots->robots_body()) + "</pre>";
}

std::string Fetches(const HostLog& log) {
  const std::deque<v1::FetchRecord>& rows = log.last;
  std::string o =
      "<p>Fetches logged: <span id=\"host-fetches\">" + Thousands(log.fetches) +
      "</span>, errors: <span id=\"host-errors\">" + Thousands(log.errors) +
      "</span></p><h2>Last fetches</h2><table id=\"host-last\"><tr><th>time</th><th>status</th><th>url</th>"
      "<th>title</th><th>error</th></tr>";
  for (size_t i = 0; i < std::min<size_t>(rows.size(), 30); ++i) {
    const auto& r = rows[rows.size() - 1 - i];
    o += "<tr><td>" + HtmlEscape(Iso8601Micros(r.timestamp_unix_us())) + "</td><td>" +
         std::to_string(r.status()) + "</td><td>" + HtmlEscape(r.url()) + "</td><td>" +
         HtmlEscape(r.title()) + "</td><td>" + HtmlEscape(r.error()) + "</td></tr>";
  }
  return o + "</table>";
}

}  // namespace

std::string ConsoleHostQueueHtml(const grpc::Status& status, const v1::HostQueueResponse& queue) {
  std::string o = "<h2>Queue</h2>";
  if (!status.ok())
    return o + "<p class=\"msg error\" id=\"host-queue-error\">Queue not available: " +
           HtmlEscape(status.error_message()) + "</p>";
  if (queue.unknown_crawl())
    return o + "<p id=\"host-queue-error\">Queue server " + HtmlEscape(queue.queue_server_id()) +
           " does not have this crawl.</p>";
  o += "<p>On queue server <span id=\"host-queue-server\">" + HtmlEscape(queue.queue_server_id()) + "</span>";
  if (queue.truncated())
    o += " <span id=\"host-queue-truncated\">(at least: the scan stopped at " + Thousands(queue.scanned()) +
         " entries)</span>";
  o += "</p><table id=\"host-queue\"><tr><th>tier</th><th>URLs queued</th></tr>";
  for (const auto& t : queue.tiers())
    o += "<tr><td>" + std::to_string(t.tier()) + "</td><td>" + Thousands(t.urls()) + "</td></tr>";
  if (queue.tiers_size() == 0) o += "<tr><td colspan=\"2\">none queued</td></tr>";
  o += "<tr><th>waiting for robots.txt</th><td id=\"host-waiting\">" + Thousands(queue.waiting_for_robots()) +
       "</td></tr><tr><th>leased</th><td id=\"host-leased\">" + Thousands(queue.leased()) +
       "</td></tr></table>";
  if (queue.sample_urls_size() == 0) return o;
  o += "<h3>First queued URLs (lowest tier first, in queue order)</h3><ol id=\"host-queue-urls\">";
  for (const std::string& u : queue.sample_urls()) o += "<li>" + HtmlEscape(u) + "</li>";
  return o + "</ol>";
}

HttpReply ConsoleHostPage(const ConsoleDeps& deps, const ConsoleCall& call) {
  const std::string role(ConsoleRoleName(call.role));
  const std::string host = call.Q("host");
  uint64_t crawl = 0;
  const std::string text = call.Q("crawl");
  if (!text.empty()) {
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), crawl);
    if (ec != std::errc() || ptr != text.data() + text.size())
      return ConsoleHtml(400, {"host", role, "crawl must be a number", true, 0}, "");
  }
  if (host.empty()) return ConsoleHtml(400, {"host", role, "name a host (host=...)", true, 0}, "");
  const auto snap = deps.service->TakeSnapshot();
  uint64_t id = crawl ? crawl : snap.active_crawl;
  if (id == 0 && !snap.crawls.empty()) id = snap.crawls.rbegin()->first;
  const auto it = snap.crawls.find(id);
  if (it == snap.crawls.end()) return ConsoleHtml(404, {"host " + host, role, "No such crawl", true, 0}, "");
  v1::GetCrawlLogRequest req;
  req.set_host(host);
  HostLog log;
  const grpc::Status logged = deps.service->StreamLog(id, req, [&log](const v1::CrawlLogChunk& chunk) {
    for (const auto& r : chunk.records()) log.Add(r);
    return true;
  });
  v1::HostQueueRequest ask;
  ask.set_host(host);
  ask.set_sample_urls(20);
  v1::HostQueueResponse queue;
  const grpc::Status queued = deps.service->HostQueue(id, ask, &queue);
  const std::string sid = std::to_string(id);
  std::string body = "<p>Crawl <a href=\"/console/crawl?id=" + sid + "\">" + sid +
                     "</a> · <a href=\"/console/log?crawl=" + sid + "&amp;host=" + UrlEncode(host) +
                     "\">its log for this host</a></p>";
  // A queue server that does not answer costs its section, not the page.
  if (logged.ok()) {
    body += Robots(log, it->second.params().user_agent()) + Fetches(log);
  } else {
    body += "<p class=\"msg error\" id=\"host-log-error\">Crawl log not available: " +
            HtmlEscape(logged.error_message()) + "</p>";
  }
  body += ConsoleHostQueueHtml(queued, queue);
  if (queued.ok() && !queue.unknown_crawl()) {
    // The address's slots live on the queue server that owns the address.
    v1::AddressStatusResponse address;
    grpc::Status asked = grpc::Status(grpc::StatusCode::NOT_FOUND, "no address");
    if (!queue.address().empty()) asked = deps.service->AddressStatusOf(id, queue.address(), &address);
    body += ConsoleHostPolitenessHtml(queue, asked, address, deps.clock->NowUnixMs());
  }
  return ConsoleHtml(200, {"host " + host, role, "", false, 0}, body);
}

}  // namespace crawl::nameserver
