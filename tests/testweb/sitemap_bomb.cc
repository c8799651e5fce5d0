// Sitemap bombs and over-long links (sitemap_bomb.h).
#include "tests/testweb/sitemap_bomb.h"

#include <map>
#include <memory>
#include <mutex>

#include "tests/testweb/gzip.h"

namespace crawl::testweb {
namespace {

constexpr std::string_view kUrlsetOpen =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset "
    "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";

void AddUrl(std::string& xml, std::string_view url) {
  xml += "<url><loc>";
  xml += url;
  xml += "</loc></url>\n";
}

// Built once per key: the big bodies cost a second of CPU each. Each key is
// built outside the map's lock, so a request waits for its own body only,
// not for every bomb host's bodies built one after another (on a loaded
// machine that queue outlasted the crawl's fetch timeout).
const std::string& Cached(const std::string& key, std::string (*make)(std::string_view, int),
                          std::string_view origin, int k) {
  struct Entry {
    std::once_flag once;
    std::string body;
  };
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<Entry>> cache;
  Entry* entry;
  {
    std::lock_guard lock(mu);
    auto& slot = cache[key];
    if (!slot) slot = std::make_unique<Entry>();
    entry = slot.get();
  }
  std::call_once(entry->once, [&] { entry->body = make(origin, k); });
  return entry->body;
}

std::string MakeBig(std::string_view origin, int k) {
  std::string xml(kUrlsetOpen);
  xml.reserve(kBombSitemapUrls * (kBombUrlBytes + 24) + 256);
  std::string url;
  for (uint64_t n = 0; n < kBombSitemapUrls; ++n) {
    url.assign(origin);
    url += "/bomb-items/" + std::to_string(k) + "/" + std::to_string(n) + "-";
    url.append(kBombUrlBytes > url.size() ? kBombUrlBytes - url.size() : 0, 'x');
    AddUrl(xml, url);
  }
  xml += "</urlset>\n";
  return GzipCompress(xml);
}

std::string MakeInflate(std::string_view origin, int) {
  std::string xml(kUrlsetOpen);
  AddUrl(xml, std::string(origin) + "/bomb-items/inflate/before.html");
  xml.reserve(kInflateBombBytes + 256);
  xml.append(kInflateBombBytes - 200 - xml.size(), ' ');
  AddUrl(xml, std::string(origin) + "/bomb-items/inflate/after.html");
  xml += "</urlset>\n";
  return GzipCompress(xml);
}

}  // namespace

std::string BombSitemapIndex(std::string_view origin) {
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  auto entry = [&](const std::string& path) {
    xml += "<sitemap><loc>" + std::string(origin) + path + "</loc></sitemap>\n";
  };
  for (int k = 0; k < kBombSitemaps; ++k) entry("/bomb-sitemaps/big-" + std::to_string(k) + ".xml.gz");
  entry("/bomb-sitemaps/inflate.xml.gz");
  entry("/bomb-sitemaps/long.xml");
  xml += "</sitemapindex>\n";
  return xml;
}

std::string BigBombSitemapGz(std::string_view origin, int k) {
  return Cached("big " + std::string(origin) + " " + std::to_string(k), MakeBig, origin, k);
}

std::string InflateBombSitemapGz(std::string_view origin) {
  return Cached("inflate " + std::string(origin), MakeInflate, origin, 0);
}

std::string LongUrl(std::string_view origin, int i) {
  std::string url(origin);
  url += "/bomb-items/long/" + std::to_string(i) + "-";
  url.append(kLongUrlBytes - url.size(), 'y');
  return url;
}

std::string LongUrlSitemap(std::string_view origin) {
  std::string xml(kUrlsetOpen);
  for (int i = 0; i < kLongUrls; ++i) AddUrl(xml, LongUrl(origin, i));
  AddUrl(xml, std::string(origin) + "/bomb-items/short.html");
  xml += "</urlset>\n";
  return xml;
}

std::string LongLinksPage(std::string_view origin) {
  std::string html =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Long links</title></head><body>\n<p>";
  for (int i = 0; i < kLongUrls; ++i)
    html += "<a href=\"" + LongUrl(origin, i) + "\">long " + std::to_string(i) + "</a>\n";
  html += "<a href=\"/\">Home</a></p>\n</body></html>\n";
  return html;
}

}  // namespace crawl::testweb
