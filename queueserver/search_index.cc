// Index build and query walk (search_index.h; DESIGN.md sections 7 and 8).
#include "queueserver/search_index.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <set>
#include <tuple>

#include "common/cld.h"
#include "common/hash.h"
#include "common/url.h"
#include "fetcher/tokenizer.h"
#include "queueserver/doc_map.h"

namespace crawl::queueserver {
namespace {

constexpr size_t kMaxSnippetChars = 300;
constexpr size_t kMaxLinkTitleChars = 100;

void PutU32Be(std::string* out, uint32_t v) {
  for (int i = 3; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutU64Be(std::string* out, uint64_t v) {
  for (int i = 7; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
uint64_t ReadBe(std::string_view d, size_t bytes) {
  uint64_t v = 0;
  for (size_t i = 0; i < bytes; ++i) v = (v << 8) | static_cast<uint8_t>(d[i]);
  return v;
}
void PutString(std::string* out, std::string_view s) {
  PutVarint(out, s.size());
  out->append(s);
}
bool GetString(std::string_view in, size_t* pos, std::string* s) {
  uint64_t n = 0;
  if (!GetVarint(in, pos, &n) || n > in.size() - *pos) return false;
  s->assign(in.substr(*pos, n));
  *pos += n;
  return true;
}

std::array<uint8_t, 24> MakeDocId(uint64_t url_hash, char type, uint64_t text_hash7, uint64_t host_hash) {
  std::array<uint8_t, 24> id{};
  for (int i = 0; i < 8; ++i) id[i] = static_cast<uint8_t>(url_hash >> (56 - 8 * i));
  id[8] = static_cast<uint8_t>(type);
  for (int i = 0; i < 7; ++i) id[9 + i] = static_cast<uint8_t>(text_hash7 >> (48 - 8 * i));
  for (int i = 0; i < 8; ++i) id[16 + i] = static_cast<uint8_t>(host_hash >> (56 - 8 * i));
  return id;
}
std::string IdString(const std::array<uint8_t, 24>& id) { return std::string(id.begin(), id.end()); }

// Cuts `s` to at most `n` bytes on a UTF-8 character boundary.
std::string CutUtf8(std::string s, size_t n) {
  if (s.size() <= n) return s;
  while (n > 0 && (static_cast<uint8_t>(s[n]) & 0xc0) == 0x80) --n;
  s.resize(n);
  return s;
}

// Summaries start with 'r' (stored raw: short ones, such as link
// documents', where zlib costs more than it saves) or 'z' (varint raw size,
// then zlib level 1).
constexpr size_t kCompressAbove = 256;

std::string Compress(const std::string& raw) {
  if (raw.size() <= kCompressAbove) return "r" + raw;
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  std::string out = "z";
  PutVarint(&out, raw.size());
  const size_t header = out.size();
  out.resize(header + size);
  if (compress2(reinterpret_cast<Bytef*>(out.data() + header), &size, reinterpret_cast<const Bytef*>(raw.data()),
                static_cast<uLong>(raw.size()), Z_BEST_SPEED) != Z_OK) {
    return "r" + raw;  // cannot happen with a compressBound buffer
  }
  out.resize(header + size);
  return out;
}

Result<std::string> Decompress(std::string_view in) {
  if (!in.empty() && in[0] == 'r') return std::string(in.substr(1));
  if (in.empty() || in[0] != 'z') return Status::InvalidArgument("corrupt summary");
  size_t pos = 1;
  uint64_t raw_size = 0;
  // Summaries are small (title, URL, 2,000 characters of description).
  if (!GetVarint(in, &pos, &raw_size) || raw_size > (64u << 20)) return Status::InvalidArgument("corrupt summary");
  std::string out(raw_size, '\0');
  uLongf size = static_cast<uLongf>(raw_size);
  if (uncompress(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(in.data() + pos),
                 static_cast<uLong>(in.size() - pos)) != Z_OK ||
      size != raw_size)
    return Status::InvalidArgument("corrupt summary");
  return out;
}

bool HostMatches(const std::string& host, const std::vector<std::string>& sites) {
  if (sites.empty()) return true;
  for (const std::string& site : sites) {
    if (host == site) return true;
    if (host.size() > site.size() && host.ends_with(site) && host[host.size() - site.size() - 1] == '.') return true;
  }
  return false;
}

const Posting* FindPosting(const std::vector<Posting>& list, uint32_t doc) {
  auto it = std::lower_bound(list.begin(), list.end(), doc, [](const Posting& p, uint32_t d) { return p.doc < d; });
  return it != list.end() && it->doc == doc ? &*it : nullptr;
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

// Distinct clause terms among the stemmed words of `text`, and its word count.
std::pair<uint32_t, uint32_t> MatchWords(std::string_view text, const QueryClause& clause,
                                         fetcher::Stemmer& stemmer) {
  std::set<size_t> matched;
  uint32_t words = 0;
  fetcher::ForEachToken(text, [&](std::string_view w) {
    ++words;
    const std::string_view stem = stemmer.Stem(w);
    for (size_t t = 0; t < clause.terms.size(); ++t) {
      if (clause.terms[t] == stem) matched.insert(t);
    }
  });
  return {static_cast<uint32_t>(matched.size()), words};
}

}  // namespace

bool SearchIndex::IsAnchorStopWord(std::string_view w) {
  static const std::set<std::string_view> kStop = {
      "a",    "an",   "and",  "at",   "by",    "click", "for",  "from", "go",   "here", "in",  "is",
      "it",   "link", "more", "of",   "on",    "or",    "page", "read", "see",  "the",  "this", "to",
      "via",  "with", "www",  "http", "https", "next",  "prev", "previous", "back", "home", "top"};
  return w.size() < 2 || kStop.contains(w);
}

SearchIndex::SearchIndex(IndexOptions options, IndexJournal* journal) : options_(options), journal_(journal) {
  if (options_.partition_docs == 0) options_.partition_docs = 100'000;
}

SearchIndex::Partition& SearchIndex::Active() {
  if (partitions_.empty() || partitions_.back().closed) partitions_.emplace_back();
  return partitions_.back();
}

std::string SearchIndex::SummaryBytes(const DocSummary& s) const {
  std::string raw;
  PutString(&raw, s.url);
  PutString(&raw, s.title);
  PutString(&raw, s.language);
  raw.push_back(static_cast<char>((s.nosnippet ? 1 : 0) | (s.link ? 2 : 0)));
  PutVarint(&raw, s.description.size());
  for (const std::string& d : s.description) PutString(&raw, d);
  return Compress(raw);
}

Result<DocSummary> SearchIndex::ParseSummary(std::string_view bytes) {
  auto raw = Decompress(bytes);
  if (!raw.ok()) return raw.status();
  const std::string_view in = *raw;
  DocSummary s;
  size_t pos = 0;
  uint64_t n = 0;
  if (!GetString(in, &pos, &s.url) || !GetString(in, &pos, &s.title) || !GetString(in, &pos, &s.language) ||
      pos >= in.size())
    return Status::InvalidArgument("corrupt summary");
  const auto flags = static_cast<uint8_t>(in[pos++]);
  s.nosnippet = (flags & 1) != 0;
  s.link = (flags & 2) != 0;
  if (!GetVarint(in, &pos, &n) || n > in.size()) return Status::InvalidArgument("corrupt summary");
  for (uint64_t i = 0; i < n; ++i) {
    if (!GetString(in, &pos, &s.description.emplace_back())) return Status::InvalidArgument("corrupt summary");
  }
  return s;
}

bool SearchIndex::AddPage(const v1::FetchRecord& r) {
  if (r.kind() != v1::URL_KIND_PAGE || r.status() < 200 || r.status() >= 300 || r.noindex()) return false;
  const v1::MiniIndex& mi = r.mini_index();
  if (mi.terms_size() == 0) return false;
  const std::string host = url::HostOf(r.url());
  if (host.empty()) return false;
  Doc d;
  d.url = r.url();
  d.url_hash = hash::Hash8(d.url);
  d.text_hash = r.text_hash() >> 8;  // the 7-byte hash: first 7 bytes of the 8
  d.host_hash = hash::Hash8(host);
  d.length = std::max<uint32_t>(mi.token_count(), 1);
  d.title_tokens = mi.title_tokens();
  d.link = false;
  d.id = MakeDocId(d.url_hash, 'p', d.text_hash, d.host_hash);
  if (doc_ids_.contains(IdString(d.id))) return false;

  // Description sentences add their weight to their positions (DESIGN.md 6-7).
  std::vector<std::tuple<uint32_t, uint32_t, double>> regions;
  DocSummary summary;
  summary.url = d.url;
  summary.title = r.title();
  summary.language = r.language();
  summary.nosnippet = r.nosnippet();
  for (const v1::DescriptionSentence& s : r.description()) {
    regions.emplace_back(s.first_position(), s.end_position(), s.weight());
    summary.description.push_back(s.text());
  }
  std::vector<NewTerm> terms;
  terms.reserve(static_cast<size_t>(mi.terms_size()));
  std::unordered_set<uint64_t> seen_terms;
  for (const v1::IndexTerm& t : mi.terms()) {
    if (t.term().empty()) continue;
    NewTerm nt;
    // The id is recomputed: input from another process must not be able to
    // file a term under another term's id.
    nt.term_id = hash::Hash8(t.term());
    if (!seen_terms.insert(nt.term_id).second) continue;
    std::vector<uint32_t> positions(t.positions().begin(), t.positions().end());
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    double f = 0;
    for (uint32_t pos : positions) {
      if (pos < d.title_tokens) {
        f += options_.title_weight;
        continue;
      }
      f += options_.body_weight;
      for (const auto& [first, end, weight] : regions) {
        if (pos >= first && pos < end) f += weight;
      }
    }
    const uint64_t counted = uint64_t{t.title_count()} + t.body_count();
    // Occurrences past the position cap count as body occurrences.
    if (counted > positions.size()) f += options_.body_weight * static_cast<double>(counted - positions.size());
    nt.occurrences = std::max<uint64_t>(counted, positions.size());
    if (nt.occurrences == 0) continue;
    nt.posting.frequency = f;
    nt.posting.positions = std::move(positions);
    terms.push_back(std::move(nt));
  }
  if (terms.empty()) return false;
  AddDocument(std::move(d), summary, std::move(terms));
  return true;
}

bool SearchIndex::AddLink(const v1::DiscoveredLink& link, const std::string& iso_language) {
  if (link.anchor_text().empty() || link.from_sitemap() || link.source() == "redirect" ||
      link.source() == "sitemap")
    return false;
  const uint64_t seen_key = hash::Hash8(link.url() + '\0' + link.anchor_text() + '\0' + iso_language);
  if (!links_seen_.insert(seen_key).second) return false;
  const std::string host = url::HostOf(link.url());
  if (host.empty()) return false;
  fetcher::Stemmer& stemmer = stemmers_.For(iso_language.empty() ? "en" : iso_language);
  std::map<std::string, std::vector<uint32_t>> stems;
  std::string text;
  uint32_t position = 0;
  fetcher::ForEachToken(link.anchor_text(), [&](std::string_view w) {
    if (IsAnchorStopWord(w)) return;
    if (!text.empty()) text.push_back(' ');
    text.append(w);
    stems[std::string(stemmer.Stem(w))].push_back(position++);
  });
  if (stems.empty()) return false;
  Doc d;
  d.url = link.url();
  d.url_hash = hash::Hash8(d.url);
  d.text_hash = hash::Hash8(text) >> 8;
  d.host_hash = hash::Hash8(host);
  d.length = position;
  d.link = true;
  d.id = MakeDocId(d.url_hash, 'l', d.text_hash, d.host_hash);
  if (doc_ids_.contains(IdString(d.id))) return false;
  DocSummary summary;
  summary.url = d.url;
  summary.title = CutUtf8(link.anchor_text(), kMaxLinkTitleChars);
  summary.language = iso_language;
  summary.link = true;
  std::vector<NewTerm> terms;
  for (auto& [stem, positions] : stems) {
    NewTerm nt;
    nt.term_id = hash::Hash8(stem);
    nt.occurrences = positions.size();
    nt.posting.frequency = options_.body_weight * static_cast<double>(positions.size());
    nt.posting.positions = std::move(positions);
    terms.push_back(std::move(nt));
  }
  AddDocument(std::move(d), summary, std::move(terms));
  return true;
}

void SearchIndex::AddDocument(Doc doc, const DocSummary& summary, std::vector<NewTerm> terms) {
  Partition& p = Active();
  const auto part = static_cast<uint32_t>(partitions_.size() - 1);
  const auto n = static_cast<uint32_t>(p.docs.size());
  const std::string id = IdString(doc.id);
  for (NewTerm& t : terms) {
    t.posting.doc = n;
    TermStats& st = terms_[t.term_id];
    ++st.docs;
    st.occurrences += t.occurrences;
    std::vector<Posting>& list = p.postings[t.term_id];
    if (journal_) pending_.try_emplace({t.term_id, part}, list.size());
    list.push_back(std::move(t.posting));
  }
  std::string compressed = SummaryBytes(summary);
  if (journal_) {
    journal_->PutIndex(IndexFamily::kDocs, id, compressed);
    std::string key = "a";
    PutU32Be(&key, part);
    PutU32Be(&key, n);
    std::string entry = id;
    PutVarint(&entry, doc.length);
    PutVarint(&entry, doc.title_tokens);
    entry.push_back(doc.link ? 'l' : 'p');
    entry += doc.url;
    journal_->PutIndex(IndexFamily::kDocMap, key, entry);
  }
  summaries_[id] = std::move(compressed);
  by_url_[doc.url].push_back(id);
  doc_ids_.insert(id);
  ++documents_;
  total_length_ += doc.length;
  p.docs.push_back(std::move(doc));
  p.order_valid = false;
  if (p.docs.size() >= options_.partition_docs) ClosePartition(part);
}

void SearchIndex::EnsureOrder(Partition& p) {
  if (p.order_valid) return;
  std::vector<DocMapKey> keys;
  keys.reserve(p.docs.size());
  for (const Doc& d : p.docs) keys.push_back({d.url_hash, d.text_hash});
  const std::vector<uint32_t> order = OrderDocMap(keys);
  p.place.assign(p.docs.size(), 0);
  for (uint32_t i = 0; i < order.size(); ++i) p.place[order[i]] = i;
  p.order_valid = true;
}

void SearchIndex::ClosePartition(uint32_t index) {
  Partition& p = partitions_[index];
  EnsureOrder(p);
  p.closed = true;
  if (!journal_) return;
  // The closed partition's doc map, in walking order (DESIGN.md 7).
  for (uint32_t doc = 0; doc < p.place.size(); ++doc) {
    std::string key = "r";
    PutU32Be(&key, index);
    PutU32Be(&key, p.place[doc]);
    std::string value;
    PutU32Be(&value, doc);
    journal_->PutIndex(IndexFamily::kDocMap, key, value);
  }
}

void SearchIndex::Flush() {
  if (!journal_) return;
  std::set<uint64_t> touched;
  for (const auto& [key, start] : pending_) {
    const auto& [term_id, part] = key;
    const std::vector<Posting>& list = partitions_[part].postings.at(term_id);
    if (start >= list.size()) continue;
    std::string k;
    PutU64Be(&k, term_id);
    PutU32Be(&k, part);
    PutU32Be(&k, list[start].doc);
    std::string v;
    EncodePostingRange(list.data() + start, list.data() + list.size(), &v);
    journal_->PutIndex(IndexFamily::kPostings, k, v);
    touched.insert(term_id);
  }
  pending_.clear();
  for (uint64_t term_id : touched) {
    const TermStats& st = terms_[term_id];
    std::string k;
    PutU64Be(&k, term_id);
    std::string v;
    PutVarint(&v, st.docs);
    PutVarint(&v, st.occurrences);
    journal_->PutIndex(IndexFamily::kTerms, k, v);
  }
}

Status SearchIndex::Restore(const IndexImage& image) {
  auto corrupt = [](const char* what) { return Status::Internal(std::string("corrupt index ") + what + " record"); };
  for (const auto& [key, value] : image.doc_map) {
    if (key.size() != 9) return corrupt("doc map");
    const auto part = static_cast<uint32_t>(ReadBe(std::string_view(key).substr(1), 4));
    const auto n = static_cast<uint32_t>(ReadBe(std::string_view(key).substr(5), 4));
    if (part > partitions_.size() + 1) return corrupt("doc map");
    if (part >= partitions_.size()) partitions_.resize(part + 1);
    Partition& p = partitions_[part];
    if (key[0] == 'r') {
      p.closed = true;
      continue;
    }
    if (key[0] != 'a' || n != p.docs.size() || value.size() < 24 + 3) return corrupt("doc map");
    Doc d;
    std::copy(value.begin(), value.begin() + 24, d.id.begin());
    const std::string_view v(value);
    d.url_hash = ReadBe(v, 8);
    d.text_hash = ReadBe(v.substr(9), 7);
    d.host_hash = ReadBe(v.substr(16), 8);
    size_t pos = 24;
    uint64_t length = 0, title = 0;
    if (!GetVarint(v, &pos, &length) || !GetVarint(v, &pos, &title) || pos >= v.size() || length > UINT32_MAX ||
        title > UINT32_MAX)
      return corrupt("doc map");
    d.length = static_cast<uint32_t>(length);
    d.title_tokens = static_cast<uint32_t>(title);
    d.link = v[pos++] == 'l';
    d.url.assign(v.substr(pos));
    const std::string id = IdString(d.id);
    by_url_[d.url].push_back(id);
    doc_ids_.insert(id);
    ++documents_;
    total_length_ += d.length;
    p.docs.push_back(std::move(d));
  }
  for (Partition& p : partitions_) {
    if (p.docs.size() >= options_.partition_docs) p.closed = true;
  }
  for (const auto& [key, value] : image.docs) summaries_[key] = value;
  for (const auto& [key, value] : image.postings) {
    if (key.size() != 16) return corrupt("postings");
    const uint64_t term_id = ReadBe(key, 8);
    const auto part = static_cast<uint32_t>(ReadBe(std::string_view(key).substr(8), 4));
    if (part >= partitions_.size()) return corrupt("postings");
    auto decoded = DecodePostings(value);
    if (!decoded.ok()) return decoded.status();
    std::vector<Posting>& list = partitions_[part].postings[term_id];
    for (Posting& p : *decoded) {
      if ((!list.empty() && p.doc <= list.back().doc) || p.doc >= partitions_[part].docs.size())
        return corrupt("postings");
      list.push_back(std::move(p));
    }
  }
  for (const auto& [key, value] : image.terms) {
    size_t pos = 0;
    TermStats st;
    if (key.size() != 8 || !GetVarint(value, &pos, &st.docs) || !GetVarint(value, &pos, &st.occurrences))
      return corrupt("term");
    terms_[ReadBe(key, 8)] = st;
  }
  return Status::Ok();
}

std::optional<DocSummary> SearchIndex::Lookup(const std::string& url) const {
  auto it = by_url_.find(url);
  if (it == by_url_.end()) return std::nullopt;
  std::optional<DocSummary> best;
  for (const std::string& id : it->second) {
    auto s = summaries_.find(id);
    if (s == summaries_.end()) continue;
    auto parsed = ParseSummary(s->second);
    if (!parsed.ok()) continue;
    if (!best || best->link || !parsed->link) best = std::move(*parsed);  // newest page wins
  }
  return best;
}

void SearchIndex::ScoreHit(const QueryClause& clause, const Doc& doc, double doc_rank,
                           const std::vector<const Posting*>& postings, fetcher::Stemmer& stemmer, SearchHit* hit) {
  const auto n_docs = static_cast<double>(std::max<uint64_t>(documents_, 1));
  const double l_avg = static_cast<double>(total_length_) / n_docs;
  hit->doc_rank = doc_rank;
  hit->relevance = 0;
  std::vector<std::vector<uint32_t>> positions;
  uint32_t title_matched = 0;
  for (size_t t = 0; t < clause.term_ids.size(); ++t) {
    const TermStats& st = terms_[clause.term_ids[t]];
    hit->relevance += DfrTerm(postings[t]->frequency, static_cast<double>(st.occurrences), n_docs, doc.length, l_avg);
    positions.push_back(postings[t]->positions);
    if (!postings[t]->positions.empty() && postings[t]->positions.front() < doc.title_tokens) ++title_matched;
  }
  hit->proximity = Proximity(positions, doc.length, options_.proximity_weight);
  BonusInput in;
  in.title_matched = title_matched;
  in.title_terms = doc.title_tokens;
  if (auto parts = url::Split(doc.url); parts.ok()) {
    const std::string path = parts->target.substr(0, parts->target.find('?'));
    in.domain_url = parts->target == "/";
    if (in.domain_url) {
      auto cld = CompanyLevelDomain(parts->host);
      in.cld_url = cld.ok() && (parts->host == *cld || parts->host == "www." + *cld);
    }
    std::tie(in.host_matched, in.host_terms) = MatchWords(parts->host, clause, stemmer);
    std::tie(in.path_matched, in.path_terms) = MatchWords(path, clause, stemmer);
  }
  hit->bonus = Bonus(in, options_.bonus);
}

std::string SearchIndex::Snippet(const DocSummary& s, const QueryClause& clause, fetcher::Stemmer& stemmer) {
  if (s.nosnippet || s.link) return {};
  std::string out;
  for (const std::string& sentence : s.description) {
    if (out.size() >= kMaxSnippetChars) break;
    if (MatchWords(sentence, clause, stemmer).first == 0) continue;
    if (!out.empty()) out += " ... ";
    out += sentence;
  }
  if (out.empty() && !s.description.empty()) out = s.description.front();
  return CutUtf8(std::move(out), kMaxSnippetChars);
}

SearchOutcome SearchIndex::Search(const Query& query, const SearchOptions& options, const Clock& clock,
                                  fetcher::Stemmer& stemmer) {
  SearchOutcome out;
  const uint32_t wanted = options.max_matches == 0 ? 200 : options.max_matches;
  struct Found {
    SearchHit hit;
    uint32_t part = 0, doc = 0;
    size_t clause = 0;
  };
  std::unordered_map<uint64_t, Found> found;  // (partition << 32 | doc) -> best scoring clause
  for (size_t c = 0; c < query.clauses.size() && !out.timed_out; ++c) {
    const QueryClause& clause = query.clauses[c];
    bool known = !clause.term_ids.empty();
    for (uint64_t id : clause.term_ids) known = known && terms_.contains(id);
    if (!known) continue;
    // Candidates: the shortest list's documents of each partition, walked
    // in doc-rank order across partitions.
    std::vector<std::tuple<double, uint32_t, uint32_t>> candidates;
    for (uint32_t pi = 0; pi < partitions_.size(); ++pi) {
      Partition& p = partitions_[pi];
      const std::vector<Posting>* shortest = nullptr;
      bool all = true;
      for (uint64_t id : clause.term_ids) {
        auto it = p.postings.find(id);
        if (it == p.postings.end()) {
          all = false;
          break;
        }
        if (!shortest || it->second.size() < shortest->size()) shortest = &it->second;
      }
      if (!all || !shortest) continue;
      EnsureOrder(p);
      const auto n = static_cast<uint64_t>(p.docs.size());
      for (const Posting& post : *shortest) {
        candidates.emplace_back(DocRank(n - 1 - p.place[post.doc]), pi, post.doc);
      }
    }
    std::sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
      return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) > std::get<0>(b) : a < b;
    });
    uint32_t clause_matches = 0;
    std::vector<const Posting*> postings(clause.term_ids.size());
    for (size_t i = 0; i < candidates.size() && clause_matches < wanted; ++i) {
      if (options.deadline_unix_ms > 0 && i % 256 == 0 && clock.NowUnixMs() >= options.deadline_unix_ms) {
        out.timed_out = true;
        break;
      }
      const auto& [rank, pi, doc] = candidates[i];
      const Partition& p = partitions_[pi];
      bool all = true;
      for (size_t t = 0; t < clause.term_ids.size() && all; ++t) {
        postings[t] = FindPosting(p.postings.at(clause.term_ids[t]), doc);
        all = postings[t] != nullptr;
      }
      if (!all) continue;
      const Doc& d = p.docs[doc];
      if (!clause.sites.empty() && !HostMatches(url::HostOf(d.url), clause.sites)) continue;
      bool phrases = true;
      for (const auto& phrase : clause.phrases) phrases = phrases && HasPhrase(phrase, postings);
      if (!phrases) continue;
      ++clause_matches;
      ++out.matches;
      Found f;
      f.part = pi;
      f.doc = doc;
      f.clause = c;
      f.hit.url = d.url;
      f.hit.url_hash = d.url_hash;
      f.hit.text_hash = d.text_hash;
      f.hit.link = d.link;
      ScoreHit(clause, d, rank, postings, stemmer, &f.hit);
      const uint64_t key = (uint64_t{pi} << 32) | doc;
      auto it = found.find(key);
      if (it == found.end()) {
        found.emplace(key, std::move(f));
      } else if (f.hit.total() > it->second.hit.total()) {
        it->second = std::move(f);
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
    const Doc& d = partitions_[f.part].docs[f.doc];
    auto s = summaries_.find(IdString(d.id));
    if (s != summaries_.end()) {
      if (auto summary = ParseSummary(s->second); summary.ok()) {
        f.hit.title = summary->title;
        f.hit.language = summary->language;
        f.hit.snippet = Snippet(*summary, query.clauses[f.clause], stemmer);
      }
    }
    out.hits.push_back(std::move(f.hit));
  }
  return out;
}

}  // namespace crawl::queueserver
