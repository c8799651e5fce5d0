// jemalloc settings of the server binaries (linked only into them, and only
// when CMakeLists.txt's CRAWL_JEMALLOC is on). jemalloc reads this symbol at
// start-up; the MALLOC_CONF environment variable still overrides it.
//
// background_thread: unused dirty pages go back to the kernel on a timer
// (after jemalloc's 10 s decay) even while a server is idle, so RSS follows
// live data as it did with glibc capped at two arenas (common/process.h),
// instead of waiting for the next allocation to trigger the purge.
extern "C" {
// NOLINTNEXTLINE: the name and type are jemalloc's interface.
const char* malloc_conf = "background_thread:true";
}
