// The walk of a prepared search (SearchIndex::Run, DESIGN.md 8): each
// clause's matches in doc-rank order over every partition, the best hits
// kept, then their summaries and snippets.
#include <algorithm>
#include <array>
#include <tuple>

#include "common/url.h"
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
    if (host.size() > site.size() && host.ends_with(site) && host[host.size() - site.size() - 1] == '.') return true;
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
  d->link = v[pos++] == 'l';
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

}  // namespace

Result<SearchOutcome> SearchIndex::Run(const PreparedSearch& p, const SearchOptions& options, const Clock& clock,
                                       text::Stemmer& stemmer) {
  const Query& query = p.query;
  SearchOutcome out;
  const uint32_t wanted = options.max_matches == 0 ? 200 : options.max_matches;
  struct Found {
    SearchHit hit;
    std::array<uint8_t, 24> id{};
    size_t clause = 0;
  };
  // One partition's walk of one clause: a reader per clause term over its
  // blocked list (doc numbers are places, so a walk in place order is a walk
  // in doc-rank order), positioned on the partition's next match.
  struct Walk {
    uint32_t part = 0, size = 0;
    std::vector<std::string> lists;  // clause term order
    std::vector<BlockedReader> readers;
    std::vector<size_t> lead;  // reader indexes, shortest list first
    uint32_t place = 0;
  };
  // Leapfrog: moves every reader to the first place >= `from` they all hold.
  auto next_match = [](Walk& w, uint32_t from) -> bool {
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
  };
  auto any_corrupt = [](const Walk& w) {
    return std::any_of(w.readers.begin(), w.readers.end(), [](const BlockedReader& r) { return r.corrupt(); });
  };
  const Status corrupt = Status::Internal("corrupt index postings list");
  std::unordered_map<uint64_t, Found> found;  // (partition << 32 | place) -> best scoring clause
  for (size_t c = 0; c < query.clauses.size() && !out.timed_out; ++c) {
    const QueryClause& clause = query.clauses[c];
    // Two walks per clause: first the pages whose title holds every clause
    // term (the terms' title postings), then the ordinary lists; both in
    // doc-rank order, together at most `wanted` matches. A known item's
    // page late in doc-rank order is reached although its words (a site's
    // name on every page) match `wanted` pages before it.
    std::vector<uint64_t> title_ids;
    for (uint64_t id : clause.term_ids) title_ids.push_back(TitleTermId(id));
    std::unordered_set<uint64_t> title_found;  // keys the title walk matched
    uint32_t clause_matches = 0;
    for (int pass = 0; pass < 2 && !out.timed_out && clause_matches < wanted; ++pass) {
      const std::vector<uint64_t>& ids = pass == 0 ? title_ids : clause.term_ids;
      bool known = !ids.empty();
      for (uint64_t id : ids) known = known && p.stats.contains(id);
      if (!known) continue;
      std::vector<Walk> walks;
      walks.reserve(p.parts.size());
      for (uint32_t pi = 0; pi < p.parts.size(); ++pi) {
        if (p.parts[pi].docs == 0) continue;
        Walk& w = walks.emplace_back();
        w.part = pi;
        w.size = p.parts[pi].docs;
        bool all = true;
        for (uint64_t id : ids) {
          std::string& list = w.lists.emplace_back();
          if (Status s = PreparedList(p, pi, id, &list); !s.ok()) return s;
          if (list.empty()) {
            all = false;
            break;
          }
        }
        if (all) {
          w.readers.resize(w.lists.size());
          for (size_t t = 0; t < w.lists.size() && all; ++t) all = w.readers[t].Open(w.lists[t]);
          if (any_corrupt(w)) return corrupt;
        }
        if (all) {
          w.lead.resize(w.lists.size());
          for (size_t t = 0; t < w.lead.size(); ++t) w.lead[t] = t;
          std::sort(w.lead.begin(), w.lead.end(),
                    [&](size_t a, size_t b) { return w.lists[a].size() < w.lists[b].size(); });
          all = next_match(w, 0);
          if (any_corrupt(w)) return corrupt;
        }
        if (!all) walks.pop_back();
      }
      // All partitions in doc-rank order: a heap of each one's next match.
      auto rank_of = [](const Walk& w) { return DocRank(uint64_t{w.size} - 1 - w.place); };
      auto worse = [&](size_t a, size_t b) {
        const double ra = rank_of(walks[a]), rb = rank_of(walks[b]);
        if (ra != rb) return ra < rb;
        return std::tie(walks[a].part, walks[a].place) > std::tie(walks[b].part, walks[b].place);
      };
      std::vector<size_t> heap(walks.size());
      for (size_t i = 0; i < heap.size(); ++i) heap[i] = i;
      std::make_heap(heap.begin(), heap.end(), worse);
      uint64_t steps = 0;
      std::vector<const Posting*> postings(clause.term_ids.size());
      IndexedDoc d;
      while (!heap.empty() && clause_matches < wanted) {
        if (options.deadline_unix_ms > 0 && steps++ % 256 == 0 && clock.NowUnixMs() >= options.deadline_unix_ms) {
          out.timed_out = true;
          break;
        }
        std::pop_heap(heap.begin(), heap.end(), worse);
        Walk& w = walks[heap.back()];
        for (size_t t = 0; t < postings.size(); ++t) postings[t] = &w.readers[t].current();
        bool keep = true;
        for (const auto& phrase : clause.phrases) keep = keep && HasPhrase(phrase, postings);
        const uint64_t key = (uint64_t{w.part} << 32) | w.place;
        if (keep && pass == 1) keep = !title_found.contains(key);
        if (keep) {
          if (Status s = DocAt(p, w.part, w.place, &d); !s.ok()) return s;
          keep = clause.sites.empty() || HostMatches(url::HostOf(d.url), clause.sites);
        }
        if (keep) {
          ++clause_matches;
          ++out.matches;
          Found f;
          f.clause = c;
          f.id = d.id;
          f.hit.url = d.url;
          f.hit.url_hash = d.url_hash;
          f.hit.text_hash = d.text_hash;
          f.hit.link = d.link;
          ScoreHit(p, clause, d, rank_of(w), postings, stemmer, &f.hit);
          if (pass == 0) title_found.insert(key);
          auto it = found.find(key);
          if (it == found.end()) {
            found.emplace(key, std::move(f));
          } else if (f.hit.total() > it->second.hit.total()) {
            it->second = std::move(f);
          }
        }
        // This partition's next match.
        const bool more = w.place < UINT32_MAX && next_match(w, w.place + 1);
        if (any_corrupt(w)) return corrupt;
        if (more) {
          std::push_heap(heap.begin(), heap.end(), worse);
        } else {
          heap.pop_back();
        }
      }
    }
  }
  std::vector<Found> all;
  all.reserve(found.size());
  for (auto& [key, f] : found) all.push_back(std::move(f));
  std::sort(all.begin(), all.end(), [](const Found& a, const Found& b) {
    return a.hit.total() != b.hit.total() ? a.hit.total() > b.hit.total() : a.hit.url < b.hit.url;
  });
  if (all.size() > wanted) all.resize(wanted);
  for (Found& f : all) {
    std::string bytes;
    Status s = p.snapshot->GetIndex(IndexFamily::kDocs, IdString(f.id), &bytes);
    if (!s.ok() && s.code() != StatusCode::kNotFound) return s;
    if (s.ok()) {
      auto summary = ParseSummary(bytes);
      if (!summary.ok()) return summary.status();
      f.hit.title = summary->title;
      f.hit.language = summary->language;
      f.hit.snippet = Snippet(*summary, query.clauses[f.clause], stemmer);
    }
    out.hits.push_back(std::move(f.hit));
  }
  return out;
}

}  // namespace crawl::queueserver
