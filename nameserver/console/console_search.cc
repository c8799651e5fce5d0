// The console's search page (/console/search?crawl=N&q=Q): results with
// their snippets, the parts of each score (as `crawlctl search --explain`)
// and a link to the cached copy; and the cached page itself
// (/console/cached?crawl=N&url=U): what was stored, with the page shown in a
// sandboxed frame whose Content-Security-Policy loads nothing, so a cached
// page cannot reach outside the cluster or run scripts, and whose
// Content-Type is ours (CachedPageType), not the crawled server's.
#include <charconv>

#include "common/crawl/report_text.h"
#include "nameserver/console/console.h"
#include "nameserver/console/console_html.h"

namespace crawl::nameserver {
namespace {

bool ParseCrawl(const std::string& text, uint64_t* id) {
  *id = 0;
  if (text.empty()) return true;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *id);
  return ec == std::errc() && ptr == text.data() + text.size();
}

std::string Score(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

std::string SearchForm(const NameServerServiceImpl::Snapshot& snap, uint64_t crawl, const std::string& q) {
  std::string o =
      "<form method=\"get\" action=\"/console/search\" id=\"search\"><label>crawl <select name=\"crawl\">"
      "<option value=\"0\">active or latest</option>";
  for (auto it = snap.crawls.rbegin(); it != snap.crawls.rend(); ++it) {
    const std::string id = std::to_string(it->first);
    o += "<option value=\"" + id + "\"" + (it->first == crawl ? " selected" : "") + ">" + id + " (" +
         HtmlEscape(StateName(it->second.state())) + ")</option>";
  }
  return o + "</select></label> <input name=\"q\" id=\"q\" size=\"50\" value=\"" + HtmlEscape(q) +
         "\" placeholder=\"words, \\\"a phrase\\\"\"> <button type=\"submit\" "
         "id=\"go\">Search</button></form>";
}

// A result's hreflang alternates as links ("" when it has none).
std::string Alternates(const v1::SearchResult& x) {
  std::string o;
  for (const auto& a : x.alternates()) {
    o += (o.empty() ? " · <span class=\"alternates\">" : " ") + std::string("<a href=\"") +
         HtmlEscape(a.url()) + "\" hreflang=\"" + HtmlEscape(a.language()) + "\">" +
         HtmlEscape(a.language()) + "</a>";
  }
  return o.empty() ? o : o + "</span>";
}

// " · N similar pages" when near-duplicates were folded into the result.
std::string Similar(const v1::SearchResult& x) {
  if (x.similar_pages() == 0) return "";
  return " · <span class=\"similar\">" + std::to_string(x.similar_pages()) +
         (x.similar_pages() == 1 ? " similar page" : " similar pages") + "</span>";
}

std::string Results(const v1::SearchResponse& r) {
  std::string o = "<p id=\"result-count\">" + Thousands(r.matches()) + " matches in " +
                  Thousands(r.documents()) + " documents of crawl " + std::to_string(r.crawl_id()) +
                  (r.timed_out() ? " (timed out)" : "") + ".</p>";
  for (const auto& e : r.errors()) o += "<p class=\"msg error\">" + HtmlEscape(e) + "</p>";
  o += "<ol id=\"results\">";
  for (const auto& x : r.results()) {
    const std::string cached =
        "/console/cached?crawl=" + std::to_string(r.crawl_id()) + "&amp;url=" + UrlEncode(x.url());
    const auto& s = x.score();
    o += "<li><a class=\"title\" href=\"" + cached + "\">" +
         HtmlEscape(x.title().empty() ? x.url() : x.title()) + "</a><br><span class=\"url\">" +
         HtmlEscape(x.url()) + "</span> · <a class=\"cached\" href=\"" + cached + "\">cached</a>" +
         Alternates(x) + Similar(x) + "<div class=\"snippet\">" + HtmlEscape(x.snippet()) +
         "</div><div class=\"explain\">score " + Score(s.total()) + " = doc rank " + Score(s.doc_rank()) +
         " + bonus " + Score(s.bonus()) + " + relevance " + Score(s.relevance()) + " + proximity " +
         Score(s.proximity()) + (x.link_only() ? " (link text only)" : "") + "</div></li>";
  }
  return o + "</ol>";
}

// "; charset=X" when `mime` names a charset X that is a plain token, ";
// charset=utf-8" when it names something else (a hostile value stays out of
// the header), and `none` when it names no charset: an HTML page whose
// server named none is served without one too, so the browser finds its
// encoding as on the page's own site (the meta prescan, then its detector)
// instead of reading a Shift_JIS or KOI8-R page as UTF-8.
std::string CharsetParameter(std::string_view mime, std::string_view none) {
  std::string lower(mime);
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  const size_t at = lower.find("charset=");
  if (at == std::string::npos) return std::string(none);
  std::string value = lower.substr(at + 8);
  value = value.substr(0, value.find_first_of("; \t"));
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
    value = value.substr(1, value.size() - 2);
  const bool token = !value.empty() && value.size() <= 40 &&
                     value.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_.:") == std::string::npos;
  return "; charset=" + (token ? value : std::string("utf-8"));
}

}  // namespace

std::string CachedPageType(std::string_view mime) {
  std::string essence(mime.substr(0, mime.find(';')));
  while (!essence.empty() && (essence.back() == ' ' || essence.back() == '\t')) essence.pop_back();
  for (char& c : essence) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  // HTML renders inside the sandbox; raster images cannot carry script;
  // everything else (SVG, XML, XHTML, scripts, unknown types) is text.
  static const char* const kShown[] = {"text/html", "image/png", "image/jpeg", "image/gif", "image/webp"};
  for (const char* t : kShown)
    if (essence == t) return essence == "text/html" ? essence + CharsetParameter(mime, "") : essence;
  return "text/plain" + CharsetParameter(mime, "; charset=utf-8");
}

HttpReply ConsoleSearchPage(const ConsoleDeps& deps, const ConsoleCall& call) {
  const std::string role(ConsoleRoleName(call.role));
  uint64_t crawl = 0;
  if (!ParseCrawl(call.Q("crawl"), &crawl))
    return ConsoleHtml(400, {"search", role, "crawl must be a number", true, 0}, "");
  const auto snap = deps.service->TakeSnapshot();
  const std::string q = call.Q("q");
  std::string body = SearchForm(snap, crawl, q);
  if (q.empty()) return ConsoleHtml(200, {"search", role, "", false, 0}, body);
  v1::SearchRequest req;
  req.set_crawl_id(crawl);
  req.set_query(q);
  req.set_limit(20);
  v1::SearchResponse resp;
  const grpc::Status s = deps.service->Search(nullptr, &req, &resp);
  if (!s.ok())
    return ConsoleHtml(s.error_code() == grpc::StatusCode::NOT_FOUND ? 404 : 400,
                       {"search", role, s.error_message(), true, 0}, body);
  return ConsoleHtml(200, {"search: " + q, role, "", false, 0}, body + Results(resp));
}

HttpReply ConsoleCachedPage(const ConsoleDeps& deps, const ConsoleCall& call) {
  const std::string role(ConsoleRoleName(call.role));
  uint64_t crawl = 0;
  if (!ParseCrawl(call.Q("crawl"), &crawl))
    return ConsoleHtml(400, {"cached page", role, "crawl must be a number", true, 0}, "");
  v1::CachedPageRequest req;
  req.set_crawl_id(crawl);
  req.set_url(call.Q("url"));
  v1::CachedPageResponse resp;
  const grpc::Status s = deps.service->GetCachedPage(nullptr, &req, &resp);
  if (!s.ok())
    return ConsoleHtml(s.error_code() == grpc::StatusCode::NOT_FOUND ? 404 : 409,
                       {"cached page", role, s.error_message(), true, 0}, "");
  if (!resp.found())
    return ConsoleHtml(404, {"cached page", role, "No cached copy of " + req.url(), true, 0}, "");
  if (call.Q("view") == "page") {
    // The page as stored, sandboxed (an opaque origin, no script, nothing
    // loaded from anywhere), under a type we chose rather than the crawled
    // server's; framed only by the console's own page.
    return {
        200,
        CachedPageType(resp.mime_type()),
        resp.body(),
        {{"Content-Security-Policy",
          "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox; frame-ancestors 'self'"},
         {"X-Content-Type-Options", "nosniff"},
         {"X-Frame-Options", "SAMEORIGIN"}}};
  }
  const std::string frame = "/console/cached?crawl=" + std::to_string(crawl) +
                            "&amp;url=" + UrlEncode(req.url()) + "&amp;view=page";
  const std::string body =
      "<table id=\"cached-info\"><tr><th>url</th><td id=\"cached-url\">" + HtmlEscape(resp.url()) +
      "</td></tr><tr><th>status</th><td>" + std::to_string(resp.status()) +
      "</td></tr><tr><th>type</th><td>" + HtmlEscape(resp.mime_type()) +
      "</td></tr><tr><th>fetched</th><td>" +
      (resp.timestamp_unix_us() > 0 ? HtmlEscape(Iso8601Micros(resp.timestamp_unix_us())) : "-") +
      "</td></tr><tr><th>stored in</th><td>" + HtmlEscape(resp.warc_file()) + " at " +
      std::to_string(resp.warc_offset()) + " on " + HtmlEscape(resp.queue_server_id()) +
      "</td></tr></table><p><a href=\"" + frame +
      "\">the page alone</a></p><iframe id=\"cached-frame\" sandbox src=\"" + frame +
      "\" class=\"cached\"></iframe>";
  return ConsoleHtml(200, {"cached page", role, "", false, 0}, body);
}

}  // namespace crawl::nameserver
