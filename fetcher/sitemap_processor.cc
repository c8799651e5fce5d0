// Sitemap parsing and gunzip (sitemap_processor.h).
#include "fetcher/sitemap_processor.h"

#include "common/zlib_stream.h"
#include "fetcher/html_links.h"

namespace crawl::fetcher {
namespace {

bool IsXmlSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsXmlSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsXmlSpace(s.back())) s.remove_suffix(1);
  return s;
}

// Text content of an element: CDATA sections verbatim, the rest with
// character references decoded; tags inside are dropped.
std::string ElementText(std::string_view raw) {
  std::string out;
  std::size_t i = 0;
  while (i < raw.size()) {
    if (raw.substr(i, 9) == "<![CDATA[") {
      const std::size_t end = raw.find("]]>", i + 9);
      const std::size_t stop = end == std::string_view::npos ? raw.size() : end;
      out.append(raw.substr(i + 9, stop - i - 9));
      i = end == std::string_view::npos ? raw.size() : end + 3;
      continue;
    }
    if (raw[i] == '<') {
      const std::size_t gt = raw.find('>', i);
      i = gt == std::string_view::npos ? raw.size() : gt + 1;
      continue;
    }
    std::size_t next = raw.find('<', i);
    if (next == std::string_view::npos) next = raw.size();
    html::AppendDecodedEntities(raw.substr(i, next - i), /*in_attribute=*/false, out);
    i = next;
  }
  return std::string(Trim(out));
}

}  // namespace

bool IsGzip(std::string_view body) { return body.size() >= 2 && body[0] == '\x1f' && body[1] == '\x8b'; }

Result<std::string> Gunzip(std::string_view data, std::size_t max_bytes, bool* truncated) {
  *truncated = false;
  std::string out;
  // The first gzip or zlib stream (header detected); what follows it is ignored.
  auto inflated = Inflate(data, {.format = ZlibFormat::kAuto, .max_output = max_bytes}, &out);
  if (!inflated.ok()) {
    if (inflated.status().code() != StatusCode::kInvalidArgument) return inflated.status();
    return Status(StatusCode::kInvalidArgument, "corrupt gzip data");
  }
  // Cut short (a range-truncated .gz) or past the cap: keep what we have.
  *truncated = inflated->capped || !inflated->complete;
  return out;
}

bool LooksLikeSitemap(std::string_view xml) {
  const std::string_view head = xml.substr(0, 4096);
  return head.find("<urlset") != std::string_view::npos || head.find("<sitemapindex") != std::string_view::npos;
}

SitemapEntries ParseSitemap(std::string_view xml, std::size_t max_urls) {
  SitemapEntries out;
  const std::size_t root = xml.find("<sitemapindex");
  const std::size_t urlset = xml.find("<urlset");
  out.is_index = root != std::string_view::npos && (urlset == std::string_view::npos || root < urlset);
  std::size_t i = 0;
  while ((i = xml.find("<loc", i)) != std::string_view::npos) {
    const std::size_t after = i + 4;
    if (after >= xml.size()) break;
    if (xml[after] != '>' && !IsXmlSpace(xml[after])) {  // <location>, <locale>...
      i = after;
      continue;
    }
    const std::size_t open_end = xml.find('>', after);
    if (open_end == std::string_view::npos) break;
    const std::size_t close = xml.find("</loc>", open_end + 1);
    const std::size_t stop = close == std::string_view::npos ? xml.size() : close;
    std::string url = ElementText(xml.substr(open_end + 1, stop - open_end - 1));
    if (!url.empty()) {
      if (out.urls.size() >= max_urls) {
        out.truncated = true;
        break;
      }
      out.urls.push_back(std::move(url));
    }
    if (close == std::string_view::npos) break;
    i = close + 6;
  }
  return out;
}

}  // namespace crawl::fetcher
