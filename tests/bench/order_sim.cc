// Offline crawl-order simulator: the queue server's Frontier and
// crawl order, fed by the fetcher's page processing of testweb answers, with
// no cluster, no network and no clock but a simulated one. It isolates the
// order from the live cluster's timing (parallel hosts, leased windows,
// several queue servers), which tests/bench/order_quality.sh measures.
//
// The web is the testweb Universe of the given options (order_quality.sh's:
// the misbehaving preset); the crawl starts from Universe::Seeds() (what
// `testweb seeds` prints) and loops:
//   Lease `lanes` schedules of up to S URLs (one per open lane)
//   -> answer every URL from Universe::Serve (robots.txt, status, Location,
//      Retry-After; a closed connection is a network error)
//   -> fetcher::ProcessFetch, the fetcher's own processing (links as the
//      fetcher extracts, prunes and ranks them; nofollow; sitemaps from
//      robots.txt; redirect targets)
//   -> per URL, one request: Report, AddLinks (with the referrer, so the
//      order gets tier/weight/cash), EndRequest
//   -> NoteHostErrors and Complete per schedule; the clock moves on by
//      --round-ms, Tick.
// Fetch completion inside the leased URLs (--completion): "schedule" in
// schedule order, schedule after schedule; "host-rr" round-robin over the
// origins of all leased schedules, one URL each in turn (hosts fetched in
// parallel at the same pace).
//
// It stops when --budget-pct of the reachable pages were fetched as pages
// (robots.txt not counted), like order_quality.sh's --max-pages, or when
// the frontier is idle. Prints, per order and schedule size, the PageRank
// captured (testweb/captured_pagerank.h) at 5/10/25/50% of the reachable
// pages, and the farm+trap share of the first 25%, next to the omniscient
// order (highest true PageRank first among discovered pages, over the graph
// of Universe::ExportTo: order_quality.sh's). With --out DIR, writes each
// run's fetched URLs (DIR/ORDER-sS.fetched, `testweb pagerank-captured
// --fetched` reads them) and DIR/truth.tsv.
//
//   build/bin/order_sim [--pages 60000] [--hosts 1000] [--seed 9] [--preset misbehaving]
//       [--seed-hosts N] [--orders bfs,opic,host_budget] [--schedule-sizes 1,50,250] [--lanes 1]
//       [--queueservers 1] [--completion schedule|host-rr] [--budget-pct 55] [--round-ms 1000]
//       [--split cld|plain] [--wseen log|min] [--no-echo-order] [--out DIR]
//       [--no-cld-budget] [--cld-budget-rule in-clds|win] [--cld-budget-base B] [--cld-budget-per-win K]
//       [--cld-budget-per-in-cld K] [--no-trap-rules] [--max-hops H]
// --lanes is per queue server; --split and --wseen are the crawl's opic and
// host_budget options (OrderOptions).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <queue>
#include <regex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/crawl/rendezvous.h"
#include "common/url/url.h"
#include "fetcher/page/page_processor.h"
#include "fetcher/result_batch.h"
#include "queueserver/crawl_shard.h"
#include "queueserver/frontier/frontier.h"
#include "tests/testweb/captured_pagerank.h"
#include "tests/testweb/ground_truth.h"
#include "tests/testweb/universe.h"

namespace qs = crawl::queueserver;
namespace tw = crawl::testweb;
namespace fe = crawl::fetcher;

namespace {

struct Truth {
  tw::RankTable ranks;                                // every walked URL
  std::unordered_map<std::string, std::string> kind;  // URL -> KIND
  uint64_t reachable = 0;                             // KIND != disallowed
};

// What a fetcher would get for `url` from the testweb server.
fe::FetchResult Answer(const tw::Universe& web, const std::string& url) {
  fe::FetchResult r;
  r.url = url;
  const size_t scheme_end = url.find("://");
  const std::string scheme = scheme_end == std::string::npos ? "" : url.substr(0, scheme_end);
  const size_t host_start = scheme_end == std::string::npos ? 0 : scheme_end + 3;
  size_t path_start = url.find('/', host_start);
  std::string authority =
      url.substr(host_start, path_start == std::string::npos ? std::string::npos : path_start - host_start);
  std::string target = path_start == std::string::npos ? "/" : url.substr(path_start);
  if (const size_t hash = target.find('#'); hash != std::string::npos) target.resize(hash);
  uint16_t port = scheme == "https" ? 443 : 80;
  if (const size_t colon = authority.find(':'); colon != std::string::npos) {
    port = static_cast<uint16_t>(std::stoi(authority.substr(colon + 1)));
    authority.resize(colon);
  }
  const auto host = web.HostIndex(authority);
  if (!host) {
    r.status = -1;  // not a testweb host: the name does not resolve
    r.error = "unknown host";
    return r;
  }
  if (!web.SchemeMatches(*host, scheme, port)) {
    if (web.IsHttps(*host) && scheme == "http") {  // request_handler.cc: http:// answers 301
      r.status = 301;
      r.location = web.Origin(*host) + target;
      return r;
    }
    r.status = -1;
    r.error = "connection refused";
    return r;
  }
  tw::Served s = web.Serve(*host, target);
  if (s.close) {
    r.status = -1;
    r.error = "connection closed";
    return r;
  }
  r.status = static_cast<int>(s.status);
  r.content_type = s.content_type;
  std::string mime = s.content_type.substr(0, s.content_type.find(';'));
  while (!mime.empty() && mime.back() == ' ') mime.pop_back();
  for (char& c : mime) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  r.mime_type = mime;
  r.location = s.location;
  r.retry_after_seconds = s.retry_after;
  r.body = std::move(s.body);
  return r;
}

std::string OriginOf(const std::string& url) {
  auto o = crawl::url::OriginOf(url);
  return o.ok() ? *o : url;
}

struct RunResult {
  std::vector<std::string> fetched;  // page fetches in completion order (robots.txt left out)
  uint64_t schedules = 0;
  uint64_t rounds = 0;
};

struct SimOptions {
  qs::OrderKind order = qs::OrderKind::kBfs;
  size_t schedule_size = 250;
  size_t lanes = 1;
  size_t queueservers = 1;
  bool host_rr = false;
  uint64_t budget = 0;
  int64_t round_ms = 1000;
  qs::CashSplit split = qs::CashSplit::kCldAware;
  qs::WseenIncrement wseen = qs::WseenIncrement::kLog;
  qs::CldBudget cld_budget;  // host_budget's per-CLD budgets
  qs::TierRule tier_rule = qs::TierRule::kYioop;
  double beast_unit = 10;
  qs::TrapRules trap_rules;
  // The fetcher echoes the page's order data on links it sends to another
  // queue server (ResultBatcher's home); false: links arrive there without
  // it, as before that existed.
  bool echo_order = true;
};

RunResult Simulate(const tw::Universe& web, const SimOptions& so) {
  qs::FrontierOptions fo;
  fo.order.kind = so.order;
  fo.order.split = so.split;
  fo.order.wseen = so.wseen;
  fo.order.budget = so.cld_budget;
  fo.order.tier_rule = so.tier_rule;
  fo.order.beast_unit = so.beast_unit;
  fo.trap_rules = so.trap_rules;
  // One frontier per queue server; hosts are partitioned as the cluster
  // does (common/crawl/rendezvous.h).
  std::vector<std::string> ids;
  std::vector<std::unique_ptr<qs::Frontier>> frontiers;
  for (size_t q = 0; q < std::max<size_t>(so.queueservers, 1); ++q) {
    ids.push_back("qs" + std::to_string(q));
    frontiers.push_back(std::make_unique<qs::Frontier>(fo));
  }
  auto owner = [&](const std::string& url) { return crawl::OwnerIndex(ids, crawl::url::HostOf(url)); };
  const crawl::url::TrackingParams tracking = crawl::url::TrackingParams::Default();
  auto idle = [&] {
    for (const auto& f : frontiers)
      if (!f->Idle()) return false;
    return true;
  };
  int64_t now = 1'700'000'000'000;
  const std::vector<std::string> seeds = web.Seeds();
  for (const std::string& s : seeds) {
    auto c = crawl::url::Canonicalize(s);
    qs::FrontierEntry e;
    e.url = c.ok() ? *c : s;
    qs::Frontier& f = *frontiers[owner(e.url)];
    f.Add(e, now, seeds.size());
    f.EndRequest();
  }
  fe::ProcessOptions po;
  RunResult out;
  uint64_t pages = 0;
  int idle_rounds = 0;
  struct Leased {
    size_t q;
    uint64_t id;
    std::vector<qs::FrontierEntry> entries;
  };
  while (pages < so.budget && !idle()) {
    std::vector<Leased> leased;
    uint64_t committed = pages;
    for (size_t lane = 0; lane < so.lanes; ++lane) {
      for (size_t q = 0; q < frontiers.size(); ++q) {
        const size_t max_pages = committed >= so.budget ? 0 : static_cast<size_t>(so.budget - committed);
        qs::Schedule s = frontiers[q]->Lease("sim-" + std::to_string(lane), so.schedule_size, now, max_pages);
        frontiers[q]->EndRequest();
        if (s.id == 0) continue;
        for (const auto& e : s.entries) committed += e.kind == qs::UrlKind::kPage ? 1 : 0;
        leased.push_back({q, s.id, std::move(s.entries)});
      }
    }
    ++out.rounds;
    if (leased.empty()) {
      // Nothing due now (robots retries, back-off, crawl delays): wait.
      if (++idle_rounds > 100'000) break;
      now += so.round_ms;
      for (auto& f : frontiers) {
        f->Tick(now);
        f->EndRequest();
      }
      continue;
    }
    idle_rounds = 0;
    out.schedules += leased.size();
    // Completion order: (index into leased, entry).
    std::vector<std::pair<size_t, const qs::FrontierEntry*>> order;
    if (!so.host_rr) {
      for (size_t k = 0; k < leased.size(); ++k)
        for (const auto& e : leased[k].entries) order.emplace_back(k, &e);
    } else {
      std::vector<std::deque<std::pair<size_t, const qs::FrontierEntry*>>> by_origin;
      std::unordered_map<std::string, size_t> index;
      for (size_t k = 0; k < leased.size(); ++k) {
        for (const auto& e : leased[k].entries) {
          auto [it, added] = index.try_emplace(OriginOf(e.url), by_origin.size());
          if (added) by_origin.emplace_back();
          by_origin[it->second].emplace_back(k, &e);
        }
      }
      for (bool any = true; any;) {
        any = false;
        for (auto& q : by_origin) {
          if (q.empty()) continue;
          order.push_back(q.front());
          q.pop_front();
          any = true;
        }
      }
    }
    std::map<size_t, std::map<std::string, uint32_t>> errors;
    for (const auto& [k, e] : order) {
      const Leased& l = leased[k];
      qs::Frontier& home = *frontiers[l.q];
      crawl::v1::ScheduledUrl su;
      su.set_url(e->url);
      su.set_referrer(e->referrer);
      su.set_depth(e->depth);
      su.set_kind(e->kind == qs::UrlKind::kRobots ? crawl::v1::URL_KIND_ROBOTS : crawl::v1::URL_KIND_PAGE);
      fe::FetchResult r = Answer(web, e->url);
      fe::ProcessedPage p = fe::ProcessFetch(su, r, po);
      qs::FetchOutcome outcome;
      outcome.url = e->url;
      outcome.kind = e->kind;
      outcome.status = r.status;
      outcome.robots_body = p.record.robots_body();
      outcome.retry_after_seconds = r.retry_after_seconds;
      home.Report(l.id, outcome, now);
      if (e->kind == qs::UrlKind::kPage) {
        ++pages;
        out.fetched.push_back(e->url);
        if (r.status < 0 || r.status >= 400) ++errors[k][OriginOf(e->url)];
      }
      // The links by owning queue server, routed by the fetcher's own
      // ResultBatcher: the page's own server gets them with its Report
      // (SubmitResults), the others in AddUrls requests.
      su.set_order_tier(e->tier);
      su.set_order_weight(e->weight);
      su.set_order_cash(e->cash);
      // With the crawl's default tracking parameters removed, as the
      // fetcher does (`?sessionid=`, `utm_*`: the same page once).
      fe::ResultBatcher batcher(ids, &tracking, so.echo_order ? l.q : SIZE_MAX);
      batcher.Add(std::move(p), &su);
      fe::ResultBatch batch = batcher.Take();
      std::vector<std::vector<qs::LinkInput>> links(frontiers.size());
      for (size_t q = 0; q < frontiers.size(); ++q) {
        // A link whose referrer is the one before's leaves it out
        // (DiscoveredLink.same_referrer): read as the queue server reads it.
        const std::vector<std::string_view> referrers = qs::LinkReferrers(batch.links_by_server[q]);
        for (int i = 0; i < batch.links_by_server[q].size(); ++i) {
          const auto& link = batch.links_by_server[q][i];
          auto canonical = crawl::url::Canonicalize(link.url());
          if (!canonical.ok()) continue;
          links[q].push_back(
              qs::LinkFromWire(link, std::move(*canonical), referrers[static_cast<size_t>(i)]));
        }
      }
      home.AddLinks(std::move(links[l.q]), now);
      home.EndRequest();
      for (size_t q = 0; q < frontiers.size(); ++q) {
        if (q == l.q || links[q].empty()) continue;
        frontiers[q]->AddLinks(std::move(links[q]), now);
        frontiers[q]->EndRequest();
      }
    }
    for (size_t k = 0; k < leased.size(); ++k) {
      qs::Frontier& f = *frontiers[leased[k].q];
      for (const auto& [origin, n] : errors[k]) f.NoteHostErrors(leased[k].id, origin, n);
      f.Complete(leased[k].id, now);
      f.EndRequest();
    }
    now += so.round_ms;
    for (auto& f : frontiers) {
      f->Tick(now);
      f->EndRequest();
    }
  }
  return out;
}

// order_quality.sh's omniscient order over the export graph.
std::vector<std::string> Omniscient(const tw::Universe& web, const Truth& truth,
                                    const std::vector<std::string>& seeds, uint64_t budget) {
  std::unordered_map<std::string, std::vector<std::string>> graph;
  web.ExportTo([&](const std::string& u, const std::vector<std::string>& out) { graph[u] = out; });
  using Item = std::pair<double, std::string>;
  auto cmp = [](const Item& a, const Item& b) {
    return a.first != b.first ? a.first < b.first : a.second > b.second;
  };
  std::priority_queue<Item, std::vector<Item>, decltype(cmp)> heap(cmp);
  std::unordered_set<std::string> seen;
  auto discover = [&](const std::string& u) {
    auto k = truth.kind.find(u);
    if (k == truth.kind.end() || k->second == "disallowed" || !seen.insert(u).second) return;
    heap.emplace(truth.ranks.at(u), u);
  };
  for (const auto& s : seeds) discover(s);
  std::vector<std::string> fetched;
  while (!heap.empty() && fetched.size() < budget) {
    Item top = heap.top();
    heap.pop();
    fetched.push_back(top.second);
    if (auto it = graph.find(top.second); it != graph.end())
      for (const auto& v : it->second) discover(v);
  }
  return fetched;
}

struct Figures {
  std::vector<double> at;  // captured at each percentage
  double farm_trap_25 = 0;
  double farm = 0, trap = 0, duplicate = 0;  // shares of all fetches
};

Figures Measure(const Truth& truth, const std::vector<std::string>& fetched, const std::vector<int>& pcts) {
  static const std::regex trap_path("^https?://[^/]+/(calendar|deep)/");
  auto classify = [&](const std::string& u) -> std::string {
    auto k = truth.kind.find(u);
    if (k != truth.kind.end()) return k->second;
    // Past the truth's cuts: traps by path, the spam preset's hosts by name.
    static const std::regex spam_host("^https?://www\\.spam[0-9]+\\.test/");
    static const std::regex farm_host("^https?://h[0-9]+\\.linkfarm\\.test/");
    if (std::regex_search(u, spam_host)) return "spam";
    if (std::regex_search(u, farm_host)) return "farm";
    return std::regex_search(u, trap_path) ? "trap" : "unknown";
  };
  Figures f;
  const auto points = tw::CapturedPageRank(truth.ranks, fetched, 1);
  for (int p : pcts) {
    const uint64_t k = truth.reachable * static_cast<uint64_t>(p) / 100;
    f.at.push_back(k == 0 || points.empty() ? 0 : points[std::min<uint64_t>(k, points.size()) - 1].captured);
  }
  const uint64_t k25 = truth.reachable * 25 / 100;
  uint64_t ft = 0, n25 = 0, farm = 0, trap = 0, dup = 0;
  for (size_t i = 0; i < fetched.size(); ++i) {
    const std::string c = classify(fetched[i]);
    if (i < k25) {
      ++n25;
      if (c == "farm" || c == "trap" || c == "spam") ++ft;  // spam: the spam preset's CLDs
    }
    farm += c == "farm" || c == "spam";
    trap += c == "trap";
    dup += c == "duplicate";
  }
  const double n = static_cast<double>(std::max<size_t>(fetched.size(), 1));
  f.farm_trap_25 = static_cast<double>(ft) / static_cast<double>(std::max<uint64_t>(n25, 1));
  f.farm = static_cast<double>(farm) / n;
  f.trap = static_cast<double>(trap) / n;
  f.duplicate = static_cast<double>(dup) / n;
  return f;
}

std::vector<std::string> SplitCommas(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t comma = s.find(',', start);
    std::string part = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!part.empty()) out.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Offline crawl-order simulator on a testweb universe (see the top of order_sim.cc)"};
  tw::UniverseOptions uo;
  uo.seed = 9;
  uo.hosts = 1000;
  uo.pages = 60000;
  uo.preset = "misbehaving";
  std::string orders = "bfs,opic,host_budget", sizes = "1,50,250", completion = "schedule", out_dir;
  std::string split = "cld", wseen = "log";
  size_t lanes = 1, queueservers = 1;
  uint32_t budget_pct = 55;
  int64_t round_ms = 1000;
  app.add_option("--seed", uo.seed)->capture_default_str();
  app.add_option("--hosts", uo.hosts)->capture_default_str();
  app.add_option("--pages", uo.pages)->capture_default_str();
  app.add_option("--preset", uo.preset)->capture_default_str();
  uint32_t seed_hosts = 0;
  app.add_option("--seed-hosts", seed_hosts, "Seeds: roots of hosts 0..N-1 (default: the preset's, 3)");
  app.add_option("--orders", orders, "Comma-separated: bfs, opic, host_budget, structure")
      ->capture_default_str();
  app.add_option("--schedule-sizes", sizes, "Comma-separated schedule sizes S")->capture_default_str();
  app.add_option("--lanes", lanes, "Schedules leased at a time")->capture_default_str();
  app.add_option("--queueservers", queueservers, "Queue servers (hosts partitioned as in the cluster)")
      ->capture_default_str();
  app.add_option("--completion", completion, "schedule or host-rr")->capture_default_str();
  bool no_echo = false;
  app.add_flag(
      "--no-echo-order", no_echo,
      "Links to another queue server arrive without the page's tier, weight and cash (before the echo)");
  app.add_option("--budget-pct", budget_pct, "Pages fetched, % of the reachable pages")
      ->capture_default_str();
  app.add_option("--round-ms", round_ms, "Simulated time per lease round")->capture_default_str();
  app.add_option("--split", split, "opic cash split: cld or plain")->capture_default_str();
  app.add_option("--wseen", wseen, "host_budget WSEEN increment: log or min")->capture_default_str();
  qs::CldBudget cld_budget;
  bool no_cld_budget = false;
  app.add_flag("--no-cld-budget", no_cld_budget, "host_budget without per-CLD budgets");
  bool no_trap_rules = false;
  qs::TrapRules trap_rules;
  app.add_flag("--no-trap-rules", no_trap_rules, "No Heritrix-style trap rules");
  app.add_option("--max-hops", trap_rules.max_hops, "Trap rules: most links from the seeds")
      ->capture_default_str();
  app.add_option("--cld-budget-base", cld_budget.base, "host_budget: URLs every CLD may queue")
      ->capture_default_str();
  app.add_option("--cld-budget-per-win", cld_budget.per_win, "host_budget: more URLs per unit of WIN")
      ->capture_default_str();
  std::string budget_rule = "in-clds", tier_rule = "yioop";
  double beast_unit = 10;
  app.add_option("--tier-rule", tier_rule, "host_budget: yioop or beast (IRLbot's BEAST queues)")
      ->capture_default_str();
  app.add_option("--beast-unit", beast_unit, "host_budget, tier rule beast: B = unit x (1 + D)")
      ->capture_default_str();
  app.add_option("--cld-budget-rule", budget_rule, "host_budget: in-clds or win")->capture_default_str();
  app.add_option("--cld-budget-per-in-cld", cld_budget.per_in_cld,
                 "host_budget: more URLs per distinct other CLD linking in")
      ->capture_default_str();
  app.add_option("--out", out_dir, "Write truth.tsv and ORDER-sS.fetched here");
  CLI11_PARSE(app, argc, argv);
  if (completion != "schedule" && completion != "host-rr") {
    std::fprintf(stderr, "order_sim: --completion is schedule or host-rr\n");
    return 2;
  }
  auto split_kind = qs::ParseCashSplit(split);
  auto wseen_kind = qs::ParseWseenIncrement(wseen);
  auto budget_rule_kind = qs::ParseCldBudgetRule(budget_rule);
  if (!split_kind.ok() || !wseen_kind.ok() || !budget_rule_kind.ok()) {
    std::fprintf(stderr, "order_sim: bad --split, --wseen or --cld-budget-rule\n");
    return 2;
  }
  cld_budget.rule = *budget_rule_kind;
  auto tier_rule_kind = qs::ParseTierRule(tier_rule);
  if (!tier_rule_kind.ok()) {
    std::fprintf(stderr, "order_sim: bad --tier-rule\n");
    return 2;
  }
  if (auto st = tw::ApplyPreset(uo); !st.ok()) {
    std::fprintf(stderr, "order_sim: %s\n", st.message().c_str());
    return 2;
  }
  if (seed_hosts > 0) uo.seed_hosts = seed_hosts;
  auto web = tw::Universe::Create(uo);
  if (!web.ok()) {
    std::fprintf(stderr, "order_sim: %s\n", web.status().message().c_str());
    return 2;
  }
  Truth truth;
  {
    const auto rows = tw::GroundTruth(*web);
    for (const auto& r : rows) {
      truth.ranks[r.url] = r.pagerank;
      truth.kind[r.url] = std::string(r.kind);
      if (r.kind != "disallowed") ++truth.reachable;
    }
    if (!out_dir.empty()) {
      std::filesystem::create_directories(out_dir);
      std::ofstream t(out_dir + "/truth.tsv");
      tw::WriteTruth(rows, t);
    }
  }
  const uint64_t budget = truth.reachable * budget_pct / 100;
  const std::vector<int> pcts = {5, 10, 25, 50};
  std::printf(
      "universe: seed %llu, %llu hosts, %llu pages, preset %s; %llu reachable pages; budget %llu pages\n",
      static_cast<unsigned long long>(uo.seed), static_cast<unsigned long long>(uo.hosts),
      static_cast<unsigned long long>(uo.pages), uo.preset.c_str(),
      static_cast<unsigned long long>(truth.reachable), static_cast<unsigned long long>(budget));
  std::printf(
      "queue servers %zu, completion %s, lanes %zu (per queue server), round %lld ms, split %s, wseen %s\n\n",
      queueservers, completion.c_str(), lanes, static_cast<long long>(round_ms), split.c_str(),
      wseen.c_str());
  const auto omni = Omniscient(*web, truth, web->Seeds(), budget);
  const Figures of = Measure(truth, omni, pcts);
  std::printf(
      "| order | S | 5%% | 10%% | 25%% | 50%% | vs bfs at 10%% | vs omniscient at 10%% | farm+trap at 25%% | "
      "farm / trap / dup of all | fetches |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
  auto row = [&](const std::string& name, const std::string& s, const Figures& f, double bfs10, size_t n) {
    std::printf(
        "| %s | %s | %.3f | %.3f | %.3f | %.3f | %s | %.2fx | %.1f%% | %.1f%% / %.1f%% / %.1f%% | %zu |\n",
        name.c_str(), s.c_str(), f.at[0], f.at[1], f.at[2], f.at[3],
        bfs10 > 0 ? (std::to_string(f.at[1] / bfs10).substr(0, 4) + "x").c_str() : "-",
        of.at[1] > 0 ? f.at[1] / of.at[1] : 0.0, 100 * f.farm_trap_25, 100 * f.farm, 100 * f.trap,
        100 * f.duplicate, n);
    std::fflush(stdout);
  };
  row("omniscient", "-", of, 0, omni.size());
  for (const std::string& size_text : SplitCommas(sizes)) {
    const size_t s = std::stoul(size_text);
    double bfs10 = 0;
    for (const std::string& name : SplitCommas(orders)) {
      auto kind = qs::ParseOrder(name);
      if (!kind.ok()) {
        std::fprintf(stderr, "order_sim: %s\n", kind.status().message().c_str());
        return 2;
      }
      SimOptions so;
      so.order = *kind;
      so.schedule_size = s;
      so.lanes = std::max<size_t>(lanes, 1);
      so.queueservers = std::max<size_t>(queueservers, 1);
      so.echo_order = !no_echo;
      so.host_rr = completion == "host-rr";
      so.budget = budget;
      so.round_ms = round_ms;
      so.split = *split_kind;
      so.wseen = *wseen_kind;
      so.cld_budget = cld_budget;
      so.tier_rule = *tier_rule_kind;
      so.beast_unit = beast_unit;
      so.cld_budget.enabled = !no_cld_budget;
      so.trap_rules = trap_rules;
      so.trap_rules.enabled = !no_trap_rules;
      const RunResult r = Simulate(*web, so);
      const Figures f = Measure(truth, r.fetched, pcts);
      if (*kind == qs::OrderKind::kBfs) bfs10 = f.at[1];
      row(name, size_text, f, bfs10, r.fetched.size());
      if (!out_dir.empty()) {
        std::ofstream o(out_dir + "/" + name + "-s" + size_text + ".fetched");
        for (const auto& u : r.fetched) o << u << '\n';
      }
    }
  }
  return 0;
}
