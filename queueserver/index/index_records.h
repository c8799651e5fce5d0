// The byte layouts shared by the index's writer, loader and search walk
// (search_index.h; record layouts in docs/ARCHITECTURE.md "Index and
// search"): big-endian key parts, length-prefixed strings, doc ids and
// title term keys.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace crawl::queueserver {

// The key of a term's title postings: the postings of the pages whose title
// holds the term, kept apart from the term's own list (key "title" + id, so
// it cannot be a stem's hash but by a 64-bit collision).
uint64_t TitleTermId(uint64_t term_id);

void PutU32Be(std::string* out, uint32_t v);
void PutU64Be(std::string* out, uint64_t v);
uint64_t ReadBe(std::string_view d, size_t bytes);
void PutString(std::string* out, std::string_view s);
bool GetString(std::string_view in, size_t* pos, std::string* s);

std::array<uint8_t, 24> MakeDocId(uint64_t url_hash, char type, uint64_t text_hash7, uint64_t host_hash);
std::string IdString(const std::array<uint8_t, 24>& id);

// A document as its doc map entry holds it (key 'a' partition doc).
struct IndexedDoc {
  std::array<uint8_t, 24> id{};
  uint64_t url_hash = 0, text_hash = 0, host_hash = 0;
  uint32_t length = 0;  // tokens
  uint32_t title_tokens = 0;
  uint32_t title_terms = 0;  // distinct terms among the title tokens
  bool link = false;
  // The crawl's ScoringFilter IndexerScore of the page (0: none), added to
  // its doc rank by search. Entries with one have the type byte 'P' (or
  // 'L') and the boost as 8 bytes (IEEE double, big-endian) after it.
  double boost = 0;
  std::string url;
};

// Which page document of a URL answers searches (the index follows the web): doc map
// record 'u' + url hash (8) -> state ('+' live, '-' removed: gone, moved or
// noindex) + the 7-byte text hash of the page document it names. Written in
// the same batch as the document it names, so a search's snapshot sees one
// version of a page. No record (a URL never indexed, or indexed before the
// record existed): every page document of the URL is live.
struct PageLiveness {
  bool live = true;
  uint64_t text_hash = 0;  // 7 bytes
};
std::string LivenessKey(uint64_t url_hash);
std::string EncodeLiveness(const PageLiveness& l);
// False for a record of another size or state byte.
[[nodiscard]] bool DecodeLiveness(std::string_view value, PageLiveness* l);
// Whether `doc` answers searches under its URL's liveness record `l` (none:
// always): a page document when the record is live and names its text; a
// link document unless the page was removed.
[[nodiscard]] bool DocIsLive(const IndexedDoc& doc, const PageLiveness* l);

// Cuts `s` to at most `n` bytes on a UTF-8 character boundary.
std::string CutUtf8(std::string s, size_t n);

}  // namespace crawl::queueserver
