// Collected text of the HTML scanner (fetcher/page/html_links.cc): titles, anchor
// texts and page text, whitespace-collapsed and cut at a character limit.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "fetcher/page/html_chars.h"

namespace crawl::html::internal {

// Builds whitespace-collapsed text of at most max_chars code points, cut at
// a UTF-8 character boundary. U+00A0 counts as whitespace.
class TextCollector {
 public:
  explicit TextCollector(std::size_t max_chars) : max_chars_(max_chars) {}

  // Appends decoded text to `out`; false once the limit is reached.
  bool Append(std::string_view text, std::string& out) {
    for (std::size_t i = 0; i < text.size() && !full_; ++i) {
      const auto b = static_cast<unsigned char>(text[i]);
      if (IsHtmlSpace(static_cast<char>(b))) {
        pending_space_ = true;
        continue;
      }
      if (b == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xA0) {
        pending_space_ = true;
        ++i;
        continue;
      }
      if (b == 0) continue;
      if ((b & 0xC0) != 0x80) {  // the first byte of a character
        const std::size_t need = (pending_space_ && !out.empty()) ? 2 : 1;
        if (chars_ + need > max_chars_) {
          full_ = true;
          break;
        }
        if (need == 2) out.push_back(' ');
        chars_ += need;
        pending_space_ = false;
      }
      out.push_back(static_cast<char>(b));
    }
    return !full_;
  }
  // A word boundary (a block tag, an image between words).
  void Break() { pending_space_ = true; }
  [[nodiscard]] bool full() const { return full_; }

 private:
  std::size_t max_chars_;
  std::size_t chars_ = 0;
  bool pending_space_ = false;
  bool full_ = false;
};

}  // namespace crawl::html::internal
