// How a fetcher process shares its limits among its lanes
// (fetcher/fetcher_flags.h LaneOptions) and when an idle lane polls the name
// server (fetcher/crawl_worker.h UntilPollSlot).
#include <catch2/catch.hpp>
#include <chrono>

#include "fetcher/crawl_worker.h"
#include "fetcher/fetcher_flags.h"

TEST_CASE("lanes share the in-flight and per-ip limits, have their own ids, and one logs the status",
          "[unit]") {
  crawl::fetcher::WorkerOptions options;
  options.fetcher_id = "f";
  options.max_in_flight = 10;
  options.max_connections_per_ip = 5;
  options.status_interval = std::chrono::milliseconds(5000);
  const auto lanes = crawl::fetcher::LaneOptions(options, 4);
  REQUIRE(lanes.size() == 4);
  CHECK(lanes[0].fetcher_id == "f");
  CHECK(lanes[3].fetcher_id == "f.3");
  size_t in_flight = 0;
  for (const auto& lane : lanes) in_flight += lane.max_in_flight;
  CHECK(in_flight == 10);
  CHECK(lanes[0].max_in_flight == 3);
  CHECK(lanes[3].max_in_flight == 2);
  CHECK(lanes[0].max_connections_per_ip == 1);
  CHECK(lanes[0].status_interval == std::chrono::milliseconds(5000));
  CHECK(lanes[1].status_interval == std::chrono::milliseconds(0));
  // With no crawl, the lanes poll in turn: a new crawl is seen within an
  // eighth of a second, not half a second.
  CHECK(lanes[0].idle_poll_offset == std::chrono::milliseconds(0));
  CHECK(lanes[1].idle_poll_offset == std::chrono::milliseconds(125));
  CHECK(lanes[3].idle_poll_offset == std::chrono::milliseconds(375));

  // No more lanes than requests in flight.
  options.max_in_flight = 2;
  options.max_connections_per_ip = 0;
  const auto few = crawl::fetcher::LaneOptions(options, 4);
  REQUIRE(few.size() == 2);
  CHECK(few[1].max_in_flight == 1);
  CHECK(few[1].max_connections_per_ip == 0);
}

TEST_CASE("an idle lane waits for its own slot of the poll period", "[unit]") {
  using ms = std::chrono::milliseconds;
  using crawl::fetcher::UntilPollSlot;
  CHECK(crawl::fetcher::IdlePollPeriod(ms(2000)) == ms(500));
  CHECK(crawl::fetcher::IdlePollPeriod(ms(100)) == ms(100));
  CHECK(UntilPollSlot(ms(10'000), ms(500), ms(125)) == ms(125));
  CHECK(UntilPollSlot(ms(10'126), ms(500), ms(125)) == ms(499));
  CHECK(UntilPollSlot(ms(10'400), ms(500), ms(125)) == ms(225));
  // Exactly at the slot: the next one, a whole period later.
  CHECK(UntilPollSlot(ms(10'125), ms(500), ms(125)) == ms(500));
  // Offsets past the period wrap; a zero period cannot spin.
  CHECK(UntilPollSlot(ms(10'000), ms(500), ms(625)) == ms(125));
  CHECK(UntilPollSlot(ms(10'000), ms(0), ms(0)) == ms(1));
}

TEST_CASE("fetcher flags: a process pool only on machines of more than two cores", "[unit]") {
  using crawl::fetcher::DefaultProcessThreads;
  CHECK(DefaultProcessThreads(0) == 0);  // hardware_concurrency() may not know
  CHECK(DefaultProcessThreads(1) == 0);
  CHECK(DefaultProcessThreads(2) == 0);
  CHECK(DefaultProcessThreads(3) == 1);
  CHECK(DefaultProcessThreads(8) == 6);
  CHECK(DefaultProcessThreads(64) == 8);
}

TEST_CASE("a lane's result buffer and batch are its shares of the memory budget", "[unit]") {
  crawl::fetcher::FetcherFlags flags;
  flags.lanes = 4;
  flags.memory_budget_mb = 768;
  CHECK(crawl::fetcher::ResultBufferMb(flags) == 24);
  CHECK(crawl::fetcher::BatchBytes(flags) == size_t{6} << 20);
  // A small budget still leaves each lane room for a few pages.
  flags.memory_budget_mb = 64;
  CHECK(crawl::fetcher::ResultBufferMb(flags) == 4);
  CHECK(crawl::fetcher::BatchBytes(flags) == size_t{1} << 20);
  flags.result_buffer_mb = 100;
  CHECK(crawl::fetcher::ResultBufferMb(flags) == 100);
  // The options the lanes get carry it.
  const auto options = crawl::fetcher::WorkerOptionsFromFlags(flags, nullptr);
  CHECK(options.max_buffered_result_bytes == size_t{100} << 20);
  CHECK(options.max_batch_bytes == size_t{1} << 20);
}
