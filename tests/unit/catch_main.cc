// Catch2 v2 main for every unit-test executable, plus the one compiled copy
// of Boost.JSON (header-only mode) that data-driven tests use to read the
// conformance vectors in tests/data/conformance.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <boost/json/src.hpp>
