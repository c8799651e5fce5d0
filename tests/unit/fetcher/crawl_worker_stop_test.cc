// CrawlWorker::RequestStop against a name server that holds an idle lane's
// crawl-state poll (the long poll, GetCrawlStateRequest.wait_ms): the stop
// cancels the call instead of waiting for an answer or the call's deadline.
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "common/net/grpc_util.h"
#include "fetcher/crawl_worker.h"

namespace {

namespace v1 = crawl::v1;

// No crawl; a poll that asks to be held is held until the client goes away.
class HoldingNameServer final : public v1::NameServer::Service {
 public:
  grpc::Status GetCrawlState(grpc::ServerContext* ctx, const v1::GetCrawlStateRequest* req,
                             v1::GetCrawlStateResponse* resp) override {
    resp->set_active(false);
    if (req->wait_ms() == 0) return grpc::Status::OK;
    {
      std::lock_guard lock(mu_);
      holding_ = true;
    }
    cv_.notify_all();
    while (!ctx->IsCancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    std::lock_guard lock(mu_);
    // The client's own cancel comes before its deadline; the deadline's at it.
    cancelled_before_deadline_ = std::chrono::system_clock::now() < ctx->deadline();
    ended_ = true;
    cv_.notify_all();
    return grpc::Status::OK;
  }
  void WaitHolding() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [this] { return holding_; });
  }
  bool WaitEnded() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [this] { return ended_; });
    return cancelled_before_deadline_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool holding_ = false;
  bool ended_ = false;
  bool cancelled_before_deadline_ = false;
};

TEST_CASE("a stop cancels an idle lane's held crawl-state poll", "[unit]") {
  HoldingNameServer ns;
  auto server = crawl::StartGrpcServer("127.0.0.1:0", {&ns});
  REQUIRE(server.ok());
  crawl::fetcher::WorkerOptions options;
  options.fetcher_id = "test";
  options.nameserver = "127.0.0.1:" + std::to_string(server->port);
  crawl::fetcher::CrawlWorker worker(options);
  std::thread run([&] { worker.Run(); });
  ns.WaitHolding();
  worker.RequestStop();
  run.join();
  // Without the cancel the call would end only at its 10 s deadline.
  CHECK(ns.WaitEnded());
  server->server->Shutdown();
}

}  // namespace
