// The name server's gRPC facade (service.h): checks who may call, then
// delegates to the registry, the queue-server fleet and the monitor.
#include "nameserver/service.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/reflection.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>

#include "common/base/process.h"
#include "common/crawl/document_types.h"
#include "common/crawl/link_pruning_mode.h"
#include "common/crawl/log_filter.h"
#include "common/crawl/politeness_params.h"
#include "common/url/host_glob.h"
#include "common/url/url.h"
#include "common/url/url_glob.h"
#include "nameserver/log_stream.h"
#include "nameserver/nameserver_metrics.h"

namespace crawl::nameserver {
namespace {

grpc::Status ToGrpc(const Status& s) {
  switch (s.code()) {
    case StatusCode::kOk:
      return grpc::Status::OK;
    case StatusCode::kInvalidArgument:
      return {grpc::StatusCode::INVALID_ARGUMENT, s.message()};
    case StatusCode::kNotFound:
      return {grpc::StatusCode::NOT_FOUND, s.message()};
    case StatusCode::kFailedPrecondition:
      return {grpc::StatusCode::FAILED_PRECONDITION, s.message()};
    case StatusCode::kUnavailable:
      return {grpc::StatusCode::UNAVAILABLE, s.message()};
    default:
      return {grpc::StatusCode::INTERNAL, s.message()};
  }
}

// Canonical http(s) URLs of `raw`; the rest are reported back in `resp`.
std::vector<std::string> CanonicalSeeds(const google::protobuf::RepeatedPtrField<std::string>& raw,
                                        v1::StartCrawlResponse* resp) {
  std::vector<std::string> seeds;
  for (const std::string& one : raw) {
    if (url::UrlTooLong(one)) {  // quoted in part: the answer stays small
      resp->add_rejected_seeds(one.substr(0, 100) + "...: URL of " + std::to_string(one.size()) +
                               " bytes, over the limit of " + std::to_string(url::kMaxUrlBytes));
      continue;
    }
    auto canonical = url::Canonicalize(one);
    if (canonical.ok() && url::UrlTooLong(*canonical))
      canonical =
          Status::InvalidArgument("canonical URL over " + std::to_string(url::kMaxUrlBytes) + " bytes");
    if (canonical.ok()) {
      seeds.push_back(*canonical);
    } else {
      resp->add_rejected_seeds(one + ": " + canonical.status().message());
    }
  }
  return seeds;
}

// Copies the named `fields` of `from` into `to`, whatever their type.
grpc::Status CopyParamFields(const google::protobuf::RepeatedPtrField<std::string>& fields,
                             const v1::CrawlParams& from, v1::CrawlParams* to) {
  const auto* descriptor = v1::CrawlParams::descriptor();
  const auto* reflection = v1::CrawlParams::GetReflection();
  for (const std::string& name : fields) {
    const auto* field = descriptor->FindFieldByName(name);
    if (!field) return {grpc::StatusCode::INVALID_ARGUMENT, "no crawl parameter '" + name + "'"};
    // The structure order builds each site's rules from site_* at start.
    if (name == "order" || name == "user_agent" || name.rfind("site_", 0) == 0)
      return {grpc::StatusCode::INVALID_ARGUMENT, "'" + name + "' cannot change during a crawl"};
    // Copy one field: clear it, then merge a message holding only it (a
    // proto3 default, such as max_pages 0, merges as "unset" and so stays
    // cleared, which is the value asked for).
    reflection->ClearField(to, field);
    v1::CrawlParams only = from;
    std::vector<const google::protobuf::FieldDescriptor*> present;
    reflection->ListFields(only, &present);
    for (const auto* f : present)
      if (f != field) reflection->ClearField(&only, f);
    to->MergeFrom(only);
  }
  return grpc::Status::OK;
}

// The structure order's imbWEM parameters (CrawlParams 81-87; the queue
// server checks them again in queueserver/structure_params.cc).
Status CheckSiteControl(const v1::CrawlParams& p) {
  const bool any = p.site_max_pages() > 0 || p.site_max_seconds() > 0 || p.site_exclude_patterns_size() > 0 ||
                   p.site_dismiss_patterns_size() > 0 || p.site_max_path_depth() > 0 ||
                   p.site_keywords_size() > 0;
  if (any && p.order() != "structure")
    return Status::InvalidArgument("site_* parameters apply to the structure order only");
  if (p.site_max_seconds() > 30 * 86'400) return Status::InvalidArgument("site_max_seconds above 30 days");
  if (p.site_max_path_depth() > 1000) return Status::InvalidArgument("site_max_path_depth above 1000");
  if (p.site_reports_kept() > 10'000) return Status::InvalidArgument("site_reports_kept above 10000");
  if (auto s = ValidateUrlPatterns({p.site_exclude_patterns().begin(), p.site_exclude_patterns().end()},
                                   "site_exclude_patterns");
      !s.ok())
    return s;
  if (auto s = ValidateUrlPatterns({p.site_dismiss_patterns().begin(), p.site_dismiss_patterns().end()},
                                   "site_dismiss_patterns");
      !s.ok())
    return s;
  if (p.site_keywords_size() > 100) return Status::InvalidArgument("site_keywords: more than 100 keywords");
  for (const std::string& k : p.site_keywords()) {
    const bool has_alnum =
        std::any_of(k.begin(), k.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
    if (!has_alnum || k.size() > 200)
      return Status::InvalidArgument("site_keywords: '" + k +
                                     "' must hold a letter or digit, at most 200 characters");
  }
  return Status::Ok();
}

// Recrawl (CrawlParams 120-124; the queue server parses them again,
// queueserver/revisit_policy.h). Defaults are left to the queue server.
Status CheckRecrawl(const v1::CrawlParams& p) {
  const std::string& policy = p.revisit_policy();
  if (!policy.empty() && policy != "fixed" && policy != "expires" && policy != "adaptive" &&
      policy != "optimal")
    return Status::InvalidArgument("unknown revisit_policy '" + policy +
                                   "' (fixed, expires, adaptive or optimal)");
  if (p.revisit_interval_s() > 365 * 86'400)
    return Status::InvalidArgument("revisit_interval_s above 365 days");
  if (p.recrawl_share_percent() > 100) return Status::InvalidArgument("recrawl_share_percent above 100");
  const std::string& b = p.revisit_bounds();
  if (b.empty()) return Status::Ok();
  const size_t colon = b.find(':');
  const auto digits = [](const std::string& t) {
    return !t.empty() && t.size() <= 9 && t.find_first_not_of("0123456789") == std::string::npos;
  };
  if (colon == std::string::npos || !digits(b.substr(0, colon)) || !digits(b.substr(colon + 1)))
    return Status::InvalidArgument("revisit_bounds '" + b + "': want MIN:MAX in seconds");
  const long lo = std::stol(b.substr(0, colon)), hi = std::stol(b.substr(colon + 1));
  if (lo < 1 || lo > hi) return Status::InvalidArgument("revisit_bounds '" + b + "': need 1 <= MIN <= MAX");
  return Status::Ok();
}

}  // namespace

Status NormalizeParams(v1::CrawlParams* p) {
  // host_budget is the default order (docs/DESIGN.md §5.1).
  if (p->order().empty()) p->set_order("host_budget");
  if (p->order() != "bfs" && p->order() != "host_budget" && p->order() != "opic" && p->order() != "structure")
    return Status::InvalidArgument("unknown crawl order '" + p->order() +
                                   "' (available: bfs, host_budget, opic, structure)");
  // Order options (the queue server checks them again, with the filter names).
  if (!p->wseen_increment().empty() && p->wseen_increment() != "log" && p->wseen_increment() != "min")
    return Status::InvalidArgument("unknown wseen_increment '" + p->wseen_increment() + "' (log or min)");
  if (!p->cld_rule().empty() && p->cld_rule() != "psl" && p->cld_rule() != "simple")
    return Status::InvalidArgument("unknown cld_rule '" + p->cld_rule() + "' (psl or simple)");
  if (!p->cld_budget_rule().empty() && p->cld_budget_rule() != "in-clds" && p->cld_budget_rule() != "win")
    return Status::InvalidArgument("unknown cld_budget_rule '" + p->cld_budget_rule() + "' (in-clds or win)");
  if (!p->tier_rule().empty() && p->tier_rule() != "yioop" && p->tier_rule() != "beast")
    return Status::InvalidArgument("unknown tier_rule '" + p->tier_rule() + "' (yioop or beast)");
  if (!p->opic_split().empty() && p->opic_split() != "cld" && p->opic_split() != "plain")
    return Status::InvalidArgument("unknown opic_split '" + p->opic_split() + "' (cld or plain)");
  // ScoringFilter settings: "filter.key=value" for a filter of the chain
  // (the opic order's default chain is "opic"); the queue servers check the
  // names, keys and values against their filter table at InjectSeeds.
  for (const std::string& sp : p->scoring_params()) {
    const size_t dot = sp.find('.'), eq = sp.find('=');
    if (dot == std::string::npos || eq == std::string::npos || dot == 0 || eq < dot + 2)
      return Status::InvalidArgument("scoring param '" + sp + "': want filter.key=value");
    const std::string chain =
        "," +
        (p->scoring_filters().empty() && p->order() == "opic" ? std::string("opic") : p->scoring_filters()) +
        ",";
    std::string names;
    for (char c : chain) names += c == ' ' ? "" : std::string(1, c);
    if (names.find("," + sp.substr(0, dot) + ",") == std::string::npos)
      return Status::InvalidArgument("scoring param '" + sp + "' is for '" + sp.substr(0, dot) +
                                     "', which is not in the scoring filter chain");
  }
  if (Status s = CheckRecrawl(*p); !s.ok()) return s;
  if (p->schedule_size() == 0) p->set_schedule_size(5000);
  if (p->schedule_size() > 100'000) return Status::InvalidArgument("schedule_size above 100000");
  if (p->lease_seconds() == 0) p->set_lease_seconds(300);
  // A crawl scoped to hosts gets the site defaults (common/crawl/link_pruning_mode.h).
  const bool scoped = p->include_hosts_size() > 0;
  if (p->link_pruning().empty() || p->link_pruning() == "auto")
    p->set_link_pruning(std::string(LinkPruningName(DefaultLinkPruning(scoped, p->order()))));
  const Result<LinkPruning> pruning = ParseLinkPruning(p->link_pruning());
  if (!pruning.ok()) return pruning.status();
  if (p->max_links_per_page() == 0) p->set_max_links_per_page(DefaultMaxLinksPerPage(*pruning));
  if (p->page_range_bytes() == 0) p->set_page_range_bytes(DefaultPageRangeBytes(scoped));
  if (p->page_range_bytes() > 100'000'000) return Status::InvalidArgument("page_range_bytes above 100 MB");
  // Document types and their size cap (common/crawl/document_types.h).
  uint64_t max_document_bytes = p->max_document_bytes();
  if (auto s = CheckDocumentParams(p->document_types(), &max_document_bytes); !s.ok()) return s;
  p->set_max_document_bytes(max_document_bytes);
  if (p->results_batch_pages() == 0) p->set_results_batch_pages(400);
  if (p->user_agent().empty()) p->set_user_agent("crawlbot");
  for (char c : p->user_agent()) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-';
    if (!ok) return Status::InvalidArgument("user agent token may hold only letters, '_' and '-'");
  }
  if (p->fetch_timeout_ms() == 0) p->set_fetch_timeout_ms(30'000);
  if (auto s = ValidateHostPatterns({p->include_hosts().begin(), p->include_hosts().end()}, "include_hosts");
      !s.ok())
    return s;
  if (auto s = ValidateHostPatterns({p->exclude_hosts().begin(), p->exclude_hosts().end()}, "exclude_hosts");
      !s.ok())
    return s;
  if (p->min_host_delay_ms() > 60'000) return Status::InvalidArgument("min_host_delay_ms above 60000");
  if (Status s = NormalizePoliteness(p); !s.ok()) return s;
  if (p->robots_max_age_s() > 86'400)
    return Status::InvalidArgument("robots_max_age_s above 86400 (RFC 9309 2.4)");
  return CheckSiteControl(*p);
}

NameServerServiceImpl::NameServerServiceImpl(Options options, const Clock* clock, RegistryStore* store)
    : clock_(clock),
      start_fault_(std::move(options.start_fault)),
      registry_(clock, store, options.member_timeout),
      fetchers_(clock),
      monitor_(options.poll_interval, options.member_timeout, clock, &registry_, &fleet_, &fetchers_) {
  (void)Metrics();  // exported at zero from the start, before the first event
}

Status NameServerServiceImpl::Load() {
  if (auto s = registry_.Load(); !s.ok()) return s;
  if (auto active = registry_.Active()) {
    monitor_.Watch(active->crawl_id(), active->params().max_pages(), active->params().recrawl());
    spdlog::info("resuming the watch over running crawl {}", active->crawl_id());
  }
  return Status::Ok();
}

NameServerServiceImpl::~NameServerServiceImpl() { StopMonitor(); }

void NameServerServiceImpl::StartMonitor() { monitor_.Start(); }

void NameServerServiceImpl::StopMonitor() { monitor_.Stop(); }

grpc::Status NameServerServiceImpl::RegisterQueueServer(grpc::ServerContext* ctx,
                                                        const v1::RegisterQueueServerRequest* req,
                                                        v1::RegisterQueueServerResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.NameServer/RegisterQueueServer"); !denied.ok())
    return denied;
  const auto& info = req->server();
  if (info.id().empty()) return {grpc::StatusCode::INVALID_ARGUMENT, "queue server id missing"};
  if (auto s = ValidateHostPort(info.address()); !s.ok()) return ToGrpc(s);
  if (auto active = registry_.RegisterMember(info)) *resp->mutable_active_crawl() = std::move(*active);
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::Heartbeat(grpc::ServerContext* ctx, const v1::HeartbeatRequest* req,
                                              v1::HeartbeatResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.NameServer/Heartbeat"); !denied.ok()) return denied;
  resp->set_known(registry_.Heartbeat(req->server(), req->stats()));
  // A queue server of the running crawl just went idle: the crawl may be
  // over, judged now, not a poll interval later. Only on that news, not on
  // every heartbeat of an idle server (one extra round each).
  if (req->became_idle() && resp->known() && req->stats().crawl_id() != 0 &&
      req->stats().crawl_id() == registry_.ActiveId())
    monitor_.PollSoon();
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::GetCrawlState(grpc::ServerContext* ctx,
                                                  const v1::GetCrawlStateRequest* req,
                                                  v1::GetCrawlStateResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.NameServer/GetCrawlState"); !denied.ok()) return denied;
  fetchers_.Saw(req->fetcher_id(), req->stats());
  // A long poll when asked: the answer waits (bounded, so shutdown's grace
  // covers it) until a crawl starts.
  const auto wait = std::chrono::milliseconds(std::min<uint32_t>(req->wait_ms(), kMaxCrawlStateWaitMs));
  auto active = wait.count() > 0 ? registry_.WaitActive(wait) : registry_.Active();
  // The fetcher works on this crawl until its next poll (its totals per crawl).
  fetchers_.Told(req->fetcher_id(), active ? active->crawl_id() : 0);
  if (!active) return grpc::Status::OK;
  resp->set_active(true);
  *resp->mutable_crawl() = std::move(*active);
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::StartCrawl(grpc::ServerContext* ctx, const v1::StartCrawlRequest* req,
                                               v1::StartCrawlResponse* resp) {
  if (auto denied = CheckCaller(ctx, "crawl.v1.NameServer/StartCrawl"); !denied.ok()) return denied;
  std::lock_guard start_lock(start_mu_);
  v1::CrawlParams params = req->params();
  if (auto s = NormalizeParams(&params); !s.ok()) return ToGrpc(s);
  const std::vector<std::string> seeds = CanonicalSeeds(req->seeds(), resp);
  if (seeds.empty()) return {grpc::StatusCode::INVALID_ARGUMENT, "no valid seed URL"};
  auto crawl = registry_.NewCrawl(params, seeds.size());
  if (!crawl.ok()) return ToGrpc(crawl.status());
  // No crawl forgotten, in three durable steps: recorded as starting, seeds
  // with every queue server, recorded as running. A restart between the
  // first and the last rolls the start back (crawl_registry.h).
  if (auto s = registry_.RecordStarting(*crawl); !s.ok()) return ToGrpc(s);
  const auto killed = [](const std::string& step) {
    return grpc::Status(grpc::StatusCode::ABORTED, "fault injected: " + step);
  };
  if (start_fault_ && start_fault_("after_persist")) return killed("after_persist");
  const auto after_each = [this](size_t i) {
    return i == 0 && start_fault_ && start_fault_("after_first_queue_server");
  };
  if (auto s = fleet_.StartCrawl(*crawl, seeds, after_each); !s.ok()) {
    if (s.error_code() == grpc::StatusCode::ABORTED) return s;  // injected: the process "died" there
    RollBackStart(*crawl);
    return s;
  }
  if (start_fault_ && start_fault_("after_fanout")) return killed("after_fanout");
  monitor_.Watch(crawl->crawl_id(), params.max_pages(), params.recrawl());
  // Seeds are with the queue servers; if this write fails the crawl still
  // runs now, and the operator is told a restart rolls it back.
  if (auto s = registry_.ActivateStarted(*crawl); !s.ok()) {
    NoteStoreError(s);
    resp->add_warnings("crawl not saved as running, a name server restart rolls it back: " + s.message());
  }
  if (start_fault_ && start_fault_("after_activate")) return killed("after_activate");
  spdlog::info("crawl {} started: {} seeds over {} queue servers, order {}", crawl->crawl_id(), seeds.size(),
               crawl->queue_servers_size(), params.order());
  *resp->mutable_crawl() = *crawl;
  return grpc::Status::OK;
}

void NameServerServiceImpl::RollBackStart(const v1::CrawlInfo& crawl) {
  NoteStoreError(registry_.RollBackStart(crawl));
  registry_.DeleteDone(crawl.crawl_id(), fleet_.Delete(crawl));
}

grpc::Status NameServerServiceImpl::DeleteCrawl(grpc::ServerContext* ctx, const v1::DeleteCrawlRequest* req,
                                                v1::DeleteCrawlResponse* resp) {
  if (auto denied = CheckCaller(ctx, "crawl.v1.NameServer/DeleteCrawl"); !denied.ok()) return denied;
  if (req->crawl_id() == 0) return {grpc::StatusCode::INVALID_ARGUMENT, "name the crawl to delete (its id)"};
  std::lock_guard start_lock(start_mu_);
  bool existed = false;
  auto pending = registry_.Delete(req->crawl_id(), &existed);
  if (!pending.ok()) return ToGrpc(pending.status());
  const std::vector<std::string> reached = fleet_.Delete(*pending);
  registry_.DeleteDone(req->crawl_id(), reached);
  resp->set_existed(existed);
  for (const auto& qs : pending->queue_servers())
    if (std::find(reached.begin(), reached.end(), qs.id()) == reached.end())
      resp->add_pending_queue_servers(qs.id());
  spdlog::info("crawl {} deleted{}; {} queue servers dropped it, {} pending", req->crawl_id(),
               existed ? "" : " (was not in the registry)", reached.size(),
               resp->pending_queue_servers_size());
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::StopCrawl(grpc::ServerContext* ctx, const v1::StopCrawlRequest* req,
                                              v1::StopCrawlResponse* resp) {
  if (auto denied = CheckCaller(ctx, "crawl.v1.NameServer/StopCrawl"); !denied.ok()) return denied;
  std::lock_guard start_lock(start_mu_);
  const auto id = registry_.RunningCrawl(req->crawl_id());
  if (!id.ok()) return ToGrpc(id.status());
  monitor_.EndCrawl(*id, v1::CRAWL_STATE_STOPPED, "stopped");
  if (auto crawl = registry_.Find(*id)) *resp->mutable_crawl() = std::move(*crawl);
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::CrawlStatus(grpc::ServerContext* ctx, const v1::CrawlStatusRequest* req,
                                                v1::CrawlStatusResponse* resp) {
  if (auto denied = CheckCaller(ctx, "crawl.v1.NameServer/CrawlStatus"); !denied.ok()) return denied;
  // A long poll when asked (bounded, so shutdown's grace covers it): the
  // answer waits until the crawl has ended and its final numbers are in.
  if (req->wait_ms() > 0)
    registry_.WaitWhileRunning(
        req->crawl_id(), std::chrono::milliseconds(std::min<uint32_t>(req->wait_ms(), kMaxCrawlStateWaitMs)));
  return ToGrpc(registry_.FillCrawlStatus(req->crawl_id(), resp));
}

grpc::Status NameServerServiceImpl::ListCrawls(grpc::ServerContext* ctx, const v1::ListCrawlsRequest*,
                                               v1::ListCrawlsResponse* resp) {
  if (auto denied = CheckCaller(ctx, "crawl.v1.NameServer/ListCrawls"); !denied.ok()) return denied;
  for (auto& [id, c] : registry_.Crawls()) *resp->add_crawls() = std::move(c);
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::ListQueueServers(grpc::ServerContext* ctx,
                                                     const v1::ListQueueServersRequest*,
                                                     v1::ListQueueServersResponse* resp) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.NameServer/ListQueueServers"); !denied.ok()) return denied;
  const auto members = registry_.Members();
  const int64_t now = clock_->NowUnixMs();
  for (const auto& [id, m] : members) {
    *resp->add_servers() = m.info;
    resp->add_last_seen_ms_ago(now - m.last_seen_ms);
  }
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::GetCrawlLog(grpc::ServerContext* ctx, const v1::GetCrawlLogRequest* req,
                                                grpc::ServerWriter<v1::CrawlLogChunk>* writer) {
  if (auto denied = auth_->Check(*ctx, "crawl.v1.NameServer/GetCrawlLog"); !denied.ok()) return denied;
  // Page by page from the queue servers, each chunk written before the next
  // page is read: a slow client blocks Write and so the reads (log_stream.h).
  return StreamLog(req->crawl_id(), *req,
                   [writer](const v1::CrawlLogChunk& chunk) { return writer->Write(chunk); });
}

grpc::Status NameServerServiceImpl::StreamLog(uint64_t crawl_id, const v1::GetCrawlLogRequest& req,
                                              const LogSink& sink) {
  const auto crawl = registry_.Find(crawl_id);
  if (!crawl) return {grpc::StatusCode::NOT_FOUND, "no such crawl"};
  if (auto filter = LogFilter::Parse(req); !filter.ok()) return ToGrpc(filter.status());
  return StreamCrawlLog(*crawl, req, sink);
}

grpc::Status NameServerServiceImpl::HostQueue(uint64_t crawl_id, const v1::HostQueueRequest& req,
                                              v1::HostQueueResponse* resp) {
  const auto crawl = registry_.Find(crawl_id);
  if (!crawl) return {grpc::StatusCode::NOT_FOUND, "no such crawl"};
  return fleet_.HostQueue(*crawl, req, resp);
}

grpc::Status NameServerServiceImpl::AddressStatusOf(uint64_t crawl_id, const std::string& address,
                                                    v1::AddressStatusResponse* resp) {
  const auto crawl = registry_.Find(crawl_id);
  if (!crawl) return {grpc::StatusCode::NOT_FOUND, "no such crawl"};
  return fleet_.AddressStatus(*crawl, address, resp);
}

grpc::Status NameServerServiceImpl::ResumeCrawl(grpc::ServerContext* ctx, const v1::ResumeCrawlRequest* req,
                                                v1::ResumeCrawlResponse* resp) {
  if (auto denied = CheckCaller(ctx, "crawl.v1.NameServer/ResumeCrawl"); !denied.ok()) return denied;
  std::lock_guard start_lock(start_mu_);
  auto crawl = registry_.ResumedCrawl(req->crawl_id());
  if (!crawl.ok()) return ToGrpc(crawl.status());
  // Every queue server of the frozen list must take the crawl up again: a
  // missing one would leave its hosts unfetched while the crawl looks done.
  if (auto failed = fleet_.Update(*crawl); !failed.empty()) {
    v1::CrawlInfo back = *crawl;
    back.set_state(v1::CRAWL_STATE_STOPPED);
    back.set_end_reason("stopped");
    back.set_ended_unix_ms(clock_->NowUnixMs());
    (void)fleet_.Update(back);
    std::string ids;
    for (const auto& id : failed) ids += (ids.empty() ? "" : ", ") + id;
    return {grpc::StatusCode::UNAVAILABLE, "cannot resume: queue server(s) " + ids + " unreachable"};
  }
  monitor_.Watch(crawl->crawl_id(), crawl->params().max_pages(), crawl->params().recrawl());
  if (auto s = registry_.ActivateResumed(*crawl); !s.ok()) return ToGrpc(s);
  spdlog::info("crawl {} resumed", crawl->crawl_id());
  *resp->mutable_crawl() = *crawl;
  return grpc::Status::OK;
}

grpc::Status NameServerServiceImpl::SetCrawlParams(grpc::ServerContext* ctx,
                                                   const v1::SetCrawlParamsRequest* req,
                                                   v1::SetCrawlParamsResponse* resp) {
  if (auto denied = CheckCaller(ctx, "crawl.v1.NameServer/SetCrawlParams"); !denied.ok()) return denied;
  std::lock_guard start_lock(start_mu_);
  if (req->fields().empty()) return {grpc::StatusCode::INVALID_ARGUMENT, "no parameter named"};
  auto found = registry_.Find(req->crawl_id());
  if (!found)
    return {grpc::StatusCode::NOT_FOUND, req->crawl_id() == 0
                                             ? "no crawl has been started"
                                             : "no crawl " + std::to_string(req->crawl_id())};
  v1::CrawlInfo crawl = std::move(*found);
  v1::CrawlParams params = crawl.params();
  if (auto s = CopyParamFields(req->fields(), req->params(), &params); !s.ok()) return s;
  if (auto s = NormalizeParams(&params); !s.ok()) return ToGrpc(s);
  *crawl.mutable_params() = params;
  crawl.set_params_version(crawl.params_version() + 1);
  auto active = registry_.PutParams(crawl);
  if (!active.ok()) return ToGrpc(active.status());
  // The page budget may have changed; completion is judged against it.
  if (*active) monitor_.Watch(crawl.crawl_id(), params.max_pages(), params.recrawl());
  if (crawl.state() == v1::CRAWL_STATE_RUNNING) (void)fleet_.Update(crawl);
  spdlog::info("crawl {} parameters changed (version {})", crawl.crawl_id(), crawl.params_version());
  *resp->mutable_crawl() = crawl;
  return grpc::Status::OK;
}

NameServerServiceImpl::Snapshot NameServerServiceImpl::TakeSnapshot() {
  Snapshot snap;
  snap.crawls = registry_.Crawls();
  snap.active_crawl = registry_.ActiveId();
  const int64_t now = clock_->NowUnixMs();
  for (const auto& [id, m] : registry_.Members()) {
    Snapshot::MemberView v;
    v.info = m.info;
    v.last_seen_ms_ago = m.last_seen_ms == 0 ? -1 : now - m.last_seen_ms;
    v.stats = m.stats;
    snap.members.push_back(std::move(v));
  }
  const std::optional<v1::CrawlInfo> shown = registry_.Find(0);
  if (shown) {
    // The shown crawl's own numbers, kept after it ended: its fetchers'
    // totals for it and its progress samples.
    snap.crawl_stats = registry_.StatsOf(shown->crawl_id());
    snap.fetchers = fetchers_.ViewsOf(shown->crawl_id());
    snap.history = monitor_.HistoryOf(shown->crawl_id());
    snap.history_crawl = shown->crawl_id();
  } else {
    snap.fetchers = fetchers_.Views();
  }
  return snap;
}

std::vector<ProgressSample> NameServerServiceImpl::ProgressOf(uint64_t crawl_id) const {
  return monitor_.HistoryOf(crawl_id);
}

std::vector<FetcherTracker::View> NameServerServiceImpl::FetchersOf(uint64_t crawl_id) const {
  return fetchers_.ViewsOf(crawl_id);
}

}  // namespace crawl::nameserver
