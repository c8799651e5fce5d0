// Encodings of the queue store's keys and values (queue_store_codec.h).
#include "queueserver/store/queue_store_codec.h"

#include <bit>

namespace crawl::queueserver::store_internal {

// ---- encoding: fixed-width big-endian numbers, u32-length-prefixed strings.

void PutU64(std::string* out, uint64_t v) {
  for (int i = 7; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutU32(std::string* out, uint32_t v) {
  for (int i = 3; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutStr(std::string* out, std::string_view s) {
  PutU32(out, static_cast<uint32_t>(s.size()));
  out->append(s);
}

uint64_t ReadU64(std::string_view d) {
  uint64_t v = 0;
  Reader r(d);
  (void)r.U64(&v);
  return v;
}

void PutF64(std::string* out, double v) { PutU64(out, std::bit_cast<uint64_t>(v)); }

// Order-preserving bits of a double, descending: the best (highest) sort
// value has the smallest key.
uint64_t DescendingBits(double d) {
  const uint64_t sign = uint64_t{1} << 63;
  const uint64_t b = std::bit_cast<uint64_t>(d);
  const uint64_t ascending = (b & sign) ? ~b : (b | sign);
  return ~ascending;
}
double FromDescendingBits(uint64_t desc) {
  const uint64_t sign = uint64_t{1} << 63;
  const uint64_t ascending = ~desc;
  return std::bit_cast<double>((ascending & sign) ? (ascending & ~sign) : ~ascending);
}

// url, referrer, depth, weight, tier, cash, retries, then the kind byte:
// 'R' robots.txt, a page by its LinkKind: 'P' body (and older entries),
// 'N' nav, 'S' sitemap, 'D' redirect, 'E' embed.
namespace {
constexpr char kPageKindBytes[] = {'P', 'N', 'S', 'D', 'E'};  // by LinkKind
}  // namespace
void AppendEntry(std::string* out, const FrontierEntry& e) {
  PutStr(out, e.url);
  PutStr(out, e.referrer);
  PutU32(out, e.depth);
  PutU32(out, e.weight);
  PutU32(out, static_cast<uint32_t>(e.tier));
  PutF64(out, e.cash);
  PutU32(out, e.retries);
  out->push_back(e.kind == UrlKind::kRobots ? 'R' : kPageKindBytes[static_cast<size_t>(e.link_kind)]);
}
std::string EncodeEntry(const FrontierEntry& e) {
  std::string out;
  out.reserve(e.url.size() + e.referrer.size() + 33);
  AppendEntry(&out, e);
  return out;
}
// AppendEntry with its length first (PutStr of the encoded entry, without
// the intermediate string).
void AppendSizedEntry(std::string* out, const FrontierEntry& e) {
  const size_t at = out->size();
  PutU32(out, 0);
  AppendEntry(out, e);
  const auto n = static_cast<uint32_t>(out->size() - at - 4);
  for (int i = 0; i < 4; ++i)
    (*out)[at + static_cast<size_t>(i)] = static_cast<char>((n >> (8 * (3 - i))) & 0xff);
}

bool DecodeEntry(std::string_view d, FrontierEntry* e) {
  Reader r(d.substr(0, d.empty() ? 0 : d.size() - 1));
  uint32_t tier = 0;
  uint64_t cash = 0;
  if (d.empty() || !r.Str(&e->url) || !r.Str(&e->referrer) || !r.U32(&e->depth)) return false;
  // Entries written before the crawl orders end here (no order data).
  if (!r.done() && (!r.U32(&e->weight) || !r.U32(&tier) || !r.U64(&cash) || !r.U32(&e->retries) || !r.done()))
    return false;
  e->tier = static_cast<int32_t>(tier);
  e->cash = std::bit_cast<double>(cash);
  e->kind = d.back() == 'R' ? UrlKind::kRobots : UrlKind::kPage;
  e->link_kind = LinkKind::kBody;
  for (size_t k = 0; k < sizeof(kPageKindBytes); ++k)
    if (d.back() == kPageKindBytes[k]) e->link_kind = static_cast<LinkKind>(k);
  return true;
}

// SEEN, WSEEN, WIN, then (when either is set) a flags byte, 1: seeded,
// 2: the in-degree follows (a count and that many sorted CLD hashes).
// Records written before the in-degree end at WIN or at the flag 1.
std::string EncodeCld(const CldStats& c) {
  std::string out;
  PutU64(&out, c.seen);
  PutF64(&out, c.wseen);
  PutF64(&out, c.win);
  const uint8_t flags = (c.seeded ? 1 : 0) | (c.in_clds.empty() ? 0 : 2);
  if (flags == 0) return out;
  out.push_back(static_cast<char>(flags));
  if (flags & 2) {
    PutU32(&out, static_cast<uint32_t>(c.in_clds.size()));
    for (uint32_t h : c.in_clds) PutU32(&out, h);
  }
  return out;
}

bool DecodeCld(std::string_view d, CldStats* c) {
  Reader r(d);
  uint64_t wseen = 0, win = 0;
  if (!r.U64(&c->seen) || !r.U64(&wseen) || !r.U64(&win)) return false;
  c->wseen = std::bit_cast<double>(wseen);
  c->win = std::bit_cast<double>(win);
  c->seeded = false;
  c->in_clds.clear();
  uint8_t flags = 0;
  if (r.done()) return true;
  if (!r.Byte(&flags) || flags == 0 || (flags & ~3) != 0) return false;
  c->seeded = (flags & 1) != 0;
  if (flags & 2) {
    uint32_t n = 0;
    if (!r.U32(&n) || n == 0 || n > CldStats::kMaxInClds) return false;
    c->in_clds.resize(n);
    for (uint32_t k = 0; k < n; ++k) {
      if (!r.U32(&c->in_clds[k]) || (k > 0 && c->in_clds[k] <= c->in_clds[k - 1])) return false;
    }
  }
  return r.done();
}

std::string EncodeOrigin(const OriginRecord& o) {
  std::string out;
  PutU32(&out, static_cast<uint32_t>(o.robots));
  PutU32(&out, static_cast<uint32_t>(o.robots_failures));
  PutU64(&out, static_cast<uint64_t>(o.robots_retry_at_ms));
  PutU32(&out, o.retry_pending ? 1 : 0);
  PutStr(&out, o.rules.Serialize());
  PutU32(&out, o.failures);
  PutU64(&out, static_cast<uint64_t>(o.backoff_until_ms));
  PutU32(&out, (o.parked ? 1u : 0u) | (o.error_delayed ? 2u : 0u));
  PutU64(&out, static_cast<uint64_t>(o.robots_fetched_ms));
  PutU64(&out, static_cast<uint64_t>(o.robots_expires_ms));
  PutU32(&out, o.robots_refreshing ? 1u : 0u);
  PutU32(&out, o.robots_changes);
  PutU64(&out, o.urls_added);
  PutU64(&out, o.sitemap_urls);
  PutU64(&out, o.over_cap);
  PutU32(&out, o.seeded ? 1u : 0u);
  return out;
}

bool DecodeOrigin(std::string_view d, OriginRecord* o) {
  Reader r(d);
  uint32_t state = 0, failures = 0, pending = 0, host_failures = 0, flags = 0;
  uint32_t refreshing = 0, changes = 0;
  uint64_t retry_at = 0, backoff_until = 0, fetched = 0, expires = 0;
  std::string rules;
  if (!r.U32(&state) || !r.U32(&failures) || !r.U64(&retry_at) || !r.U32(&pending) || !r.Str(&rules) ||
      state > 2)
    return false;
  // Records written before host back-off end here.
  if (!r.done() && (!r.U32(&host_failures) || !r.U64(&backoff_until) || !r.U32(&flags))) return false;
  // Records written before robots.txt expiry end here.
  if (!r.done() &&
      (!r.U64(&fetched) || !r.U64(&expires) || !r.U32(&refreshing) || !r.U32(&changes) || refreshing > 1))
    return false;
  // Records written before the per-host URL caps end here.
  uint32_t seeded = 0;
  if (!r.done() && (!r.U64(&o->urls_added) || !r.U64(&o->sitemap_urls) || !r.U64(&o->over_cap) ||
                    !r.U32(&seeded) || seeded > 1 || !r.done()))
    return false;
  o->seeded = seeded != 0;
  o->robots_fetched_ms = static_cast<int64_t>(fetched);
  o->robots_expires_ms = static_cast<int64_t>(expires);
  o->robots_refreshing = refreshing != 0;
  o->robots_changes = changes;
  o->failures = host_failures;
  o->backoff_until_ms = static_cast<int64_t>(backoff_until);
  o->parked = (flags & 1u) != 0;
  o->error_delayed = (flags & 2u) != 0;
  auto parsed = robots::RobotsRules::Deserialize(rules);
  if (!parsed.ok()) return false;
  o->robots = static_cast<RobotsState>(state);
  o->robots_failures = static_cast<int>(failures);
  o->robots_retry_at_ms = static_cast<int64_t>(retry_at);
  o->retry_pending = pending != 0;
  o->rules = std::move(*parsed);
  return true;
}

std::string EncodeLease(const LeaseRecord& l) {
  std::string out;
  PutStr(&out, l.fetcher_id);
  PutU64(&out, static_cast<uint64_t>(l.deadline_ms));
  PutU32(&out, static_cast<uint32_t>(l.origins.size()));
  for (const auto& o : l.origins) PutStr(&out, o);
  return out;
}

bool DecodeLease(std::string_view d, LeaseRecord* l) {
  Reader r(d);
  uint64_t deadline = 0;
  uint32_t n = 0;
  if (!r.Str(&l->fetcher_id) || !r.U64(&deadline) || !r.U32(&n)) return false;
  l->deadline_ms = static_cast<int64_t>(deadline);
  for (uint32_t i = 0; i < n; ++i) {
    if (!r.Str(&l->origins.emplace_back())) return false;
  }
  return r.done();
}

// Tier numbers sort as signed integers.
void PutTier(std::string* out, int32_t tier) { PutU32(out, static_cast<uint32_t>(tier) ^ 0x80000000u); }
int32_t ReadTier(std::string_view d) {
  uint32_t v = 0;
  Reader r(d);
  (void)r.U32(&v);
  return static_cast<int32_t>(v ^ 0x80000000u);
}

}  // namespace crawl::queueserver::store_internal
