// A process's memory budget (--memory-budget-mb): the one number its large
// buffers and caches are sized from (docs/OPERATIONS.md "Memory"), so the
// same binaries fit a laptop's small crawl and a large machine's
// billion-page one. The default follows the machine: a share of its
// physical memory, clamped per role (a queue server holds the crawl's
// state and caches, a fetcher pages in flight, a name server a registry).
// Within the budget, what a queue server's store holds follows the crawl
// (queueserver/store/store_memory.h).
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>

namespace crawl {

enum class MemoryRole { kQueueServer, kFetcher, kNameServer };

// Physical memory of this machine (or of the cgroup v2 the process runs in,
// when its memory.max is lower), in bytes; 0 if neither can be read.
[[nodiscard]] size_t MachineMemoryBytes();

// The default budget of `role` on a machine of `machine_bytes` (0: unknown):
// queue server 1/16 of it within [256 MiB, 16 GiB], fetcher 1/96 within
// [128 MiB, 1 GiB], name server 1/128 within [64 MiB, 256 MiB]; the lower
// bound when the machine is unknown. In MiB. A machine usually runs one
// queue server and a fetcher or two; a queue server's caches follow its
// data within the budget, so a small crawl stays small however large it is.
[[nodiscard]] size_t DefaultMemoryBudgetMb(MemoryRole role, size_t machine_bytes);

// Adds --memory-budget-mb to `app`, defaulting *mb to `role`'s default on
// this machine (shown in --help).
void AddMemoryBudgetFlag(CLI::App& app, MemoryRole role, size_t* mb);

}  // namespace crawl
