// The terms of a mini index as the fetcher packs them
// (common/text/packed_terms.h), unpacked for tests to look at.
#pragma once

#include <catch2/catch.hpp>
#include <vector>

#include "common/text/packed_terms.h"
#include "proto/crawl.pb.h"

namespace crawl::test_support {

inline std::vector<v1::IndexTerm> Terms(const v1::MiniIndex& index) {
  v1::MiniIndex copy = index;
  REQUIRE(text::UnpackTerms(&copy).ok());
  return {copy.terms().begin(), copy.terms().end()};
}

}  // namespace crawl::test_support
