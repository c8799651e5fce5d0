// HTML helpers of the name server's console: escaping of
// every value put into a page or a link, and the page frame (navigation,
// style, no external resource: the console works without internet and
// without JavaScript).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/net/http_security.h"

namespace crawl::nameserver {

// HTML escaping is common/net/http_security.h's.
using crawl::HtmlEscape;
// A query-string component: everything but unreserved characters as %XX.
[[nodiscard]] std::string UrlEncode(std::string_view text);
// 12345678 as "12,345,678".
[[nodiscard]] std::string Thousands(uint64_t v);

// What every page shows besides its body.
struct ConsoleFrame {
  std::string title;    // plain text (escaped here)
  std::string role;     // "admin" or "reader", shown in the header
  std::string message;  // plain text notice above the body ("" none)
  bool error = false;   // the notice is an error
  int refresh_ms = 0;   // > 0: a small script reloads the page (live view)
};

// A whole page around `body_html` (already escaped HTML).
[[nodiscard]] std::string ConsolePage(const ConsoleFrame& frame, std::string_view body_html);

// The Content-Security-Policy of every console page: its one style and
// one script element by hash, nothing else inline, nothing from elsewhere
// (frames only from us: the cached-page view).
[[nodiscard]] const std::string& ConsoleCsp();

// <input type="hidden" name="csrf" value="...">
[[nodiscard]] std::string CsrfField(std::string_view csrf);

}  // namespace crawl::nameserver
