// IndexBuilder (index_builder.h): pages and links into documents, their
// summaries and doc map entries, postings per request and partitions closed
// when full.
#include "queueserver/index/index_builder.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <set>
#include <span>

#include "common/base/hash.h"
#include "common/base/varint.h"
#include "common/text/tokenizer.h"
#include "common/url/url.h"
#include "queueserver/index/doc_map.h"

namespace crawl::queueserver {
namespace {

constexpr size_t kMaxLinkTitleChars = 100;

// links_seen_ is cleared past this many entries (8 bytes each and the set's overhead).
constexpr size_t kMaxLinksSeen = 1'000'000;

// word_ids_ is cleared past this many words (about 100 bytes each).
constexpr size_t kMaxWordIds = 1u << 19;

}  // namespace

bool IndexBuilder::IsAnchorStopWord(std::string_view w) {
  static const std::set<std::string_view> kStop = {
      "a",   "an",   "and",  "at",   "by",    "click", "for",  "from",     "go",   "here", "in",   "is",
      "it",  "link", "more", "of",   "on",    "or",    "page", "read",     "see",  "the",  "this", "to",
      "via", "with", "www",  "http", "https", "next",  "prev", "previous", "back", "home", "top"};
  return w.size() < 2 || kStop.contains(w);
}

IndexBuilder::IndexBuilder(const IndexOptions& options, IndexJournal* journal, IndexMemory* memory,
                           LivenessTracker* liveness)
    : options_(options), journal_(journal), memory_(memory), liveness_(liveness), weigher_(options) {}

bool IndexBuilder::DocExists(const std::array<uint8_t, 24>& id) {
  std::string value;
  return journal_->GetIndex(IndexFamily::kDocs, IdString(id), &value).ok();
}

bool IndexBuilder::AddPage(const v1::FetchRecord& r, double boost) {
  if (r.kind() != v1::URL_KIND_PAGE || r.status() < 200 || r.status() >= 300 || r.noindex()) return false;
  const v1::MiniIndex& mi = r.mini_index();
  if (mi.postings().empty() && mi.terms_size() == 0) return false;
  const std::string host = url::HostOf(r.url());
  if (host.empty()) return false;
  IndexedDoc d;
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
    liveness_->MakeLive(d.url_hash, d.text_hash);
    return false;
  }

  // Read whole first: a bad buffer indexes nothing of the page.
  if (Status s = weigher_.Read(mi); !s.ok()) {
    ++pages_rejected_;
    return false;
  }
  const PageWeigher::PageTerms& terms = weigher_.terms();
  weigher_.Weigh(r, d.title_tokens);
  if (PartitionFull()) ClosePartition();
  const auto doc = static_cast<uint32_t>(memory_->active.keys.size());
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
    // Ascending and distinct (PageWeigher::Read).
    const std::span<const uint32_t> positions(terms.positions.data() + terms.first[i],
                                              terms.first[i + 1] - terms.first[i]);
    double f = weigher_.TermFrequency(positions, d.title_tokens);
    const uint64_t counted = uint64_t{terms.counts[i].title} + terms.counts[i].body;
    // Occurrences past the position cap count as body occurrences.
    if (counted > positions.size())
      f += options_.body_weight * static_cast<double>(counted - positions.size());
    const uint64_t occurrences = std::max<uint64_t>(counted, positions.size());
    if (occurrences == 0) continue;
    postings_.Add(w.id, *w.stats, doc, f, positions.data(), positions.size(), occurrences, terms.gaps[i]);
    if (!positions.empty() && positions.front() < d.title_tokens) {
      ++d.title_terms;
      // The same posting again under the term's title key, so that a query
      // can walk the pages whose title holds all its terms first (Search).
      postings_.Add(w.title_id, *w.title_stats, doc, f, positions.data(), positions.size(), occurrences,
                    terms.gaps[i]);
    }
    any = true;
  }
  if (!any) return false;
  DocSummary summary;
  summary.url = d.url;
  summary.title = r.title();
  summary.language = r.language();
  summary.nosnippet = r.nosnippet();
  summary.near_duplicate_cluster = r.near_duplicate_cluster();
  for (const v1::DescriptionSentence& s : r.description()) summary.description.push_back(s.text());
  summary.canonical_url = r.canonical_url();
  summary.unavailable_after_unix_s = r.unavailable_after_unix_s();
  for (const v1::HreflangAlternate& a : r.alternates())
    summary.alternates.emplace_back(a.language(), a.url());
  FinishDocument(d, summary);
  liveness_->MakeLive(d.url_hash, d.text_hash);
  return true;
}

bool IndexBuilder::AddLink(const v1::DiscoveredLink& link, std::string_view iso_language) {
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
  IndexedDoc d;
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
  if (PartitionFull()) ClosePartition();
  const auto doc = static_cast<uint32_t>(memory_->active.keys.size());
  if (word_ids_.size() >= kMaxWordIds) word_ids_.clear();
  std::stable_sort(stems.begin(), stems.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<uint32_t>& positions = scratch_positions_;
  for (size_t i = 0; i < stems.size();) {
    positions.clear();
    size_t j = i;
    for (; j < stems.size() && stems[j].first == stems[i].first; ++j) positions.push_back(stems[j].second);
    const WordIds& w = IdsOf(stems[i].first);  // the stem's id, cached
    postings_.Add(w.id, *w.stats, doc, options_.body_weight * static_cast<double>(positions.size()),
                  positions.data(), positions.size(), positions.size());
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

const std::vector<uint64_t>& IndexBuilder::HashTerms(const std::vector<std::string_view>& terms) {
  scratch_hashes_.resize(terms.size());
  for (size_t i = 0; i < terms.size(); ++i) scratch_hashes_[i] = ShortStringHash(terms[i]);
  return scratch_hashes_;
}

// word_ids_ outgrows the CPU cache: each lookup would miss it for the slot,
// the entry and the term's statistics. Those of the words a few places
// ahead are fetched meanwhile (FlatStringMap's prefetch steps).
void IndexBuilder::PrefetchWordIds(const std::vector<uint64_t>& hashes, size_t i) const {
  constexpr size_t kSlotAhead = 12, kEntryAhead = 6, kStatsAhead = 3;
  if (i + kSlotAhead < hashes.size()) word_ids_.Prefetch(hashes[i + kSlotAhead]);
  if (i + kEntryAhead < hashes.size()) word_ids_.PrefetchEntry(hashes[i + kEntryAhead]);
  if (i + kStatsAhead < hashes.size()) {
    if (const WordIds* guess = word_ids_.Peek(hashes[i + kStatsAhead])) __builtin_prefetch(guess->stats);
  }
}

IndexBuilder::WordIds& IndexBuilder::IdsOf(std::string_view word, uint64_t hash) {
  const auto [found, added] = word_ids_.Insert(word, hash);
  WordIds& w = *found;
  if (added) {
    w.id = hash::Hash8(word);
    w.title_id = TitleTermId(w.id);
    w.stats = &memory_->terms[w.id];
    w.title_stats = &memory_->terms[w.title_id];
  }
  return w;
}

void IndexBuilder::FinishDocument(const IndexedDoc& doc, const DocSummary& summary) {
  const auto part = static_cast<uint32_t>(memory_->partitions.size() - 1);
  const auto n = static_cast<uint32_t>(memory_->active.keys.size());
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
  memory_->active.keys.push_back({doc.url_hash, doc.text_hash});
  memory_->active.order_valid = false;
  memory_->partitions.back().docs = n + 1;
  ++memory_->documents;
  memory_->total_length += doc.length;
  memory_->totals_changed = true;
  if (PartitionFull()) ClosePartition();
}

void IndexBuilder::ClosePartition() {
  const auto index = static_cast<uint32_t>(memory_->partitions.size() - 1);
  FlushPostings();
  memory_->EnsureOrder();
  // The closed partition's doc map, in walking order (docs/DESIGN.md §7), and its size.
  const std::vector<uint32_t>& at = *memory_->active.at;
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
  PutVarint(&value, memory_->active.keys.size());
  journal_->PutIndex(IndexFamily::kDocMap, key, value);
  memory_->partitions.back().closed = true;
  IndexMemory::Closing& closing = memory_->closing[index];
  closing.lists = std::move(memory_->active_lists);
  closing.place = std::move(memory_->active.place);
  memory_->active_lists = TermLists{};
  memory_->closed_bytes += memory_->active_bytes;
  memory_->active_bytes = 0;
  memory_->partitions.emplace_back();
  memory_->active = IndexMemory::Active{};
}

void IndexBuilder::FlushPostings() {
  memory_->active_bytes += postings_.Flush(static_cast<uint32_t>(memory_->partitions.size() - 1),
                                           &memory_->active_lists, journal_);
}

bool IndexBuilder::PartitionFull() const {
  if (memory_->active.keys.size() >= options_.partition_docs) return true;
  if (options_.partition_bytes == 0) return false;
  const uint64_t limit =
      std::min(options_.partition_bytes, std::max(options_.min_partition_bytes, memory_->closed_bytes / 8));
  return memory_->active_bytes >= limit;
}

void IndexBuilder::Flush() {
  FlushPostings();
  if (memory_->totals_changed) {
    std::string v;
    PutVarint(&v, memory_->documents);
    PutVarint(&v, memory_->total_length);
    journal_->PutIndex(IndexFamily::kDocMap, "s", v);
    memory_->totals_changed = false;
  }
  if (memory_->garbage_changed) {
    IndexJournal::Put g = memory_->GarbagePut();
    journal_->PutIndex(g.family, g.key, g.value);
    memory_->garbage_changed = false;
  }
}

void IndexBuilder::Reset() {
  postings_.Clear();
  word_ids_.clear();
}

}  // namespace crawl::queueserver
