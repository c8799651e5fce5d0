// Name server Search: fan-out to queue servers and merge (search_fanout.h).
#include "nameserver/search_fanout.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <optional>
#include <unordered_map>

#include "common/net/grpc_util.h"
#include "common/net/rpc_policy.h"
#include "nameserver/nameserver_metrics.h"
#include "nameserver/near_duplicate_merge.h"
#include "nameserver/service.h"

namespace crawl::nameserver {
namespace {

void SetTotal(v1::SearchResult* r) {
  v1::ScoreParts* s = r->mutable_score();
  s->set_total(s->doc_rank() + s->bonus() + s->relevance() + s->proximity());
}

bool Better(const v1::SearchResult& a, const v1::SearchResult& b) {
  if (a.score().total() != b.score().total()) return a.score().total() > b.score().total();
  return a.url() < b.url();
}

// Which result of a URL group stands for it: the page itself, then a page
// that names the group's URL as its canonical (a copy), then link-only ones.
int Standing(const v1::SearchResult& r) {
  if (r.link_only()) return 0;
  return r.canonical_url().empty() ? 2 : 1;
}

}  // namespace

uint32_t PerServerMatches(uint32_t n, double alpha, size_t servers) {
  const double s = static_cast<double>(std::max<size_t>(servers, 1));
  const double each = std::ceil(static_cast<double>(n) * alpha / s);
  return static_cast<uint32_t>(std::clamp(each, 1.0, 100'000.0));
}

std::vector<v1::SearchResult> MergeResults(std::vector<v1::SearchResult> results, uint32_t k) {
  // 1. By URL hash: one result per URL with the group's best doc rank. A
  // page naming another canonical URL comes with that URL's hash (the queue
  // server's search_walk.cc), so copies group under their canonical, and a
  // group a copy stands for shows the canonical URL.
  std::unordered_map<uint64_t, size_t> by_url;
  std::vector<v1::SearchResult> groups;
  for (v1::SearchResult& r : results) {
    auto [it, fresh] = by_url.try_emplace(r.url_hash(), groups.size());
    if (fresh) {
      groups.push_back(std::move(r));
      continue;
    }
    v1::SearchResult& g = groups[it->second];
    const double rank = std::max(g.score().doc_rank(), r.score().doc_rank());
    // The page stands for its group; among equals the better score.
    const bool take = Standing(r) > Standing(g) || (Standing(r) == Standing(g) && Better(r, g));
    if (take) g = std::move(r);
    g.mutable_score()->set_doc_rank(rank);
  }
  for (v1::SearchResult& g : groups) {
    SetTotal(&g);
    if (!g.canonical_url().empty()) g.set_url(g.canonical_url());
  }
  // 2. Pages with the same text under several URLs: the best doc rank stays.
  std::unordered_map<uint64_t, size_t> by_text;
  std::vector<v1::SearchResult> kept;
  for (v1::SearchResult& g : groups) {
    if (g.link_only()) {
      kept.push_back(std::move(g));
      continue;
    }
    auto [it, fresh] = by_text.try_emplace(g.text_hash(), kept.size());
    if (fresh) {
      kept.push_back(std::move(g));
    } else if (g.score().doc_rank() > kept[it->second].score().doc_rank()) {
      kept[it->second] = std::move(g);
    }
  }
  std::sort(kept.begin(), kept.end(), Better);
  // 3. Near-duplicates of one cluster: the best stands for them.
  kept = FoldNearDuplicates(std::move(kept));
  if (kept.size() > k) kept.resize(k);
  return kept;
}

grpc::Status NameServerServiceImpl::Search(grpc::ServerContext* ctx, const v1::SearchRequest* req,
                                           v1::SearchResponse* resp) {
  if (auto denied = CheckCaller(ctx, "crawl.v1.NameServer/Search"); !denied.ok()) return denied;
  const auto started = std::chrono::steady_clock::now();
  const std::optional<v1::CrawlInfo> found = registry_.Find(req->crawl_id());
  if (!found) return {grpc::StatusCode::NOT_FOUND, "no such crawl"};
  const v1::CrawlInfo& crawl = *found;
  if (req->query().empty()) return {grpc::StatusCode::INVALID_ARGUMENT, "empty query"};
  const uint32_t k = req->limit() == 0 ? 10 : std::min<uint32_t>(req->limit(), 1000);
  const uint32_t n = req->matches() == 0 ? 200 : std::min<uint32_t>(req->matches(), 10'000);
  const double alpha = req->alpha() > 0 ? std::min<double>(req->alpha(), 100.0) : 1.6;
  const uint32_t timeout_ms = req->timeout_ms() == 0 ? 1000 : std::min<uint32_t>(req->timeout_ms(), 60'000);
  v1::SearchRequest ask = *req;
  ask.set_crawl_id(crawl.crawl_id());
  ask.set_limit(PerServerMatches(n, alpha, static_cast<size_t>(crawl.queue_servers_size())));
  ask.set_timeout_ms(timeout_ms);

  struct Answer {
    grpc::Status status;
    v1::SearchResponse response;
  };
  std::vector<std::future<Answer>> pending;
  for (const auto& qs : crawl.queue_servers()) {
    pending.push_back(std::async(std::launch::async, [address = qs.address(), &ask, timeout_ms] {
      Answer a;
      auto stub = QueueServerFleet::StubFor(address);
      grpc::ClientContext ctx;
      // The walk's own limit plus time for the call itself.
      SetTimeout(ctx, std::chrono::milliseconds(timeout_ms) + rpc::kSearchSlack.deadline);
      a.status = stub->Search(&ctx, ask, &a.response);
      return a;
    }));
  }
  std::vector<v1::SearchResult> all;
  for (size_t i = 0; i < pending.size(); ++i) {
    Answer a = pending[i].get();
    const std::string& id = crawl.queue_servers(static_cast<int>(i)).id();
    if (!a.status.ok()) {
      // A bad query is bad everywhere: say so rather than return nothing.
      if (a.status.error_code() == grpc::StatusCode::INVALID_ARGUMENT) return a.status;
      resp->add_errors(id + ": " + a.status.error_message());
      continue;
    }
    resp->set_matches(resp->matches() + a.response.matches());
    resp->set_documents(resp->documents() + a.response.documents());
    resp->set_timed_out(resp->timed_out() || a.response.timed_out());
    for (v1::SearchResult& r : *a.response.mutable_results()) {
      r.set_queue_server_id(id);
      all.push_back(std::move(r));
    }
  }
  resp->set_crawl_id(crawl.crawl_id());
  for (v1::SearchResult& r : MergeResults(std::move(all), k)) *resp->add_results() = std::move(r);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  Metrics().query_duration.Observe(seconds);
  spdlog::debug("search {:?} in crawl {}: {} results in {:.3f} s", req->query(), crawl.crawl_id(),
                resp->results_size(), seconds);
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::GetCachedPage(grpc::ServerContext* ctx, const v1::CachedPageRequest* req,
                                                  v1::CachedPageResponse* resp) {
  if (auto denied = CheckCaller(ctx, "crawl.v1.NameServer/GetCachedPage"); !denied.ok()) return denied;
  const std::optional<v1::CrawlInfo> found = registry_.Find(req->crawl_id());
  if (!found) return {grpc::StatusCode::NOT_FOUND, "no such crawl"};
  const v1::CrawlInfo& crawl = *found;
  if (!crawl.params().keep_page_cache())
    return {grpc::StatusCode::FAILED_PRECONDITION, "crawl " + std::to_string(crawl.crawl_id()) +
                                                       " keeps no page cache (crawlctl start --cache-pages)"};
  v1::CachedPageRequest ask = *req;
  ask.set_crawl_id(crawl.crawl_id());
  std::string errors;
  // The page is with the queue server that owns its host; asking all is
  // simpler than hashing here and costs one small call each.
  for (const auto& qs : crawl.queue_servers()) {
    auto stub = QueueServerFleet::StubFor(qs.address());
    grpc::ClientContext ctx;
    SetTimeout(ctx, rpc::kScanningReads.deadline);
    v1::CachedPageResponse one;
    grpc::Status s = stub->GetCachedPage(&ctx, ask, &one);
    if (!s.ok()) {
      errors += (errors.empty() ? "" : "; ") + qs.id() + ": " + s.error_message();
      continue;
    }
    if (one.found()) {
      *resp = std::move(one);
      return grpc::Status::OK;
    }
  }
  if (!errors.empty()) return {grpc::StatusCode::UNAVAILABLE, "page not found; no answer from " + errors};
  return grpc::Status::OK;
}

}  // namespace crawl::nameserver
