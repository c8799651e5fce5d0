// Index build (search_index.h; DESIGN.md section 7): pages and links into
// documents, their summaries and doc map entries, postings per request
// (Flush) and partitions closed when full. Loading, merging, preparing and
// walking searches live beside it (index_load.cc, index_merge.cc,
// search_prepare.cc, search_walk.cc).
#include "queueserver/index/search_index.h"

#include <algorithm>
#include <bit>
#include <array>
#include <cmath>
#include <set>
#include <span>
#include <tuple>

#include "common/base/hash.h"
#include "common/base/string_hash.h"
#include "common/url/url.h"
#include "common/text/tokenizer.h"
#include "common/base/varint.h"
#include "queueserver/index/doc_map.h"
#include "queueserver/index/index_records.h"

namespace crawl::queueserver {
namespace {

constexpr size_t kMaxLinkTitleChars = 100;

// links_seen_ is cleared past this many entries (8 bytes each and the set's overhead).
constexpr size_t kMaxLinksSeen = 1'000'000;

// word_ids_ is cleared past this many words (about 100 bytes each).
constexpr size_t kMaxWordIds = 1u << 19;
// AddPage's table of position weights covers at most this many positions.
constexpr size_t kMaxWeighedPositions = 1u << 20;

}  // namespace

bool SearchIndex::IsAnchorStopWord(std::string_view w) {
  static const std::set<std::string_view> kStop = {
      "a",    "an",   "and",  "at",   "by",    "click", "for",  "from", "go",   "here", "in",  "is",
      "it",   "link", "more", "of",   "on",    "or",    "page", "read", "see",  "the",  "this", "to",
      "via",  "with", "www",  "http", "https", "next",  "prev", "previous", "back", "home", "top"};
  return w.size() < 2 || kStop.contains(w);
}

SearchIndex::~SearchIndex() = default;

SearchIndex::SearchIndex(IndexOptions options, IndexJournal* journal) : options_(options), journal_(journal) {
  if (options_.partition_docs == 0) options_.partition_docs = 100'000;
  if (journal_ == nullptr) {
    own_journal_ = std::make_unique<MemoryIndexJournal>();
    journal_ = own_journal_.get();
  }
  partitions_.emplace_back();  // the active one
}

bool SearchIndex::DocExists(const std::array<uint8_t, 24>& id) {
  std::string value;
  return journal_->GetIndex(IndexFamily::kDocs, IdString(id), &value).ok();
}

bool SearchIndex::AddPage(const v1::FetchRecord& r, double boost) {
  if (r.kind() != v1::URL_KIND_PAGE || r.status() < 200 || r.status() >= 300 || r.noindex()) return false;
  const v1::MiniIndex& mi = r.mini_index();
  if (mi.postings().empty() && mi.terms_size() == 0) return false;
  const std::string host = url::HostOf(r.url());
  if (host.empty()) return false;
  Doc d;
  d.url = r.url();
  d.url_hash = hash::RecurringHash8(d.url);
  d.text_hash = r.text_hash() >> 8;  // the 7-byte hash: first 7 bytes of the 8
  d.host_hash = hash::RecurringHash8(host);
  d.length = std::max<uint32_t>(mi.token_count(), 1);
  d.title_tokens = mi.title_tokens();
  d.link = false;
  d.boost = std::isfinite(boost) ? std::clamp(boost, 0.0, 10.0) : 0.0;
  d.id = MakeDocId(d.url_hash, 'p', d.text_hash, d.host_hash);
  if (DocExists(d.id)) {
    // A version indexed before (the page changed back, or came back after
    // its removal) answers again.
    MakeLive(d.url_hash, d.text_hash);
    return false;
  }

  // Read whole first: a bad buffer indexes nothing of the page.
  if (Status s = ReadPageTerms(mi); !s.ok()) {
    ++pages_rejected_;
    return false;
  }
  const PageTerms& terms = scratch_terms_;
  WeighPositions(r, d.title_tokens);
  if (active_.keys.size() >= options_.partition_docs) ClosePartition();
  const auto doc = static_cast<uint32_t>(active_.keys.size());
  if (word_ids_.size() >= kMaxWordIds) word_ids_.clear();
  const uint64_t stamp = ++document_stamp_;
  bool any = false;
  const std::vector<uint64_t>& hashes = HashTerms(terms.term);
  for (size_t i = 0; i < terms.term.size(); ++i) {
    PrefetchWordIds(hashes, i);
    if (terms.term[i].empty()) continue;
    // The id is recomputed (from the word, IdsOf): input from another
    // process must not be able to file a term under another term's id.
    WordIds& w = IdsOf(terms.term[i], hashes[i]);
    if (w.last_doc == stamp) continue;  // the word listed twice: its first entry counts
    w.last_doc = stamp;
    // Ascending and distinct (ReadPageTerms).
    const std::span<const uint32_t> positions(terms.positions.data() + terms.first[i],
                                              terms.first[i + 1] - terms.first[i]);
    double f = TermFrequency(positions, d.title_tokens);
    const uint64_t counted = uint64_t{terms.counts[i].title} + terms.counts[i].body;
    // Occurrences past the position cap count as body occurrences.
    if (counted > positions.size()) f += options_.body_weight * static_cast<double>(counted - positions.size());
    const uint64_t occurrences = std::max<uint64_t>(counted, positions.size());
    if (occurrences == 0) continue;
    AddPosting(w.id, *w.stats, doc, f, positions.data(), positions.size(), occurrences, terms.gaps[i]);
    if (!positions.empty() && positions.front() < d.title_tokens) {
      ++d.title_terms;
      // The same posting again under the term's title key, so that a query
      // can walk the pages whose title holds all its terms first (Search).
      AddPosting(w.title_id, *w.title_stats, doc, f, positions.data(), positions.size(), occurrences, terms.gaps[i]);
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
  MakeLive(d.url_hash, d.text_hash);
  return true;
}

void SearchIndex::WeighPositions(const v1::FetchRecord& r, uint32_t title_tokens) {
  DescriptionSteps(r);
  // The table costs a slot per position up to the last, so it is made
  // only when positions are not far sparser than a fetcher's (a position
  // each token) and not past kMaxWeighedPositions; otherwise (only from a
  // bad fetcher) TermFrequency weighs them position by position.
  const PageTerms& terms = scratch_terms_;
  const std::vector<uint32_t>& positions = terms.positions;
  // Each term's positions ascend (ReadPageTerms): the last position of the
  // page is the greatest of the terms' last ones (no pass over every
  // position is needed).
  size_t size = 0;
  for (size_t i = 0; i + 1 < terms.first.size(); ++i) {
    if (terms.first[i + 1] > terms.first[i]) size = std::max<size_t>(size, size_t{positions[terms.first[i + 1] - 1]} + 1);
  }
  const bool table = size <= kMaxWeighedPositions && size <= 4 * positions.size() + 4096;
  // The buffer only grows (a vector's resize zeroes what it adds, and pages
  // alternate between short and long).
  const size_t used = table ? size : 0;
  if (scratch_weights_.size() < used)
    scratch_weights_.resize(std::min(std::max(used, 2 * scratch_weights_.size()), kMaxWeighedPositions));
  weights_ = std::span<double>(scratch_weights_.data(), used);
  PositionWeights(title_tokens, scratch_steps_, options_.title_weight, options_.body_weight, weights_);
}

double SearchIndex::TermFrequency(std::span<const uint32_t> positions, uint32_t title_tokens) const {
  if (!positions.empty() && positions.back() >= weights_.size())
    return PositionsFrequency(positions, title_tokens, scratch_steps_, options_.title_weight, options_.body_weight);
  double f = 0;
  for (uint32_t p : positions) f += weights_[p];
  return f;
}

// Description sentences add their weight to their positions (DESIGN.md 6-7).
// As a step function over positions, so a term's sorted positions are
// weighed in one merge (sentences can overlap: input from another process).
void SearchIndex::DescriptionSteps(const v1::FetchRecord& r) {
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

bool SearchIndex::AddLink(const v1::DiscoveredLink& link, std::string_view iso_language) {
  if (link.anchor_text().empty() || link.from_sitemap() || link.source() == "redirect" ||
      link.source() == "sitemap")
    return false;
  // In memory only: a fast hash will do (MD5, Hash8's, is costly
  // here).
  const std::string_view parts[] = {link.url(), link.anchor_text(), iso_language};
  uint64_t seen_key = 0;
  for (std::string_view part : parts)
    seen_key = (seen_key ^ std::hash<std::string_view>{}(part)) * 0x9e3779b97f4a7c15ull + part.size();
  if (links_seen_.size() >= kMaxLinksSeen) links_seen_.clear();
  if (!links_seen_.Insert(seen_key)) return false;
  const std::string host = url::HostOf(link.url());
  if (host.empty()) return false;
  text::Stemmer& stemmer = stemmers_.For(iso_language.empty() ? "en" : iso_language);
  // (stem, position) of each word; grouped by stem below, in stem order.
  std::vector<std::pair<std::string, uint32_t>>& stems = scratch_link_stems_;
  stems.clear();
  std::string text;
  uint32_t position = 0;
  text::ForEachToken(link.anchor_text(), [&](std::string_view w) {
    if (IsAnchorStopWord(w)) return;
    if (!text.empty()) text.push_back(' ');
    text.append(w);
    stems.emplace_back(std::string(stemmer.Stem(w)), position++);
  });
  if (stems.empty()) return false;
  Doc d;
  d.url = link.url();
  d.url_hash = hash::RecurringHash8(d.url);
  d.text_hash = hash::RecurringHash8(text) >> 8;
  // A page's links mostly share its host: its hash once per run of them.
  if (host != last_link_host_) {
    last_link_host_ = host;
    last_link_host_hash_ = hash::RecurringHash8(host);
  }
  d.host_hash = last_link_host_hash_;
  d.length = position;
  d.link = true;
  d.id = MakeDocId(d.url_hash, 'l', d.text_hash, d.host_hash);
  if (DocExists(d.id)) return false;
  if (active_.keys.size() >= options_.partition_docs) ClosePartition();
  const auto doc = static_cast<uint32_t>(active_.keys.size());
  if (word_ids_.size() >= kMaxWordIds) word_ids_.clear();
  std::stable_sort(stems.begin(), stems.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<uint32_t>& positions = scratch_positions_;
  for (size_t i = 0; i < stems.size();) {
    positions.clear();
    size_t j = i;
    for (; j < stems.size() && stems[j].first == stems[i].first; ++j) positions.push_back(stems[j].second);
    const WordIds& w = IdsOf(stems[i].first);  // the stem's id, cached
    AddPosting(w.id, *w.stats, doc, options_.body_weight * static_cast<double>(positions.size()), positions.data(),
               positions.size(), positions.size());
    i = j;
  }
  DocSummary summary;
  summary.url = d.url;
  summary.title = CutUtf8(link.anchor_text(), kMaxLinkTitleChars);
  summary.language = iso_language;
  summary.link = true;
  FinishDocument(d, summary);
  return true;
}

void SearchIndex::PageTerms::clear() {
  term.clear();
  counts.clear();
  first.assign(1, 0);
  positions.clear();
  gaps.clear();
}

template <typename Positions>
void SearchIndex::PageTerms::Add(std::string_view t, const text::TermCounts& c, const Positions& p,
                                 std::string_view g) {
  term.push_back(t);
  gaps.push_back(g);
  counts.push_back(c);
  positions.insert(positions.end(), p.begin(), p.end());
  first.push_back(static_cast<uint32_t>(positions.size()));
}

Status SearchIndex::ReadPageTerms(const v1::MiniIndex& mi) {
  PageTerms& out = scratch_terms_;
  out.clear();
  if (!mi.postings().empty()) {
    text::PackedTermReader reader(mi.postings());
    while (reader.Next()) out.Add(reader.term(), reader.counts(), reader.positions(), reader.shortest_gaps());
    return reader.status();
  }
  for (const v1::IndexTerm& t : mi.terms()) {
    out.Add(t.term(), {t.title_count(), t.description_count(), t.body_count(), t.anchor_count()}, t.positions());
    // Packed positions ascend by construction; these may come in any order.
    const auto first = out.positions.begin() + out.first[out.first.size() - 2];
    if (!std::is_sorted(first, out.positions.end())) std::sort(first, out.positions.end());
    out.positions.erase(std::unique(first, out.positions.end()), out.positions.end());
    out.first.back() = static_cast<uint32_t>(out.positions.size());
  }
  return Status::Ok();
}

const std::vector<uint64_t>& SearchIndex::HashTerms(const std::vector<std::string_view>& terms) {
  scratch_hashes_.resize(terms.size());
  for (size_t i = 0; i < terms.size(); ++i) scratch_hashes_[i] = ShortStringHash(terms[i]);
  return scratch_hashes_;
}

// word_ids_ outgrows the CPU cache: each lookup would miss it for the slot,
// the entry and the term's statistics. Those of the words a few places
// ahead are fetched meanwhile (FlatStringMap's prefetch steps).
void SearchIndex::PrefetchWordIds(const std::vector<uint64_t>& hashes, size_t i) const {
  constexpr size_t kSlotAhead = 12, kEntryAhead = 6, kStatsAhead = 3;
  if (i + kSlotAhead < hashes.size()) word_ids_.Prefetch(hashes[i + kSlotAhead]);
  if (i + kEntryAhead < hashes.size()) word_ids_.PrefetchEntry(hashes[i + kEntryAhead]);
  if (i + kStatsAhead < hashes.size()) {
    if (const WordIds* guess = word_ids_.Peek(hashes[i + kStatsAhead])) __builtin_prefetch(guess->stats);
  }
}

SearchIndex::WordIds& SearchIndex::IdsOf(std::string_view word, uint64_t hash) {
  const auto [found, added] = word_ids_.Insert(word, hash);
  WordIds& w = *found;
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
                             const uint32_t* positions, size_t n, uint64_t occurrences, std::string_view gaps) {
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
  // The posting's head (doc delta, frequency, position count) and, when
  // they are short (most terms occur once or twice in a page), its gaps in
  // one append, not two of a few bytes each.
  constexpr size_t kShortGaps = 32;
  char head[30 + kShortGaps];
  char* h = head;
  h = WriteVarint(h, static_cast<uint64_t>(static_cast<int64_t>(doc) - p.last - 1));
  h = WriteVarint(h, FrequencyHundredths(frequency));
  h = WriteVarint(h, n);
  p.last = doc;
  ++p.docs;
  p.occurrences += occurrences;
  if (!gaps.empty() && gaps.size() <= kShortGaps) {
    for (const char c : gaps) *h++ = c;
    out.append(head, static_cast<size_t>(h - head));
    return;
  }
  out.append(head, static_cast<size_t>(h - head));
  if (!gaps.empty()) {
    out.append(gaps);
    return;
  }
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
  journal_->PutIndex(IndexFamily::kDocs, id, EncodeSummary(summary));
  std::string key = "a";
  PutU32Be(&key, part);
  PutU32Be(&key, n);
  std::string entry = id;
  PutVarint(&entry, doc.length);
  PutVarint(&entry, doc.title_tokens);
  PutVarint(&entry, doc.title_terms);
  if (doc.boost > 0) {
    entry.push_back(doc.link ? 'L' : 'P');
    PutU64Be(&entry, std::bit_cast<uint64_t>(doc.boost));
  } else {
    entry.push_back(doc.link ? 'l' : 'p');
  }
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
  journal_->AppendSegment(part, segment_first_, std::move(segment));
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
  if (garbage_changed_) {
    IndexJournal::Put g = GarbagePut();
    journal_->PutIndex(g.family, g.key, g.value);
    garbage_changed_ = false;
  }
}

}  // namespace crawl::queueserver
