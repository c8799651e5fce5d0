#include "nameserver/console/console_html.h"

#include "common/net/http_security.h"

namespace crawl::nameserver {

std::string UrlEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                            c == '-' || c == '_' || c == '.' || c == '~';
    if (unreserved) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string Thousands(uint64_t v) {
  std::string digits = std::to_string(v);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

namespace {

constexpr std::string_view kStyle = R"(<style>
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222}
header{background:#234;color:#fff;padding:8px 16px;display:flex;gap:16px;align-items:center}
header a{color:#fff;text-decoration:none}header .role{margin-left:auto;opacity:.8}
main{padding:8px 16px}table{border-collapse:collapse;margin:8px 0}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#eef}.num{text-align:right}.msg{padding:6px 10px;background:#efe;border:1px solid #8c8}
.msg.error{background:#fee;border-color:#c88}form.inline{display:inline}
fieldset{margin:8px 0}label{display:inline-block;margin:2px 12px 2px 0}pre{background:#f6f6f6;padding:6px;overflow:auto}
.snippet{color:#444}.explain{color:#666;font-size:12px}svg{border:1px solid #ccc;background:#fcfcfc}
.charts{display:flex;flex-wrap:wrap;gap:12px}iframe.cached{width:100%;height:60vh;border:1px solid #ccc}
</style>)";

// Live view: the one use of JavaScript; without it the page is static. The
// delay comes from the body's data-refresh, so the script never changes and
// the CSP can name it by hash.
constexpr std::string_view kRefreshScript =
    "<script>setTimeout(function(){location.reload()},Number(document.body.dataset.refresh));</script>";

// The text between an element's start and end tags.
std::string_view ElementText(std::string_view element) {
  const size_t open = element.find('>') + 1;
  return element.substr(open, element.rfind("</") - open);
}

}  // namespace

std::string ConsolePage(const ConsoleFrame& frame, std::string_view body_html) {
  std::string o = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>crawl console: " +
                  HtmlEscape(frame.title) + "</title>" + std::string(kStyle) + "</head><body" +
                  (frame.refresh_ms > 0 ? " data-refresh=\"" + std::to_string(frame.refresh_ms) + "\"" : "") +
                  ">\n";
  o += "<header><strong>crawl console</strong><a href=\"/console\">Crawls</a><a "
       "href=\"/console/search\">Search</a>"
       "<a href=\"/console/log\">Log</a><a href=\"/status\">Status</a><span class=\"role\">signed in as " +
       HtmlEscape(frame.role) + "</span></header>\n<main><h1>" + HtmlEscape(frame.title) + "</h1>\n";
  if (!frame.message.empty())
    o += std::string("<p class=\"msg") + (frame.error ? " error" : "") + "\" id=\"message\">" +
         HtmlEscape(frame.message) + "</p>\n";
  o += body_html;
  o += "\n</main>";
  if (frame.refresh_ms > 0) o += kRefreshScript;
  o += "</body></html>\n";
  return o;
}

const std::string& ConsoleCsp() {
  static const std::string csp = "default-src 'none'; style-src " + CspHashSource(ElementText(kStyle)) +
                                 "; script-src " + CspHashSource(ElementText(kRefreshScript)) +
                                 "; img-src 'self' data:; frame-src 'self'; form-action 'self'; "
                                 "frame-ancestors 'none'; base-uri 'none'";
  return csp;
}

std::string CsrfField(std::string_view csrf) {
  return "<input type=\"hidden\" name=\"csrf\" value=\"" + HtmlEscape(csrf) + "\">";
}

}  // namespace crawl::nameserver
