// Helpers of the crawl order tests (orders_test.cc, orders_frontier_test.cc):
// CLD statistics, order and frontier options, entries, links and outcomes.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "queueserver/frontier/frontier.h"
#include "queueserver/frontier/host_budget.h"

namespace crawl::queueserver::orders_test {

using namespace crawl::queueserver;  // NOLINT: the unit under test

inline CldStats Cld(uint64_t seen, double wseen, double win) {
  CldStats st;
  st.seen = seen;
  st.wseen = wseen;
  st.win = win;
  return st;
}

inline OrderOptions OrderOf(OrderKind kind) {
  OrderOptions o;
  o.kind = kind;
  return o;
}

inline FrontierEntry Page(const std::string& url) {
  FrontierEntry e;
  e.url = url;
  return e;
}

inline LinkInput Link(const std::string& url, const std::string& referrer, uint32_t rank, uint32_t n = 0) {
  LinkInput l;
  l.entry.url = url;
  l.entry.referrer = referrer;
  l.link_rank = rank;
  l.links_on_page = n;
  return l;
}

inline FetchOutcome Outcome(const std::string& url, int status, UrlKind kind = UrlKind::kPage) {
  FetchOutcome o;
  o.url = url;
  o.kind = kind;
  o.status = status;
  return o;
}

inline std::vector<std::string> Urls(const Schedule& s) {
  std::vector<std::string> out;
  for (const auto& e : s.entries) out.push_back(e.url);
  return out;
}

inline FrontierOptions Options(OrderKind kind) {
  FrontierOptions o;
  o.order.kind = kind;
  o.order.cld_rule = crawl::CldRule::kSimple;
  return o;
}

// Leases and answers the robots.txt of every origin waiting for one
// (404: everything allowed).
inline void AllowAll(Frontier& f, int64_t now = 0) {
  for (;;) {
    Schedule s = f.Lease("robots", 1000, now, /*max_pages=*/0);
    if (s.id == 0) return;
    for (const auto& e : s.entries) f.Report(s.id, Outcome(e.url, 404, UrlKind::kRobots), now);
    f.Complete(s.id, now);
  }
}

}  // namespace crawl::queueserver::orders_test
