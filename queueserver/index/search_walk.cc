// The walk of a prepared search (search_walk.h), and the doc map and
// postings reads it makes.
#include "queueserver/index/search_walk.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <tuple>

#include "common/base/hash.h"
#include "common/url/url.h"
#include "queueserver/index/doc_summary.h"
#include "queueserver/index/index_records.h"
#include "queueserver/index/search_hit.h"
#include "queueserver/index/search_index.h"

namespace crawl::queueserver {
namespace {

bool HostMatches(const std::string& host, const std::vector<std::string>& sites) {
  if (sites.empty()) return true;
  for (const std::string& site : sites) {
    if (host == site) return true;
    if (host.size() > site.size() && host.ends_with(site) && host[host.size() - site.size() - 1] == '.')
      return true;
  }
  return false;
}

bool HasPhrase(const std::vector<size_t>& phrase, const std::vector<const Posting*>& postings) {
  const std::vector<uint32_t>& first = postings[phrase[0]]->positions;
  for (uint32_t start : first) {
    bool all = true;
    for (size_t j = 1; j < phrase.size() && all; ++j) {
      const std::vector<uint32_t>& pos = postings[phrase[j]]->positions;
      all = std::binary_search(pos.begin(), pos.end(), static_cast<uint32_t>(start + j));
    }
    if (all) return true;
  }
  return false;
}

// The document at `place` of partition `part`, from its doc map entry.
Status DocAt(const PreparedSearch& p, uint32_t part, uint32_t place, IndexedDoc* d) {
  uint32_t arrival = 0;
  if (!p.parts[part].closed) {
    if (!p.active_at || place >= p.active_at->size()) return Status::Internal("corrupt index doc map");
    arrival = (*p.active_at)[place];
  } else {
    std::string key = "r";
    PutU32Be(&key, part);
    PutU32Be(&key, place);
    std::string v;
    if (Status s = p.snapshot->GetIndex(IndexFamily::kDocMap, key, &v); !s.ok() || v.size() != 4)
      return s.ok() || s.code() == StatusCode::kNotFound ? Status::Internal("corrupt index doc map") : s;
    arrival = static_cast<uint32_t>(ReadBe(v, 4));
  }
  std::string key = "a";
  PutU32Be(&key, part);
  PutU32Be(&key, arrival);
  std::string value;
  Status s = p.snapshot->GetIndex(IndexFamily::kDocMap, key, &value);
  if (!s.ok()) return s.code() == StatusCode::kNotFound ? Status::Internal("corrupt index doc map") : s;
  const std::string_view v(value);
  size_t pos = 24;
  uint64_t length = 0, title = 0, title_terms = 0;
  if (v.size() < 24 + 4 || !GetVarint(v, &pos, &length) || !GetVarint(v, &pos, &title) ||
      !GetVarint(v, &pos, &title_terms) || pos >= v.size() || length > UINT32_MAX || title > UINT32_MAX ||
      title_terms > title)
    return Status::Internal("corrupt index doc map entry");
  d->title_terms = static_cast<uint32_t>(title_terms);
  std::copy(value.begin(), value.begin() + 24, d->id.begin());
  d->url_hash = ReadBe(v, 8);
  d->text_hash = ReadBe(v.substr(9), 7);
  d->host_hash = ReadBe(v.substr(16), 8);
  d->length = static_cast<uint32_t>(length);
  d->title_tokens = static_cast<uint32_t>(title);
  const char type = v[pos++];
  d->link = type == 'l' || type == 'L';
  d->boost = 0;
  if (type == 'P' || type == 'L') {  // with the ScoringFilter boost
    if (pos + 8 > v.size()) return Status::Internal("corrupt index doc map entry");
    const double boost = std::bit_cast<double>(ReadBe(v.substr(pos), 8));
    d->boost = std::isfinite(boost) ? boost : 0.0;
    pos += 8;
  }
  d->url.assign(v.substr(pos));
  return Status::Ok();
}

// A term's blocked list in `part` ("" when the term is not in it): from the
// snapshot for merged partitions, else from the lists copied by Prepare.
Status PreparedList(const PreparedSearch& p, uint32_t part, uint64_t term_id, std::string* out) {
  out->clear();
  if (p.parts[part].merged) {
    std::string key = "m";
    PutU32Be(&key, part);
    PutU64Be(&key, term_id);
    Status s = p.snapshot->GetIndex(IndexFamily::kPostings, key, out);
    if (s.code() == StatusCode::kNotFound) return Status::Ok();
    return s;
  }
  auto it = p.memory_lists.find({part, term_id});
  if (it != p.memory_lists.end()) *out = it->second;
  return Status::Ok();
}

// Whether `d` answers searches: its URL's liveness record in the snapshot
// (index_records.h PageLiveness), so the walk sees one version of a page.
Status IsLive(const PreparedSearch& p, const IndexedDoc& d, bool* live) {
  std::string v;
  Status s = p.snapshot->GetIndex(IndexFamily::kDocMap, LivenessKey(d.url_hash), &v);
  if (s.code() == StatusCode::kNotFound) {
    *live = true;
    return Status::Ok();
  }
  if (!s.ok()) return s;
  PageLiveness l;
  if (!DecodeLiveness(v, &l)) return Status::Internal("corrupt index liveness record");
  *live = DocIsLive(d, &l);
  return Status::Ok();
}

Status CorruptList() { return Status::Internal("corrupt index postings list"); }

// A page that names another canonical URL is grouped under it: its hit's
// grouping key (url_hash) becomes the canonical's hash, the name server's
// merge shows the group as the canonical page. Each page groups under the
// one URL it names itself; nothing is followed from page to page, so a
// chain (A names B, B names C) or a loop (A names B, B names A) costs one
// hash per hit and ends: A groups under B, B under C (or A). The doc's own
// url_hash (its identity: liveness, removal, doc map) is left alone.
void GroupUnderCanonical(DocSummary&& summary, SearchHit* hit) {
  hit->alternates = std::move(summary.alternates);
  if (summary.canonical_url.empty() || summary.canonical_url == hit->url) return;
  hit->url_hash = hash::Hash8(summary.canonical_url);
  hit->canonical_url = std::move(summary.canonical_url);
}

}  // namespace

SearchWalk::SearchWalk(const PreparedSearch& prepared, const SearchOptions& options, const Clock& clock,
                       text::Stemmer& stemmer)
    : p_(prepared),
      options_(options),
      clock_(clock),
      stemmer_(stemmer),
      wanted_(options.max_matches == 0 ? 200 : options.max_matches) {}

Result<SearchOutcome> SearchWalk::Run() {
  for (size_t c = 0; c < p_.query.clauses.size() && !out_.timed_out; ++c) {
    if (Status s = WalkClause(c); !s.ok()) return s;
  }
  if (Status s = CollectHits(); !s.ok()) return s;
  return std::move(out_);
}

Status SearchWalk::WalkClause(size_t c) {
  const QueryClause& clause = p_.query.clauses[c];
  std::vector<uint64_t> title_ids;
  for (uint64_t id : clause.term_ids) title_ids.push_back(TitleTermId(id));
  title_found_.clear();
  clause_matches_ = 0;
  for (int pass = 0; pass < 2 && !out_.timed_out && clause_matches_ < wanted_; ++pass) {
    const std::vector<uint64_t>& ids = pass == 0 ? title_ids : clause.term_ids;
    bool known = !ids.empty();
    for (uint64_t id : ids) known = known && p_.stats.contains(id);
    if (!known) continue;
    if (Status s = WalkPass(c, pass, ids); !s.ok()) return s;
  }
  return Status::Ok();
}

Status SearchWalk::WalkPass(size_t c, int pass, const std::vector<uint64_t>& ids) {
  std::vector<PartitionWalk> walks;
  if (Status s = OpenWalks(ids, &walks); !s.ok()) return s;
  // All partitions in doc-rank order: a heap of each one's next match.
  auto worse = [&](size_t a, size_t b) {
    const double ra = RankOf(walks[a]), rb = RankOf(walks[b]);
    if (ra != rb) return ra < rb;
    return std::tie(walks[a].part, walks[a].place) > std::tie(walks[b].part, walks[b].place);
  };
  std::vector<size_t> heap(walks.size());
  for (size_t i = 0; i < heap.size(); ++i) heap[i] = i;
  std::make_heap(heap.begin(), heap.end(), worse);
  uint64_t steps = 0;
  std::vector<const Posting*> postings(p_.query.clauses[c].term_ids.size());
  while (!heap.empty() && clause_matches_ < wanted_) {
    if (PastDeadline(&steps)) {
      out_.timed_out = true;
      break;
    }
    std::pop_heap(heap.begin(), heap.end(), worse);
    PartitionWalk& w = walks[heap.back()];
    for (size_t t = 0; t < postings.size(); ++t) postings[t] = &w.readers[t].current();
    if (Status s = TakeMatch(c, pass, w, postings); !s.ok()) return s;
    // This partition's next match.
    const bool more = w.place < UINT32_MAX && NextMatch(w, w.place + 1);
    if (AnyCorrupt(w)) return CorruptList();
    if (more) {
      std::push_heap(heap.begin(), heap.end(), worse);
    } else {
      heap.pop_back();
    }
  }
  return Status::Ok();
}

Status SearchWalk::OpenWalks(const std::vector<uint64_t>& ids, std::vector<PartitionWalk>* walks) const {
  walks->reserve(p_.parts.size());
  // Documents after each partition's last: the later partitions' sizes.
  std::vector<uint64_t> later(p_.parts.size(), 0);
  for (size_t pi = p_.parts.size(); pi-- > 1;) later[pi - 1] = later[pi] + p_.parts[pi].docs;
  for (uint32_t pi = 0; pi < p_.parts.size(); ++pi) {
    if (p_.parts[pi].docs == 0) continue;
    PartitionWalk& w = walks->emplace_back();
    w.part = pi;
    w.size = p_.parts[pi].docs;
    w.later_docs = later[pi];
    bool all = true;
    for (uint64_t id : ids) {
      std::string& list = w.lists.emplace_back();
      if (Status s = PreparedList(p_, pi, id, &list); !s.ok()) return s;
      if (list.empty()) {
        all = false;
        break;
      }
    }
    if (all) {
      w.readers.resize(w.lists.size());
      for (size_t t = 0; t < w.lists.size() && all; ++t) all = w.readers[t].Open(w.lists[t]);
      if (AnyCorrupt(w)) return CorruptList();
    }
    if (all) {
      w.lead.resize(w.lists.size());
      for (size_t t = 0; t < w.lead.size(); ++t) w.lead[t] = t;
      std::sort(w.lead.begin(), w.lead.end(),
                [&](size_t a, size_t b) { return w.lists[a].size() < w.lists[b].size(); });
      all = NextMatch(w, 0);
      if (AnyCorrupt(w)) return CorruptList();
    }
    if (!all) walks->pop_back();
  }
  return Status::Ok();
}

Status SearchWalk::TakeMatch(size_t c, int pass, const PartitionWalk& w,
                             const std::vector<const Posting*>& postings) {
  const QueryClause& clause = p_.query.clauses[c];
  for (const auto& phrase : clause.phrases) {
    if (!HasPhrase(phrase, postings)) return Status::Ok();
  }
  const uint64_t key = (uint64_t{w.part} << 32) | w.place;
  if (pass == 1 && title_found_.contains(key)) return Status::Ok();
  IndexedDoc d;
  if (Status s = DocAt(p_, w.part, w.place, &d); !s.ok()) return s;
  bool live = true;
  if (Status s = IsLive(p_, d, &live); !s.ok() || !live) return s;
  if (!clause.sites.empty() && !HostMatches(url::HostOf(d.url), clause.sites)) return Status::Ok();
  ++clause_matches_;
  ++out_.matches;
  Found f;
  f.clause = c;
  f.id = d.id;
  f.hit.url = d.url;
  f.hit.url_hash = d.url_hash;
  f.hit.text_hash = d.text_hash;
  f.hit.link = d.link;
  ScoreHit(p_, clause, d, RankOf(w), postings, stemmer_, &f.hit);
  if (pass == 0) title_found_.insert(key);
  auto it = found_.find(key);
  if (it == found_.end()) {
    found_.emplace(key, std::move(f));
  } else if (f.hit.total() > it->second.hit.total()) {
    it->second = std::move(f);
  }
  return Status::Ok();
}

bool SearchWalk::PastDeadline(uint64_t* steps) const {
  return options_.deadline_unix_ms > 0 && (*steps)++ % 256 == 0 &&
         clock_.NowUnixMs() >= options_.deadline_unix_ms;
}

Status SearchWalk::CollectHits() {
  std::vector<Found> all;
  all.reserve(found_.size());
  for (auto& [key, f] : found_) all.push_back(std::move(f));
  std::sort(all.begin(), all.end(), [](const Found& a, const Found& b) {
    return a.hit.total() != b.hit.total() ? a.hit.total() > b.hit.total() : a.hit.url < b.hit.url;
  });
  const int64_t now_s = clock_.NowUnixMs() / 1000;
  for (Found& f : all) {
    if (out_.hits.size() >= wanted_) break;
    std::string bytes;
    Status s = p_.snapshot->GetIndex(IndexFamily::kDocs, IdString(f.id), &bytes);
    if (!s.ok() && s.code() != StatusCode::kNotFound) return s;
    if (s.ok()) {
      auto summary = ParseSummary(bytes);
      if (!summary.ok()) return summary.status();
      // Past its unavailable_after (X-Robots-Tag / robots meta): the page
      // has left the results; the next hit takes its place. (The walk
      // counted it among its max_matches: with expired pages among the best
      // matches a search may return fewer.)
      if (summary->unavailable_after_unix_s > 0 && summary->unavailable_after_unix_s <= now_s) continue;
      f.hit.title = summary->title;
      f.hit.language = summary->language;
      f.hit.near_duplicate_cluster = summary->near_duplicate_cluster;
      f.hit.snippet = Snippet(*summary, p_.query.clauses[f.clause], stemmer_);
      GroupUnderCanonical(std::move(*summary), &f.hit);
    }
    out_.hits.push_back(std::move(f.hit));
  }
  return Status::Ok();
}

bool SearchWalk::NextMatch(PartitionWalk& w, uint32_t from) {
  uint32_t target = from;
  for (size_t k = 0; k < w.lead.size();) {
    BlockedReader& r = w.readers[w.lead[k]];
    if (!r.Seek(target)) return false;
    if (r.current().doc > target) {
      target = r.current().doc;
      k = 0;
      continue;
    }
    ++k;
  }
  w.place = target;
  return true;
}

bool SearchWalk::AnyCorrupt(const PartitionWalk& w) {
  return std::any_of(w.readers.begin(), w.readers.end(), [](const BlockedReader& r) { return r.corrupt(); });
}

// Yioop's DOC_RANK: log10 of the documents after this one, in its own
// partition and in every later one, so a document keeps its lead over all
// that arrived after it, not only over its own partition's.
double SearchWalk::RankOf(const PartitionWalk& w) {
  return DocRank(uint64_t{w.size} - 1 - w.place + w.later_docs);
}

}  // namespace crawl::queueserver
