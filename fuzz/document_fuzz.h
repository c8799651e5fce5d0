// The body of the document fuzz targets (fuzz/{pdf,ooxml,odf,epub,rtf}_fuzzer.cc):
// ParseDocument (fetcher/document/document.h) of one type, with small
// limits so each is exercised. Input: one byte choosing among `types`,
// then the body. Checks, besides ASan/UBSan: the text, link and UTF-8
// promises hold and the result survives a proto round trip.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "common/text/utf8.h"
#include "fetcher/document/document.h"
#include "fuzz/fuzz_check.h"

inline int FuzzDocument(const uint8_t* data, size_t size,
                        std::initializer_list<crawl::fetcher::DocumentType> types) {
  if (size < 1) return 0;
  const auto type = types.begin()[data[0] % types.size()];
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  crawl::fetcher::DocumentLimits limits;
  limits.max_text_bytes = 4096;
  limits.max_links = 8;
  limits.max_inflated_bytes = 4 << 20;
  limits.max_zip_entries = 64;
  const auto doc = crawl::fetcher::ParseDocument(type, body, limits);
  if (!doc.ok()) return 0;
  FUZZ_CHECK(doc->text().size() <= 4096, "%zu bytes of text over a limit of 4096", doc->text().size());
  FUZZ_CHECK(doc->links_size() <= 8, "%d links over a limit of 8", doc->links_size());
  for (const std::string* s : {&doc->text(), &doc->title(), &doc->summary(), &doc->info().author()}) {
    FUZZ_CHECK(crawl::text::ValidUtf8Prefix(*s) == s->size(), "ill-formed UTF-8 in the output");
  }
  for (const auto& link : doc->links()) {
    FUZZ_CHECK(!link.url().empty(), "an empty link");
    FUZZ_CHECK(crawl::text::ValidUtf8Prefix(link.url()) == link.url().size(), "ill-formed UTF-8 in a link");
  }
  std::string wire;
  FUZZ_CHECK(doc->SerializeToString(&wire), "document does not serialise");
  crawl::v1::ParsedDocument back;
  FUZZ_CHECK(back.ParseFromString(wire), "document does not parse back");
  return 0;
}
