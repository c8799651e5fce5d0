// The politeness checker; see politeness.h.
#include "tests/testweb/politeness.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>

#include "common/base/json.h"
#include "common/crawl/log_time.h"

namespace crawl::testweb {
namespace {

std::vector<std::string_view> SplitTabs(std::string_view line) {
  std::vector<std::string_view> fields;
  while (true) {
    const size_t tab = line.find('\t');
    fields.push_back(line.substr(0, tab));
    if (tab == std::string_view::npos) break;
    line = line.substr(tab + 1);
  }
  return fields;
}

template <typename T>
bool ParseNumber(std::string_view s, T& out) {
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc() && ptr == s.data() + s.size();
}

// "2024-05-01T12:34:56.123456Z" -> microseconds since the epoch.
bool ParseTimestamp(std::string_view s, int64_t& us) {
  if (s.size() != 27 || s[19] != '.') return false;  // the access log's own form only
  auto t = ParseLogTime(std::string(s));
  if (!t.ok()) return false;
  us = *t;
  return true;
}

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

struct Concurrency {
  uint32_t max_concurrent = 0;
  uint64_t violations = 0;  // connections opened while another was open
};

// Connections: [first start, last end] per CONNECTION (or REMOTE); sweep
// the starts and ends (an end at the same instant as a start comes first).
// A connection opened while `limit` were open is a violation (limit 0:
// none is).
Concurrency MeasureConcurrency(const std::vector<const AccessRecord*>& recs, uint32_t limit = 1) {
  std::map<std::string, std::pair<int64_t, int64_t>> conns;
  for (const AccessRecord* r : recs) {
    const auto end = r->start_us + static_cast<int64_t>(r->duration_ms * 1000.0);
    auto [it, fresh] =
        conns.try_emplace(r->connection != 0 ? std::to_string(r->connection) : r->remote, r->start_us, end);
    if (!fresh) {
      it->second.first = std::min(it->second.first, r->start_us);
      it->second.second = std::max(it->second.second, end);
    }
  }
  std::vector<std::pair<int64_t, int>> events;
  for (const auto& [remote, span] : conns) {
    events.emplace_back(span.first, +1);
    events.emplace_back(span.second, -1);
  }
  std::sort(events.begin(), events.end());
  Concurrency c;
  int open = 0;
  for (const auto& [t, delta] : events) {
    if (delta > 0 && limit > 0 && open >= static_cast<int>(limit)) ++c.violations;
    open += delta;
    c.max_concurrent = std::max<uint32_t>(c.max_concurrent, static_cast<uint32_t>(std::max(open, 0)));
  }
  return c;
}

Concurrency MeasureConcurrency(const std::vector<AccessRecord>& recs) {
  std::vector<const AccessRecord*> ptrs;
  ptrs.reserve(recs.size());
  for (const auto& r : recs) ptrs.push_back(&r);
  return MeasureConcurrency(ptrs);
}

}  // namespace

Result<AccessRecord> ParseAccessLine(std::string_view line) {
  const auto f = SplitTabs(line);
  if (f.size() < 6 || f.size() > 8)
    return Status::InvalidArgument("expected 6 to 8 tab-separated fields, got " + std::to_string(f.size()));
  AccessRecord r;
  if (!ParseTimestamp(f[0], r.start_us))
    return Status::InvalidArgument("bad timestamp '" + std::string(f[0]) + "'");
  r.host = f[1];
  r.target = f[2];
  if (!ParseNumber(f[3], r.status)) return Status::InvalidArgument("bad status '" + std::string(f[3]) + "'");
  if (!ParseNumber(f[4], r.bytes))
    return Status::InvalidArgument("bad byte count '" + std::string(f[4]) + "'");
  r.remote = f[5];
  if (f.size() == 8 && !ParseNumber(f[7], r.connection))
    return Status::InvalidArgument("bad connection number '" + std::string(f[7]) + "'");
  if (f.size() >= 7) {
    // from_chars for double: a plain decimal is all the log writes.
    const std::string d(f[6]);
    char* end = nullptr;
    r.duration_ms = std::strtod(d.c_str(), &end);
    if (d.empty() || end != d.c_str() + d.size() || !(r.duration_ms >= 0))
      return Status::InvalidArgument("bad duration '" + d + "'");
  }
  return r;
}

PolitenessReport CheckPoliteness(const Universe& universe, std::vector<AccessRecord> records,
                                 const std::vector<std::string>* addresses, uint32_t max_per_address) {
  PolitenessReport report;
  report.requests = records.size();
  std::map<std::string, std::vector<AccessRecord>> by_host;
  for (auto& r : records) by_host[r.host].push_back(std::move(r));
  for (auto& [name, recs] : by_host) {
    HostPoliteness h;
    h.host = name;
    h.requests = recs.size();
    std::stable_sort(recs.begin(), recs.end(),
                     [](const AccessRecord& a, const AccessRecord& b) { return a.start_us < b.start_us; });
    const auto host = universe.HostIndex(name);
    if (host) h.crawl_delay_s = universe.Robots(*host).CrawlDelay("*");
    if (host && (universe.HostHas(*host, Misbehaviour::kRobots5xx) ||
                 universe.HostHas(*host, Misbehaviour::kRobotsUnreachable)))
      h.crawl_delay_s = 0;  // nothing may be fetched there anyway
    for (size_t i = 0; i < recs.size(); ++i) {
      if (i > 0) {
        const double gap = static_cast<double>(recs[i].start_us - recs[i - 1].start_us) / 1000.0;
        h.min_gap_ms = h.min_gap_ms < 0 ? gap : std::min(h.min_gap_ms, gap);
        if (h.crawl_delay_s > 0 && gap < h.crawl_delay_s * 1000.0 - kGapToleranceMs)
          ++h.crawl_delay_violations;
      }
      // The host's own scheme: the log does not say which one a request used,
      // and robots rules do not depend on it.
      if (host && !universe.IsAllowed(universe.Origin(*host) + recs[i].target)) ++h.disallowed_requests;
    }
    const Concurrency c = MeasureConcurrency(recs);
    h.max_concurrent = c.max_concurrent;
    h.concurrency_violations = c.violations;
    report.violations += h.violations();
    report.hosts.push_back(std::move(h));
  }
  if (addresses != nullptr) {
    report.max_per_address = max_per_address;
    // Per address: the connections to every host it serves, together.
    std::map<std::string, std::vector<const AccessRecord*>> by_address;
    std::map<std::string, uint32_t> hosts_at;
    for (const auto& [name, recs] : by_host) {
      const auto host = universe.HostIndex(name);
      if (!host || *host >= addresses->size()) continue;
      const std::string& address = (*addresses)[*host];
      ++hosts_at[address];
      for (const auto& r : recs) by_address[address].push_back(&r);
    }
    for (auto& [address, recs] : by_address) {
      const Concurrency c = MeasureConcurrency(recs, max_per_address);
      report.addresses.push_back({address, hosts_at[address], recs.size(), c.max_concurrent, c.violations});
      report.violations += c.violations;
    }
  }
  return report;
}

std::string ToJson(const PolitenessReport& report) {
  boost::json::array hosts;
  for (const HostPoliteness& h : report.hosts) {
    hosts.push_back(boost::json::object{
        {"host", JsonText(h.host)},
        {"requests", h.requests},
        {"max_concurrent", h.max_concurrent},
        {"concurrency_violations", h.concurrency_violations},
        // null when fewer than 2 requests; three decimals, as the text shows
        {"min_gap_ms", h.min_gap_ms < 0 ? boost::json::value(nullptr) : JsonNumber(h.min_gap_ms, 3)},
        {"crawl_delay_s", JsonNumber(h.crawl_delay_s, 3)},
        {"crawl_delay_violations", h.crawl_delay_violations},
        {"disallowed_requests", h.disallowed_requests},
        {"violations", h.violations()}});
  }
  boost::json::object out{
      {"requests", report.requests}, {"violations", report.violations}, {"hosts", std::move(hosts)}};
  if (!report.addresses.empty()) {
    boost::json::array addresses;
    for (const AddressPoliteness& a : report.addresses) {
      addresses.push_back(boost::json::object{{"address", JsonText(a.address)},
                                              {"hosts", a.hosts},
                                              {"requests", a.requests},
                                              {"max_concurrent", a.max_concurrent},
                                              {"concurrency_violations", a.concurrency_violations}});
    }
    out["max_per_address"] = report.max_per_address;
    out["addresses"] = std::move(addresses);
  }
  return JsonLine(out);
}

std::string ToText(const PolitenessReport& report) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%-28s %8s %6s %12s %7s %9s %10s\n", "host", "requests", "conns",
                "min_gap_ms", "delay_s", "too_soon", "disallowed");
  out += line;
  for (const auto& h : report.hosts) {
    std::snprintf(line, sizeof line, "%-28s %8llu %6u %12s %7.3g %9llu %10llu\n", h.host.c_str(),
                  static_cast<unsigned long long>(h.requests), h.max_concurrent,
                  h.min_gap_ms < 0 ? "-" : Number(h.min_gap_ms).c_str(), h.crawl_delay_s,
                  static_cast<unsigned long long>(h.crawl_delay_violations),
                  static_cast<unsigned long long>(h.disallowed_requests));
    out += line;
  }
  // The busiest addresses: largest peak first, then most requests.
  std::vector<const AddressPoliteness*> busiest;
  for (const auto& a : report.addresses) busiest.push_back(&a);
  std::stable_sort(busiest.begin(), busiest.end(), [](const auto* a, const auto* b) {
    return a->max_concurrent != b->max_concurrent ? a->max_concurrent > b->max_concurrent
                                                  : a->requests > b->requests;
  });
  for (size_t i = 0; i < std::min(busiest.size(), kTextAddresses); ++i) {
    const AddressPoliteness& a = *busiest[i];
    std::snprintf(line, sizeof line, "address %-15s hosts %u requests %llu peak %u too_many %llu\n",
                  a.address.c_str(), a.hosts, static_cast<unsigned long long>(a.requests), a.max_concurrent,
                  static_cast<unsigned long long>(a.concurrency_violations));
    out += line;
  }
  if (busiest.size() > kTextAddresses)
    out += "(" + std::to_string(busiest.size() - kTextAddresses) + " more addresses: --json lists all)\n";
  if (!report.addresses.empty())
    out += report.max_per_address > 0 ? "addresses judged against " + std::to_string(report.max_per_address) +
                                            " connection(s) at once\n"
                                      : "addresses not judged (peaks only)\n";
  out += "requests " + std::to_string(report.requests) + ", violations " + std::to_string(report.violations) +
         "\n";
  return out;
}

}  // namespace crawl::testweb
