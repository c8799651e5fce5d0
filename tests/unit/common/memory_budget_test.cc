// A process's default memory budget follows the machine within its role's
// bounds (common/base/memory_budget.h), and --memory-budget-mb takes a value
// or refuses a bad one.
#include "common/base/memory_budget.h"

#include <catch2/catch.hpp>

using crawl::DefaultMemoryBudgetMb;
using crawl::MemoryRole;

namespace {
constexpr size_t kGiB = size_t{1} << 30;
}

TEST_CASE("a default budget is a share of the machine within the role's bounds", "[memory_budget]") {
  // 24 GiB: a queue server a sixteenth, a fetcher a ninety-sixth, a name
  // server a hundred-and-twenty-eighth.
  CHECK(DefaultMemoryBudgetMb(MemoryRole::kQueueServer, 24 * kGiB) == 1536);
  CHECK(DefaultMemoryBudgetMb(MemoryRole::kFetcher, 24 * kGiB) == 256);
  CHECK(DefaultMemoryBudgetMb(MemoryRole::kNameServer, 24 * kGiB) == 192);
  // A small machine gets the floors, a huge one the ceilings.
  CHECK(DefaultMemoryBudgetMb(MemoryRole::kQueueServer, kGiB) == 256);
  CHECK(DefaultMemoryBudgetMb(MemoryRole::kFetcher, kGiB) == 128);
  CHECK(DefaultMemoryBudgetMb(MemoryRole::kNameServer, kGiB) == 64);
  CHECK(DefaultMemoryBudgetMb(MemoryRole::kQueueServer, 1024 * kGiB) == 16 * 1024);
  CHECK(DefaultMemoryBudgetMb(MemoryRole::kFetcher, 1024 * kGiB) == 1024);
  CHECK(DefaultMemoryBudgetMb(MemoryRole::kNameServer, 1024 * kGiB) == 256);
  // Unknown memory: the floor.
  CHECK(DefaultMemoryBudgetMb(MemoryRole::kQueueServer, 0) == 256);
}

TEST_CASE("this machine's memory is read", "[memory_budget]") {
  const size_t bytes = crawl::MachineMemoryBytes();
  CHECK(bytes > 0);
  // The default is that machine's.
  size_t mb = 0;
  CLI::App app;
  crawl::AddMemoryBudgetFlag(app, MemoryRole::kFetcher, &mb);
  CHECK(mb == DefaultMemoryBudgetMb(MemoryRole::kFetcher, bytes));
}

TEST_CASE("the memory budget flag takes a number of MiB and refuses nonsense", "[memory_budget]") {
  size_t mb = 0;
  CLI::App app;
  crawl::AddMemoryBudgetFlag(app, MemoryRole::kQueueServer, &mb);
  app.parse("--memory-budget-mb 300", false);
  CHECK(mb == 300);
  CLI::App low;
  crawl::AddMemoryBudgetFlag(low, MemoryRole::kQueueServer, &mb);
  CHECK_THROWS_AS(low.parse("--memory-budget-mb 8", false), CLI::ValidationError);
  CLI::App word;
  crawl::AddMemoryBudgetFlag(word, MemoryRole::kQueueServer, &mb);
  CHECK_THROWS_AS(word.parse("--memory-budget-mb lots", false), CLI::ParseError);
}
