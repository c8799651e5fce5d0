// Index build and query walk (search_index.h; DESIGN.md sections 7 and 8).
#include "queueserver/index/search_index.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <tuple>

#include "common/cld.h"
#include "common/hash.h"
#include "common/url.h"
#include "common/text/tokenizer.h"
#include "queueserver/index/doc_map.h"

namespace crawl::queueserver {
namespace {

constexpr size_t kMaxSnippetChars = 300;
constexpr size_t kMaxLinkTitleChars = 100;

// The key of a term's title postings: the postings of the pages whose title
// holds the term, kept apart from the term's own list (key "title" + id, so
// it cannot be a stem's hash but by a 64-bit collision).
uint64_t TitleTermId(uint64_t term_id) {
  std::string key = "title";
  key.push_back('\0');
  for (int i = 7; i >= 0; --i) key.push_back(static_cast<char>((term_id >> (8 * i)) & 0xff));
  return hash::Hash8(key);
}
// links_seen_ is cleared past this many entries (8 bytes each and the set's overhead).
constexpr size_t kMaxLinksSeen = 1'000'000;
// A partition merge writes its lists in batches of about this many bytes.
constexpr size_t kMergeWriteBytes = 32u << 20;

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

// word_ids_ is cleared past this many words (about 100 bytes each).
constexpr size_t kMaxWordIds = 1u << 19;

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
                                         text::Stemmer& stemmer) {
  std::set<size_t> matched;
  uint32_t words = 0;
  text::ForEachToken(text, [&](std::string_view w) {
    ++words;
    const std::string_view stem = stemmer.Stem(w);
    for (size_t t = 0; t < clause.terms.size(); ++t) {
      if (clause.terms[t] == stem) matched.insert(t);
    }
  });
  return {static_cast<uint32_t>(matched.size()), words};
}

}  // namespace

// zlib's compress2 output (level 1) from one reused stream: deflateReset
// keeps the state's allocations, which compress2 makes and frees per call.
class SearchIndex::Deflater {
 public:
  Deflater() { ok_ = deflateInit(&z_, Z_BEST_SPEED) == Z_OK; }
  ~Deflater() {
    if (ok_) deflateEnd(&z_);
  }
  Deflater(const Deflater&) = delete;
  Deflater& operator=(const Deflater&) = delete;

  std::string Compress(const std::string& raw) {
    if (raw.size() <= kCompressAbove || !ok_ || deflateReset(&z_) != Z_OK) return "r" + raw;
    std::string out = "z";
    PutVarint(&out, raw.size());
    const size_t header = out.size();
    out.resize(header + deflateBound(&z_, static_cast<uLong>(raw.size())));
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
    z_.avail_in = static_cast<uInt>(raw.size());
    z_.next_out = reinterpret_cast<Bytef*>(out.data() + header);
    z_.avail_out = static_cast<uInt>(out.size() - header);
    // Cannot fail with a deflateBound buffer; raw stays readable if it did.
    if (deflate(&z_, Z_FINISH) != Z_STREAM_END) return "r" + raw;
    out.resize(header + z_.total_out);
    return out;
  }

 private:
  z_stream z_{};
  bool ok_ = false;
};

bool SearchIndex::IsAnchorStopWord(std::string_view w) {
  static const std::set<std::string_view> kStop = {
      "a",    "an",   "and",  "at",   "by",    "click", "for",  "from", "go",   "here", "in",  "is",
      "it",   "link", "more", "of",   "on",    "or",    "page", "read", "see",  "the",  "this", "to",
      "via",  "with", "www",  "http", "https", "next",  "prev", "previous", "back", "home", "top"};
  return w.size() < 2 || kStop.contains(w);
}

SearchIndex::~SearchIndex() = default;

SearchIndex::SearchIndex(IndexOptions options, IndexJournal* journal)
    : options_(options), journal_(journal), deflater_(std::make_unique<Deflater>()) {
  if (options_.partition_docs == 0) options_.partition_docs = 100'000;
  if (journal_ == nullptr) {
    own_journal_ = std::make_unique<MemoryIndexJournal>();
    journal_ = own_journal_.get();
  }
  partitions_.emplace_back();  // the active one
}

// ---- MemoryIndexJournal

void MemoryIndexJournal::PutIndex(IndexFamily family, const std::string& key, const std::string& value) {
  std::unique_lock lock(state_->mu);
  families[static_cast<int>(family)][key] = value;
}
// The writing thread's own reads need no lock (no one else writes).
Status MemoryIndexJournal::GetIndex(IndexFamily family, const std::string& key, std::string* value) {
  const auto& m = families[static_cast<int>(family)];
  auto it = m.find(key);
  if (it == m.end()) return Status::NotFound("no index record");
  *value = it->second;
  return Status::Ok();
}
Status MemoryIndexJournal::ScanIndex(IndexFamily family, const std::string& prefix,
                                     const std::function<bool(std::string_view, std::string_view)>& visit) {
  const auto& m = families[static_cast<int>(family)];
  for (auto it = m.lower_bound(prefix); it != m.end() && it->first.starts_with(prefix); ++it) {
    if (!visit(it->first, it->second)) break;
  }
  return Status::Ok();
}
Status MemoryIndexJournal::WriteIndexNow(const std::vector<Put>& puts, IndexFamily erase_family,
                                         const std::string& erase_from, const std::string& erase_to) {
  for (const Put& p : puts) PutIndex(p.family, p.key, p.value);
  if (!erase_from.empty()) {
    std::unique_lock lock(state_->mu);
    auto& m = families[static_cast<int>(erase_family)];
    m.erase(m.lower_bound(erase_from), m.lower_bound(erase_to));
  }
  return Status::Ok();
}

namespace {
class MemoryIndexSnapshot final : public IndexSnapshot {
 public:
  explicit MemoryIndexSnapshot(std::shared_ptr<void> state, std::shared_mutex* mu,
                               const std::map<std::string, std::string>* families)
      : state_(std::move(state)), mu_(mu), families_(families) {}
  Status GetIndex(IndexFamily family, const std::string& key, std::string* value) const override {
    std::shared_lock lock(*mu_);
    const auto& m = families_[static_cast<int>(family)];
    auto it = m.find(key);
    if (it == m.end()) return Status::NotFound("no index record");
    *value = it->second;
    return Status::Ok();
  }

 private:
  std::shared_ptr<void> state_;  // keeps mu_ and families_ alive
  std::shared_mutex* mu_;
  const std::map<std::string, std::string>* families_;
};
}  // namespace

std::shared_ptr<const IndexSnapshot> MemoryIndexJournal::SnapshotIndex() {
  return std::make_shared<MemoryIndexSnapshot>(state_, &state_->mu, state_->families);
}

std::string SearchIndex::SummaryBytes(const DocSummary& s) const {
  std::string raw;
  PutString(&raw, s.url);
  PutString(&raw, s.title);
  PutString(&raw, s.language);
  raw.push_back(static_cast<char>((s.nosnippet ? 1 : 0) | (s.link ? 2 : 0)));
  PutVarint(&raw, s.description.size());
  for (const std::string& d : s.description) PutString(&raw, d);
  return deflater_->Compress(raw);
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

bool SearchIndex::DocExists(const std::array<uint8_t, 24>& id) {
  std::string value;
  return journal_->GetIndex(IndexFamily::kDocs, IdString(id), &value).ok();
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
  if (DocExists(d.id)) return false;

  // Description sentences add their weight to their positions (DESIGN.md 6-7).
  // As a step function over positions, so a term's sorted positions are
  // weighed in one merge (sentences can overlap: input from another process).
  auto& events = scratch_regions_;
  events.clear();
  for (const v1::DescriptionSentence& s : r.description()) {
    if (s.end_position() <= s.first_position() || !std::isfinite(s.weight())) continue;
    events.emplace_back(s.first_position(), 1, s.weight());
    events.emplace_back(s.end_position(), 0, -s.weight());  // ends sort before starts at one position
  }
  std::sort(events.begin(), events.end());
  auto& steps = scratch_steps_;
  steps.clear();
  {
    double weight = 0;
    int64_t open = 0;
    for (size_t i = 0; i < events.size();) {
      const uint32_t at = std::get<0>(events[i]);
      for (; i < events.size() && std::get<0>(events[i]) == at; ++i) {
        weight += std::get<2>(events[i]);
        open += std::get<1>(events[i]) ? 1 : -1;
      }
      if (open == 0) weight = 0;  // no rounding residue outside every sentence
      steps.emplace_back(at, weight);
    }
  }
  if (active_.keys.size() >= options_.partition_docs) ClosePartition();
  const auto doc = static_cast<uint32_t>(active_.keys.size());
  if (word_ids_.size() >= kMaxWordIds) word_ids_.clear();
  const uint64_t stamp = ++document_stamp_;
  auto& positions = scratch_positions_;
  bool any = false;
  for (const v1::IndexTerm& t : mi.terms()) {
    if (t.term().empty()) continue;
    // The id is recomputed (from the word, IdsOf): input from another
    // process must not be able to file a term under another term's id.
    WordIds& w = IdsOf(t.term());
    if (w.last_doc == stamp) continue;  // the word listed twice: its first entry counts
    w.last_doc = stamp;
    positions.assign(t.positions().begin(), t.positions().end());
    if (!std::is_sorted(positions.begin(), positions.end())) std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    double f = 0;
    size_t step = 0;
    double sentence_weight = 0;
    for (uint32_t pos : positions) {
      if (pos < d.title_tokens) {
        f += options_.title_weight;
        continue;
      }
      for (; step < steps.size() && steps[step].first <= pos; ++step) sentence_weight = steps[step].second;
      f += options_.body_weight + sentence_weight;
    }
    const uint64_t counted = uint64_t{t.title_count()} + t.body_count();
    // Occurrences past the position cap count as body occurrences.
    if (counted > positions.size()) f += options_.body_weight * static_cast<double>(counted - positions.size());
    const uint64_t occurrences = std::max<uint64_t>(counted, positions.size());
    if (occurrences == 0) continue;
    AddPosting(w.id, *w.stats, doc, f, positions.data(), positions.size(), occurrences);
    if (!positions.empty() && positions.front() < d.title_tokens) {
      ++d.title_terms;
      // The same posting again under the term's title key, so that a query
      // can walk the pages whose title holds all its terms first (Search).
      AddPosting(w.title_id, *w.title_stats, doc, f, positions.data(), positions.size(), occurrences);
    }
    any = true;
  }
  if (!any) return false;
  DocSummary summary;
  summary.url = d.url;
  summary.title = r.title();
  summary.language = r.language();
  summary.nosnippet = r.nosnippet();
  for (const v1::DescriptionSentence& s : r.description()) summary.description.push_back(s.text());
  FinishDocument(d, summary);
  return true;
}

bool SearchIndex::AddLink(const v1::DiscoveredLink& link, const std::string& iso_language) {
  if (link.anchor_text().empty() || link.from_sitemap() || link.source() == "redirect" ||
      link.source() == "sitemap")
    return false;
  const uint64_t seen_key = hash::Hash8(link.url() + '\0' + link.anchor_text() + '\0' + iso_language);
  if (links_seen_.size() >= kMaxLinksSeen) links_seen_.clear();
  if (!links_seen_.insert(seen_key).second) return false;
  const std::string host = url::HostOf(link.url());
  if (host.empty()) return false;
  text::Stemmer& stemmer = stemmers_.For(iso_language.empty() ? "en" : iso_language);
  std::map<std::string, std::vector<uint32_t>> stems;
  std::string text;
  uint32_t position = 0;
  text::ForEachToken(link.anchor_text(), [&](std::string_view w) {
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
  if (DocExists(d.id)) return false;
  if (active_.keys.size() >= options_.partition_docs) ClosePartition();
  const auto doc = static_cast<uint32_t>(active_.keys.size());
  for (auto& [stem, positions] : stems) {
    const uint64_t term_id = hash::Hash8(stem);
    AddPosting(term_id, terms_[term_id], doc, options_.body_weight * static_cast<double>(positions.size()),
               positions.data(), positions.size(), positions.size());
  }
  DocSummary summary;
  summary.url = d.url;
  summary.title = CutUtf8(link.anchor_text(), kMaxLinkTitleChars);
  summary.language = iso_language;
  summary.link = true;
  FinishDocument(d, summary);
  return true;
}

SearchIndex::WordIds& SearchIndex::IdsOf(const std::string& word) {
  auto [it, added] = word_ids_.try_emplace(word);
  WordIds& w = it->second;
  if (added) {
    w.id = hash::Hash8(word);
    w.title_id = TitleTermId(w.id);
    w.stats = &terms_[w.id];
    w.title_stats = &terms_[w.title_id];
  }
  return w;
}

SearchIndex::TermList* SearchIndex::PendingOf(uint64_t term_id) {
  auto it = terms_.find(term_id);
  if (it == terms_.end()) return nullptr;
  const uint32_t k = it->second.pending;
  return k < pending_used_ && pending_[k].term_id == term_id ? &pending_[k].list : nullptr;
}

void SearchIndex::AddPosting(uint64_t term_id, TermStats& st, uint32_t doc, double frequency,
                             const uint32_t* positions, size_t n, uint64_t occurrences) {
  ++st.docs;
  st.occurrences += occurrences;
  if (pending_used_ == 0) segment_first_ = doc;
  if (st.pending >= pending_used_ || pending_[st.pending].term_id != term_id) {
    // The term's first posting in this request: the next slot, its buffer
    // reused.
    if (pending_used_ == pending_.size()) pending_.emplace_back();
    PendingList& slot = pending_[pending_used_];
    slot.term_id = term_id;
    slot.stats = &st;
    slot.list.bytes.clear();
    slot.list.last = -1;
    slot.list.docs = 0;
    slot.list.occurrences = 0;
    st.pending = static_cast<uint32_t>(pending_used_++);
  }
  TermList& p = pending_[st.pending].list;
  std::string& out = p.bytes;
  PutVarint(&out, static_cast<uint64_t>(static_cast<int64_t>(doc) - p.last - 1));
  p.last = doc;
  ++p.docs;
  p.occurrences += occurrences;
  PutVarint(&out, static_cast<uint64_t>(std::llround(std::max(0.0, frequency) * 100.0)));
  PutVarint(&out, n);
  uint32_t previous = 0;
  for (size_t i = 0; i < n; ++i) {
    PutVarint(&out, positions[i] - previous);
    previous = positions[i];
  }
}

// Appends a self-contained chunk (first doc delta from -1) whose last doc is
// `last` to `list`, re-coding its first doc delta against the list's last doc.
void SearchIndex::AppendChunk(TermList* list, std::string_view chunk, uint32_t last, uint32_t docs,
                              uint64_t occurrences) {
  size_t pos = 0;
  uint64_t first = 0;
  if (!GetVarint(chunk, &pos, &first)) return;  // callers checked the chunk
  PutVarint(&list->bytes, first - static_cast<uint64_t>(list->last + 1));
  list->bytes.append(chunk.substr(pos));
  list->last = last;
  list->docs += docs;
  list->occurrences += occurrences;
}

void SearchIndex::FinishDocument(const Doc& doc, const DocSummary& summary) {
  const auto part = static_cast<uint32_t>(partitions_.size() - 1);
  const auto n = static_cast<uint32_t>(active_.keys.size());
  const std::string id = IdString(doc.id);
  journal_->PutIndex(IndexFamily::kDocs, id, SummaryBytes(summary));
  std::string key = "a";
  PutU32Be(&key, part);
  PutU32Be(&key, n);
  std::string entry = id;
  PutVarint(&entry, doc.length);
  PutVarint(&entry, doc.title_tokens);
  PutVarint(&entry, doc.title_terms);
  entry.push_back(doc.link ? 'l' : 'p');
  entry += doc.url;
  journal_->PutIndex(IndexFamily::kDocMap, key, entry);
  active_.keys.push_back({doc.url_hash, doc.text_hash});
  active_.order_valid = false;
  partitions_.back().docs = n + 1;
  ++documents_;
  total_length_ += doc.length;
  totals_changed_ = true;
  if (active_.keys.size() >= options_.partition_docs) ClosePartition();
}

void SearchIndex::EnsureOrder() {
  if (active_.order_valid) return;
  auto at = std::make_shared<const std::vector<uint32_t>>(OrderDocMap(active_.keys));
  active_.place.assign(at->size(), 0);
  for (uint32_t i = 0; i < at->size(); ++i) active_.place[(*at)[i]] = i;
  active_.at = std::move(at);
  active_.order_valid = true;
}

void SearchIndex::ClosePartition() {
  const auto index = static_cast<uint32_t>(partitions_.size() - 1);
  FlushPostings();
  EnsureOrder();
  // The closed partition's doc map, in walking order (DESIGN.md 7), and its size.
  const std::vector<uint32_t>& at = *active_.at;
  for (uint32_t place = 0; place < at.size(); ++place) {
    std::string key = "r";
    PutU32Be(&key, index);
    PutU32Be(&key, place);
    std::string value;
    PutU32Be(&value, at[place]);
    journal_->PutIndex(IndexFamily::kDocMap, key, value);
  }
  std::string key = "c";
  PutU32Be(&key, index);
  std::string value;
  PutVarint(&value, active_.keys.size());
  journal_->PutIndex(IndexFamily::kDocMap, key, value);
  partitions_.back().closed = true;
  Closing& closing = closing_[index];
  closing.lists = std::move(active_lists_);
  closing.place = std::move(active_.place);
  active_lists_ = Lists{};
  partitions_.emplace_back();
  active_ = Active{};
}

void SearchIndex::FlushPostings() {
  if (pending_used_ == 0) return;
  const auto part = static_cast<uint32_t>(partitions_.size() - 1);
  // One segment: varint(terms), then per term: id (8), varint(documents),
  // varint(occurrences), varint(bytes), the chunk.
  size_t size = 10;
  for (size_t k = 0; k < pending_used_; ++k) size += 8 + 30 + pending_[k].list.bytes.size();
  std::string segment;
  segment.reserve(size);
  PutVarint(&segment, pending_used_);
  for (size_t k = 0; k < pending_used_; ++k) {
    const uint64_t term_id = pending_[k].term_id;
    const TermList& p = pending_[k].list;
    TermStats& st = *pending_[k].stats;
    if (st.active_part != part) {
      st.active = &active_lists_[term_id];
      st.active_part = part;
    }
    PutU64Be(&segment, term_id);
    PutVarint(&segment, p.docs);
    PutVarint(&segment, p.occurrences);
    PutVarint(&segment, p.bytes.size());
    segment += p.bytes;
    AppendChunk(st.active, p.bytes, static_cast<uint32_t>(p.last), p.docs, p.occurrences);
  }
  std::string k = "c";
  PutU32Be(&k, part);
  PutU32Be(&k, segment_first_);
  journal_->PutIndex(IndexFamily::kPostings, k, segment);
  pending_used_ = 0;
  // A request with far more terms than usual leaves no lasting buffers.
  if (pending_.size() > (1u << 16)) pending_.clear();
}

void SearchIndex::Flush() {
  FlushPostings();
  if (totals_changed_) {
    std::string v;
    PutVarint(&v, documents_);
    PutVarint(&v, total_length_);
    journal_->PutIndex(IndexFamily::kDocMap, "s", v);
    totals_changed_ = false;
  }
}

bool SearchIndex::merge_pending() const {
  for (const Partition& p : partitions_) {
    if (p.closed && !p.merged) return true;
  }
  return false;
}

Status SearchIndex::MergeClosed() {
  for (uint32_t part = 0; part < partitions_.size(); ++part) {
    if (!partitions_[part].closed || partitions_[part].merged) continue;
    if (Status s = MergePartition(part); !s.ok()) return s;
  }
  return Status::Ok();
}

Status SearchIndex::ClosedOrder(uint32_t part, bool inverse, std::vector<uint32_t>* out) {
  const uint32_t n = partitions_[part].docs;
  out->assign(n, 0);
  std::string prefix = "r";
  PutU32Be(&prefix, part);
  uint32_t expected = 0;
  bool ok = true;
  Status s = journal_->ScanIndex(IndexFamily::kDocMap, prefix, [&](std::string_view k, std::string_view v) {
    const auto place = static_cast<uint32_t>(ReadBe(k.substr(5), 4));
    const auto arrival = v.size() == 4 ? static_cast<uint32_t>(ReadBe(v, 4)) : UINT32_MAX;
    if (k.size() != 9 || place != expected || arrival >= n) return ok = false;
    (*out)[inverse ? arrival : place] = inverse ? place : arrival;
    ++expected;
    return true;
  });
  if (!s.ok()) return s;
  if (!ok || expected != n) return Status::Internal("corrupt index doc map of partition " + std::to_string(part));
  return Status::Ok();
}

Status SearchIndex::LoadSegments(uint32_t part, Lists* lists) {
  std::string prefix = "c";
  PutU32Be(&prefix, part);
  bool ok = true;
  Status s = journal_->ScanIndex(IndexFamily::kPostings, prefix, [&](std::string_view k, std::string_view v) {
    size_t pos = 0;
    uint64_t terms = 0;
    if (k.size() != 9 || !GetVarint(v, &pos, &terms)) return ok = false;
    for (uint64_t i = 0; i < terms; ++i) {
      uint64_t docs = 0, occurrences = 0, bytes = 0;
      if (v.size() - pos < 8) return ok = false;
      const uint64_t term_id = ReadBe(v.substr(pos), 8);
      pos += 8;
      if (!GetVarint(v, &pos, &docs) || !GetVarint(v, &pos, &occurrences) || !GetVarint(v, &pos, &bytes) ||
          bytes > v.size() - pos || docs > UINT32_MAX)
        return ok = false;
      const std::string_view chunk = v.substr(pos, bytes);
      pos += bytes;
      // Checked here once: every later decode of the list may trust it.
      FlatPostings check;
      TermList& list = (*lists)[term_id];
      if (!DecodeAppend(chunk, &check).ok() || check.size() != docs || docs == 0 ||
          list.last >= static_cast<int64_t>(check.doc.front()) || check.doc.back() >= partitions_[part].docs)
        return ok = false;
      AppendChunk(&list, chunk, check.doc.back(), static_cast<uint32_t>(docs), occurrences);
      TermStats& st = terms_[term_id];
      st.docs += docs;
      st.occurrences += occurrences;
    }
    return ok = pos == v.size();
  });
  if (!s.ok()) return s;
  if (!ok) return Status::Internal("corrupt index postings segment in partition " + std::to_string(part));
  return Status::Ok();
}

Status SearchIndex::MergePartition(uint32_t part) {
  auto it = closing_.find(part);
  if (it == closing_.end()) return Status::Internal("index partition " + std::to_string(part) + " not loaded");
  Closing& closing = it->second;
  if (closing.place.empty() && partitions_[part].docs > 0) {
    if (Status s = ClosedOrder(part, /*inverse=*/true, &closing.place); !s.ok()) return s;
  }
  std::vector<IndexJournal::Put> puts;
  size_t bytes = 0;
  FlatPostings flat;
  std::vector<uint32_t> order;
  for (const auto& [term, list] : closing.lists) {
    flat.clear();
    if (Status d = DecodeAppend(list.bytes, &flat, &closing.place); !d.ok())
      return Status::Internal("corrupt index postings of partition " + std::to_string(part));
    order.resize(flat.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return flat.doc[a] < flat.doc[b]; });
    std::string key = "m";
    PutU32Be(&key, part);
    PutU64Be(&key, term);
    std::string value;
    EncodeBlocked(flat, order, &value);
    bytes += key.size() + value.size();
    puts.push_back({IndexFamily::kPostings, std::move(key), std::move(value)});
    // Bounded memory: write what is merged so far (the segments stay until
    // the last write, so a kill in between merges again after the restart).
    if (bytes >= kMergeWriteBytes) {
      if (Status w = journal_->WriteIndexNow(puts, IndexFamily::kPostings, "", ""); !w.ok()) return w;
      puts.clear();
      bytes = 0;
    }
  }
  // The stored term statistics cover the merged partitions: this one's
  // terms get theirs less what later, unmerged partitions hold.
  for (const auto& entry : closing.lists) {
    // Not a structured binding: clang 14 (the sanitizer build) cannot
    // capture one in a lambda.
    const auto& term = entry.first;
    TermStats st = terms_[term];
    auto less = [&](const Lists& other) {
      auto o = other.find(term);
      if (o == other.end()) return;
      st.docs -= o->second.docs;
      st.occurrences -= o->second.occurrences;
    };
    less(active_lists_);
    if (const TermList* p = PendingOf(term)) {
      st.docs -= p->docs;
      st.occurrences -= p->occurrences;
    }
    for (const auto& [later, c] : closing_) {
      if (later > part) less(c.lists);
    }
    std::string k;
    PutU64Be(&k, term);
    std::string v;
    PutVarint(&v, st.docs);
    PutVarint(&v, st.occurrences);
    puts.push_back({IndexFamily::kTerms, std::move(k), std::move(v)});
  }
  std::string marker = "m";
  PutU32Be(&marker, part);
  puts.push_back({IndexFamily::kDocMap, marker, ""});
  std::string from = "c", to = "c";
  PutU32Be(&from, part);
  PutU32Be(&to, part + 1);
  if (Status w = journal_->WriteIndexNow(puts, IndexFamily::kPostings, from, to); !w.ok()) return w;
  partitions_[part].merged = true;
  closing_.erase(it);
  return Status::Ok();
}

Status SearchIndex::Load() {
  auto corrupt = [](const char* what) { return Status::Internal(std::string("corrupt index ") + what + " record"); };
  partitions_.clear();
  active_ = Active{};
  active_lists_.clear();
  closing_.clear();
  pending_.clear();
  pending_used_ = 0;
  word_ids_.clear();  // its pointers are into terms_
  terms_.clear();
  documents_ = total_length_ = 0;
  std::string totals;
  Status s = journal_->GetIndex(IndexFamily::kDocMap, "s", &totals);
  if (s.ok()) {
    size_t pos = 0;
    if (!GetVarint(totals, &pos, &documents_) || !GetVarint(totals, &pos, &total_length_)) return corrupt("totals");
  } else if (s.code() != StatusCode::kNotFound) {
    return s;
  } else {
    bool any = false;
    s = journal_->ScanIndex(IndexFamily::kDocMap, "", [&](std::string_view, std::string_view) { return !(any = true); });
    if (!s.ok()) return s;
    if (any) return Status::Internal("the index was written by an older version (no totals record); start a new crawl");
  }
  bool ok = true;
  s = journal_->ScanIndex(IndexFamily::kDocMap, "c", [&](std::string_view k, std::string_view v) {
    size_t pos = 0;
    uint64_t n = 0;
    if (k.size() != 5 || ReadBe(k.substr(1), 4) != partitions_.size() || !GetVarint(v, &pos, &n) || n == 0 ||
        n > UINT32_MAX)
      return ok = false;
    partitions_.push_back({static_cast<uint32_t>(n), true, false});
    return true;
  });
  if (!s.ok()) return s;
  if (!ok) return corrupt("partition");
  s = journal_->ScanIndex(IndexFamily::kDocMap, "m", [&](std::string_view k, std::string_view) {
    const uint64_t part = k.size() == 5 ? ReadBe(k.substr(1), 4) : UINT64_MAX;
    if (part >= partitions_.size()) return ok = false;
    partitions_[part].merged = true;
    return true;
  });
  if (!s.ok()) return s;
  if (!ok) return corrupt("merge marker");
  const auto active = static_cast<uint32_t>(partitions_.size());
  partitions_.emplace_back();
  std::string prefix = "a";
  PutU32Be(&prefix, active);
  s = journal_->ScanIndex(IndexFamily::kDocMap, prefix, [&](std::string_view k, std::string_view v) {
    if (k.size() != 9 || ReadBe(k.substr(5), 4) != active_.keys.size() || v.size() < 24 + 3) return ok = false;
    active_.keys.push_back({ReadBe(v, 8), ReadBe(v.substr(9), 7)});
    return true;
  });
  if (!s.ok()) return s;
  if (!ok) return corrupt("doc map");
  partitions_.back().docs = static_cast<uint32_t>(active_.keys.size());
  s = journal_->ScanIndex(IndexFamily::kTerms, "", [&](std::string_view k, std::string_view v) {
    size_t pos = 0;
    TermStats st;
    if (k.size() != 8 || !GetVarint(v, &pos, &st.docs) || !GetVarint(v, &pos, &st.occurrences)) return ok = false;
    terms_[ReadBe(k, 8)] = st;
    return true;
  });
  if (!s.ok()) return s;
  if (!ok) return corrupt("term");
  // Unmerged partitions: their postings (and statistics) from their segments.
  for (uint32_t part = 0; part < partitions_.size(); ++part) {
    if (partitions_[part].merged) continue;
    Lists* lists = part == active ? &active_lists_ : &closing_[part].lists;
    if (Status ls = LoadSegments(part, lists); !ls.ok()) return ls;
  }
  return Status::Ok();
}

Status SearchIndex::ListOf(uint32_t part, uint64_t term_id, std::string* out) {
  out->clear();
  const Partition& p = partitions_[part];
  if (p.merged) {
    std::string key = "m";
    PutU32Be(&key, part);
    PutU64Be(&key, term_id);
    Status s = journal_->GetIndex(IndexFamily::kPostings, key, out);
    if (s.code() == StatusCode::kNotFound) return Status::Ok();
    return s;
  }
  // Active or not yet merged: the list in memory, renumbered to places and
  // sorted.
  const Lists* lists = &active_lists_;
  const std::vector<uint32_t>* place = nullptr;
  if (!p.closed) {
    EnsureOrder();
    place = &active_.place;
  } else {
    auto it = closing_.find(part);
    if (it == closing_.end()) return Status::Internal("index partition " + std::to_string(part) + " not loaded");
    if (it->second.place.empty()) {
      if (Status s = ClosedOrder(part, /*inverse=*/true, &it->second.place); !s.ok()) return s;
    }
    lists = &it->second.lists;
    place = &it->second.place;
  }
  auto list = lists->find(term_id);
  if (list == lists->end()) return Status::Ok();
  FlatPostings flat;
  if (!DecodeAppend(list->second.bytes, &flat, place).ok())
    return Status::Internal("corrupt index postings of partition " + std::to_string(part));
  std::vector<uint32_t> order(flat.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return flat.doc[a] < flat.doc[b]; });
  EncodeBlocked(flat, order, out);
  return Status::Ok();
}

Status SearchIndex::DocAt(const PreparedSearch& p, uint32_t part, uint32_t place, Doc* d) {
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
void SearchIndex::ScoreHit(const PreparedSearch& p, const QueryClause& clause, const Doc& doc, double doc_rank,
                           const std::vector<const Posting*>& postings, text::Stemmer& stemmer, SearchHit* hit) {
  const auto n_docs = static_cast<double>(std::max<uint64_t>(p.documents, 1));
  const double l_avg = static_cast<double>(p.total_length) / n_docs;
  hit->doc_rank = doc_rank;
  hit->relevance = 0;
  std::vector<std::vector<uint32_t>> positions;
  uint32_t title_matched = 0;
  for (size_t t = 0; t < clause.term_ids.size(); ++t) {
    auto stats = p.stats.find(clause.term_ids[t]);
    const PreparedSearch::Stats st = stats == p.stats.end() ? PreparedSearch::Stats{} : stats->second;
    hit->relevance += DfrTerm(postings[t]->frequency, static_cast<double>(st.occurrences), n_docs, doc.length, l_avg);
    positions.push_back(postings[t]->positions);
    if (!postings[t]->positions.empty() && postings[t]->positions.front() < doc.title_tokens) ++title_matched;
  }
  hit->proximity = Proximity(positions, doc.length, p.options.proximity_weight);
  BonusInput in;
  in.title_matched = title_matched;
  // Distinct terms, as title_matched counts distinct query terms (a title
  // repeating a word, "What's New in Python 2.6 - Python 3.11.2
  // documentation", is not a longer title for the bonus).
  in.title_terms = doc.title_terms;
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
  hit->bonus = Bonus(in, p.options.bonus);
}

std::string SearchIndex::Snippet(const DocSummary& s, const QueryClause& clause, text::Stemmer& stemmer) {
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

Result<SearchOutcome> SearchIndex::Search(const Query& query, const SearchOptions& options, const Clock& clock,
                                          text::Stemmer& stemmer) {
  auto prepared = Prepare(query);
  if (!prepared.ok()) return prepared.status();
  return Run(**prepared, options, clock, stemmer);
}

Result<std::shared_ptr<const PreparedSearch>> SearchIndex::Prepare(const Query& query) {
  Flush();  // documents added since the last Flush are searchable too
  auto p = std::make_shared<PreparedSearch>();
  p->query = query;
  p->options = options_;
  p->documents = documents_;
  p->total_length = total_length_;
  p->parts.reserve(partitions_.size());
  for (const Partition& part : partitions_) p->parts.push_back({part.docs, part.closed, part.merged});
  if (!partitions_.back().closed && partitions_.back().docs > 0) {
    EnsureOrder();
    p->active_at = active_.at;
  }
  // The query's terms and title keys: statistics, and their lists in the
  // partitions whose postings are in memory (copied: the index may change
  // them once Prepare returns).
  for (const QueryClause& clause : query.clauses) {
    for (const uint64_t term_id : clause.term_ids) {
      for (const uint64_t id : {term_id, TitleTermId(term_id)}) {
        auto st = terms_.find(id);
        if (st == terms_.end() || p->stats.contains(id)) continue;
        p->stats[id] = {st->second.docs, st->second.occurrences};
        for (uint32_t pi = 0; pi < partitions_.size(); ++pi) {
          if (partitions_[pi].merged || partitions_[pi].docs == 0) continue;
          std::string list;
          if (Status s = ListOf(pi, id, &list); !s.ok()) return s;
          if (!list.empty()) p->memory_lists.emplace(std::make_pair(pi, id), std::move(list));
        }
      }
    }
  }
  p->snapshot = journal_->SnapshotIndex();
  return std::shared_ptr<const PreparedSearch>(std::move(p));
}

Status SearchIndex::PreparedList(const PreparedSearch& p, uint32_t part, uint64_t term_id, std::string* out) {
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
      Doc d;
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
