// Queue store codecs (queueserver/store/queue_store_codec.h): key encodings
// sort as the store needs, records come back as written, records of older
// stores still decode, and damaged records are refused.
#include "queueserver/store/queue_store_codec.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <limits>
#include <string>
#include <vector>

#include "common/url/robots.h"

namespace qs = crawl::queueserver;
namespace codec = crawl::queueserver::store_internal;

namespace {

// urls_added, sitemap_urls, over_cap (8 bytes each) and seeded (4).
constexpr size_t kHostCapFieldBytes = 8 + 8 + 8 + 4;

qs::FrontierEntry SampleEntry() {
  qs::FrontierEntry e;
  e.url = "http://a.test/page";
  e.referrer = "http://a.test/";
  e.depth = 3;
  e.weight = 7;
  e.tier = -2;
  e.cash = 0.125;
  e.retries = 1;
  e.kind = qs::UrlKind::kPage;
  return e;
}

bool SameEntry(const qs::FrontierEntry& a, const qs::FrontierEntry& b) {
  return a.url == b.url && a.referrer == b.referrer && a.depth == b.depth && a.weight == b.weight &&
         a.tier == b.tier && a.cash == b.cash && a.retries == b.retries && a.kind == b.kind &&
         a.link_kind == b.link_kind;
}

}  // namespace

TEST_CASE("store codec: numbers are big-endian, so keys sort as the numbers", "[unit]") {
  std::string a, b;
  codec::PutU64(&a, 255);
  codec::PutU64(&b, 256);
  CHECK(a == std::string("\0\0\0\0\0\0\0\xff", 8));
  CHECK(a < b);
  CHECK(codec::ReadU64(b) == 256);
  codec::Reader short_input(std::string_view(a).substr(0, 7));
  uint64_t v = 0;
  CHECK_FALSE(short_input.U64(&v));
}

TEST_CASE("store codec: a string is read back whole, a cut one is refused", "[unit]") {
  std::string out;
  codec::PutStr(&out, "origin");
  codec::PutU32(&out, 9);
  codec::Reader r(out);
  std::string s;
  uint32_t n = 0;
  REQUIRE(r.Str(&s));
  CHECK(s == "origin");
  REQUIRE(r.U32(&n));
  CHECK(n == 9);
  CHECK(r.done());
  codec::Reader cut(std::string_view(out).substr(0, 6));
  CHECK_FALSE(cut.Str(&s));
}

TEST_CASE("store codec: descending sort keys put the highest value first and come back exactly", "[unit]") {
  const std::vector<double> values = {std::numeric_limits<double>::infinity(), 1e9, 2.5, 1, 0.25, 0, -0.5, -3,
                                      -std::numeric_limits<double>::infinity()};
  std::vector<std::string> keys;
  for (double d : values) {
    std::string k;
    codec::PutU64(&k, codec::DescendingBits(d));
    keys.push_back(k);
    CHECK(codec::FromDescendingBits(codec::DescendingBits(d)) == d);
  }
  CHECK(std::is_sorted(keys.begin(), keys.end()));
}

TEST_CASE("store codec: tier numbers sort as signed integers", "[unit]") {
  std::vector<std::string> keys;
  for (int32_t tier :
       {std::numeric_limits<int32_t>::min(), -5, -1, 0, 1, 40, std::numeric_limits<int32_t>::max()}) {
    std::string k;
    codec::PutTier(&k, tier);
    CHECK(codec::ReadTier(k) == tier);
    keys.push_back(k);
  }
  CHECK(std::is_sorted(keys.begin(), keys.end()));
}

TEST_CASE("store codec: a frontier entry comes back as written, with or without its length", "[unit]") {
  qs::FrontierEntry e = SampleEntry();
  qs::FrontierEntry back;
  REQUIRE(codec::DecodeEntry(codec::EncodeEntry(e), &back));
  CHECK(SameEntry(back, e));
  e.kind = qs::UrlKind::kRobots;
  REQUIRE(codec::DecodeEntry(codec::EncodeEntry(e), &back));
  CHECK(back.kind == qs::UrlKind::kRobots);

  // The link kind (scoring chain) rides in the kind byte;
  // 'P', what every older store wrote for a page, is a body link.
  for (auto k : {qs::LinkKind::kBody, qs::LinkKind::kNav, qs::LinkKind::kSitemap, qs::LinkKind::kRedirect,
                 qs::LinkKind::kEmbed}) {
    qs::FrontierEntry page = SampleEntry();
    page.link_kind = k;
    REQUIRE(codec::DecodeEntry(codec::EncodeEntry(page), &back));
    CHECK(SameEntry(back, page));
  }
  CHECK(codec::EncodeEntry(SampleEntry()).back() == 'P');

  std::string sized, expected;
  codec::AppendSizedEntry(&sized, e);
  codec::PutStr(&expected, codec::EncodeEntry(e));
  CHECK(sized == expected);
}

TEST_CASE("store codec: an entry of an older store (no order data) decodes, a damaged one does not",
          "[unit]") {
  std::string old;
  codec::PutStr(&old, "http://old.test/");
  codec::PutStr(&old, "");
  codec::PutU32(&old, 2);
  old.push_back('P');
  qs::FrontierEntry back;
  REQUIRE(codec::DecodeEntry(old, &back));
  CHECK(back.url == "http://old.test/");
  CHECK(back.depth == 2);
  CHECK(back.weight == 0);
  CHECK(back.tier == 0);

  const std::string full = codec::EncodeEntry(SampleEntry());
  CHECK_FALSE(codec::DecodeEntry("", &back));
  CHECK_FALSE(codec::DecodeEntry(full.substr(0, full.size() - 5) + "P", &back));
  CHECK_FALSE(codec::DecodeEntry(full.substr(0, full.size() - 1) + "xxP", &back));
}

TEST_CASE("store codec: CLD statistics, leases and origins come back as written", "[unit]") {
  const qs::CldStats cld{.seen = 12, .wseen = 3.5, .win = 0.75, .seeded = false, .in_clds = {}};
  qs::CldStats cld_back;
  REQUIRE(codec::DecodeCld(codec::EncodeCld(cld), &cld_back));
  CHECK(cld_back == cld);
  CHECK_FALSE(codec::DecodeCld(codec::EncodeCld(cld) + "x", &cld_back));
  // A seeded CLD keeps its flag; records written before the flag read as not seeded.
  const qs::CldStats seeded{.seen = 2, .wseen = 1, .win = 0, .seeded = true, .in_clds = {}};
  REQUIRE(codec::DecodeCld(codec::EncodeCld(seeded), &cld_back));
  CHECK(cld_back == seeded);
  CHECK(codec::EncodeCld(seeded).size() == codec::EncodeCld(cld).size() + 1);
  cld_back.seeded = true;
  REQUIRE(codec::DecodeCld(codec::EncodeCld(cld), &cld_back));
  CHECK_FALSE(cld_back.seeded);
  CHECK_FALSE(codec::DecodeCld(codec::EncodeCld(seeded) + "x", &cld_back));

  // IRLbot's in-degree (distinct other CLDs linking in) comes back, with or
  // without the seeded flag; a record written before it reads as none.
  const qs::CldStats linked{
      .seen = 40, .wseen = 44, .win = 2, .seeded = false, .in_clds = {7, 9, 4000000000u}};
  REQUIRE(codec::DecodeCld(codec::EncodeCld(linked), &cld_back));
  CHECK(cld_back == linked);
  qs::CldStats linked_seed = linked;
  linked_seed.seeded = true;
  REQUIRE(codec::DecodeCld(codec::EncodeCld(linked_seed), &cld_back));
  CHECK(cld_back == linked_seed);
  REQUIRE(codec::DecodeCld(codec::EncodeCld(seeded), &cld_back));
  CHECK(cld_back.in_clds.empty());
  // Truncated, unsorted, oversized or unknown-flag records are refused.
  const std::string rec = codec::EncodeCld(linked);
  CHECK_FALSE(codec::DecodeCld(rec.substr(0, rec.size() - 2), &cld_back));
  std::string unsorted = rec;
  std::swap(unsorted[unsorted.size() - 1], unsorted[unsorted.size() - 5]);
  CHECK_FALSE(codec::DecodeCld(unsorted, &cld_back));
  std::string too_many = rec.substr(0, 25);
  codec::PutU32(&too_many, static_cast<uint32_t>(qs::CldStats::kMaxInClds + 1));
  for (uint32_t k = 0; k <= qs::CldStats::kMaxInClds; ++k) codec::PutU32(&too_many, k);
  CHECK_FALSE(codec::DecodeCld(too_many, &cld_back));
  std::string bad_flag = codec::EncodeCld(cld);
  bad_flag.push_back('\4');
  CHECK_FALSE(codec::DecodeCld(bad_flag, &cld_back));

  qs::LeaseRecord lease;
  lease.fetcher_id = "fetcher-1";
  lease.deadline_ms = 1234567;
  lease.origins = {"http://a.test", "https://b.test:8443"};
  qs::LeaseRecord lease_back;
  REQUIRE(codec::DecodeLease(codec::EncodeLease(lease), &lease_back));
  CHECK(lease_back.fetcher_id == lease.fetcher_id);
  CHECK(lease_back.deadline_ms == lease.deadline_ms);
  CHECK(lease_back.origins == lease.origins);

  qs::OriginRecord origin;
  origin.robots = qs::RobotsState::kKnown;
  origin.rules = crawl::robots::Parse("User-agent: *\nDisallow: /private\n", "crawler");
  origin.robots_failures = 2;
  origin.robots_retry_at_ms = 99;
  origin.retry_pending = true;
  origin.failures = 3;
  origin.backoff_until_ms = 5000;
  origin.parked = true;
  origin.error_delayed = true;
  qs::OriginRecord origin_back;
  REQUIRE(codec::DecodeOrigin(codec::EncodeOrigin(origin), &origin_back));
  CHECK(origin_back == origin);
}

TEST_CASE("store codec: an origin of an older store (no host back-off) decodes without it", "[unit]") {
  qs::OriginRecord origin;
  origin.robots = qs::RobotsState::kFetching;
  origin.failures = 4;
  origin.backoff_until_ms = 77;
  const std::string full = codec::EncodeOrigin(origin);
  // The back-off fields are 4 + 8 + 4 bytes before the robots expiry's 8 + 8 + 4 + 4.
  const std::string old = full.substr(0, full.size() - 16 - 24 - kHostCapFieldBytes);
  qs::OriginRecord back;
  REQUIRE(codec::DecodeOrigin(old, &back));
  CHECK(back.robots == qs::RobotsState::kFetching);
  CHECK(back.failures == 0);
  CHECK(back.backoff_until_ms == 0);
  CHECK_FALSE(codec::DecodeOrigin(full.substr(0, full.size() - 3), &back));
}

TEST_CASE("store codec: an origin of a store before robots.txt expiry decodes as due; a damaged one does not",
          "[unit]") {
  qs::OriginRecord origin;
  origin.robots = qs::RobotsState::kKnown;
  origin.rules = crawl::robots::Parse("User-agent: *\nDisallow: /p\n", "crawler");
  origin.failures = 2;
  origin.backoff_until_ms = 77;
  origin.error_delayed = true;
  origin.robots_fetched_ms = 1'700'000'000'000;
  origin.robots_expires_ms = 1'700'086'400'000;
  origin.robots_refreshing = true;
  origin.robots_changes = 3;
  const std::string with_caps = codec::EncodeOrigin(origin);
  qs::OriginRecord back;
  REQUIRE(codec::DecodeOrigin(with_caps, &back));
  CHECK(back == origin);
  // Without the host cap fields (a store before them): the same record.
  const std::string full = with_caps.substr(0, with_caps.size() - kHostCapFieldBytes);
  REQUIRE(codec::DecodeOrigin(full, &back));
  CHECK(back == origin);
  // A record written before the expiry fields (the last 8 + 8 + 4 + 4 bytes).
  REQUIRE(codec::DecodeOrigin(full.substr(0, full.size() - 24), &back));
  CHECK(back.robots == qs::RobotsState::kKnown);
  CHECK(back.failures == 2);
  CHECK(back.error_delayed);
  CHECK(back.robots_fetched_ms == 0);
  CHECK(back.robots_expires_ms == 0);  // 0: due, fetched again when its pages come up
  CHECK_FALSE(back.robots_refreshing);
  CHECK(back.robots_changes == 0);
  // Cut inside the new fields, a bad flag, trailing bytes: refused.
  for (size_t cut : {1, 4, 12, 23})
    CHECK_FALSE(codec::DecodeOrigin(full.substr(0, full.size() - cut), &back));
  std::string bad_flag = full;
  bad_flag[bad_flag.size() - 5] = 7;  // robots_refreshing's low byte
  CHECK_FALSE(codec::DecodeOrigin(bad_flag, &back));
  CHECK_FALSE(codec::DecodeOrigin(with_caps + "x", &back));
}

TEST_CASE("store codec: an origin's host cap counts round-trip; a store before them decodes as 0", "[unit]") {
  qs::OriginRecord origin;
  origin.urls_added = 100'000;
  origin.sitemap_urls = 50'000;
  origin.over_cap = 12;
  origin.seeded = true;
  const std::string full = codec::EncodeOrigin(origin);
  qs::OriginRecord back;
  REQUIRE(codec::DecodeOrigin(full, &back));
  CHECK(back == origin);
  qs::OriginRecord before;
  REQUIRE(codec::DecodeOrigin(full.substr(0, full.size() - kHostCapFieldBytes), &before));
  CHECK(before.urls_added == 0);
  CHECK_FALSE(before.seeded);
  for (size_t cut : {1, 4, 20}) CHECK_FALSE(codec::DecodeOrigin(full.substr(0, full.size() - cut), &back));
  std::string bad_flag = full;
  bad_flag[bad_flag.size() - 1] = 2;  // seeded's low byte: 0 or 1
  CHECK_FALSE(codec::DecodeOrigin(bad_flag, &back));
}
