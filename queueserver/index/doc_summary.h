// The summary kept per document in the docs family (doc id -> summary
// record), and reading it back.
#pragma once

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

// A summary record ('r' raw or 'z' zlib, then the fields) back to its
// summary; corrupt records are an InvalidArgument error.
[[nodiscard]] Result<DocSummary> ParseSummary(std::string_view bytes);

}  // namespace crawl::queueserver
