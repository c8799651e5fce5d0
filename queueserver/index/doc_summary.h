// The summary kept per document in the docs family (doc id -> summary
// record): writing the record and reading it back.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace crawl::queueserver {

// The summary kept per document (compressed in the docs family).
struct DocSummary {
  std::string url;
  std::string title;
  std::vector<std::string> description;  // sentences
  std::string language;
  bool nosnippet = false;
  bool link = false;
};

// Writes summary records: 'r' and the fields when they take 256 bytes or
// less (link documents' summaries: zlib would cost more than it saves),
// else 'z', the fields' varint size and the fields in zlib level 1. One
// zlib stream for every summary: compress2 allocates and frees its 256 KB
// of state per call. Not thread-safe.
class SummaryEncoder {
 public:
  SummaryEncoder();
  ~SummaryEncoder();
  SummaryEncoder(const SummaryEncoder&) = delete;
  SummaryEncoder& operator=(const SummaryEncoder&) = delete;
  [[nodiscard]] std::string Encode(const DocSummary& s);

 private:
  class Deflater;
  std::unique_ptr<Deflater> deflater_;
};

// A summary record ('r' raw or 'z' zlib, then the fields) back to its
// summary; corrupt records are an InvalidArgument error.
[[nodiscard]] Result<DocSummary> ParseSummary(std::string_view bytes);

}  // namespace crawl::queueserver
