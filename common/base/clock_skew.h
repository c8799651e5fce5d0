// Test-only clock skew, for the fault harness (tests/faults/README.md): a
// machine whose clock is minutes off, without libfaketime (which aborts our
// binaries at start). When the environment names a file in
// CRAWL_TEST_CLOCK_SKEW_FILE, a thread reads a signed number of milliseconds
// from it every 100 ms into g_clock_skew_ms (common/base/clock.h), so this
// process's wall clock (SystemClock, NowUnixUs) runs that far ahead, or
// behind; a missing, empty or unreadable file means no skew. Steady clocks
// (timeouts, pacing) do not move, as on a real machine whose wall clock is
// off. Without the variable nothing starts and the skew stays 0.
#pragma once

namespace crawl {

// Starts the watcher if CRAWL_TEST_CLOCK_SKEW_FILE is set (once; later calls
// do nothing). Called by PrepareProcess (common/base/cli.h).
void StartClockSkewFromEnvironment();

}  // namespace crawl
