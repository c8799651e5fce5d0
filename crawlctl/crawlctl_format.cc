#include "crawlctl/crawlctl_format.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <sstream>

#include "common/base/json.h"

namespace crawl::crawlctl {

namespace {

void StatsFields(boost::json::object& o, const v1::QueueServerStats& s) {
  o["pages_fetched"] = s.pages_fetched();
  o["frontier_size"] = s.frontier_size();
  o["leased_urls"] = s.leased_urls();
  o["outstanding_schedules"] = s.outstanding_schedules();
  o["fetch_attempts"] = s.fetch_attempts();
  o["fetch_errors"] = s.fetch_errors();
  o["urls_seen"] = s.urls_seen();
  o["hosts"] = s.hosts();
  o["robots_disallowed"] = s.robots_disallowed();
  o["bytes_fetched"] = s.bytes_fetched();
  o["due_pages"] = s.due_pages();
  o["revisits_entered"] = s.revisits_entered();
  o["revisits_unchanged"] = s.revisits_unchanged();
  o["revisits_changed"] = s.revisits_changed();
}

boost::json::object CrawlFields(const v1::CrawlInfo& c) {
  return {{"crawl_id", c.crawl_id()},
          {"state", StateName(c.state())},
          {"order", JsonText(c.params().order())},
          {"max_pages", c.params().max_pages()},
          {"seed_count", c.seed_count()},
          {"started_unix_ms", c.started_unix_ms()},
          {"ended_unix_ms", c.ended_unix_ms()},
          {"end_reason", JsonText(c.end_reason())}};
}

double ElapsedSeconds(const v1::CrawlInfo& c) {
  if (c.started_unix_ms() == 0) return 0;
  int64_t end = c.ended_unix_ms();
  if (end == 0) {
    end = std::chrono::duration_cast<std::chrono::milliseconds>(
              std::chrono::system_clock::now().time_since_epoch())
              .count();
  }
  return static_cast<double>(end - c.started_unix_ms()) / 1000.0;
}

}  // namespace

std::string StatusJson(const v1::CrawlStatusResponse& status) {
  boost::json::object o = CrawlFields(status.crawl());
  StatsFields(o, status.totals());
  o["elapsed_seconds"] = JsonNumber(ElapsedSeconds(status.crawl()), 3);  // milliseconds
  boost::json::array servers;
  for (const auto& s : status.queue_servers()) {
    boost::json::object server{{"id", JsonText(s.queue_server_id())}};
    StatsFields(server, s);
    servers.push_back(std::move(server));
  }
  o["queue_servers"] = std::move(servers);
  return JsonLine(o);
}

std::string StatusText(const v1::CrawlStatusResponse& status) {
  const auto& c = status.crawl();
  const auto& t = status.totals();
  const double elapsed = ElapsedSeconds(c);
  std::ostringstream o;
  o << "crawl " << c.crawl_id() << ": " << StateName(c.state());
  if (!c.end_reason().empty()) o << " (" << c.end_reason() << ")";
  o << "\n  order " << c.params().order() << ", " << c.seed_count() << " seeds, " << c.queue_servers_size()
    << " queue servers\n";
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.1f",
                elapsed > 0 ? static_cast<double>(t.pages_fetched()) / elapsed : 0.0);
  o << "  pages fetched " << t.pages_fetched() << " in " << static_cast<int64_t>(elapsed) << " s (" << rate
    << " pages/s), " << t.bytes_fetched() << " bytes, " << t.fetch_errors() << " network errors\n";
  o << "  frontier " << t.frontier_size() << ", leased " << t.leased_urls() << ", urls seen " << t.urls_seen()
    << ", hosts " << t.hosts() << ", robots-disallowed " << t.robots_disallowed() << "\n";
  if (c.params().recrawl()) {
    const std::string& policy = c.params().revisit_policy();
    o << "  recrawl (" << (policy.empty() ? "fixed" : policy) << "): due in memory " << t.due_pages()
      << ", revisits entered " << t.revisits_entered() << ", unchanged " << t.revisits_unchanged()
      << ", changed " << t.revisits_changed() << "\n";
  }
  for (const auto& s : status.queue_servers()) {
    o << "  " << s.queue_server_id() << ": pages " << s.pages_fetched() << ", frontier " << s.frontier_size()
      << ", leased " << s.leased_urls() << "\n";
  }
  return o.str();
}

std::string ProgressLine(const v1::CrawlStatusResponse& status, double pages_per_second) {
  const auto& t = status.totals();
  char buf[256];
  std::snprintf(
      buf, sizeof buf, "crawl %llu %s  pages %llu  %.1f pages/s  frontier %llu  leased %llu  errors %llu",
      static_cast<unsigned long long>(status.crawl().crawl_id()), StateName(status.crawl().state()).c_str(),
      static_cast<unsigned long long>(t.pages_fetched()), pages_per_second,
      static_cast<unsigned long long>(t.frontier_size()), static_cast<unsigned long long>(t.leased_urls()),
      static_cast<unsigned long long>(t.fetch_errors()));
  return buf;
}

std::string ProgressBarLine(const v1::CrawlStatusResponse& status, double pages_per_second,
                            double bytes_per_second, uint64_t tick, int bar_width) {
  if (bar_width < 5) bar_width = 5;
  std::string bar(static_cast<size_t>(bar_width), '.');
  std::string percent;
  const uint64_t budget = status.crawl().params().max_pages();
  if (budget > 0) {
    const double done =
        std::min(1.0, static_cast<double>(status.totals().pages_fetched()) / static_cast<double>(budget));
    const auto filled = static_cast<size_t>(done * bar_width + 1e-9);
    std::fill(bar.begin(), bar.begin() + static_cast<std::ptrdiff_t>(filled), '#');
    char buf[16];
    std::snprintf(buf, sizeof buf, " %3d%%", static_cast<int>(done * 100.0 + 1e-9));
    percent = buf;
  } else {
    // No budget: the end is unknown; a marker sweeps to show liveness.
    std::fill(bar.begin(), bar.end(), ' ');
    const auto span = static_cast<uint64_t>(bar_width - 3);
    const uint64_t phase = tick % (2 * span);
    const size_t at = static_cast<size_t>(phase < span ? phase : 2 * span - phase);
    bar.replace(at, 3, "<=>");
  }
  char rate[48];
  std::snprintf(rate, sizeof rate, "  %.1f MB/s", bytes_per_second / 1e6);
  return "[" + bar + "]" + percent + "  " + ProgressLine(status, pages_per_second) + rate;
}

std::string CrawlListJson(const v1::ListCrawlsResponse& list) {
  boost::json::array crawls;
  for (const auto& c : list.crawls()) crawls.push_back(CrawlFields(c));
  return JsonLine(boost::json::object{{"crawls", std::move(crawls)}});
}

std::string CrawlListText(const v1::ListCrawlsResponse& list) {
  std::ostringstream o;
  if (list.crawls_size() == 0) o << "no crawls\n";
  for (const auto& c : list.crawls()) {
    o << c.crawl_id() << "\t" << StateName(c.state()) << "\t" << c.params().order() << "\t" << c.seed_count()
      << " seeds\t" << (c.end_reason().empty() ? "-" : c.end_reason()) << "\n";
  }
  return o.str();
}

std::string ServersJson(const v1::ListQueueServersResponse& servers) {
  boost::json::array list;
  for (int i = 0; i < servers.servers_size(); ++i) {
    list.push_back(boost::json::object{
        {"id", JsonText(servers.servers(i).id())},
        {"address", JsonText(servers.servers(i).address())},
        {"last_seen_ms_ago",
         i < servers.last_seen_ms_ago_size() ? servers.last_seen_ms_ago(i) : int64_t{-1}}});
  }
  return JsonLine(boost::json::object{{"servers", std::move(list)}});
}

std::string ServersText(const v1::ListQueueServersResponse& servers) {
  std::ostringstream o;
  if (servers.servers_size() == 0) o << "no queue servers\n";
  for (int i = 0; i < servers.servers_size(); ++i) {
    o << servers.servers(i).id() << "\t" << servers.servers(i).address() << "\tseen "
      << (i < servers.last_seen_ms_ago_size() ? servers.last_seen_ms_ago(i) : -1) << " ms ago\n";
  }
  return o.str();
}

namespace {
std::string Field(std::string_view s) {
  if (s.empty()) return "-";
  std::string out(s);
  for (char& c : out) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return out;
}
}  // namespace

std::string LogLine(const v1::FetchRecord& r) {
  std::string line = Iso8601Micros(r.timestamp_unix_us());
  line += '\t';
  line += std::to_string(r.status());
  line += '\t';
  line += std::to_string(r.bytes());
  line += '\t';
  line += Field(r.url());
  line += '\t';
  line += Field(r.referrer());
  line += '\t';
  line += Field(r.mime_type());
  line += '\t';
  line += std::to_string(r.fetch_ms());
  line += '\t';
  line += Field(r.content_digest());
  if (r.revisit() == v1::REVISIT_NOT_MODIFIED) line += "\tnot-modified";
  if (r.revisit() == v1::REVISIT_IDENTICAL_DIGEST) line += "\tunchanged";
  if (!r.near_duplicate_of().empty()) line += "\tnear-duplicate-of " + Field(r.near_duplicate_of());
  return line;
}

}  // namespace crawl::crawlctl
