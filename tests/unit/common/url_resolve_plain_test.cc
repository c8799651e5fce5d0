// Resolver's plain fast path (url.h) against the parser: every reference
// resolved through Resolver::Resolve must equal url::Resolve, which always
// parses (WHATWG) and canonicalises. The references are built from the
// pieces that decide which path a link takes: dot segments, escapes of both
// cases, schemes, authorities, queries, fragments, backslashes, spaces.
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "common/url/url.h"

namespace {

const std::vector<std::string> kBases = {
    "http://a.test/",
    "http://a.test/dir/page.html",
    "http://a.test/dir/sub/?q=1",
    "https://b.test:8443/x/y/z/",
    "http://127.22.0.1:8080/std/collections/hash_map/struct.HashMap.html",
    "http://a.test/dir/page.html?x=%2F#frag",
    "http://A.Test/Upper/../case.html",    // canonical form differs: parsed once
    "http://a.test/%7Etilde/p%41ge.html",  // escapes the base normalises
    "http://xn--nxasmq6b.test/ü/",
    "http://a.test",
};

const std::vector<std::string> kPieces = {
    "a",
    "B",
    "page.html",
    "index",
    "/",
    "//",
    ".",
    "..",
    "./",
    "../",
    "?",
    "q=1",
    "&",
    "=",
    "#",
    "frag",
    "%2e",
    "%2E",
    "%2F",
    "%41",
    "%7e",
    "%zz",
    "%",
    ":",
    "x:",
    "http:",
    "@",
    "\\",
    " ",
    "\t",
    "\n",
    "ü",
    "~",
    "-",
    "_",
    ";",
    ",",
    "!",
    "$",
    "'",
    "\"",
    "<",
    "{",
    "|",
    "^",
    "`",
    "mailto:",
    "javascript:",
    "1:2",
    "(",
    "*",
    // Absolute references with fragments (the parser's path: Resolve cuts
    // the fragment before parsing, unless spaces or controls precede it).
    "https://c.test/p#f",
    "http://a.test/x?y#z",
    "#a b<c>`",
    "http://[::1#]/",
    "http://u#@h/",
};

std::string RandomReference(std::mt19937& rng) {
  std::uniform_int_distribution<size_t> count(0, 7);
  std::uniform_int_distribution<size_t> piece(0, kPieces.size() - 1);
  std::string out;
  for (size_t n = count(rng); n > 0; --n) out += kPieces[piece(rng)];
  return out;
}

void CheckSame(const crawl::url::Resolver& resolver, const std::string& base, const std::string& reference) {
  const auto fast = resolver.Resolve(reference);
  const auto parsed = crawl::url::Resolve(base, reference);
  INFO("base <" << base << "> reference <" << reference << ">");
  REQUIRE(fast.ok() == parsed.ok());
  if (fast.ok()) CHECK(*fast == *parsed);
}

}  // namespace

TEST_CASE("Resolver resolves plain and other references as the parser does") {
  const std::string base = GENERATE(from_range(kBases));
  auto resolver = crawl::url::Resolver::ForBase(base);
  REQUIRE(resolver.ok());
  std::mt19937 rng(20261127);
  for (int i = 0; i < 20'000; ++i) CheckSame(*resolver, base, RandomReference(rng));
}

TEST_CASE("Resolver's dot segments and queries follow the WHATWG path state") {
  const std::string base = "http://a.test/a/b/c?base=1";
  auto resolver = crawl::url::Resolver::ForBase(base);
  REQUIRE(resolver.ok());
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "http://a.test/a/b/c?base=1"},
      {"#x", "http://a.test/a/b/c?base=1"},
      {"?", "http://a.test/a/b/c?"},
      {"?y=2", "http://a.test/a/b/c?y=2"},
      {"d", "http://a.test/a/b/d"},
      {".", "http://a.test/a/b/"},
      {"..", "http://a.test/a/"},
      {"../..", "http://a.test/"},
      {"../../../../x", "http://a.test/x"},
      {"d/./e/../f", "http://a.test/a/b/d/f"},
      {"/x/../y?z=../w", "http://a.test/y?z=../w"},
      {"d//..", "http://a.test/a/b/d/"},
      {"d:e", "d:e"},  // not http(s): refused, as by the parser
  };
  for (const auto& [reference, expected] : cases) {
    INFO(reference);
    const auto got = resolver->Resolve(reference);
    if (expected == "d:e") {
      CHECK_FALSE(got.ok());
    } else {
      REQUIRE(got.ok());
      CHECK(*got == expected);
    }
    CheckSame(*resolver, base, reference);
  }
}
