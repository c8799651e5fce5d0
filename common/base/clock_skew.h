// Test-only clock skew, for the fault harness (tests/faults/README.md): a
// machine whose clock is minutes off, without libfaketime (which aborts our
// binaries at start). When the environment names a file in
// CRAWL_TEST_CLOCK_SKEW_FILE, the signed number of milliseconds it holds
// at start is added to the machine's wall clock as this process reads it
// (g_clock_skew_ms, common/base/clock.h); a missing, empty or unreadable
// file means no skew. Like a real clock step, a change of the file while
// the process runs moves nothing (NowUnixUs follows the monotonic clock
// once started); the process sees it at its next start. Without the
// variable the skew stays 0.
#pragma once

namespace crawl {

// Reads the skew if CRAWL_TEST_CLOCK_SKEW_FILE is set. Called by
// PrepareProcess (common/base/cli.h), before anything reads the clock.
void StartClockSkewFromEnvironment();

}  // namespace crawl
