// The text and links a document parser collects, within DocumentLimits
// (fetcher/document/document.h): whitespace collapsed within paragraphs,
// paragraphs separated by "\n\n", valid UTF-8 throughout, cut at
// max_text_bytes on a character boundary. Also the date forms documents
// use (ISO 8601, PDF "D:" dates). Internal to fetcher/document/.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "fetcher/document/document.h"
#include "proto/crawl.pb.h"

namespace crawl::fetcher::document {

class DocumentText {
 public:
  explicit DocumentText(const DocumentLimits& limits) : limits_(limits) {}

  // Adds `text` (any bytes: ill-formed UTF-8 becomes U+FFFD) to the current
  // paragraph; runs of ASCII whitespace become one space.
  void Append(std::string_view text);
  // Ends the current paragraph (nothing when it is empty).
  void EndParagraph();
  // Adds a link (its URL and anchor text cleaned and trimmed; an empty URL
  // or one past max_links is dropped).
  void AddLink(std::string_view url, std::string_view anchor_text);
  // True once max_text_bytes is reached: more text is dropped.
  [[nodiscard]] bool full() const { return truncated_; }
  [[nodiscard]] size_t size() const { return text_.size(); }
  // Moves the text, truncated and links into *doc.
  void MoveTo(v1::ParsedDocument* doc);

 private:
  void AppendClean(std::string_view clean);

  const DocumentLimits& limits_;
  std::string text_;
  bool truncated_ = false;
  bool paragraph_open_ = false;  // the current paragraph has text
  bool pending_space_ = false;
  bool pending_break_ = false;  // a paragraph ended since the last text
  google::protobuf::RepeatedPtrField<v1::ParsedLink> links_;
};

// `s` as valid UTF-8 with whitespace runs collapsed and trimmed, at most
// `max_bytes` (cut on a character boundary).
[[nodiscard]] std::string CleanField(std::string_view s, size_t max_bytes = 4096);

// "2007-06-29", "2023-11-14T22:13:20Z", "2023-11-14T22:13:20.5+01:00" ->
// Unix seconds; 0 when absent or invalid. Without a zone: UTC.
[[nodiscard]] int64_t ParseIsoDate(std::string_view s);
// PDF 32000-1 7.9.4 "D:YYYYMMDDHHmmSSOHH'mm'" (every part after the year
// optional) -> Unix seconds; 0 when absent or invalid.
[[nodiscard]] int64_t ParsePdfDate(std::string_view s);
// Unix seconds of a UTC civil time; 0 when a field is out of range.
[[nodiscard]] int64_t UnixSeconds(int year, int month, int day, int hour, int minute, int second);

}  // namespace crawl::fetcher::document
