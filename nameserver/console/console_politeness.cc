// The host page's politeness section (console.h ConsoleHostPolitenessHtml):
// what the queue server that owns the host last heard of it
// from fetchers (QueueServer.HostQueue 11-17: pace, address, recent
// response times as an inline SVG sparkline and a list, back-off, whether
// a schedule holds it), and the cluster-wide state of its address from the
// queue server that owns the address (QueueServer.AddressStatus: open
// connections, the limit, holders, pace), or "unavailable" when that
// server cannot say (UNIMPLEMENTED before the address slots land, down,
// ...). Every value from a queue server is escaped.
#include <algorithm>
#include <string>

#include "common/crawl/report_text.h"
#include "nameserver/console/console.h"
#include "nameserver/console/console_html.h"

namespace crawl::nameserver {
namespace {

std::string Ms(uint64_t ms) { return Thousands(ms) + " ms"; }

std::string Time(int64_t unix_ms) { return Iso8601Micros(unix_ms * 1000).substr(0, 19) + "Z"; }

// Response times as a small line (no script, no style attribute: the
// console's CSP allows neither inline).
std::string Sparkline(const v1::HostQueueResponse& q) {
  constexpr int kW = 128, kH = 24;
  const auto& v = q.recent_fetch_ms();
  if (v.size() < 2) return "";
  const uint32_t top = std::max<uint32_t>(1, *std::max_element(v.begin(), v.end()));
  std::string points;
  for (int i = 0; i < v.size(); ++i) {
    const int x = i * (kW - 2) / (v.size() - 1) + 1;
    const int y = kH - 1 - static_cast<int>(static_cast<uint64_t>(v[i]) * (kH - 2) / top);
    points += (i ? " " : "") + std::to_string(x) + "," + std::to_string(y);
  }
  return "<svg id=\"host-response-sparkline\" width=\"" + std::to_string(kW) + "\" height=\"" +
         std::to_string(kH) + "\"><polyline points=\"" + points +
         "\" fill=\"none\" stroke=\"#36c\" stroke-width=\"1.5\"/></svg> ";
}

std::string Backoff(const v1::HostQueueResponse& q, int64_t now_ms) {
  if (q.backoff_until_unix_ms() <= now_ms)
    return q.consecutive_failures() == 0
               ? "none"
               : "none now (" + std::to_string(q.consecutive_failures()) + " failures in a row)";
  const int64_t left_s = (q.backoff_until_unix_ms() - now_ms + 999) / 1000;
  return std::string(q.parked() ? "parked" : "backed off") + " until " + Time(q.backoff_until_unix_ms()) +
         " (" + Thousands(static_cast<uint64_t>(left_s)) + " s more) after " +
         std::to_string(q.consecutive_failures()) + " failures in a row";
}

std::string AddressSection(const std::string& address, const grpc::Status& status,
                           const v1::AddressStatusResponse& a) {
  std::string o = "<h3>Address across the cluster</h3>";
  if (address.empty()) return o + "<p id=\"address-status\">No address reported yet.</p>";
  if (!status.ok())
    return o + "<p id=\"address-status\" class=\"msg\">" + HtmlEscape(address) + ": unavailable (" +
           (status.error_code() == grpc::StatusCode::UNIMPLEMENTED
                ? std::string("its queue server does not keep address slots")
                : HtmlEscape(status.error_message())) +
           ")</p>";
  if (a.unknown_crawl())
    return o + "<p id=\"address-status\">" + HtmlEscape(address) + ": unavailable (queue server " +
           HtmlEscape(a.queue_server_id()) + " does not have this crawl)</p>";
  const v1::AddressStatusResponse::Address* found = nullptr;
  for (const auto& e : a.addresses())
    if (e.address() == address) found = &e;
  o += "<table id=\"address-status\"><tr><th>address</th><td>" + HtmlEscape(address) +
       " (slots on queue server " + HtmlEscape(a.queue_server_id()) +
       ")</td></tr><tr><th>connections open</th><td id=\"address-open\">" +
       std::to_string(found ? found->open() : 0) + " of at most " +
       std::to_string(a.max_connections_per_address()) +
       "</td></tr><tr><th>held by</th><td id=\"address-holders\">";
  if (found) {
    for (int i = 0; i < found->holders_size(); ++i) o += (i ? ", " : "") + HtmlEscape(found->holders(i));
  }
  if (!found || found->holders_size() == 0) o += "nobody";
  o += "</td></tr><tr><th>pace per connection</th><td id=\"address-pace\">" +
       Ms(found ? found->pace_ms() : 0) + "</td></tr><tr><th>refused (address full)</th><td>" +
       Thousands(found ? found->refused() : 0) + "</td></tr></table>";
  return o;
}

}  // namespace

std::string ConsoleHostPolitenessHtml(const v1::HostQueueResponse& q, const grpc::Status& address_status,
                                      const v1::AddressStatusResponse& address, int64_t now_ms) {
  std::string o =
      "<h2>Politeness</h2><p>As queue server " + HtmlEscape(q.queue_server_id()) +
      " heard it from fetchers since it started (kept in memory: a restart forgets it).</p>"
      "<table id=\"host-politeness\"><tr><th>pace (gap before the last request)</th><td id=\"host-pace\">" +
      Ms(q.pace_ms()) + "</td></tr><tr><th>address</th><td id=\"host-address\">" +
      (q.address().empty() ? std::string("unknown") : HtmlEscape(q.address())) +
      "</td></tr><tr><th>recent response times (oldest first)</th><td id=\"host-response\">" + Sparkline(q);
  std::string list;
  for (uint32_t ms : q.recent_fetch_ms()) list += (list.empty() ? "" : ", ") + Thousands(ms);
  o += (list.empty() ? std::string("none yet") : list + " ms") +
       "</td></tr><tr><th>back-off</th><td id=\"host-backoff\">" + HtmlEscape(Backoff(q, now_ms)) +
       "</td></tr><tr><th>held by a schedule now</th><td id=\"host-leased-now\">" +
       (q.leased_now() ? "yes" : "no") + "</td></tr></table>";
  return o + AddressSection(q.address(), address_status, address);
}

}  // namespace crawl::nameserver
