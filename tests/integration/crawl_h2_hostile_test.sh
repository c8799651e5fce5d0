#!/usr/bin/env bash
# crawl_hostile_test.sh over HTTP/2: the hostile web crawled with
# `crawlctl start --h2-prior-knowledge`, testweb answering h2c (its
# hostile behaviours in their h2 form, tests/testweb/h2_session.h: endless
# DATA, a stream that never answers, huge header lists, gzip bombs). The
# same checks: the crawl ends, every normal page is fetched, memory stays
# bounded, no process dies.
CRAWL_START_ARGS=--h2-prior-knowledge exec bash "$(dirname "$0")/crawl_hostile_test.sh" "$@"
