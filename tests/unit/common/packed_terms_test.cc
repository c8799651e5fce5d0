// Packed mini index terms (common/text/packed_terms.h): round trips, and
// every kind of bad buffer read as an error, never a crash.
#include "common/text/packed_terms.h"

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "common/base/varint.h"

using crawl::text::AppendPackedTerm;
using crawl::text::CountPackedTerms;
using crawl::text::PackedTermReader;
using crawl::text::TermCounts;

namespace {

struct Term {
  std::string text;
  TermCounts counts;
  std::vector<uint32_t> positions;
  bool operator==(const Term&) const = default;
};

std::string Pack(const std::vector<Term>& terms) {
  std::string out;
  for (const Term& t : terms)
    AppendPackedTerm(&out, t.text, t.counts, t.positions.data(), t.positions.size());
  return out;
}

std::vector<Term> Read(std::string_view in, bool* ok) {
  std::vector<Term> out;
  PackedTermReader reader(in);
  while (reader.Next()) out.push_back({std::string(reader.term()), reader.counts(), reader.positions()});
  *ok = reader.status().ok();
  return out;
}

std::vector<Term> RandomTerms(std::mt19937& rng) {
  std::vector<Term> terms(rng() % 20);
  for (Term& t : terms) {
    t.text.assign(rng() % 12, 'a');
    for (char& c : t.text) c = static_cast<char>(rng());  // any bytes: UTF-8 is not the codec's business
    t.counts = {static_cast<uint32_t>(rng() % 5), static_cast<uint32_t>(rng() % 300),
                static_cast<uint32_t>(rng()), rng() % 2 == 0 ? 0u : 0xffffffffu};
    uint64_t at = rng() % 3 == 0 ? 0 : rng() % 100'000;
    for (uint32_t k = rng() % 40; k > 0 && at <= 0xffffffffu; --k) {
      t.positions.push_back(static_cast<uint32_t>(at));
      at += 1 + (rng() % 4 == 0 ? rng() % 1'000'000 : rng() % 50);
    }
  }
  return terms;
}

}  // namespace

TEST_CASE("packed terms: what is written reads back, in order", "[unit]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 500; ++round) {
    const std::vector<Term> terms = RandomTerms(rng);
    const std::string packed = Pack(terms);
    bool ok = false;
    CHECK(Read(packed, &ok) == terms);
    CHECK(ok);
    REQUIRE(CountPackedTerms(packed).ok());
    CHECK(*CountPackedTerms(packed) == terms.size());
  }
  bool ok = false;
  CHECK(Read("", &ok).empty());
  CHECK(ok);
  // The largest values fit.
  const std::vector<Term> edge = {
      {"x", {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}, {0, 0xffffffffu}}};
  CHECK(Read(Pack(edge), &ok) == edge);
  CHECK(ok);
}

TEST_CASE("packed terms: a cut buffer is an error or a shorter list, never a crash", "[unit]") {
  std::mt19937 rng(11);
  for (int round = 0; round < 50; ++round) {
    const std::vector<Term> terms = RandomTerms(rng);
    const std::string packed = Pack(terms);
    for (size_t cut = 0; cut < packed.size(); ++cut) {
      bool ok = false;
      const std::vector<Term> read = Read(std::string_view(packed).substr(0, cut), &ok);
      // What was read is a prefix of what was written.
      REQUIRE(read.size() <= terms.size());
      CHECK(std::equal(read.begin(), read.end(), terms.begin()));
      if (ok) CHECK(Pack(read).size() == cut);  // cut at a term's end
    }
  }
}

TEST_CASE("packed terms: each kind of bad value is an error", "[unit]") {
  auto bad = [](const std::string& in) {
    PackedTermReader reader(in);
    while (reader.Next()) {
    }
    return !reader.status().ok() && !CountPackedTerms(in).ok();
  };
  auto head = [](std::string term, std::vector<uint64_t> counts) {
    std::string out;
    crawl::PutVarint(&out, term.size());
    out += term;
    for (uint64_t c : counts) crawl::PutVarint(&out, c);
    return out;
  };
  CHECK(bad(head("ab", {})));  // counts missing
  CHECK(
      bad(std::string("\x05"
                      "ab",
                      3)));                                  // term past the end
  CHECK(bad(head("a", {0x100000000ull, 0, 0, 0, 0})));       // a count past 2^32 - 1
  CHECK(bad(head("a", {0, 0, 0, 0, 3}) + "\x01\x01"));       // 3 positions, 2 bytes left
  CHECK(bad(head("a", {0, 0, 0, 0, 2}) + "\x01\x00"));       // gap 0: not ascending
  CHECK(bad(head("a", {0, 0, 0, 0, 2, 0xffffffffull, 1})));  // position past 2^32 - 1
  CHECK(bad(head("a", {0, 0, 0, 0, 1, 0x100000000ull})));    // first position past 2^32 - 1
  CHECK(bad(std::string(11, '\xff')));                       // varint over 10 bytes
  CHECK_FALSE(bad(head("a", {0, 0, 0, 0, 2, 0, 1})));        // 0 then 1: fine
  CHECK_FALSE(bad(head("", {0, 0, 0, 0, 0})));               // an empty term reads (the index skips it)
  // The reader stops at the first error and stays stopped.
  const std::string stops = head("a", {1, 0, 0, 0, 0}) + "\x7f";
  PackedTermReader reader(stops);  // a view: the buffer must outlive it
  CHECK(reader.Next());
  CHECK_FALSE(reader.Next());
  CHECK_FALSE(reader.status().ok());
  CHECK_FALSE(reader.Next());
}

TEST_CASE("packed terms: PackTerms and UnpackTerms move a mini index between its two forms", "[unit]") {
  crawl::v1::MiniIndex index;
  index.set_token_count(5);
  auto* a = index.add_terms();
  a->set_term("crawl");
  a->set_title_count(1);
  a->set_body_count(2);
  a->set_anchor_count(4);
  for (uint32_t p : {0u, 3u, 4u}) a->add_positions(p);
  auto* b = index.add_terms();
  b->set_term("web");
  b->set_body_count(1);
  b->set_description_count(1);
  b->add_positions(2);
  const crawl::v1::MiniIndex original = index;
  REQUIRE(crawl::text::PackTerms(&index).ok());
  CHECK(index.terms_size() == 0);
  CHECK_FALSE(index.postings().empty());
  REQUIRE(crawl::text::UnpackTerms(&index).ok());
  CHECK(index.SerializeAsString() == original.SerializeAsString());

  // Positions out of order cannot be packed; nothing changes.
  crawl::v1::MiniIndex unsorted = original;
  unsorted.mutable_terms(0)->set_positions(1, 5);
  const std::string before = unsorted.SerializeAsString();
  CHECK_FALSE(crawl::text::PackTerms(&unsorted).ok());
  CHECK(unsorted.SerializeAsString() == before);

  // A bad buffer cannot be unpacked; nothing changes.
  crawl::v1::MiniIndex broken;
  broken.set_postings(
      "\x05"
      "ab");
  CHECK_FALSE(crawl::text::UnpackTerms(&broken).ok());
  CHECK(broken.postings() ==
        "\x05"
        "ab");
  CHECK(broken.terms_size() == 0);
}

TEST_CASE("packed terms: shortest_gaps are the bytes that encoding the positions again writes", "[unit]") {
  std::mt19937 rng(23);
  for (int round = 0; round < 300; ++round) {
    const std::vector<Term> terms = RandomTerms(rng);
    const std::string packed = Pack(terms);
    PackedTermReader reader(packed);
    while (reader.Next()) {
      std::string again;
      uint32_t previous = 0;
      for (uint32_t p : reader.positions()) {
        crawl::PutVarint(&again, p - previous);
        previous = p;
      }
      CHECK(reader.shortest_gaps() == again);
    }
    CHECK(reader.status().ok());
  }
  // A gap written longer than it needs (1 as 0x81 0x00) reads as 1, and
  // gives no bytes to copy: copying them would not be what encoding writes.
  std::string longer;
  AppendPackedTerm(&longer, "t", {}, nullptr, 0);
  longer.back() = 2;  // two positions
  longer += std::string("\x05\x81\x00", 3);
  PackedTermReader reader(longer);
  REQUIRE(reader.Next());
  CHECK(reader.positions() == std::vector<uint32_t>{5, 6});
  CHECK(reader.shortest_gaps().empty());
}

TEST_CASE("packed terms: a long run of gaps with a wide or a 0 gap at each place", "[unit]") {
  // A run of one-byte gaps, the same run with one two-byte gap at each
  // place, and with a 0 gap at each place (an error except first).
  std::vector<uint32_t> small;
  for (uint32_t p = 0, k = 0; k < 300; ++k) small.push_back(p += 1 + k % 127);
  bool ok = false;
  const std::vector<Term> run{{"run", {1, 0, 299, 0}, small}};
  CHECK(Read(Pack(run), &ok) == run);
  CHECK(ok);
  for (size_t at = 0; at < small.size(); at += 37) {
    std::vector<uint32_t> wide = small;
    for (size_t k = at; k < wide.size(); ++k) wide[k] += 1000;  // gap at `at` takes two bytes
    const std::vector<Term> terms{{"a", {}, small}, {"wide", {}, wide}, {"b", {}, small}};
    CHECK(Read(Pack(terms), &ok) == terms);
    CHECK(ok);
    std::string zero;
    crawl::PutVarint(&zero, 1);
    zero += "z";
    for (int c = 0; c < 4; ++c) crawl::PutVarint(&zero, 0);
    crawl::PutVarint(&zero, small.size());
    for (size_t k = 0; k < small.size(); ++k) zero.push_back(static_cast<char>(k == at && k > 0 ? 0 : 1));
    Read(zero, &ok);
    CHECK(ok == (at == 0));  // a 0 gap is fine only first
  }
}

namespace {

// The reader as first written, varint by varint: the reference the faster
// paths of PackedTermReader are held to. (terms read, shortest gaps of
// each; ok)
struct Reference {
  std::vector<Term> terms;
  std::vector<std::string> gaps;
  bool ok = true;
};

Reference ReadOneByOne(std::string_view in) {
  Reference r;
  size_t pos = 0;
  constexpr uint64_t kMax32 = 0xffffffffu;
  auto fail = [&] {
    r.ok = false;
    return r;
  };
  while (pos < in.size()) {
    Term t;
    uint64_t length = 0;
    if (!crawl::GetVarint(in, &pos, &length) || length > in.size() - pos) return fail();
    t.text = std::string(in.substr(pos, length));
    pos += length;
    uint64_t c[4];
    for (uint64_t& v : c) {
      if (!crawl::GetVarint(in, &pos, &v) || v > kMax32) return fail();
    }
    t.counts = {static_cast<uint32_t>(c[0]), static_cast<uint32_t>(c[1]), static_cast<uint32_t>(c[2]),
                static_cast<uint32_t>(c[3])};
    uint64_t n = 0;
    if (!crawl::GetVarint(in, &pos, &n) || n > in.size() - pos) return fail();
    const size_t gaps_at = pos;
    bool shortest = true;
    uint64_t position = 0;
    for (uint64_t i = 0; i < n; ++i) {
      const size_t at = pos;
      uint64_t gap = 0;
      if (!crawl::GetVarint(in, &pos, &gap)) return fail();
      if (pos - at > 1 && in[pos - 1] == 0) shortest = false;
      if ((gap == 0 && i > 0) || gap > kMax32 || position + gap > kMax32) return fail();
      position += gap;
      t.positions.push_back(static_cast<uint32_t>(position));
    }
    r.gaps.push_back(shortest && n > 0 ? std::string(in.substr(gaps_at, pos - gaps_at)) : std::string());
    r.terms.push_back(std::move(t));
  }
  return r;
}

// PackedTermReader reads `packed` as ReadOneByOne does: the same terms,
// positions, shortest gaps and verdict.
void CheckAgreesWithReference(std::string_view packed) {
  const Reference want = ReadOneByOne(packed);
  PackedTermReader reader(packed);
  std::vector<Term> got;
  std::vector<std::string> gaps;
  while (reader.Next()) {
    got.push_back({std::string(reader.term()), reader.counts(), reader.positions()});
    gaps.emplace_back(reader.shortest_gaps());
  }
  CHECK(reader.status().ok() == want.ok);
  CHECK(got == want.terms);
  CHECK(gaps == want.gaps);
}

}  // namespace

TEST_CASE("packed terms: the reader agrees with a varint-by-varint reading on damaged buffers", "[unit]") {
  // Gaps of one, two and more bytes mixed (the reader decodes runs of 1-2
  // byte gaps without a branch per gap), then bytes flipped, dropped and
  // doubled: the same terms, positions, gap bytes and verdict as the
  // reference, or the same error. Every other round has long runs of
  // one-byte gaps (a frequent word's; the reader sums up to 16 at once).
  std::mt19937 rng(23);
  for (int round = 0; round < 3000; ++round) {
    const bool runs = round % 2 == 1;
    std::vector<Term> terms(1 + rng() % 4);
    for (Term& t : terms) {
      t.text = std::string(1 + rng() % 6, static_cast<char>('a' + rng() % 26));
      uint64_t at = rng() % 300;
      for (uint32_t k = rng() % (runs ? 90 : 30); k > 0; --k) {
        t.positions.push_back(static_cast<uint32_t>(at));
        const uint32_t kind = runs ? (rng() % 16 == 0 ? 4 + rng() % 4 : 0) : rng() % 8;
        at += 1 + (kind < 4 ? rng() % 127 : kind < 7 ? rng() % 16'000 : rng() % 5'000'000);
      }
      t.counts.body = static_cast<uint32_t>(t.positions.size());
    }
    std::string packed = Pack(terms);
    for (int damage = rng() % 4; damage > 0 && !packed.empty(); --damage) {
      const size_t at = rng() % packed.size();
      switch (rng() % 4) {
        case 0:
          packed[at] = static_cast<char>(rng());
          break;
        case 1:
          packed[at] = static_cast<char>(packed[at] ^ 0x80);
          break;
        case 2:
          packed.erase(at, 1);
          break;
        default:
          packed.insert(at, 1, packed[at]);
          break;
      }
    }
    INFO("round " << round);
    CheckAgreesWithReference(packed);
  }
}

TEST_CASE("packed terms: the reader agrees with a varint-by-varint reading on gaps in any encoding",
          "[unit]") {
  // Written by hand, not by AppendPackedTerm: one-byte gaps, two-byte ones,
  // small gaps padded to two bytes (not the shortest form), gaps of three
  // bytes, 0 gaps, at any offset from a 16-byte window's start (terms of
  // 1-16 letters), a term followed by others or ending the buffer.
  std::mt19937 rng(31);
  for (int round = 0; round < 4000; ++round) {
    std::string packed;
    for (int t = 1 + rng() % 4; t > 0; --t) {
      const std::string text(1 + rng() % 16, static_cast<char>('a' + rng() % 26));
      crawl::PutVarint(&packed, text.size());
      packed += text;
      for (int c = 0; c < 4; ++c) crawl::PutVarint(&packed, rng() % 3);
      const uint32_t n = rng() % 40;
      crawl::PutVarint(&packed, n);
      for (uint32_t k = 0; k < n; ++k) {
        const uint32_t kind = rng() % 100;
        if (kind < 50) {
          packed.push_back(static_cast<char>(1 + rng() % 127));
        } else if (kind < 85) {
          crawl::PutVarint(&packed, 128 + rng() % 16'000);
        } else if (kind < 93) {  // padded: low 7 bits, then a 0 byte
          packed.push_back(static_cast<char>(0x80 | (rng() % 128)));
          packed.push_back(0);
        } else if (kind < 97) {
          crawl::PutVarint(&packed, 16'384 + rng() % 1'000'000);
        } else {
          packed.push_back(0);
        }
      }
    }
    INFO("round " << round);
    CheckAgreesWithReference(packed);
  }
}
