#include "fetcher/crawl_worker.h"

#include <spdlog/spdlog.h>

#include "common/crawl/document_types.h"
#include "common/crawl/fetch_error.h"
#include "common/crawl/link_pruning_mode.h"
#include "common/crawl/politeness_params.h"
#include "common/net/grpc_util.h"
#include "common/net/rpc_policy.h"
#include "common/url/url.h"
#include "fetcher/address_slot_client.h"
#include "fetcher/fetcher_metrics.h"
#include "fetcher/host_groups.h"
#include "fetcher/page/url_extension.h"
#include "fetcher/robots_redirects.h"

namespace crawl::fetcher {
namespace {

// The pacing settings of a crawl (NormalizePoliteness gave them values; a
// crawl from before they existed has none: fixed, as it was).
PacingOptions PacingOf(const v1::CrawlParams& params) {
  PacingOptions pacing;
  pacing.adaptive = AdaptivePacing(params) && params.pace_factor_percent() > 0;
  if (params.pace_factor_percent() > 0) pacing.factor_percent = params.pace_factor_percent();
  if (params.has_pace_floor_ms()) pacing.floor = std::chrono::milliseconds(params.pace_floor_ms());
  if (params.has_pace_ceiling_ms()) pacing.ceiling = std::chrono::milliseconds(params.pace_ceiling_ms());
  if (pacing.ceiling < pacing.floor) pacing.ceiling = pacing.floor;
  return pacing;
}

// "ip:port" or "[ip6]:port" -> the IP.
std::string RemoteIp(const std::string& address) {
  if (!address.empty() && address.front() == '[') {
    const size_t close = address.find(']');
    return close == std::string::npos ? address : address.substr(1, close - 1);
  }
  const size_t colon = address.rfind(':');
  return colon == std::string::npos ? address : address.substr(0, colon);
}

// Processing of one result: ProcessFetch, the Retry-After, and for page
// caches (CrawlParams.keep_page_cache) the body, which the queue server
// writes to its WARC files. Runs on the control thread or a pool thread.
ProcessedPage ProcessPage(const v1::ScheduledUrl& scheduled, const FetchResult& fetched,
                          const ProcessOptions& options, bool keep_page_cache) {
  ProcessedPage processed = ProcessFetch(scheduled, fetched, options);
  processed.record.set_pace_ms(fetched.pace_ms);
  if (!fetched.remote_address.empty()) processed.record.set_remote_ip(RemoteIp(fetched.remote_address));
  if (fetched.retry_after_seconds > 0) processed.record.set_retry_after_seconds(fetched.retry_after_seconds);
  processed.record.set_address_wait_ms(fetched.address_wait_ms);
  processed.record.set_address_connections(fetched.address_connections);
  if (keep_page_cache && fetched.status > 0 && processed.record.kind() == v1::URL_KIND_PAGE)
    processed.record.set_body(fetched.body);
  return processed;
}

// Stubs of the crawl's queue servers for a lane's address slot client (its
// own thread; the channels are the process's shared ones).
std::shared_ptr<std::vector<std::unique_ptr<v1::QueueServer::Stub>>> SlotStubs(const v1::CrawlInfo& info) {
  auto stubs = std::make_shared<std::vector<std::unique_ptr<v1::QueueServer::Stub>>>();
  for (const auto& qs : info.queue_servers())
    stubs->push_back(v1::QueueServer::NewStub(SharedChannel(qs.address(), {security::Role::kQueueServer})));
  return stubs;
}
}  // namespace

CrawlWorker::CrawlWorker(WorkerOptions options)
    : options_(std::move(options)),
      nameserver_(v1::NameServer::NewStub(MakeChannel(options_.nameserver, {security::Role::kNameServer}))),
      budget_(std::make_shared<ResultBudget>(options_.max_buffered_result_bytes)) {
  (void)Metrics();  // exported at zero from the start, before the first fetch
  AddressSlotClient::ExportMetrics();
  work_.emplace(boost::asio::make_work_guard(io_));
  auto dns = DnsResolver::Create(io_, options_.dns);
  if (dns.ok()) {
    dns_ = std::move(*dns);
  } else {
    spdlog::error("DNS resolver: {}", dns.status().message());
  }
  io_thread_ = std::thread([this] { io_.run(); });
  ship_thread_ = std::thread([this] { ShipLoop(); });
}

CrawlWorker::~CrawlWorker() {
  RequestStop();
  {
    // Batches still queued are shipped first (with the short retry limit of
    // a stopping worker): they hold fetched pages.
    MutexLock lock(ship_mu_);
    ship_exit_ = true;
  }
  ship_cv_.NotifyAll();
  if (ship_thread_.joinable()) ship_thread_.join();
  if (crawl_ && crawl_->http) crawl_->http->CancelAll();
  budget_->Abandon();
  work_.reset();
  io_.stop();
  if (io_thread_.joinable()) io_thread_.join();
  // I/O objects must go before their io_context (declared after them): the
  // resolver's timer and descriptors, and what the HTTP engine holds.
  // Handlers still queued in io_ may keep them a little longer; those are
  // destroyed during io_'s own shutdown, which Asio allows.
  crawl_.reset();
  dns_.reset();
  while (notifying_.load(std::memory_order_acquire) > 0) std::this_thread::yield();
}

void CrawlWorker::RequestStop() {
  stop_ = true;
  cv_.NotifyAll();
  MutexLock lock(poll_mu_);
  if (held_poll_ != nullptr) held_poll_->TryCancel();
}

bool CrawlWorker::Sleep(std::chrono::milliseconds d) {
  MutexLock lock(mu_);
  const auto deadline = std::chrono::steady_clock::now() + d;
  while (!stop_ && cv_.WaitUntil(mu_, deadline)) {
  }
  return !stop_;
}

void CrawlWorker::PushEvent(Event e) {
  // Notified after the lock, so the woken control thread does not block on
  // mu_ at once (two more futex calls per page).
  // A process-pool thread may then touch cv_ after the control thread took
  // the event, ended the schedule and let the worker go (the pool's threads
  // outlive a worker): the destructor waits until no PushEvent is notifying.
  {
    MutexLock lock(mu_);
    events_.push_back(std::move(e));
    notifying_.fetch_add(1, std::memory_order_relaxed);  // under mu_: counted before the event can be taken
  }
  cv_.NotifyOne();  // only the control thread waits on cv_
  notifying_.fetch_sub(1, std::memory_order_release);
}

grpc::Status CrawlWorker::AskCrawlState(grpc::ClientContext& ctx, const v1::GetCrawlStateRequest& req,
                                        v1::GetCrawlStateResponse* resp) {
  if (req.wait_ms() == 0) return nameserver_->GetCrawlState(&ctx, req, resp);
  {
    // Registered before the stop flag is read: RequestStop sets the flag
    // first, so either it sees this call and cancels it or we see the flag.
    MutexLock lock(poll_mu_);
    held_poll_ = &ctx;
    if (stop_) ctx.TryCancel();
  }
  grpc::Status s = nameserver_->GetCrawlState(&ctx, req, resp);
  MutexLock lock(poll_mu_);
  held_poll_ = nullptr;
  return s;
}

FetcherOptions CrawlWorker::HttpOptionsFor(const v1::CrawlInfo& info) const {
  FetcherOptions http;
  http.user_agent = info.params().user_agent();
  http.page_range_bytes = info.params().page_range_bytes();
  http.request_timeout = std::chrono::milliseconds(info.params().fetch_timeout_ms());
  if (info.params().connect_timeout_ms() > 0)
    http.connect_timeout = std::chrono::milliseconds(info.params().connect_timeout_ms());
  if (info.params().first_byte_timeout_ms() > 0)
    http.first_byte_timeout = std::chrono::milliseconds(info.params().first_byte_timeout_ms());
  http.max_connections_per_ip = options_.max_connections_per_ip;
  http.resolver = dns_;
  http.allow_private = options_.allow_private || info.params().allow_private_addresses();
  http.hosts_file = options_.hosts_file;
  http.accept_self_signed = info.params().accept_self_signed();
  http.h2_streams = options_.h2_streams;
  http.h2_prior_knowledge = info.params().h2_prior_knowledge();
  if (info.params().max_connections_per_address() > 0 && info.queue_servers_size() > 0) {
    std::vector<std::string> ids;
    for (const auto& qs : info.queue_servers()) ids.push_back(qs.id());
    http.address_gate = std::make_shared<AddressSlotClient>(
        info.crawl_id(), options_.fetcher_id, std::move(ids),
        [stubs = SlotStubs(info)](size_t i, const v1::AddressSlotsRequest& req,
                                  v1::AddressSlotsResponse* resp) {
          grpc::ClientContext ctx;
          SetTimeout(ctx, rpc::kAddressSlots.deadline);
          return stubs->at(i)->AddressSlots(&ctx, req, resp);
        });
  }
  http.proxy = options_.proxy;
  http.pacing = PacingOf(info.params());
  return http;
}

bool CrawlWorker::RefreshCrawlState() {
  last_poll_ = std::chrono::steady_clock::now();
  grpc::ClientContext ctx;
  SetTimeout(ctx, rpc::kCrawlStatePoll.deadline);
  v1::GetCrawlStateRequest req;
  req.set_fetcher_id(options_.fetcher_id);
  if (!crawl_) req.set_wait_ms(static_cast<uint32_t>(IdlePollPeriod(options_.poll_interval).count()));
  // Our numbers, for the name server's status page.
  auto* st = req.mutable_stats();
  st->set_fetches(counters_.fetches);
  st->set_bytes(counters_.bytes);
  st->set_in_flight(counters_.in_flight);
  st->set_schedules(counters_.schedules);
  st->set_batches_shipped(counters_.batches_shipped);
  st->set_batches_dropped(counters_.batches_dropped);
  st->set_fetch_errors(counters_.fetch_errors);
  v1::GetCrawlStateResponse resp;
  grpc::Status s = AskCrawlState(ctx, req, &resp);
  if (!s.ok()) {
    if (!(stop_ && s.error_code() == grpc::StatusCode::CANCELLED))
      spdlog::warn("name server {} unreachable: {}", options_.nameserver, s.error_message());
    return false;
  }
  if (!resp.active()) {
    if (crawl_) spdlog::info("crawl {} is over", crawl_->info.crawl_id());
    crawl_.reset();
    return true;
  }
  const v1::CrawlInfo& info = resp.crawl();
  if (crawl_ && crawl_->info.crawl_id() == info.crawl_id() &&
      crawl_->info.params_version() == info.params_version())
    return true;

  // A new crawl, or new parameters / queue server addresses for this one.
  auto next = std::make_shared<ActiveCrawl>();
  next->info = info;
  for (const auto& qs : info.queue_servers())
    next->stubs.push_back(
        v1::QueueServer::NewStub(SharedChannel(qs.address(), {security::Role::kQueueServer})));
  next->http = std::make_shared<HttpFetcher>(io_, HttpOptionsFor(info));
  if (!info.params().keep_tracking_params()) {
    if (info.params().tracking_params_size() == 0) {
      next->tracking = url::TrackingParams::Default();
    } else {
      std::vector<std::string> patterns(info.params().tracking_params().begin(),
                                        info.params().tracking_params().end());
      auto tracking = url::TrackingParams::FromList(patterns);
      if (tracking.ok()) {
        next->tracking = std::move(*tracking);
      } else {
        // Bad crawl input must not stop fetching: fall back to the default.
        spdlog::error("crawl {}: tracking_params: {}; using the default list", info.crawl_id(),
                      tracking.status().message());
        next->tracking = url::TrackingParams::Default();
      }
    }
  }
  spdlog::info("working on crawl {} (params version {}, {} queue servers)", info.crawl_id(),
               info.params_version(), info.queue_servers_size());
  crawl_ = std::move(next);
  return true;
}

void CrawlWorker::Run() {
  while (!stop_) {
    if (!crawl_ || std::chrono::steady_clock::now() - last_poll_ >= options_.poll_interval) {
      const auto asked = std::chrono::steady_clock::now();
      if (!RefreshCrawlState() || !crawl_) {
        // No crawl yet. The name server held the poll until one started or
        // the period ran out (a long poll): ask again at once. Answered
        // sooner (unreachable, or a name server that does not hold it):
        // look again in this lane's slot of the period.
        const auto now = std::chrono::steady_clock::now();
        if (now - asked >= IdlePollPeriod(options_.poll_interval) / 2) continue;
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch());
        Sleep(UntilPollSlot(ms, IdlePollPeriod(options_.poll_interval), options_.idle_poll_offset));
        continue;
      }
    }
    // A lane holds one schedule at a time, as when it shipped itself: the
    // previous schedule's batches (its final one ends the lease) are in
    // before the next is leased, so what a lane has leased and not reported
    // stays within one schedule (the page budget's margin counts on it, see
    // tests/integration/nameserver_ops_test.sh) and its hosts are free again.
    WaitShipped();
    // Ask each queue server once, starting after the last one asked.
    const size_t n = crawl_->stubs.size();
    bool got = false;
    for (size_t attempt = 0; attempt < n && !stop_ && crawl_; ++attempt) {
      const size_t i = next_server_++ % n;
      grpc::ClientContext ctx;
      SetTimeout(ctx, rpc::kGetSchedule.deadline);
      v1::GetScheduleRequest req;
      req.set_crawl_id(crawl_->info.crawl_id());
      req.set_fetcher_id(options_.fetcher_id);
      req.set_max_urls(crawl_->info.params().schedule_size());
      const std::pair<uint64_t, std::string> server{crawl_->info.crawl_id(),
                                                    crawl_->info.queue_servers(static_cast<int>(i)).id()};
      req.set_lane_started(!leased_from_.contains(server));
      v1::GetScheduleResponse resp;
      grpc::Status s = crawl_->stubs[i]->GetSchedule(&ctx, req, &resp);
      if (!s.ok()) {
        spdlog::warn("queue server {} unreachable: {}", server.second, s.error_message());
        continue;
      }
      if (!resp.unknown_crawl()) leased_from_.insert(server);
      if (resp.unknown_crawl() || resp.schedule_id() == 0) continue;
      got = true;
      RunSchedule(i, resp);
      break;
    }
    if (!got) Sleep(options_.idle_backoff);
  }
  // What was fetched is reported before Run returns.
  WaitShipped();
}

struct CrawlWorker::ScheduleRun {
  ScheduleRun(std::shared_ptr<const ActiveCrawl> active, size_t server, const v1::GetScheduleResponse& leased,
              const DocumentParser* documents)
      : crawl(std::move(active)),
        info(crawl->info),
        http(crawl->http.get()),
        server_index(server),
        schedule(leased),
        hosts(GroupByHost(leased.urls())),
        batcher(QueueServerIds(info), &crawl->tracking, server),
        process(ProcessOptionsOf(info.params(), documents)),
        batch_pages(std::max<uint32_t>(1, info.params().results_batch_pages())),
        keep_page_cache(info.params().keep_page_cache()) {}

  const std::shared_ptr<const ActiveCrawl> crawl;
  const v1::CrawlInfo& info;
  HttpFetcher* const http;
  const size_t server_index;
  const v1::GetScheduleResponse& schedule;
  const ScheduleHosts hosts;
  ResultBatcher batcher;
  const ProcessOptions process;
  const size_t batch_pages;
  const bool keep_page_cache;
  uint64_t sequence = 0;  // of the next batch
  RobotsRedirects robots;
  size_t next_group = 0;
  size_t running = 0;  // sequences started and not done
  bool cancelled = false;
  // Pages handed to the process pool whose results have not come back; the
  // schedule is not over until they have.
  size_t processing = 0;
  const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::chrono::steady_clock::duration ship_wait{}, process_time{};
  // Processing time on the pool's threads.
  std::shared_ptr<std::atomic<int64_t>> process_ns = std::make_shared<std::atomic<int64_t>>(0);

  static std::vector<std::string> QueueServerIds(const v1::CrawlInfo& info) {
    std::vector<std::string> ids;
    for (const auto& qs : info.queue_servers()) ids.push_back(qs.id());
    return ids;
  }
  static ProcessOptions ProcessOptionsOf(const v1::CrawlParams& params, const DocumentParser* documents) {
    ProcessOptions process;
    process.document_parser = documents;
    process.max_links = params.max_links_per_page();
    if (params.max_links_after_prune() > 0) process.max_links_after_prune = params.max_links_after_prune();
    // The name server stores a valid mode; an unknown one (a newer name
    // server) prunes as Yioop does.
    const Result<LinkPruning> pruning = ParseLinkPruning(params.link_pruning());
    process.link_pruning = pruning.ok() ? *pruning : LinkPruning::kAll;
    if (params.max_description_chars() > 0) process.max_description_chars = params.max_description_chars();
    process.robots_meta_token = params.user_agent();
    // The name server stores a valid list; an unknown one (a newer name
    // server) reads every type.
    const Result<DocumentTypeSet> types = ParseDocumentTypes(params.document_types());
    process.document_types_enabled = types.ok() ? *types : DocumentTypeSet().set();
    if (params.max_document_bytes() > 0) process.max_document_bytes = params.max_document_bytes();
    return process;
  }
};

void CrawlWorker::RunSchedule(size_t server_index, const v1::GetScheduleResponse& schedule) {
  counters_.schedules++;
  ScheduleRun run(crawl_, server_index, schedule, options_.document_parser.get());
  spdlog::debug("schedule {} from {}: {} urls", schedule.schedule_id(),
                run.info.queue_servers(static_cast<int>(server_index)).id(), schedule.urls_size());
  StartMoreSequences(run);
  while (run.running > 0 || run.processing > 0) {
    if (options_.status_interval.count() > 0 &&
        std::chrono::steady_clock::now() - last_status_ >= options_.status_interval) {
      LogStatus(*run.http);
    }
    if (std::optional<Event> e = NextEvent(run)) HandleEvent(run, std::move(*e));
  }
  run.process_time += std::chrono::steady_clock::duration(run.process_ns->load());
  // Last, after every other batch of the schedule: it ends the lease.
  QueueShip({run.crawl, server_index, schedule.schedule_id(), run.sequence, true, run.batcher.Take()});
  auto ms = [](std::chrono::steady_clock::duration d) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  };
  spdlog::debug("schedule {}: {} urls in {} ms; processing {} ms, waiting for the shipping thread {} ms",
                schedule.schedule_id(), schedule.urls_size(),
                ms(std::chrono::steady_clock::now() - run.start), ms(run.process_time), ms(run.ship_wait));
}

void CrawlWorker::StartMoreSequences(ScheduleRun& run) {
  while (!run.cancelled && run.running < options_.max_in_flight && run.next_group < run.hosts.groups.size()) {
    const HostGroup& group = run.hosts.groups[run.next_group++];
    // One connection per host; a crawl-delayed host's requests start at
    // least its delay apart (the queue server spaces schedules), and with
    // adaptive pacing at least its pace apart, starting from the pace its
    // last sequence ended with.
    StartSequence(run, group.urls, std::chrono::milliseconds(group.crawl_delay_ms),
                  std::chrono::milliseconds(group.start_pace_ms));
  }
}

void CrawlWorker::StartSequence(ScheduleRun& run, const std::vector<std::string>& urls,
                                std::chrono::milliseconds delay, std::chrono::milliseconds start_pace) {
  ++run.running;
  // A revisit sends the validators its queue server remembered (a robots
  // redirect hop is not in by_url: none).
  std::vector<FetchTarget> targets;
  targets.reserve(urls.size());
  for (const std::string& u : urls) {
    FetchTarget& t = targets.emplace_back();
    t.url = u;
    // A document the crawl reads gets its own, larger range (url_extension.h).
    if (const auto type = UrlDocumentType(u); type && run.process.document_types_enabled.test(*type))
      t.range_bytes = run.process.max_document_bytes;
    if (auto it = run.hosts.by_url.find(u); it != run.hosts.by_url.end()) {
      t.if_none_match = it->second.if_none_match();
      t.if_modified_since = it->second.if_modified_since();
    }
  }
  run.http->FetchSequence(
      std::move(targets), [this](FetchResult r) { PushEvent(Event::Fetched(std::move(r))); },
      [this] { PushEvent(Event::SequenceDone()); }, delay, budget_, start_pace);
}

std::optional<CrawlWorker::Event> CrawlWorker::NextEvent(ScheduleRun& run) {
  MutexLock lock(mu_);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  while (events_.empty() && !(stop_ && !run.cancelled) && cv_.WaitUntil(mu_, deadline)) {
  }
  if (!events_.empty()) {
    Event e = std::move(events_.front());
    events_.pop_front();
    return e;
  }
  lock.Unlock();
  if (!run.cancelled && (stop_ || std::chrono::steady_clock::now() - last_poll_ >= options_.poll_interval)) {
    // Stop quickly when the process or the crawl ends.
    // An unreachable name server is no reason to stop fetching.
    const bool still_on =
        !stop_ && (!RefreshCrawlState() || (crawl_ && crawl_->info.crawl_id() == run.info.crawl_id()));
    if (!still_on) {
      run.cancelled = true;
      run.http->CancelAll();
    }
  }
  return std::nullopt;
}

void CrawlWorker::HandleEvent(ScheduleRun& run, Event e) {
  if (e.processed) {  // back from the process pool
    --run.processing;
    auto it = run.hosts.by_url.find(e.scheduled_url);
    AddPage(run, std::move(*e.processed), it == run.hosts.by_url.end() ? nullptr : &it->second);
    return;
  }
  // Taken off the queue: room for another download (the body is freed
  // below, or shipped in a batch of at most results_batch_pages). A body
  // handed to the process pool is released there, once processed, so
  // bodies waiting in the pool still count.
  size_t unreleased = e.done ? 0 : e.result.body.size();
  struct ReleaseAtEnd {
    ResultBudget* budget;
    size_t* bytes;
    ~ReleaseAtEnd() {
      if (*bytes > 0) budget->Release(*bytes);
    }
  } release_at_end{budget_.get(), &unreleased};
  if (e.done) {
    --run.running;
    StartMoreSequences(run);
    return;
  }
  OnFetched(run, std::move(e.result), unreleased);
}

void CrawlWorker::OnFetched(ScheduleRun& run, FetchResult result, size_t& unreleased) {
  if (result.status == kCancelled) return;  // not fetched: goes back with the lease
  counters_.fetches++;
  // A robots.txt redirect hop: the result belongs to the robots URL that
  // started the chain.
  const RobotsRedirects::Chain chain = run.robots.Take(result.url);
  auto it = run.hosts.by_url.find(chain.scheduled_url);
  if (it == run.hosts.by_url.end()) return;
  if (it->second.kind() == v1::URL_KIND_ROBOTS && !run.cancelled) {
    // Only the final answer is reported (for the scheduled robots.txt URL).
    if (std::optional<std::string> next = run.robots.Follow(result, chain)) {
      StartSequence(run, {*next}, std::chrono::milliseconds(0));
      return;
    }
  }
  run.robots.Report(chain, result);
  {
    const uint64_t now_in_flight = run.http->requests_in_flight();
    counters_.in_flight = now_in_flight;
    if (now_in_flight > counters_.max_in_flight) counters_.max_in_flight = now_in_flight;
  }
  RecordFetchMetrics(result);
  ProcessResult(run, it->second, std::move(result), unreleased);
}

void CrawlWorker::ProcessResult(ScheduleRun& run, const v1::ScheduledUrl& scheduled, FetchResult result,
                                size_t& unreleased) {
  ProcessPool* pool = options_.process_pool.get();
  SitemapGate* gate = nullptr;
  if (options_.sitemap_pool && options_.sitemap_gate && MayBeSitemap(scheduled, result)) {
    // Never on the control thread: a lane waiting on the gate could hold
    // the links that keep it closed.
    pool = options_.sitemap_pool.get();
    gate = options_.sitemap_gate.get();
  } else if (pool != nullptr && result.body.size() < options_.pool_body_bytes) {
    MutexLock lock(mu_);
    if (events_.size() < options_.pool_backlog) pool = nullptr;  // keeping up: process it here
  }
  if (pool == nullptr) {
    const auto process_start = std::chrono::steady_clock::now();
    ProcessedPage processed = ProcessPage(scheduled, result, run.process, run.keep_page_cache);
    run.process_time += std::chrono::steady_clock::now() - process_start;
    AddPage(run, std::move(processed), &scheduled);
    return;
  }
  ++run.processing;
  const size_t body_bytes = unreleased;
  unreleased = 0;  // released by the job, once the body is processed
  pool->Submit([this, keep_page_cache = run.keep_page_cache, scheduled, fetched = std::move(result),
                process = run.process, body_bytes, process_ns = run.process_ns, gate]() mutable {
    std::shared_ptr<void> hold = gate != nullptr ? gate->Acquire() : nullptr;
    const auto process_start = std::chrono::steady_clock::now();
    ProcessedPage processed = ProcessPage(scheduled, fetched, process, keep_page_cache);
    // Only a sitemap's links keep the gate (until shipped).
    if (processed.sitemap && !processed.links.empty()) processed.hold = std::move(hold);
    hold.reset();
    process_ns->fetch_add((std::chrono::steady_clock::now() - process_start).count());
    fetched = FetchResult{};
    budget_->Release(body_bytes);
    Event done;
    done.processed = std::move(processed);
    done.scheduled_url = scheduled.url();
    PushEvent(std::move(done));
  });
}

void CrawlWorker::AddPage(ScheduleRun& run, ProcessedPage processed, const v1::ScheduledUrl* scheduled) {
  // A page holding the sitemap gate ships at once: the gate opens when it
  // has been shipped (sitemap_gate.h).
  const bool holds_gate = processed.hold != nullptr;
  run.batcher.Add(std::move(processed), scheduled);
  if (holds_gate || run.batcher.pages() >= run.batch_pages ||
      run.batcher.links() >= options_.max_batch_links ||
      run.batcher.record_bytes() >= options_.max_batch_bytes) {
    const auto ship_start = std::chrono::steady_clock::now();
    QueueShip(
        {run.crawl, run.server_index, run.schedule.schedule_id(), run.sequence++, false, run.batcher.Take()});
    run.ship_wait += std::chrono::steady_clock::now() - ship_start;
  }
}

void CrawlWorker::RecordFetchMetrics(const FetchResult& result) {
  FetcherMetrics& m = Metrics();
  m.Fetched(result.status, static_cast<double>(result.body.size()),
            static_cast<double>(result.fetch_ms) / 1000.0);
  m.in_flight.Set(static_cast<double>(counters_.in_flight));
  m.Paced(static_cast<double>(result.pace_ms) / 1000.0, result.pace_backed_off);
  const int status = result.status;
  counters_.bytes += result.body.size();
  if (status < 0 || status >= 400) counters_.fetch_errors++;
}

void CrawlWorker::LogStatus(const HttpFetcher& http) {
  last_status_ = std::chrono::steady_clock::now();
  const uint64_t in_flight = http.requests_in_flight();
  counters_.in_flight = in_flight;
  if (in_flight > counters_.max_in_flight) counters_.max_in_flight = in_flight;
  DnsCounters dns;
  if (dns_) dns = dns_->counters();
  spdlog::info(
      "fetcher status: in_flight={} hosts={} max_in_flight={} fetches={} dns_queries={} dns_cache_hits={}",
      in_flight, http.active_sequences(), counters_.max_in_flight.load(), counters_.fetches.load(),
      dns.queries, dns.cache_hits);
}

}  // namespace crawl::fetcher
