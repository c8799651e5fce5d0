// Fault injection into StartCrawl, for tests that a name
// server killed at any point of StartCrawl either has the crawl after
// restart, and its queue servers agree, or none of them has it.
//
// StartCrawl calls the hook at each step, by name:
//   after_persist             the crawl is recorded as starting; no queue
//                             server has heard of it
//   after_first_queue_server  the first queue server took its seeds
//   after_fanout              every queue server took its seeds; the crawl
//                             is not yet recorded as running
//   after_activate            the crawl is recorded as running (and active)
// In a real process (the default hook) the environment variable
// CRAWL_FAULT_STARTCRAWL=<step> makes the name server exit at once at that
// step (_exit, no clean-up: as kill -9 would). In-process tests pass a hook
// that returns true, and StartCrawl then returns ABORTED on the spot without
// any clean-up, which is what the store holds after a kill. Not for
// production use.
#pragma once

#include <functional>
#include <string_view>

namespace crawl::nameserver {

// Returns true to stop StartCrawl at `step` (as if the process died there).
using StartFaultHook = std::function<bool(std::string_view step)>;

// The default hook: exits the process with code 86 when
// CRAWL_FAULT_STARTCRAWL names `step`; false otherwise.
bool ExitAtStartFault(std::string_view step);

}  // namespace crawl::nameserver
