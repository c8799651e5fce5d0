// A zip container (APPNOTE.TXT 6.3) read from memory with libzip, for the
// formats built on zip (OOXML, OpenDocument, EPUB): entries read by name,
// with a running budget of inflated bytes over the whole container
// (DocumentLimits.max_inflated_bytes) so a zip bomb stops there, and a cap
// on the number of entries. Internal to fetcher/document/.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "common/base/status.h"
#include "fetcher/document/document.h"

struct zip;

namespace crawl::fetcher::document {

class ZipContainer {
 public:
  // Opens `body` (not copied: REQUIRES it outlives the container). An error
  // when it is not a zip or has more than limits.max_zip_entries entries.
  static Result<std::unique_ptr<ZipContainer>> Open(std::string_view body, const DocumentLimits& limits);
  ~ZipContainer();
  ZipContainer(const ZipContainer&) = delete;
  ZipContainer& operator=(const ZipContainer&) = delete;

  [[nodiscard]] bool Has(std::string_view name) const;
  // Entry `name` inflated whole. An error when it is absent, broken, or
  // would take the container past its inflate budget (the budget is spent
  // by what was read even then).
  [[nodiscard]] Result<std::string> Read(std::string_view name);
  [[nodiscard]] size_t inflated() const { return inflated_; }

 private:
  ZipContainer(struct zip* archive, size_t budget) : archive_(archive), budget_(budget) {}

  struct zip* archive_;
  size_t budget_;
  size_t inflated_ = 0;
};

// `target` (a relative or "/"-rooted path inside the container, as OOXML
// relationships and EPUB manifests write them, percent-encoding decoded)
// resolved against the folder `base_dir` ("word/", "" for the root).
[[nodiscard]] std::string ResolvePartPath(std::string_view base_dir, std::string_view target);
// The folder of a part name, with its trailing '/' ("" at the root).
[[nodiscard]] std::string PartFolder(std::string_view part);

}  // namespace crawl::fetcher::document
