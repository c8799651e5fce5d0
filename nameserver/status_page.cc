#include "nameserver/status_page.h"

#include <algorithm>
#include <map>

#include "common/base/json.h"
#include "common/crawl/report_text.h"
#include "common/net/http_security.h"

namespace crawl::nameserver {
namespace {

namespace json = boost::json;

// Rates and durations: two decimals (null when not finite, common/base/json.h).
json::value Rate(double v) { return JsonNumber(v, 2); }

json::object CrawlJson(const v1::CrawlInfo& c) {
  return {{"crawl_id", c.crawl_id()},
          {"state", StateName(c.state())},
          {"order", JsonText(c.params().order())},
          {"max_pages", c.params().max_pages()},
          {"params_version", c.params_version()},
          {"started_unix_ms", c.started_unix_ms()},
          {"ended_unix_ms", c.ended_unix_ms()},
          {"seed_count", c.seed_count()},
          {"end_reason", JsonText(c.end_reason())},
          {"queue_servers", static_cast<uint64_t>(c.queue_servers_size())}};
}

using Snapshot = NameServerServiceImpl::Snapshot;

// "totals":{...}: sums over the shown crawl's queue servers; rates over
// the last ~30 s of samples.
json::object TotalsJson(const Snapshot& snap, const v1::CrawlInfo* shown) {
  uint64_t pages = 0, bytes = 0, frontier = 0, errors = 0, seen = 0, leased = 0;
  for (const auto& [id, st] : snap.crawl_stats) {
    pages += st.pages_fetched();
    bytes += st.bytes_fetched();
    frontier += st.frontier_size();
    errors += st.fetch_errors();
    seen += st.urls_seen();
    leased += st.leased_urls();
  }
  const RecentRate rate = shown ? RecentRates(snap, shown->crawl_id()) : RecentRate{};
  return {{"pages_fetched", pages},
          {"bytes_fetched", bytes},
          {"frontier_size", frontier},
          {"fetch_errors", errors},
          {"urls_seen", seen},
          {"leased_urls", leased},
          {"pages_per_second", Rate(rate.pages_per_second)},
          {"bytes_per_second", Rate(rate.bytes_per_second)}};
}

// "history":[[unix_ms, pages, frontier, errors, urls_seen], ...] of the
// shown crawl.
json::array HistoryJson(const Snapshot& snap, bool history_matches) {
  json::array o;
  if (!history_matches) return o;
  for (const auto& s : snap.history)
    o.push_back(json::array{s.unix_ms, s.pages, s.frontier, s.errors, s.urls_seen});
  return o;
}

json::array QueueServersJson(const Snapshot& snap) {
  // One row per member of the shown crawl's frozen list, plus members that
  // are registered but not part of it.
  json::array o;
  for (const auto& m : snap.members) {
    auto it = snap.crawl_stats.find(m.info.id());
    const v1::QueueServerStats& st = it != snap.crawl_stats.end() ? it->second : m.stats;
    const bool healthy = m.last_seen_ms_ago >= 0 && m.last_seen_ms_ago < 10'000;
    json::array tiers;
    for (const auto& t : st.tiers()) tiers.push_back(json::array{t.tier(), t.urls()});
    o.push_back(json::object{{"id", JsonText(m.info.id())},
                             {"address", JsonText(m.info.address())},
                             {"healthy", healthy},
                             {"last_seen_ms_ago", m.last_seen_ms_ago},
                             {"frontier_size", st.frontier_size()},
                             {"pages_fetched", st.pages_fetched()},
                             {"urls_seen", st.urls_seen()},
                             {"hosts", st.hosts()},
                             {"leased_urls", st.leased_urls()},
                             {"fetch_errors", st.fetch_errors()},
                             {"index_documents", st.index_documents()},
                             {"tiers", std::move(tiers)}});
  }
  return o;
}

json::array FetchersJson(const Snapshot& snap) {
  json::array o;
  for (const auto& f : snap.fetchers) {
    o.push_back(json::object{{"id", JsonText(f.id)},
                             {"last_seen_ms_ago", f.last_seen_ms_ago},
                             {"healthy", f.last_seen_ms_ago < 10'000},
                             {"fetches", f.stats.fetches()},
                             {"bytes", f.stats.bytes()},
                             {"in_flight", f.stats.in_flight()},
                             {"schedules", f.stats.schedules()},
                             {"batches_shipped", f.stats.batches_shipped()},
                             {"fetch_errors", f.stats.fetch_errors()}});
  }
  return o;
}

// "top_hosts":[...],"recent_errors":[...] over every queue server.
void HostsAndErrorsJson(const Snapshot& snap, json::object& o) {
  // Top hosts over every queue server (each reports its own top 10).
  std::vector<std::pair<uint64_t, std::string>> hosts;
  std::vector<const v1::FetchRecord*> recent;
  for (const auto& [id, st] : snap.crawl_stats) {
    for (const auto& h : st.top_hosts()) hosts.emplace_back(h.pages(), h.host());
    for (const auto& r : st.recent_errors()) recent.push_back(&r);
  }
  std::sort(hosts.begin(), hosts.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  if (hosts.size() > 10) hosts.resize(10);
  json::array top;
  for (const auto& [pages, host] : hosts)
    top.push_back(json::object{{"host", JsonText(host)}, {"pages", pages}});
  o["top_hosts"] = std::move(top);
  std::sort(recent.begin(), recent.end(),
            [](const auto* a, const auto* b) { return a->timestamp_unix_us() > b->timestamp_unix_us(); });
  if (recent.size() > 20) recent.resize(20);
  json::array errors;
  for (const v1::FetchRecord* r : recent) {
    errors.push_back(json::object{{"time", Iso8601Micros(r->timestamp_unix_us())},
                                  {"url", JsonText(r->url())},
                                  {"status", r->status()},
                                  {"error", JsonText(r->error())}});
  }
  o["recent_errors"] = std::move(errors);
}

// "sites_reported":N,"site_reports":[...]: the structure order's latest
// finished sites over every queue server, newest first (at most 20).
void SiteReportsJson(const Snapshot& snap, json::object& o) {
  std::vector<const v1::SiteReport*> reports;
  uint64_t total = 0;
  for (const auto& [id, st] : snap.crawl_stats) {
    total += st.sites_reported();
    for (const auto& r : st.site_reports()) reports.push_back(&r);
  }
  std::stable_sort(reports.begin(), reports.end(),
                   [](const auto* a, const auto* b) { return a->ended_unix_ms() > b->ended_unix_ms(); });
  if (reports.size() > 20) reports.resize(20);
  json::array rows;
  for (const v1::SiteReport* r : reports) {
    json::array layers;
    if (r->layer_sizes_size() > 0) {
      for (const auto size : r->layer_sizes(r->layer_sizes_size() - 1).sizes()) layers.push_back(size);
    }
    rows.push_back(json::object{{"site", JsonText(r->site())},
                                {"end_reason", JsonText(r->end_reason())},
                                {"seconds", Rate(r->seconds())},
                                {"iterations", r->iterations()},
                                {"pages_loaded", r->pages_loaded()},
                                {"pages_crawled", r->pages_crawled()},
                                {"targets_seen", r->targets_seen()},
                                {"excluded", r->excluded()},
                                {"dismissed", r->dismissed()},
                                {"last_layers", std::move(layers)}});
  }
  o["sites_reported"] = total;
  o["site_reports"] = std::move(rows);
}

json::array CrawlsJson(const Snapshot& snap) {
  json::array o;
  for (auto it = snap.crawls.rbegin(); it != snap.crawls.rend(); ++it) o.push_back(CrawlJson(it->second));
  return o;
}

// The page's markup and style: tables and chart frames that render() fills.
constexpr const char* kPageMarkup = R"HTML(<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Crawl status</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;background:#fafafa}
h1{font-size:1.4em;margin:0 0 .3em} h2{font-size:1.1em;margin:1.4em 0 .4em}
table{border-collapse:collapse;background:#fff} td,th{border:1px solid #ddd;padding:.25em .6em;text-align:right}
th{background:#f0f0f0} td.l,th.l{text-align:left}
.cards{display:flex;flex-wrap:wrap;gap:.8em} .card{background:#fff;border:1px solid #ddd;padding:.5em .9em;min-width:9em}
.card b{display:block;font-size:1.5em} .bad{color:#b00} .good{color:#070}
.charts{display:flex;flex-wrap:wrap;gap:1em} svg{background:#fff;border:1px solid #ddd}
#err{color:#b00}
</style></head><body>
<h1>Crawl status <small id="updated"></small></h1>
<div id="err"></div>
<div id="crawl">Loading&hellip;</div>
<div class="cards" id="cards"></div>
<h2>Progress</h2>
<div class="charts"><div><div>Pages fetched</div><svg id="chart-pages" width="420" height="160"></svg></div>
<div><div>Pages per second</div><svg id="chart-rate" width="420" height="160"></svg></div>
<div><div>Frontier size</div><svg id="chart-frontier" width="420" height="160"></svg></div></div>
<h2>Queue servers</h2><table id="queue-servers"></table>
<h2>Fetchers</h2><table id="fetchers"></table>
<h2>Top hosts</h2><table id="top-hosts"></table>
<h2>Recent errors</h2><table id="recent-errors"></table>
<h2>Site reports <small id="sites-reported"></small></h2><table id="site-reports"></table>
<h2>Crawls</h2><table id="crawls"></table>
)HTML";

// The page's script: fetches /status.json every two seconds and draws it.
constexpr const char* kPageScript = R"HTML(<script>
"use strict";
function esc(s){return String(s).replace(/[&<>"']/g,c=>({"&":"&amp;","<":"&lt;",">":"&gt;","\"":"&quot;","'":"&#39;"}[c]));}
function fmt(n){return Number(n).toLocaleString("en-US");}
function table(id,cols,rows){
  const head="<tr>"+cols.map(c=>"<th class='"+(c[2]||"")+"'>"+esc(c[0])+"</th>").join("")+"</tr>";
  const body=rows.map(r=>"<tr>"+cols.map(c=>"<td class='"+(c[2]||"")+"'>"+c[1](r)+"</td>").join("")+"</tr>").join("");
  document.getElementById(id).innerHTML=head+(rows.length?body:"<tr><td class='l' colspan='"+cols.length+"'>none</td></tr>");
}
function chart(id,points){
  const svg=document.getElementById(id),W=420,H=160,P=34;
  if(points.length<2){svg.innerHTML="<text x='10' y='20'>waiting for data</text>";return;}
  const x0=points[0][0],x1=points[points.length-1][0]||x0+1;
  let ymax=Math.max(...points.map(p=>p[1]));if(ymax<=0)ymax=1;
  const X=t=>P+(W-P-8)*(t-x0)/Math.max(1,x1-x0),Y=v=>H-18-(H-28)*v/ymax;
  const d=points.map((p,i)=>(i?"L":"M")+X(p[0]).toFixed(1)+","+Y(p[1]).toFixed(1)).join("");
  svg.innerHTML="<path d='"+d+"' fill='none' stroke='#36c' stroke-width='2'/>"+
    "<text x='2' y='14' font-size='11'>"+fmt(Math.round(ymax))+"</text><text x='2' y='"+(H-20)+"' font-size='11'>0</text>"+
    "<text x='"+P+"' y='"+(H-4)+"' font-size='11'>"+Math.round((x1-x0)/1000)+" s shown</text>";
}
function render(s){
  document.getElementById("updated").textContent="updated "+new Date(s.now_unix_ms).toLocaleTimeString();
  const c=s.crawl;
  document.getElementById("crawl").innerHTML=c?("Crawl <b id='crawl-id'>"+c.crawl_id+"</b> <b id='crawl-state'>"+esc(c.state)+
    "</b>, order "+esc(c.order)+(c.max_pages?", page budget "+fmt(c.max_pages):"")+(c.end_reason?" ("+esc(c.end_reason)+")":"")+
    ", started "+new Date(c.started_unix_ms).toLocaleString()):"No crawl has been started.";
  const t=s.totals;
  document.getElementById("cards").innerHTML=[["Pages fetched",fmt(t.pages_fetched),"pages-fetched"],["Pages/s",t.pages_per_second==null?"-":t.pages_per_second.toFixed(1),"pages-rate"],
    ["Frontier",fmt(t.frontier_size),"frontier-size"],["URLs seen",fmt(t.urls_seen),"urls-seen"],["MB fetched",(t.bytes_fetched/1e6).toFixed(1),"mb-fetched"],
    ["Errors",fmt(t.fetch_errors),"fetch-errors"]].map(k=>"<div class='card'>"+k[0]+"<b id='"+k[2]+"'>"+k[1]+"</b></div>").join("");
  const h=s.history;
  chart("chart-pages",h.map(p=>[p[0],p[1]]));
  chart("chart-frontier",h.map(p=>[p[0],p[2]]));
  const rate=[];for(let i=1;i<h.length;i++){const dt=(h[i][0]-h[i-1][0])/1000;if(dt>0)rate.push([h[i][0],Math.max(0,h[i][1]-h[i-1][1])/dt]);}
  chart("chart-rate",rate);
  const ok=b=>b?"<span class='good'>up</span>":"<span class='bad'>down</span>";
  table("queue-servers",[["id",r=>esc(r.id),"l"],["address",r=>esc(r.address),"l"],["health",r=>ok(r.healthy),"l"],
    ["frontier",r=>fmt(r.frontier_size)],["tiers",r=>r.tiers.map(t=>"t"+t[0]+": "+fmt(t[1])).join(", "),"l"],["pages",r=>fmt(r.pages_fetched)],["URLs seen",r=>fmt(r.urls_seen)],["indexed",r=>fmt(r.index_documents)],["hosts",r=>fmt(r.hosts)],
    ["leased",r=>fmt(r.leased_urls)],["errors",r=>fmt(r.fetch_errors)]],s.queue_servers);
  table("fetchers",[["id",r=>esc(r.id),"l"],["health",r=>ok(r.healthy),"l"],["fetches",r=>fmt(r.fetches)],["in flight",r=>fmt(r.in_flight)],
    ["MB",r=>(r.bytes/1e6).toFixed(1)],["schedules",r=>fmt(r.schedules)],["batches",r=>fmt(r.batches_shipped)],["errors",r=>fmt(r.fetch_errors)]],s.fetchers);
  table("top-hosts",[["host",r=>esc(r.host),"l"],["pages",r=>fmt(r.pages)]],s.top_hosts);
  table("recent-errors",[["time",r=>esc(r.time),"l"],["status",r=>r.status],["URL",r=>esc(r.url),"l"],["error",r=>esc(r.error),"l"]],s.recent_errors);
  document.getElementById("sites-reported").textContent="("+fmt(s.sites_reported)+" sites finished; structure order)";
  table("site-reports",[["site",r=>esc(r.site),"l"],["ended by",r=>esc(r.end_reason),"l"],["s",r=>r.seconds??"-"],["iterations",r=>fmt(r.iterations)],
    ["loaded",r=>fmt(r.pages_loaded)],["crawled",r=>fmt(r.pages_crawled)],["targets",r=>fmt(r.targets_seen)],["excluded",r=>fmt(r.excluded)],
    ["dismissed",r=>fmt(r.dismissed)],["last layers",r=>r.last_layers.join(" / "),"l"]],s.site_reports);
  table("crawls",[["id",r=>r.crawl_id],["state",r=>esc(r.state),"l"],["order",r=>esc(r.order),"l"],["reason",r=>esc(r.end_reason),"l"]],s.crawls);
}
async function refresh(){
  try{const r=await fetch("/status.json",{cache:"no-store"});if(!r.ok)throw new Error("HTTP "+r.status);
    render(await r.json());document.getElementById("err").textContent="";}
  catch(e){document.getElementById("err").textContent="cannot reach the name server: "+e.message;}
}
refresh();setInterval(refresh,2000);
</script></body></html>
)HTML";

}  // namespace

RecentRate RecentRates(const NameServerServiceImpl::Snapshot& snap, uint64_t crawl_id) {
  RecentRate r;
  if (snap.history_crawl == crawl_id && snap.history.size() >= 2) {
    const auto& last = snap.history.back();
    size_t i = snap.history.size() - 1;
    while (i > 0 && last.unix_ms - snap.history[i - 1].unix_ms <= 30'000) --i;
    if (i == snap.history.size() - 1) i = snap.history.size() - 2;
    const auto& first = snap.history[i];
    const double secs = static_cast<double>(last.unix_ms - first.unix_ms) / 1000.0;
    if (secs > 0) {
      r.pages_per_second = static_cast<double>(last.pages - std::min(last.pages, first.pages)) / secs;
      r.bytes_per_second = static_cast<double>(last.bytes - std::min(last.bytes, first.bytes)) / secs;
    }
  }
  return r;
}

std::string StatusPageJson(const Snapshot& snap, int64_t now_unix_ms) {
  const v1::CrawlInfo* shown = nullptr;
  if (snap.active_crawl != 0 && snap.crawls.count(snap.active_crawl)) {
    shown = &snap.crawls.at(snap.active_crawl);
  } else if (!snap.crawls.empty()) {
    shown = &snap.crawls.rbegin()->second;
  }
  json::object o;
  o["now_unix_ms"] = now_unix_ms;
  o["active_crawl"] = snap.active_crawl;
  o["crawl"] = shown ? json::value(CrawlJson(*shown)) : json::value(nullptr);
  o["totals"] = TotalsJson(snap, shown);
  o["history"] = HistoryJson(snap, shown && snap.history_crawl == shown->crawl_id());
  o["queue_servers"] = QueueServersJson(snap);
  o["fetchers"] = FetchersJson(snap);
  HostsAndErrorsJson(snap, o);
  SiteReportsJson(snap, o);
  o["crawls"] = CrawlsJson(snap);
  return JsonLine(o);
}

const std::string& StatusPageCsp() {
  auto inner = [](std::string_view text, std::string_view open, std::string_view close) {
    const size_t from = text.find(open) + open.size();
    return text.substr(from, text.find(close, from) - from);
  };
  static const std::string csp = "default-src 'none'; style-src " +
                                 CspHashSource(inner(kPageMarkup, "<style>", "</style>")) + "; script-src " +
                                 CspHashSource(inner(kPageScript, "<script>", "</script>")) +
                                 "; connect-src 'self'; img-src 'self' data:; form-action 'self'; "
                                 "frame-ancestors 'none'; base-uri 'none'";
  return csp;
}

const std::string& StatusPageHtml() {
  static const std::string page = std::string(kPageMarkup) + kPageScript;
  return page;
}

}  // namespace crawl::nameserver
