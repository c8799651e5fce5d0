#!/usr/bin/env bash
# The web-scale soak (run by hand, about 1-2 hours of both cores): a crawl of
# 10,000,000 pages on 100,000 hosts (testweb's clean preset), 2 queue servers
# and 2 fetchers, every process killed and restarted once during the run,
# the fault tests' invariants checked at the end. It is memory_curve.sh with
# --restart-each --check; its options pass through (see memory_curve.sh
# --help), e.g. a shorter rehearsal:
#
#   tests/bench/soak.sh [--pages 200000 --hosts 2000] [--out DIR]
#
# Prints RSS of every process over the crawl, pages/s by tenth of the run,
# the restart times, the disk per page at the end and after compaction, and
# the checks' results (docs/BENCHMARKS.md "Soak").
set -euo pipefail
exec "$(dirname "$0")/memory_curve.sh" --pages 10000000 --hosts 100000 --queueservers 2 --fetchers 2 \
  --every 10 --max-minutes 240 --restart-each --check "$@"
