// jemalloc settings of the server binaries (linked only into them, and only
// when CMakeLists.txt's CRAWL_JEMALLOC is on). jemalloc reads this symbol at
// start-up; the MALLOC_CONF environment variable still overrides it.
//
// background_thread: unused dirty pages go back to the kernel on a timer
// (after jemalloc's 10 s decay) even while a server is idle, so RSS follows
// live data as it did with glibc capped at two arenas (common/base/process.h),
// instead of waiting for the next allocation to trigger the purge.
//
// oversize_threshold:0: no separate arena for allocations of 8 MiB and more
// (jemalloc's default), whose pages are purged at once when freed. A
// queue server's batch requests and growing posting lists, and a fetcher's
// gRPC buffers, are that large and come and go all the time: freed, their
// pages went back to the kernel and the next one faulted fresh, zeroed
// pages in, a page fault each. Now they wait in the ordinary arenas under
// the same decay as everything else, and RSS stays bounded by it
// (docs/BENCHMARKS.md "Cost per page").
//
// dirty_decay_ms:1000: freed pages go back after 1 s unused, not jemalloc's
// 10 s. What a process keeps for reuse counts in its RSS: over a 20,000-page
// crawl the 10 s decay held a fetcher at twice and a queue server at 1.25
// times what they used (docs/BENCHMARKS.md "Memory that fits the work").
// A busy process reuses its freed pages within milliseconds, so only
// memory idle for a second goes.
//
// narenas:1: one arena, not jemalloc's four per core. Each arena holds its
// own freed pages and its own metadata; over a 20,000-page crawl the eight
// arenas of a two-core machine cost a fetcher and a queue server 20-40 MB
// each, and pages/s did not move with one (docs/BENCHMARKS.md "Memory that
// fits the work"). Small allocations are served by the thread caches and
// never touch the arena's lock. percpu_arena (one per core) measured 10-25
// MB above one arena here.
//
// tcache_max:4096: thread caches keep objects up to 4 KiB, not 32 KiB. A
// server runs 20-30 threads (gRPC's pool, lanes, RocksDB's), and each
// cached larger objects for itself: 8-29 MB over the cluster in two runs.
extern "C" {
// NOLINTNEXTLINE: the name and type are jemalloc's interface.
const char* malloc_conf =
    "background_thread:true,oversize_threshold:0,dirty_decay_ms:1000,narenas:1,tcache_max:4096";
}
