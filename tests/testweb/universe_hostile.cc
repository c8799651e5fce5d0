// The hostile hosts of the synthetic web (universe.h, "Hostile hosts"): the
// URLs they link, what lives there, what the server sends, and the links
// the ground truth follows from them. Each behaviour attacks one limit of
// a crawler: header time and size, body size, decoded size, redirects,
// links per page, byte hygiene and robots.txt size.
#include <cstdio>
#include <iterator>

#include "tests/testweb/document_bombs.h"
#include "tests/testweb/gzip.h"
#include "tests/testweb/rng.h"
#include "tests/testweb/sitemap_bomb.h"
#include "tests/testweb/universe.h"

namespace crawl::testweb {
namespace {

constexpr uint64_t kSaltHostile = 0x686F7374696C65;

// The gzip member served by /bomb/: 256 MiB of zero bytes (about 260 KB
// compressed), sent kBombMembers times (RFC 1952 2.2 allows concatenated
// members): about 4 MiB on the wire for 4 GiB decoded. Made once, on the
// first request (a second or so of CPU), then shared.
constexpr uint64_t kBombMemberBytes = 256ULL << 20;
constexpr int kBombMembers = 16;

const std::string& BombBody() {
  static const std::string body = [] {
    const std::string member = GzipZeros(kBombMemberBytes);
    std::string out;
    out.reserve(member.size() * kBombMembers);
    for (int i = 0; i < kBombMembers; ++i) out += member;
    return out;
  }();
  return body;
}

std::string Html(std::string_view title, std::string_view body) {
  std::string html = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>";
  html += title;
  html += "</title></head><body>\n";
  html += body;
  html += "\n</body></html>\n";
  return html;
}

// The page J a host's hostile URLs are about (deterministic per host).
uint64_t AboutPage(uint64_t seed, uint32_t host, uint64_t pages) {
  Rng rng(Hash(seed, host, kSaltHostile));
  return LowBiased(rng, pages);
}

// "/<dir>/<J>.html" -> J, if `path` has that shape.
std::optional<uint64_t> IndexIn(std::string_view path, std::string_view dir) {
  if (!path.starts_with(dir) || !path.ends_with(".html")) return std::nullopt;
  return ParseIndex(path.substr(dir.size(), path.size() - dir.size() - 5));
}

}  // namespace

void Universe::AppendHostileLinks(uint32_t host, std::vector<Link>& links) const {
  const uint64_t j = AboutPage(options_.seed, host, hosts_[host].pages);
  auto add = [&](std::string path, std::string_view anchor) {
    Link l;
    l.href = path;
    l.url = Origin(host) + path;
    l.anchor = std::string(anchor);
    l.target = {host, j};
    l.special = true;
    links.push_back(std::move(l));
  };
  const std::string page = std::to_string(j) + ".html";
  if (HostHas(host, Misbehaviour::kSlowloris)) add("/slowloris/" + page, "Slow news");
  if (HostHas(host, Misbehaviour::kEndlessBody)) add("/endless/" + page, "Endless story");
  if (HostHas(host, Misbehaviour::kGzipBomb)) {
    add("/bomb/" + page, "Compressed archive");
    for (const DocumentBomb& d : kDocumentBombs) add("/bomb-docs/" + std::string(d.name), "Annual report");
  }
  if (HostHas(host, Misbehaviour::kHugeHeaders)) add("/huge-headers/" + page, "Heavy page");
  if (HostHas(host, Misbehaviour::kRedirectChain)) {
    add("/rloop/0", "Round trip");
    add("/chain/1", "Next, next, next");
  }
  if (HostHas(host, Misbehaviour::kLinkFlood)) add("/flood.html", "Every item");
  if (HostHas(host, Misbehaviour::kBadBytes)) add("/bytes/" + page, "Broken text");
  if (HostHas(host, Misbehaviour::kSitemapBomb)) add("/bomb-sitemaps/index.xml", "Every sitemap");
  if (HostHas(host, Misbehaviour::kLongLinks)) add("/long-links.html", "Long links");
}

std::optional<Resource> Universe::ResolveHostile(uint32_t host, std::string_view path) const {
  const uint64_t n = hosts_[host].pages;
  Resource r;
  r.type = Resource::Type::kHostile;
  auto about = [&](std::string_view dir, Misbehaviour m, Resource::Hostile kind) -> bool {
    if (!HostHas(host, m)) return false;
    const auto j = IndexIn(path, dir);
    if (!j || *j >= n) return false;
    r.hostile = kind;
    r.page = *j;
    return true;
  };
  if (about("/slowloris/", Misbehaviour::kSlowloris, Resource::Hostile::kSlowloris) ||
      about("/endless/", Misbehaviour::kEndlessBody, Resource::Hostile::kEndless) ||
      about("/bomb/", Misbehaviour::kGzipBomb, Resource::Hostile::kBomb) ||
      about("/huge-headers/", Misbehaviour::kHugeHeaders, Resource::Hostile::kHugeHeaders) ||
      about("/bytes/", Misbehaviour::kBadBytes, Resource::Hostile::kBadBytes)) {
    return r;
  }
  if (HostHas(host, Misbehaviour::kRedirectChain)) {
    if (path == "/rloop/0" || path == "/rloop/1") {
      r.hostile = Resource::Hostile::kLoop;
      r.depth = path.back() == '0' ? 0 : 1;
      return r;
    }
    if (path.starts_with("/chain/")) {
      const auto k = ParseIndex(path.substr(7));
      if (k && *k >= 1 && *k < UINT64_MAX) {
        r.hostile = Resource::Hostile::kChain;
        r.depth = *k;
        return r;
      }
    }
  }
  if (auto bomb = ResolveSitemapBomb(host, path)) return bomb;
  if (HostHas(host, Misbehaviour::kGzipBomb) && path.starts_with("/bomb-docs/")) {
    for (size_t i = 0; i < std::size(kDocumentBombs); ++i) {
      if (path.substr(11) != kDocumentBombs[i].name) continue;
      r.hostile = Resource::Hostile::kDocumentBomb;
      r.depth = i;
      return r;
    }
  }
  if (HostHas(host, Misbehaviour::kLinkFlood)) {
    if (path == "/flood.html") {
      r.hostile = Resource::Hostile::kFlood;
      return r;
    }
    if (const auto k = IndexIn(path, "/flood/"); k && *k < kFloodLinks) {
      r.hostile = Resource::Hostile::kFloodItem;
      r.depth = *k;
      return r;
    }
  }
  return std::nullopt;
}

Served Universe::ServeHostile(uint32_t host, const Resource& r) const {
  Served s;
  s.content_type = "text/html; charset=utf-8";
  switch (r.hostile) {
    case Resource::Hostile::kSlowloris:
      s.stream = Served::Stream::kSlowloris;
      return s;
    case Resource::Hostile::kEndless:
      s.stream = Served::Stream::kEndlessBody;
      return s;
    case Resource::Hostile::kBomb:
      s.content_encoding = "gzip";
      s.body = BombBody();
      return s;
    case Resource::Hostile::kHugeHeaders:
      s.filler_header_bytes = kHugeHeaderBytes;
      s.body = Html("Heavy", "<p>A page behind a megabyte of headers. <a href=\"/\">Home</a></p>");
      return s;
    case Resource::Hostile::kLoop:
      s.status = 302;
      s.location = Origin(host) + (r.depth == 0 ? "/rloop/1" : "/rloop/0");
      s.body = Html("Moved", "<p>Moved.</p>");
      return s;
    case Resource::Hostile::kChain:
      s.status = 302;
      s.location = Origin(host) + "/chain/" + std::to_string(r.depth + 1);
      s.body = Html("Moved", "<p>Moved on.</p>");
      return s;
    case Resource::Hostile::kFlood: {
      std::string body = "<h1>Every item</h1>\n<p>";
      body.reserve(kFloodLinks * 40);
      for (uint64_t k = 0; k < kFloodLinks; ++k) {
        body += "<a href=\"/flood/" + std::to_string(k) + ".html\">item " + std::to_string(k) + "</a>\n";
      }
      body += "</p>";
      s.body = Html("Items", body);
      return s;
    }
    case Resource::Hostile::kFloodItem:
      s.body = Html("Item " + std::to_string(r.depth), "<p>One item. <a href=\"/\">Home</a></p>");
      return s;
    case Resource::Hostile::kBadBytes: {
      // Each kind of broken UTF-8 (RFC 3629 section 3 forbids them all),
      // and NUL bytes, in the title, the text, attribute values and hrefs.
      static constexpr char kTitle[] = "Bad \xff\xfe bytes \x00 here \xc3";
      static constexpr char kText[] =
          "<p>stray continuation \x80\xbf, overlong \xc0\xaf and \xe0\x80\xaf, surrogate \xed\xa0\x80, "
          "not a byte \xfe\xff, NUL \x00\x00 twice, cut \xe2\x82</p>\n"
          "<p title=\"\xff\x00\">attribute</p>\n"
          "<a href=\"/bytes/\x00nul.html\">nul href</a>\n<a href=\"/bytes/\xff\xc0.html\">bad href</a>\n";
      std::string body(kText, sizeof kText - 1);
      body += "<a href=\"/\">Home</a> <a href=\"" + PagePath(host, r.page) + "\">Page " +
              std::to_string(r.page) + "</a>\n<p>cut at the end \xf0\x9f\x98";
      s.body = Html(std::string_view(kTitle, sizeof kTitle - 1), body);
      return s;
    }
    case Resource::Hostile::kSitemapIndex:
      s.content_type = "application/xml";
      s.body = BombSitemapIndex(Origin(host));
      return s;
    case Resource::Hostile::kBigSitemap:
      s.content_type = "application/gzip";
      s.body = BigBombSitemapGz(Origin(host), static_cast<int>(r.depth));
      return s;
    case Resource::Hostile::kInflateBomb:
      s.content_type = "application/gzip";
      s.body = InflateBombSitemapGz(Origin(host));
      return s;
    case Resource::Hostile::kLongSitemap:
      s.content_type = "application/xml";
      s.body = LongUrlSitemap(Origin(host));
      return s;
    case Resource::Hostile::kLongLinks:
      s.body = LongLinksPage(Origin(host));
      return s;
    case Resource::Hostile::kDocumentBomb:
      s.content_type = std::string(kDocumentBombs[r.depth].content_type);
      s.body = DocumentBombBody(r.depth);
      return s;
    case Resource::Hostile::kNone:
      break;
  }
  s.status = 404;
  return s;
}

std::vector<std::string> Universe::HostileLinks(uint32_t host, const Resource& r) const {
  const std::string origin = Origin(host);
  std::vector<std::string> out;
  switch (r.hostile) {
    case Resource::Hostile::kHugeHeaders:
    case Resource::Hostile::kFloodItem:
      out.push_back(origin + "/");
      break;
    case Resource::Hostile::kLoop:
      out.push_back(origin + (r.depth == 0 ? "/rloop/1" : "/rloop/0"));
      break;
    case Resource::Hostile::kChain:
      // Cut like the traps (universe.h, "Ground truth").
      if (r.depth + 1 <= kTrapDepth) out.push_back(origin + "/chain/" + std::to_string(r.depth + 1));
      break;
    case Resource::Hostile::kFlood:
      for (uint64_t k = 0; k < kFloodLinks; ++k)
        out.push_back(origin + "/flood/" + std::to_string(k) + ".html");
      break;
    case Resource::Hostile::kBadBytes:
      out.push_back(origin + "/");
      out.push_back(PageUrl(host, r.page));
      break;
    case Resource::Hostile::kSlowloris:     // never answers
    case Resource::Hostile::kEndless:       // text only
    case Resource::Hostile::kBomb:          // zero bytes
    case Resource::Hostile::kSitemapIndex:  // lists only what the truth leaves out
    case Resource::Hostile::kBigSitemap:
    case Resource::Hostile::kInflateBomb:
    case Resource::Hostile::kLongSitemap:
    case Resource::Hostile::kLongLinks:
    case Resource::Hostile::kDocumentBomb:  // nothing worth following
    case Resource::Hostile::kNone:
      break;
  }
  return out;
}

std::optional<Resource> Universe::ResolveSitemapBomb(uint32_t host, std::string_view path) const {
  Resource r;
  r.type = Resource::Type::kHostile;
  if (HostHas(host, Misbehaviour::kLongLinks) && path == "/long-links.html") {
    r.hostile = Resource::Hostile::kLongLinks;
    return r;
  }
  if (!HostHas(host, Misbehaviour::kSitemapBomb) || !path.starts_with("/bomb-sitemaps/")) return std::nullopt;
  const std::string_view name = path.substr(15);
  if (name == "index.xml") {
    r.hostile = Resource::Hostile::kSitemapIndex;
  } else if (name == "inflate.xml.gz") {
    r.hostile = Resource::Hostile::kInflateBomb;
  } else if (name == "long.xml") {
    r.hostile = Resource::Hostile::kLongSitemap;
  } else if (name.size() == 12 && name.starts_with("big-") && name.ends_with(".xml.gz") && name[4] >= '0' &&
             name[4] < '0' + kBombSitemaps) {
    r.hostile = Resource::Hostile::kBigSitemap;
    r.depth = static_cast<uint64_t>(name[4] - '0');
  } else {
    return std::nullopt;
  }
  return r;
}

std::string Universe::HugeRobotsTxt(uint32_t host) const {
  // The host's real rules first (what a crawler reading the first 500 KiB
  // obeys: the ground truth), then comments, then a group that would shut
  // the whole host if read, then comments to kHugeRobotsBytes.
  std::string text = Robots(host).Render();
  text.reserve(kHugeRobotsBytes + 128);
  char line[96];
  uint64_t n = 0;
  auto pad_to = [&](uint64_t size) {
    while (text.size() < size) {
      const int len = std::snprintf(line, sizeof line, "# padding line %llu of a very long robots.txt\n",
                                    static_cast<unsigned long long>(n++));
      text.append(line, static_cast<size_t>(len));
    }
  };
  pad_to(kRobotsCutBytes);
  text += "User-agent: *\nDisallow: /\n";
  pad_to(kHugeRobotsBytes);
  return text;
}

}  // namespace crawl::testweb
