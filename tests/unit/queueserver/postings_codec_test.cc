// Delta + varint postings (queueserver/postings_codec.h): round trips and bad input.
#include "queueserver/postings_codec.h"

#include <catch2/catch.hpp>

#include <random>

using namespace crawl::queueserver;

TEST_CASE("varints round-trip at their byte boundaries", "[unit]") {
  for (uint64_t v : {0ull, 1ull, 127ull, 128ull, 16383ull, 16384ull, 0xffffffffull, ~0ull}) {
    std::string s;
    PutVarint(&s, v);
    size_t pos = 0;
    uint64_t back = 0;
    REQUIRE(GetVarint(s, &pos, &back));
    CHECK(back == v);
    CHECK(pos == s.size());
  }
  std::string one;
  PutVarint(&one, 300);
  CHECK(one == std::string("\xac\x02", 2));  // LEB128
}

TEST_CASE("postings round-trip with positions, deltas coded small", "[unit]") {
  std::vector<Posting> list = {{0, 1.0, {0, 3, 200}}, {7, 2.5, {1}}, {1000000, 0.33, {5, 6, 70000}}};
  std::string s;
  EncodePostings(list, &s);
  auto back = DecodePostings(s);
  REQUIRE(back.ok());
  REQUIRE(back->size() == 3);
  CHECK((*back)[0] == list[0]);
  CHECK((*back)[1] == list[1]);
  CHECK((*back)[2].doc == 1000000);
  CHECK((*back)[2].frequency == Approx(0.33));
  CHECK((*back)[2].positions == list[2].positions);
  // doc 0 freq 100 3 positions (0,3,197 -> 1+1+1+1+2 bytes) ...
  CHECK(s.size() < 30);
}

TEST_CASE("postings round-trip on random lists", "[unit]") {
  std::mt19937 rng(7);
  std::vector<Posting> list;
  uint32_t doc = 0;
  for (int i = 0; i < 500; ++i) {
    doc += 1 + rng() % 1000;
    Posting p;
    p.doc = doc;
    p.frequency = static_cast<double>(rng() % 10000) / 100.0;
    uint32_t pos = rng() % 5;
    for (uint32_t k = 0; k < rng() % 20; ++k) p.positions.push_back(pos += 1 + rng() % 300);
    list.push_back(p);
  }
  std::string s;
  EncodePostings(list, &s);
  auto back = DecodePostings(s);
  REQUIRE(back.ok());
  CHECK(*back == list);
}

TEST_CASE("corrupt postings give an error, not a crash", "[unit]") {
  std::string s;
  EncodePostings({{3, 1.0, {1, 2, 3}}}, &s);
  for (size_t cut = 1; cut < s.size(); ++cut) CHECK_FALSE(DecodePostings(s.substr(0, cut)).ok());
  CHECK_FALSE(DecodePostings(std::string(12, '\xff')).ok());
  // A position count far beyond the input.
  CHECK_FALSE(DecodePostings(std::string("\x00\x64\xff\xff\x03", 5)).ok());
}
