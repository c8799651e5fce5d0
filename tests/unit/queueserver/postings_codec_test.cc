// Delta + varint postings (queueserver/index/postings_codec.h) and the
// varints under them (common/base/varint.h): round trips and bad input.
#include "queueserver/index/postings_codec.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace crawl::queueserver;
using crawl::GetVarint;
using crawl::PutVarint;

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

TEST_CASE("a frequency is written in hundredths exactly as llround writes it", "[unit]") {
  const auto reference = [](double f) {
    return static_cast<uint64_t>(std::llround(std::max(0.0, f) * 100.0));
  };
  std::vector<double> values = {0.0,
                                -0.0,
                                -1.5,
                                0.004999999999999999,
                                0.005,
                                0.015,
                                0.025,
                                1.0,
                                2.5,
                                0.49999999999999994 / 100,
                                123.455,
                                1e10,
                                4.5e13,
                                0x1p52 / 100,
                                0x1p53 / 100,
                                1e300,
                                std::numeric_limits<double>::infinity(),
                                std::numeric_limits<double>::quiet_NaN(),
                                std::numeric_limits<double>::denorm_min()};
  for (int k = 0; k < 100000; ++k) values.push_back(k / 200.0);  // every half hundredth up to 500
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> small(0, 50), wide(-10, 1e9);
  for (int k = 0; k < 200000; ++k) values.push_back(k % 2 ? small(rng) : wide(rng));
  for (double f : values) {
    INFO(f);
    REQUIRE(crawl::queueserver::FrequencyHundredths(f) == reference(f));
  }
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

TEST_CASE("blocked lists: a reader seeks across blocks and sees every posting", "[unit]") {
  std::mt19937 rng(11);
  std::vector<Posting> list;
  uint32_t doc = 0;
  for (int i = 0; i < 1000; ++i) {  // 8 blocks of 128, the last short
    doc += 1 + rng() % 50;
    Posting p;
    p.doc = doc;
    p.frequency = static_cast<double>(rng() % 1000) / 100.0;
    uint32_t pos = rng() % 5;
    for (uint32_t k = 0; k < 1 + rng() % 6; ++k) p.positions.push_back(pos += 1 + rng() % 30);
    list.push_back(p);
  }
  std::string chunk;
  EncodePostings(list, &chunk);
  FlatPostings flat;
  REQUIRE(DecodeAppend(chunk, &flat).ok());
  REQUIRE(flat.size() == list.size());
  // Reversed order in the flat form, sorted by the order vector: the
  // encoding follows `order`.
  std::vector<uint32_t> order(flat.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::string blocked;
  EncodeBlocked(flat, order, &blocked);
  BlockedReader r;
  REQUIRE(r.Open(blocked));
  for (const Posting& p : list) {
    CHECK(r.current().doc == p.doc);
    CHECK(r.current().positions == p.positions);
    CHECK(r.current().frequency == Approx(p.frequency).margin(0.006));
    if (&p != &list.back()) REQUIRE(r.Next());
  }
  CHECK_FALSE(r.Next());
  CHECK_FALSE(r.corrupt());
  // Seeks: to a doc present, between docs, far ahead, past the end.
  BlockedReader s;
  REQUIRE(s.Open(blocked));
  REQUIRE(s.Seek(list[300].doc));
  CHECK(s.current().doc == list[300].doc);
  CHECK(s.current().positions == list[300].positions);
  REQUIRE(s.Seek(list[301].doc - (list[301].doc - list[300].doc > 1 ? 1 : 0)));
  CHECK(s.current().doc == list[301].doc);
  REQUIRE(s.Seek(list[999].doc));
  CHECK(s.current().doc == list[999].doc);
  CHECK(s.Seek(list[999].doc));  // never backwards, stays
  CHECK_FALSE(s.Seek(list[999].doc + 1));
  CHECK_FALSE(s.corrupt());
  // A doc map: DecodeAppend renumbers through it.
  std::vector<uint32_t> map(list.back().doc + 1, 0);
  for (uint32_t d = 0; d < map.size(); ++d) map[d] = static_cast<uint32_t>(map.size() - 1 - d);
  FlatPostings mapped;
  REQUIRE(DecodeAppend(chunk, &mapped, &map).ok());
  CHECK(mapped.doc.front() == map[list.front().doc]);
  std::vector<uint32_t> short_map(3);
  CHECK_FALSE(DecodeAppend(chunk, &mapped, &short_map).ok());
  // Corrupt blocked lists: an error, not a crash.
  for (size_t cut : {size_t{0}, size_t{1}, size_t{5}, blocked.size() / 2, blocked.size() - 1}) {
    BlockedReader c;
    bool opened = c.Open(std::string_view(blocked).substr(0, cut));
    while (opened && c.Next()) {
    }
    CHECK(c.corrupt());
  }
  std::string flipped = blocked;
  flipped[flipped.size() / 2] = '\xff';
  // Without a checksum a flipped byte may still decode; then the reader
  // must at least keep its promise of strictly ascending docs (or report
  // the list corrupt), never walk backwards or loop.
  BlockedReader c;
  bool ok = c.Open(flipped);
  bool ascending = true, first = true;
  uint32_t last = 0;
  size_t steps = 0;
  while (ok && c.Next() && steps++ < list.size() * 2) {
    if (!first && c.current().doc <= last) ascending = false;
    last = c.current().doc;
    first = false;
  }
  CHECK(steps <= list.size() * 2);
  CHECK((c.corrupt() || ascending));
}

TEST_CASE("KeptInDocOrder orders kept postings as sorting (doc, index) does", "[unit]") {
  std::mt19937 rng(23);
  std::vector<uint32_t> order;
  std::vector<uint64_t> scratch;
  // Short lists (the comparison sort) and long ones (the radix passes), doc
  // ranges from one pass to three, repeated docs, and dead docs left out.
  for (const uint32_t n : {0u, 1u, 5u, 255u, 256u, 257u, 3000u, 40000u}) {
    for (const uint32_t docs : {1u, 7u, 2048u, 2049u, 100000u, 5000000u}) {
      FlatPostings flat;
      for (uint32_t i = 0; i < n; ++i)
        flat.doc.push_back(static_cast<uint32_t>(rng() % (docs + docs / 10 + 1)));
      std::vector<bool> keep(docs);
      for (size_t d = 0; d < keep.size(); ++d) keep[d] = rng() % 5 != 0;
      std::vector<uint64_t> packed;
      for (uint32_t i = 0; i < n; ++i) {
        if (flat.doc[i] < keep.size() && keep[flat.doc[i]]) packed.push_back(uint64_t{flat.doc[i]} << 32 | i);
      }
      std::sort(packed.begin(), packed.end());
      std::vector<uint32_t> expected;
      for (uint64_t p : packed) expected.push_back(static_cast<uint32_t>(p));
      INFO("n " << n << " docs " << docs);
      KeptInDocOrder(flat, keep, &order, &scratch);
      CHECK(order == expected);
    }
  }
}

// EncodeBlocked writes into room for the longest encoding: its bytes must be
// those of the varint-by-varint writer it replaced, for values of every
// varint length (32-bit docs, frequencies and positions), any order, and
// lists from empty to several blocks.
TEST_CASE("EncodeBlocked writes what appending varint by varint writes", "[unit]") {
  auto reference = [](const FlatPostings& in, const std::vector<uint32_t>& order) {
    std::string header, body;
    PutVarint(&header, (order.size() + kBlockPostings - 1) / kBlockPostings);
    int64_t previous = -1;
    for (size_t b = 0; b < order.size(); b += kBlockPostings) {
      const size_t start = body.size();
      for (size_t k = b; k < std::min(order.size(), b + kBlockPostings); ++k) {
        const uint32_t i = order[k];
        PutVarint(&body, static_cast<uint64_t>(static_cast<int64_t>(in.doc[i]) - previous - 1));
        previous = in.doc[i];
        PutVarint(&body, in.freq100[i]);
        const std::vector<uint32_t> positions = in.Positions(i);
        PutVarint(&body, positions.size());
        uint32_t last = 0;
        for (const uint32_t p : positions) {
          PutVarint(&body, p - last);
          last = p;
        }
      }
      PutVarint(&header, static_cast<uint64_t>(previous));
      PutVarint(&header, body.size() - start);
    }
    return header + body;
  };
  std::mt19937 rng(31);
  auto wide = [&](uint32_t limit) { return rng() % 4 == 0 ? rng() % limit : rng() % 200; };
  for (int round = 0; round < 300; ++round) {
    FlatPostings flat;
    const uint32_t n = round % 10 == 0 ? 0 : rng() % 600;
    uint32_t doc = 0;
    for (uint32_t k = 0; k < n && doc < 0xF0000000u; ++k) {
      doc += 1 + wide(0x00FFFFFFu);
      const uint32_t freq100 = rng() % 8 == 0 ? rng() : rng() % 300;
      std::vector<uint32_t> positions;
      uint32_t position = wide(1000);
      for (uint32_t p = rng() % 5; p > 0 && position < 0xF0000000u; --p)
        positions.push_back(position += 1 + wide(0x0FFFFFFFu));
      flat.Add(doc, freq100, positions);
    }
    std::vector<uint32_t> order(flat.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    if (round % 2 == 1) std::shuffle(order.begin(), order.end(), rng);  // no caller does; still no overrun
    std::string got = "prefix";                                         // EncodeBlocked appends
    EncodeBlocked(flat, order, &got);
    CHECK(got == "prefix" + reference(flat, order));
  }
}

namespace {

// The decoder DecodeAppend replaced, which decoded every position: the
// reference for what a list holds and which lists are corrupt.
std::optional<std::vector<Posting>> DecodeEveryPosition(std::string_view in) {
  std::vector<Posting> out;
  size_t pos = 0;
  int64_t previous_doc = -1;
  while (pos < in.size()) {
    uint64_t delta = 0, freq = 0, n = 0;
    if (!GetVarint(in, &pos, &delta) || !GetVarint(in, &pos, &freq) || !GetVarint(in, &pos, &n))
      return std::nullopt;
    const int64_t doc = previous_doc + 1 + static_cast<int64_t>(delta);
    if (doc > UINT32_MAX || n > in.size() - pos || freq > UINT32_MAX) return std::nullopt;
    previous_doc = doc;
    Posting p{static_cast<uint32_t>(doc), static_cast<double>(freq) / 100.0, {}};
    uint64_t position = 0;
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t d = 0;
      if (!GetVarint(in, &pos, &d)) return std::nullopt;
      position += d;
      if (position > UINT32_MAX) return std::nullopt;
      p.positions.push_back(static_cast<uint32_t>(position));
    }
    out.push_back(std::move(p));
  }
  return out;
}

// A varint of v in `bytes` bytes (padded with continuation bytes when longer
// than it needs: the gaps a fetcher sends may be written so).
void PutPaddedVarint(std::string* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes - 1; ++i) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v & 0x7f));
}

}  // namespace

// Partition merges keep each posting's position gaps as bytes; the lists
// they write must hold what decoding every position held, and every list
// the old decoder refused must still be refused.
TEST_CASE("DecodeAppend keeps position gaps as bytes, agreeing with decoding them", "[unit]") {
  std::mt19937 rng(2026);
  auto gap_value = [&] {
    switch (rng() % 12) {
      case 0:
        return uint64_t{rng() % 0x10000000u};
      case 1:
        return uint64_t{0};
      case 2:
        return uint64_t{0x0FFFFFFF};  // the longest gap of DecodeAppend's fast path (4 bytes)
      case 3:
        return uint64_t{rng()};  // up to 2^32: 5 bytes, sums past 2^32
      default:
        return uint64_t{rng() % 200};
    }
  };
  int refused = 0, accepted = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string list;
    const uint32_t postings = rng() % 40;
    for (uint32_t k = 0; k < postings; ++k) {
      PutVarint(&list, rng() % 50);
      PutVarint(&list, rng() % 1000);
      const uint32_t n = rng() % 4 == 0 ? rng() % 40 : rng() % 6;
      PutVarint(&list, n);
      for (uint32_t i = 0; i < n; ++i) {
        const uint64_t v = gap_value();
        const int shortest = v < (1u << 7) ? 1 : v < (1u << 14) ? 2 : v < (1u << 21) ? 3 : 4;
        PutPaddedVarint(&list, v, rng() % 5 == 0 ? shortest + 1 + static_cast<int>(rng() % 2) : shortest);
      }
    }
    // A third of the lists damaged: cut, a byte changed, or a huge gap.
    if (round % 3 == 1 && !list.empty()) {
      switch (rng() % 3) {
        case 0:
          list.resize(rng() % list.size());
          break;
        case 1:
          list[rng() % list.size()] = static_cast<char>(rng());
          break;
        default:
          PutVarint(&list, 0), PutVarint(&list, 1), PutVarint(&list, 2), PutVarint(&list, 0xFFFFFFF0u),
              PutVarint(&list, 0x20u);
      }
    }
    INFO("round " << round);
    const auto expected = DecodeEveryPosition(list);
    FlatPostings flat;
    flat.gaps = "stale";  // DecodeAppend appends
    flat.first = {5};
    const crawl::Status s = DecodeAppend(list, &flat);
    REQUIRE(s.ok() == expected.has_value());
    if (!s.ok()) {
      ++refused;
      continue;
    }
    ++accepted;
    REQUIRE(flat.size() == expected->size());
    std::vector<uint32_t> order(flat.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::string blocked;
    EncodeBlocked(flat, order, &blocked);
    if (expected->empty()) continue;
    BlockedReader r;
    REQUIRE(r.Open(blocked));
    for (size_t k = 0; k < expected->size(); ++k) {
      CHECK(r.current().doc == (*expected)[k].doc);
      CHECK(r.current().frequency == (*expected)[k].frequency);
      CHECK(r.current().positions == (*expected)[k].positions);
      CHECK(flat.Positions(k) == (*expected)[k].positions);
      CHECK(r.Next() == (k + 1 < expected->size()));
    }
    CHECK_FALSE(r.corrupt());
  }
  CHECK(refused > 100);
  CHECK(accepted > 1000);
}

// DecodeAppend finds a posting's gaps by their ends, sixteen bytes at a time.
TEST_CASE("SkipVarints stops where reading varint after varint stops", "[unit]") {
  std::mt19937 rng(28);
  for (int round = 0; round < 20000; ++round) {
    std::string bytes(rng() % 70, '\0');
    const uint32_t high_share = rng() % 9;  // in eighths: 0 none ... 8 every byte
    for (char& c : bytes) c = static_cast<char>((rng() % 128) | (rng() % 8 < high_share ? 0x80 : 0));
    const size_t from = bytes.empty() ? 0 : rng() % (bytes.size() + 1);
    const uint64_t n = rng() % 72;
    const char* const begin = bytes.data() + from;
    const char* const end = bytes.data() + bytes.size();
    // The reference: one byte at a time.
    const char* expected = n == 0 ? begin : nullptr;
    for (uint64_t left = n, i = from; left > 0 && i < bytes.size(); ++i) {
      if (static_cast<uint8_t>(bytes[i]) < 0x80 && --left == 0) expected = bytes.data() + i + 1;
    }
    INFO("round " << round << ", " << bytes.size() << " bytes from " << from << ", n " << n);
    CHECK(crawl::queueserver::SkipVarints(begin, end, n) == expected);
  }
}
