// Catch2 v2 main for every unit-test executable. (Boost.JSON, which the
// data-driven tests use to read tests/data/conformance and the format tests
// to parse what they print, is compiled once for the whole project in
// common/base/json.cc: every test links crawl_common.)
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
