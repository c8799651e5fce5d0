// Revisit policies (recrawl; queueserver/revisit_policy.h) and the
// fetch state's recrawl fields in its store encoding.
#include "queueserver/revisit_policy.h"

#include <catch2/catch.hpp>

#include "queueserver/store/fetch_state_codec.h"
#include "queueserver/store/queue_store_codec.h"

namespace qs = crawl::queueserver;
namespace v1 = crawl::v1;
using qs::FetchState;
using qs::RevisitKind;
using qs::RevisitPolicy;

namespace {
constexpr int64_t kNowUs = 1'700'000'000'000'000;
constexpr int64_t kNowS = kNowUs / 1'000'000;

FetchState Fetched(int status, int64_t interval_s) {
  FetchState s;
  s.url = "https://a.example/";
  s.last_status = status;
  s.revisit_interval_s = interval_s;
  return s;
}

RevisitPolicy Policy(RevisitKind kind) {
  RevisitPolicy p;
  p.kind = kind;
  p.interval_s = 1000;
  p.min_interval_s = 100;
  p.max_interval_s = 5000;
  return p;
}
}  // namespace

TEST_CASE("revisit policy fixed: every page every interval", "[unit]") {
  const RevisitPolicy p = Policy(RevisitKind::kFixed);
  for (auto kind : {v1::REVISIT_NONE, v1::REVISIT_NOT_MODIFIED, v1::REVISIT_IDENTICAL_DIGEST}) {
    const auto next = qs::ComputeNextVisit(p, Fetched(200, 3000), kind, kNowUs);
    CHECK(next.interval_s == 1000);
    CHECK(next.next_visit_unix_us == kNowUs + 1000 * 1'000'000);
  }
}

TEST_CASE("revisit policy expires: the page's own lifetime within the floor and the ceiling (Yioop)",
          "[unit]") {
  const RevisitPolicy p = Policy(RevisitKind::kExpires);
  FetchState s = Fetched(200, 0);
  s.expires_unix_s = kNowS + 2000;
  CHECK(qs::ComputeNextVisit(p, s, v1::REVISIT_NONE, kNowUs).interval_s == 2000);
  s.expires_unix_s = kNowS + 10;  // under the floor
  CHECK(qs::ComputeNextVisit(p, s, v1::REVISIT_NONE, kNowUs).interval_s == 100);
  s.expires_unix_s = kNowS - 10;  // already stale: the floor
  CHECK(qs::ComputeNextVisit(p, s, v1::REVISIT_NONE, kNowUs).interval_s == 100);
  s.expires_unix_s = kNowS + 90'000;  // over the ceiling
  CHECK(qs::ComputeNextVisit(p, s, v1::REVISIT_NOT_MODIFIED, kNowUs).interval_s == 5000);
  s.expires_unix_s = 0;  // none given: the interval
  CHECK(qs::ComputeNextVisit(p, s, v1::REVISIT_NONE, kNowUs).interval_s == 1000);
}

TEST_CASE("revisit policy adaptive: Nutch's AdaptiveFetchSchedule", "[unit]") {
  const RevisitPolicy p = Policy(RevisitKind::kAdaptive);
  // First fetch: starts at the interval.
  CHECK(qs::ComputeNextVisit(p, Fetched(200, 0), v1::REVISIT_NONE, kNowUs).interval_s == 1000);
  // MODIFIED: interval *= (1 - DEC_RATE) = 0.8.
  CHECK(qs::ComputeNextVisit(p, Fetched(200, 1000), v1::REVISIT_NONE, kNowUs).interval_s == 800);
  // NOTMODIFIED (304, or the same digest): interval *= (1 + INC_RATE) = 1.4.
  CHECK(qs::ComputeNextVisit(p, Fetched(304, 1000), v1::REVISIT_NOT_MODIFIED, kNowUs).interval_s == 1400);
  CHECK(qs::ComputeNextVisit(p, Fetched(200, 1000), v1::REVISIT_IDENTICAL_DIGEST, kNowUs).interval_s == 1400);
  // Clamped to [MIN_INTERVAL, MAX_INTERVAL].
  CHECK(qs::ComputeNextVisit(p, Fetched(200, 110), v1::REVISIT_NONE, kNowUs).interval_s == 100);
  CHECK(qs::ComputeNextVisit(p, Fetched(304, 4000), v1::REVISIT_NOT_MODIFIED, kNowUs).interval_s == 5000);
  // An error keeps the interval.
  const auto err = qs::ComputeNextVisit(p, Fetched(-3, 1000), v1::REVISIT_NONE, kNowUs);
  CHECK(err.interval_s == 1000);
  CHECK(err.next_visit_unix_us == kNowUs + 1000 * 1'000'000);
}

TEST_CASE("revisit policy: names and bounds are checked", "[unit]") {
  CHECK(*qs::ParseRevisitKind("") == RevisitKind::kFixed);
  CHECK(*qs::ParseRevisitKind("adaptive") == RevisitKind::kAdaptive);
  CHECK(*qs::ParseRevisitKind("expires") == RevisitKind::kExpires);
  CHECK(*qs::ParseRevisitKind("optimal") == RevisitKind::kOptimal);
  CHECK_FALSE(qs::ParseRevisitKind("sometimes").ok());
  RevisitPolicy p;
  REQUIRE(qs::ParseRevisitBounds("60:86400", &p).ok());
  CHECK(p.min_interval_s == 60);
  CHECK(p.max_interval_s == 86400);
  CHECK(qs::ParseRevisitBounds("", &p).ok());
  for (const char* bad : {"60", "0:10", "10:5", "a:b", "10:", ":10", "1:2:3"})
    CHECK_FALSE(qs::ParseRevisitBounds(bad, &p).ok());
}

TEST_CASE("fetch state codec: the recrawl fields round-trip and a version 1 record still reads", "[unit]") {
  namespace codec = qs::store_internal;
  FetchState s = Fetched(200, 1234);
  s.next_visit_unix_us = kNowUs;
  s.observed_us = 777;
  FetchState back;
  REQUIRE(codec::DecodeFetchState(codec::EncodeFetchState(s), &back));
  CHECK(back == s);
  // A version 2 record: without the observed time.
  std::string v2 = codec::EncodeFetchState(s);
  v2.resize(v2.size() - 8);
  v2[0] = 2;
  REQUIRE(codec::DecodeFetchState(v2, &back));
  CHECK(back.observed_us == 0);
  CHECK(back.next_visit_unix_us == kNowUs);
  // A version 1 record: the same fields without the last three.
  std::string old = codec::EncodeFetchState(s);
  old.resize(old.size() - 24);
  old[0] = 1;
  REQUIRE(codec::DecodeFetchState(old, &back));
  CHECK(back.revisit_interval_s == 0);
  CHECK(back.next_visit_unix_us == 0);
  CHECK(back.url == s.url);
}
