// The console's crawl page (/console/crawl?id=N): the crawl's state and
// parameters with stop/resume and set-param forms, and for the shown crawl
// (the active one, else the latest, as on /status) its progress chart drawn
// on the server as SVG, per queue server and per fetcher tables, tiers, top
// hosts (linked to their host pages) and recent errors with their URLs. The
// page reloads itself every two seconds while the crawl runs (the one use of
// JavaScript; ?live=0 turns it off).
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <charconv>

#include "common/crawl/report_text.h"
#include "nameserver/console/console.h"
#include "nameserver/console/console_html.h"
#include "nameserver/status_page.h"

namespace crawl::nameserver {
namespace {

using Snapshot = NameServerServiceImpl::Snapshot;

std::string Td(const std::string& text) { return "<td>" + HtmlEscape(text) + "</td>"; }
std::string Num(uint64_t v) { return "<td class=\"num\">" + Thousands(v) + "</td>"; }

std::string Fixed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// One line chart of `values` over `times` (SVG, drawn here, no script).
std::string Chart(const std::string& id, const std::string& label, const std::vector<int64_t>& times,
                  const std::vector<uint64_t>& values) {
  constexpr int kW = 420, kH = 150, kPad = 36;
  std::string o = "<figure><figcaption>" + HtmlEscape(label) + "</figcaption><svg id=\"" + id +
                  "\" width=\"" + std::to_string(kW) + "\" height=\"" + std::to_string(kH) + "\">";
  if (times.size() < 2) return o + "<text x=\"10\" y=\"20\">waiting for data</text></svg></figure>";
  const uint64_t ymax = std::max<uint64_t>(1, *std::max_element(values.begin(), values.end()));
  const double span = static_cast<double>(std::max<int64_t>(1, times.back() - times.front()));
  std::string d;
  for (size_t i = 0; i < times.size(); ++i) {
    const double x = kPad + (kW - kPad - 8) * static_cast<double>(times[i] - times.front()) / span;
    const double y = kH - 18 - (kH - 28) * static_cast<double>(values[i]) / static_cast<double>(ymax);
    d += (i ? "L" : "M") + Fixed(x) + "," + Fixed(y);
  }
  o += "<path d=\"" + d +
       "\" fill=\"none\" stroke=\"#36c\" stroke-width=\"2\"/><text x=\"2\" y=\"14\" "
       "font-size=\"11\">" +
       Thousands(ymax) + "</text><text x=\"" + std::to_string(kPad) + "\" y=\"" + std::to_string(kH - 4) +
       "\" font-size=\"11\">" + std::to_string(static_cast<int64_t>(span / 1000)) +
       " s shown</text></svg></figure>";
  return o;
}

std::string Charts(const Snapshot& snap) {
  std::vector<int64_t> t;
  std::vector<uint64_t> pages, frontier, rate;
  for (size_t i = 0; i < snap.history.size(); ++i) {
    const auto& s = snap.history[i];
    t.push_back(s.unix_ms);
    pages.push_back(s.pages);
    frontier.push_back(s.frontier);
    const auto& prev = snap.history[i ? i - 1 : 0];
    const int64_t ms = s.unix_ms - prev.unix_ms;
    rate.push_back(ms > 0 ? (s.pages - std::min(s.pages, prev.pages)) * 1000 / static_cast<uint64_t>(ms) : 0);
  }
  return "<div class=\"charts\">" + Chart("chart-pages", "Pages fetched", t, pages) +
         Chart("chart-rate", "Pages per second", t, rate) +
         Chart("chart-frontier", "Frontier size", t, frontier) + "</div>";
}

std::string Totals(const Snapshot& snap, uint64_t id) {
  uint64_t pages = 0, bytes = 0, frontier = 0, errors = 0, seen = 0;
  for (const auto& [qs, st] : snap.crawl_stats) {
    pages += st.pages_fetched();
    bytes += st.bytes_fetched();
    frontier += st.frontier_size();
    errors += st.fetch_errors();
    seen += st.urls_seen();
  }
  const RecentRate rate = RecentRates(snap, id);
  return "<table id=\"totals\"><tr><th>pages fetched</th><th>pages/s</th><th>bytes</th><th>frontier</th>"
         "<th>urls seen</th><th>errors</th></tr><tr><td class=\"num\" id=\"pages-fetched\">" +
         Thousands(pages) + "</td><td class=\"num\" id=\"pages-per-second\">" + Fixed(rate.pages_per_second) +
         "</td>" + Num(bytes) + Num(frontier) + Num(seen) + Num(errors) + "</tr></table>";
}

std::string QueueServers(const Snapshot& snap) {
  std::string o =
      "<h2>Queue servers</h2><table id=\"queue-servers\"><tr><th>id</th><th>address</th><th>health</th>"
      "<th>frontier</th><th>pages</th><th>urls seen</th><th>hosts</th><th>leased</th><th>errors</th>"
      "<th>indexed</th><th>tiers (tier:urls)</th></tr>";
  for (const auto& m : snap.members) {
    const auto it = snap.crawl_stats.find(m.info.id());
    const v1::QueueServerStats& st = it != snap.crawl_stats.end() ? it->second : m.stats;
    const bool healthy = m.last_seen_ms_ago >= 0 && m.last_seen_ms_ago < 10'000;
    std::string tiers;
    for (const auto& t : st.tiers()) tiers += std::to_string(t.tier()) + ":" + Thousands(t.urls()) + " ";
    o += "<tr>" + Td(m.info.id()) + Td(m.info.address()) + Td(healthy ? "up" : "down") +
         Num(st.frontier_size()) + Num(st.pages_fetched()) + Num(st.urls_seen()) + Num(st.hosts()) +
         Num(st.leased_urls()) + Num(st.fetch_errors()) + Num(st.index_documents()) + Td(tiers) + "</tr>";
  }
  return o + "</table>";
}

std::string Fetchers(const Snapshot& snap) {
  std::string o =
      "<h2>Fetchers</h2><table id=\"fetchers\"><tr><th>id</th><th>health</th><th>fetches</th>"
      "<th>bytes</th><th>in flight</th><th>schedules</th><th>batches</th><th>errors</th></tr>";
  for (const auto& f : snap.fetchers)
    o += "<tr>" + Td(f.id) + Td(f.last_seen_ms_ago < 10'000 ? "up" : "down") + Num(f.stats.fetches()) +
         Num(f.stats.bytes()) + Num(f.stats.in_flight()) + Num(f.stats.schedules()) +
         Num(f.stats.batches_shipped()) + Num(f.stats.fetch_errors()) + "</tr>";
  return o + "</table>";
}

// Tiers summed over queue servers, top hosts and the latest errors.
std::string TiersHostsErrors(const Snapshot& snap, uint64_t id) {
  std::map<uint32_t, uint64_t> tiers;
  std::vector<std::pair<uint64_t, std::string>> hosts;
  std::vector<const v1::FetchRecord*> errors;
  for (const auto& [qs, st] : snap.crawl_stats) {
    for (const auto& t : st.tiers()) tiers[t.tier()] += t.urls();
    for (const auto& h : st.top_hosts()) hosts.emplace_back(h.pages(), h.host());
    for (const auto& r : st.recent_errors()) errors.push_back(&r);
  }
  std::string o = "<h2>Tiers</h2><table id=\"tiers\"><tr><th>tier</th><th>urls queued</th></tr>";
  for (const auto& [tier, urls] : tiers) o += "<tr>" + Td(std::to_string(tier)) + Num(urls) + "</tr>";
  std::sort(hosts.begin(), hosts.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  if (hosts.size() > 10) hosts.resize(10);
  o += "</table><h2>Top hosts</h2><table id=\"top-hosts\"><tr><th>host</th><th>pages</th></tr>";
  for (const auto& [pages, host] : hosts)
    o += "<tr><td><a href=\"/console/host?crawl=" + std::to_string(id) + "&amp;host=" + UrlEncode(host) +
         "\">" + HtmlEscape(host) + "</a></td>" + Num(pages) + "</tr>";
  std::sort(errors.begin(), errors.end(),
            [](const auto* a, const auto* b) { return a->timestamp_unix_us() > b->timestamp_unix_us(); });
  if (errors.size() > 20) errors.resize(20);
  o +=
      "</table><h2>Recent errors</h2><table id=\"recent-errors\"><tr><th>time</th><th>status</th><th>url</th>"
      "<th>error</th></tr>";
  for (const auto* r : errors)
    o += "<tr>" + Td(Iso8601Micros(r->timestamp_unix_us())) + Td(std::to_string(r->status())) + Td(r->url()) +
         Td(r->error()) + "</tr>";
  return o + "</table>";
}

}  // namespace

namespace {

std::string Time(int64_t unix_ms) {
  return unix_ms > 0 ? Iso8601Micros(unix_ms * 1000).substr(0, 19) + "Z" : "-";
}

std::string Actions(const v1::CrawlInfo& c, const std::string& csrf) {
  const std::string id = std::to_string(c.crawl_id());
  const std::string hidden =
      CsrfField(csrf) + "<input type=\"hidden\" name=\"crawl_id\" value=\"" + id + "\">";
  std::string o;
  if (c.state() == v1::CRAWL_STATE_RUNNING)
    o += "<form class=\"inline\" method=\"post\" action=\"/console/stop\">" + hidden +
         "<button type=\"submit\" id=\"stop\">Stop</button></form> ";
  if (c.state() == v1::CRAWL_STATE_STOPPED)
    o += "<form class=\"inline\" method=\"post\" action=\"/console/resume\">" + hidden +
         "<button type=\"submit\" id=\"resume\">Resume</button></form> ";
  o += "<form method=\"post\" action=\"/console/set-param\" id=\"set-param\">" + hidden +
       "<label>parameter <input name=\"name\" id=\"param-name\" list=\"param-names\"></label><datalist "
       "id=\"param-names\">";
  const auto* d = v1::CrawlParams::descriptor();
  for (int i = 0; i < d->field_count(); ++i)
    o += "<option value=\"" + HtmlEscape(d->field(i)->name()) + "\">";
  o += "</datalist><label>value <input name=\"value\" id=\"param-value\"></label><button type=\"submit\" "
       "id=\"set\">Set</button></form>";
  return o;
}

std::string Info(const v1::CrawlInfo& c) {
  std::string params;
  google::protobuf::TextFormat::PrintToString(c.params(), &params);
  std::string qs;
  for (const auto& q : c.queue_servers()) qs += (qs.empty() ? "" : ", ") + q.id();
  return "<table id=\"crawl-info\"><tr><th>state</th><td id=\"crawl-state\">" +
         HtmlEscape(StateName(c.state())) + "</td></tr><tr><th>started</th><td>" + Time(c.started_unix_ms()) +
         "</td></tr><tr><th>ended</th><td>" + Time(c.ended_unix_ms()) +
         "</td></tr><tr><th>end reason</th><td>" + HtmlEscape(c.end_reason()) +
         "</td></tr><tr><th>seeds</th><td>" + Thousands(c.seed_count()) +
         "</td></tr><tr><th>queue servers</th><td>" + HtmlEscape(qs) +
         "</td></tr><tr><th>parameters (version " + std::to_string(c.params_version()) +
         ")</th><td><pre id=\"params\">" + HtmlEscape(params) + "</pre></td></tr></table>";
}

}  // namespace

HttpReply ConsoleCrawlPage(const ConsoleDeps& deps, const ConsoleCall& call) {
  const Snapshot snap = deps.service->TakeSnapshot();
  const std::string role(ConsoleRoleName(call.role));
  uint64_t shown = snap.active_crawl;
  if (shown == 0 && !snap.crawls.empty()) shown = snap.crawls.rbegin()->first;
  uint64_t id = shown;
  const std::string text = call.Q("id");
  if (!text.empty()) {
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (ec != std::errc() || ptr != text.data() + text.size())
      return ConsoleHtml(400, {"crawl", role, "id must be a crawl number", true, 0}, "");
  }
  const auto it = snap.crawls.find(id);
  if (it == snap.crawls.end())
    return ConsoleHtml(404, {"crawl", role, "No crawl " + std::to_string(id), true, 0},
                       "<p><a href=\"/console\">Crawls</a></p>");
  const v1::CrawlInfo& c = it->second;
  const std::string sid = std::to_string(id);
  std::string body = "<p><a href=\"/console/search?crawl=" + sid +
                     "\">Search this crawl</a> · <a href=\"/console/log?crawl=" + sid + "\">Its log</a></p>" +
                     Info(c) + Actions(c, call.csrf);
  if (id == shown) {
    body += "<h2>Progress</h2>" + Totals(snap, id) + Charts(snap) + QueueServers(snap) + Fetchers(snap) +
            TiersHostsErrors(snap, id);
  } else {
    // An older crawl: the last numbers its queue servers reported, and
    // its chart and fetcher totals while the name server keeps them.
    v1::CrawlStatusRequest req;
    req.set_crawl_id(id);
    v1::CrawlStatusResponse resp;
    if (deps.service->CrawlStatus(nullptr, &req, &resp).ok()) {
      Snapshot last;
      for (const auto& st : resp.queue_servers()) last.crawl_stats[st.queue_server_id()] = st;
      last.history = deps.service->ProgressOf(id);
      last.fetchers = deps.service->FetchersOf(id);
      body += "<h2>Last numbers</h2>" + Totals(last, id) + Charts(last) + Fetchers(last) +
              TiersHostsErrors(last, id);
    }
  }
  const bool live = c.state() == v1::CRAWL_STATE_RUNNING && call.Q("live") != "0";
  return ConsoleHtml(200, {"crawl " + sid, role, call.Q("msg"), false, live ? 2000 : 0}, body);
}

}  // namespace crawl::nameserver
