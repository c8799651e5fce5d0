// The misbehaving parts of the synthetic web (see universe.h, "Misbehaving
// hosts" and "Ground truth"): which hosts misbehave, the special URLs they
// link and serve, and the breadth-first walk that is the ground truth.
#include <cstdio>
#include <deque>
#include <unordered_map>

#include "common/url/url.h"
#include "tests/testweb/gzip.h"
#include "tests/testweb/rng.h"
#include "tests/testweb/universe.h"

namespace crawl::testweb {
namespace {

enum Salt : uint64_t {
  kSaltSpecial = 0x73706563,
  kSaltSession = 0x73657373,
  kSaltFile = 0x66696C65,
  kSaltMangle = 0x6D616E67,
  kSaltLoop = 0x6C6F6F70,
};

constexpr const char* kHtml = "text/html; charset=utf-8";

// Host pattern per misbehaviour, in Misbehaviour order: host i misbehaves
// when i % period == phase (universe.h lists them).
struct Pattern {
  uint32_t period;
  uint32_t phase;
};
constexpr Pattern kPatterns[] = {
    {4, 1},
    {10, 7},
    {10, 9},
    {3, 0},
    {3, 1},
    {8, 5},
    {5, 2},
    {2, 0},
    {3, 2},
    {4, 0},
    {6, 3},
    {5, 4},
    {7, 3},
    {10, 4},
    {9, 4},
    {4, 2},
    {1, 0},
    // Hostile hosts: one behaviour each, i % 10 == 1..8.
    {10, 1},
    {10, 2},
    {10, 3},
    {10, 4},
    {10, 5},
    {10, 6},
    {10, 7},
    {10, 8},
    // Sitemap bombs on i % 10 == 9, long links on i % 10 == 0.
    {10, 9},
    {10, 0},
};
static_assert(std::size(kPatterns) == static_cast<size_t>(Misbehaviour::kCount));

constexpr unsigned kRedirectCodes[] = {301, 302, 307, 308};
constexpr unsigned kErrorCodes[] = {404, 410, 500, 503};
constexpr std::string_view kFileExts[] = {"pdf", "png", "txt"};
constexpr int kCalendarYear = 2026, kCalendarMonth = 11;

// "a/b/c" -> {"a", "b", "c"}; "a/" -> {"a", ""}.
std::vector<std::string_view> Parts(std::string_view rest) {
  std::vector<std::string_view> parts;
  while (true) {
    const size_t slash = rest.find('/');
    parts.push_back(rest.substr(0, slash));
    if (slash == std::string_view::npos) break;
    rest = rest.substr(slash + 1);
  }
  return parts;
}

// Whether `query` consists only of tracking parameters (the duplicates).
bool OnlyTracking(std::string_view query) {
  if (query.empty()) return false;
  size_t start = 0;
  while (start <= query.size()) {
    const size_t amp = query.find('&', start);
    const std::string_view param = query.substr(start, amp == std::string_view::npos ? amp : amp - start);
    if (!param.starts_with("sessionid=") && !param.starts_with("utm_")) return false;
    if (amp == std::string_view::npos) break;
    start = amp + 1;
  }
  return true;
}

std::string Hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string CalendarPath(int year, int month) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "/calendar/%04d/%02d/", year, month);
  return buf;
}

// Months from 2026/11 (negative: earlier).
int MonthOffset(int year, int month) { return (year - kCalendarYear) * 12 + (month - kCalendarMonth); }

std::string DeepPath(uint64_t depth) {
  std::string p = "/deep/";
  for (uint64_t i = 0; i < depth; ++i) p += "a/";
  return p;
}

std::string SimpleHtml(std::string_view title, std::string_view body) {
  std::string html = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>";
  html += title;
  html += "</title></head><body>\n";
  html += body;
  html += "\n</body></html>\n";
  return html;
}

}  // namespace

bool Universe::HostHas(uint32_t host, Misbehaviour m) const {
  if (!options_.Has(m) || IsFarmHost(host) || IsDynamicSpamHost(host)) return false;
  const Pattern p = kPatterns[static_cast<size_t>(m)];
  if (m == Misbehaviour::kLinkFarm && first_farm_ == UINT32_MAX) return false;
  return host % p.period == p.phase;
}

std::optional<std::string> Universe::SitemapUrl(uint32_t host) const {
  if (!HostHas(host, Misbehaviour::kSitemaps)) return std::nullopt;
  return Origin(host) + ((host / 4) % 2 == 0 ? "/sitemap.xml" : "/sitemap_index.xml");
}

std::string Universe::RobotsTxt(uint32_t host) const {
  if (HostHas(host, Misbehaviour::kHugeRobots)) return HugeRobotsTxt(host);
  std::string text = Robots(host).Render();
  if (auto sitemap = SitemapUrl(host)) text += "\nSitemap: " + *sitemap + "\n";
  // The bombs' URLs are listed, never meant to be fetched (a group for
  // "*" again: RFC 9309 2.2.1 merges it with the first).
  if (HostHas(host, Misbehaviour::kSitemapBomb) || HostHas(host, Misbehaviour::kLongLinks))
    text += "\nUser-agent: *\nDisallow: /bomb-items/\n";
  return text;
}

std::vector<std::string> Universe::SitemapLinks(uint32_t host, const Resource& r) const {
  std::vector<std::string> out;
  if (r.ext == "index") {
    out.push_back(Origin(host) + "/sitemaps/1.xml.gz");
    out.push_back(Origin(host) + "/sitemaps/2.xml");
    return out;
  }
  // The allowed pages of the window: a sitemap lists what may be crawled.
  const uint64_t n = hosts_[host].pages;
  for (uint64_t p = r.page; p < n && p < r.page + kSitemapPages; ++p) {
    if (IsPageAllowed(host, p)) out.push_back(PageUrl(host, p));
  }
  return out;
}

std::string Universe::RenderSitemap(uint32_t host, const Resource& r) const {
  // sitemaps.org protocol 0.9.
  const bool index = r.ext == "index";
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += index ? "<sitemapindex" : "<urlset";
  xml += " xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  uint64_t k = 0;
  for (const auto& url : SitemapLinks(host, r)) {
    xml += index ? "<sitemap><loc>" : "<url><loc>";
    xml += url;
    xml += "</loc><lastmod>2026-11-";
    xml += std::to_string(10 + (Hash(options_.seed, host, r.page + k++) % 19));
    xml += index ? "</lastmod></sitemap>\n" : "</lastmod></url>\n";
  }
  xml += index ? "</sitemapindex>\n" : "</urlset>\n";
  return xml;
}

void Universe::AppendSpecialLinks(uint32_t host, uint64_t page, std::vector<Link>& links) const {
  const uint64_t n = hosts_[host].pages;
  const bool root = page == 0;
  // One random stream per misbehaviour, so switching one off leaves the
  // other special links exactly as they were.
  Rng rng(0);
  auto add = [&](std::string path, uint64_t about) {
    Link l;
    l.href = path;
    l.url = Origin(host) + path;
    l.anchor = Words(rng, rng.Between(1, 3), host);
    l.target = {host, about};
    l.special = true;
    links.push_back(std::move(l));
  };
  auto roll = [&](Misbehaviour m, uint32_t permille) {
    rng = Rng(Hash(options_.seed, host, page, kSaltSpecial + static_cast<uint64_t>(m)));
    const bool hit = rng.PerMille(permille);
    return HostHas(host, m) && (root || hit);
  };
  if (roll(Misbehaviour::kRedirects, 300)) {
    const unsigned code = kRedirectCodes[rng.Below(4)];
    const uint64_t hops = rng.Between(1, 3);
    const uint64_t j = LowBiased(rng, n);
    add("/redirect/" + std::to_string(code) + "/" + std::to_string(hops) + "/" + std::to_string(j), j);
  }
  if (roll(Misbehaviour::kRedirects, 50)) {
    rng = Rng(Hash(options_.seed, host, page, kSaltLoop));
    const uint64_t j = LowBiased(rng, n);
    add("/loop/0/" + std::to_string(j), j);
  }
  if (roll(Misbehaviour::kErrors, 250)) {
    const unsigned code = kErrorCodes[rng.Below(4)];
    const uint64_t j = LowBiased(rng, n);
    add("/error/" + std::to_string(code) + "/" + std::to_string(j), j);
  }
  if (roll(Misbehaviour::kNonHtml, 300)) {
    const std::string_view ext = kFileExts[rng.Below(3)];
    const uint64_t j = LowBiased(rng, n);
    add("/files/" + std::to_string(j) + "." + std::string(ext), j);
  }
  if (roll(Misbehaviour::kBigPages, 50)) {
    const uint64_t j = LowBiased(rng, n);
    add("/big/" + std::to_string(j) + ".html", j);
    if (root || rng.PerMille(500)) add("/big-chunked/" + std::to_string(j) + ".html", j);
  }
  if (roll(Misbehaviour::kDuplicates, 400)) {
    const uint64_t j = LowBiased(rng, n);
    std::string path = PagePath(host, j);
    if (rng.PerMille(500)) {
      path += "?sessionid=" + Hex(Hash(options_.seed, host, page, kSaltSession));
    } else {
      path += "?utm_source=testweb&utm_medium=link&utm_campaign=c" + std::to_string(rng.Below(5));
    }
    add(path, j);
  }
  if (roll(Misbehaviour::kSoft404, 200)) {
    const uint64_t j = rng.Below(1000);
    add("/old/" + std::to_string(j) + ".html", 0);
  }
  if (root && HostHas(host, Misbehaviour::kTraps)) {
    rng = Rng(Hash(options_.seed, host, page, kSaltSpecial + static_cast<uint64_t>(Misbehaviour::kTraps)));
    add(CalendarPath(kCalendarYear, kCalendarMonth), 0);
    add(DeepPath(1), 0);
  }
  if (root) AppendHostileLinks(host, links);
  if (root && HostHas(host, Misbehaviour::kLinkFarm)) {
    rng = Rng(Hash(options_.seed, host, page, kSaltSpecial + static_cast<uint64_t>(Misbehaviour::kLinkFarm)));
    Link l;
    l.href = Origin(first_farm_) + "/";
    l.url = l.href;
    l.anchor = Words(rng, 2, host);
    l.target = {first_farm_, 0};
    links.push_back(std::move(l));
  }
}

Resource Universe::Resolve(uint32_t host, std::string_view target) const {
  Resource r;
  const size_t q = target.find('?');
  const std::string_view path = target.substr(0, q);
  const std::string_view query = q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
  const uint64_t n = hosts_[host].pages;
  auto index = [n](std::string_view s) -> std::optional<uint64_t> {
    auto v = ParseIndex(s);
    if (!v || *v >= n) return std::nullopt;
    return v;
  };
  if (q == std::string_view::npos) {
    if (auto page = LookupPath(host, path)) {
      r.type = Resource::Type::kPage;
      r.page = *page;
      return r;
    }
  } else if (HostHas(host, Misbehaviour::kDuplicates) && OnlyTracking(query)) {
    if (auto page = LookupPath(host, path)) {
      r.type = Resource::Type::kDuplicate;
      r.page = *page;
      return r;
    }
  }
  if (options_.misbehaviours == 0 || q != std::string_view::npos || !path.starts_with('/')) return r;
  const auto parts = Parts(path.substr(1));
  const size_t k = parts.size();
  if (HostHas(host, Misbehaviour::kRedirects)) {
    if (k == 4 && parts[0] == "redirect") {
      const auto code = ParseIndex(parts[1]);
      const auto hops = ParseIndex(parts[2]);
      const auto j = index(parts[3]);
      if (code && hops && j && *hops >= 1 && *hops <= 3 &&
          std::find(std::begin(kRedirectCodes), std::end(kRedirectCodes), *code) !=
              std::end(kRedirectCodes)) {
        r.type = Resource::Type::kRedirect;
        r.status = static_cast<unsigned>(*code);
        r.page = *j;
        r.location =
            Origin(host) + (*hops == 1 ? PagePath(host, *j)
                                       : "/redirect/" + std::string(parts[1]) + "/" +
                                             std::to_string(*hops - 1) + "/" + std::string(parts[3]));
        return r;
      }
    }
    if (k == 3 && parts[0] == "loop" && (parts[1] == "0" || parts[1] == "1") && index(parts[2])) {
      r.type = Resource::Type::kRedirect;
      r.status = 302;
      r.page = *index(parts[2]);
      r.location = Origin(host) + "/loop/" + (parts[1] == "0" ? "1/" : "0/") + std::string(parts[2]);
      return r;
    }
  }
  if (HostHas(host, Misbehaviour::kErrors) && k == 3 && parts[0] == "error" && index(parts[2])) {
    const auto code = ParseIndex(parts[1]);
    if (code && std::find(std::begin(kErrorCodes), std::end(kErrorCodes), *code) != std::end(kErrorCodes)) {
      r.type = Resource::Type::kError;
      r.status = static_cast<unsigned>(*code);
      r.page = *index(parts[2]);
      return r;
    }
  }
  if (HostHas(host, Misbehaviour::kNonHtml) && k == 2 && parts[0] == "files") {
    const size_t dot = parts[1].find('.');
    if (dot != std::string_view::npos) {
      const auto j = index(parts[1].substr(0, dot));
      const std::string_view ext = parts[1].substr(dot + 1);
      if (j && std::find(std::begin(kFileExts), std::end(kFileExts), ext) != std::end(kFileExts)) {
        r.type = Resource::Type::kNonHtml;
        r.page = *j;
        r.ext = std::string(ext);
        return r;
      }
    }
  }
  if (HostHas(host, Misbehaviour::kBigPages) && k == 2 && (parts[0] == "big" || parts[0] == "big-chunked") &&
      parts[1].ends_with(".html")) {
    if (const auto j = index(parts[1].substr(0, parts[1].size() - 5))) {
      r.type = Resource::Type::kBigPage;
      r.page = *j;
      r.chunked = parts[0] == "big-chunked";
      return r;
    }
  }
  if (HostHas(host, Misbehaviour::kSitemaps)) {
    const bool plain = (host / 4) % 2 == 0;
    if (k == 1 && ((plain && parts[0] == "sitemap.xml") || (!plain && parts[0] == "sitemap_index.xml"))) {
      r.type = Resource::Type::kSitemap;
      r.ext = plain ? "xml" : "index";
      return r;
    }
    if (!plain && k == 2 && parts[0] == "sitemaps" && (parts[1] == "1.xml.gz" || parts[1] == "2.xml")) {
      r.type = Resource::Type::kSitemap;
      r.ext = parts[1] == "1.xml.gz" ? "xml.gz" : "xml";
      r.page = parts[1] == "1.xml.gz" ? 0 : kSitemapPages;
      return r;
    }
  }
  if (HostHas(host, Misbehaviour::kTraps)) {
    if (k == 4 && parts[0] == "calendar" && parts[1].size() == 4 && parts[2].size() == 2 &&
        parts[3].empty()) {
      const auto year = ParseIndex(parts[1]);
      const std::string_view m = parts[2][0] == '0' ? parts[2].substr(1) : parts[2];
      const auto month = ParseIndex(m);
      if (year && month && *year >= 1000 && *month >= 1 && *month <= 12) {
        r.type = Resource::Type::kCalendar;
        r.year = static_cast<int>(*year);
        r.month = static_cast<int>(*month);
        return r;
      }
    }
    if (k >= 3 && parts[0] == "deep" && parts[k - 1].empty()) {
      bool all_a = true;
      for (size_t i = 1; i + 1 < k; ++i) all_a = all_a && parts[i] == "a";
      if (all_a) {
        r.type = Resource::Type::kDeep;
        r.depth = k - 2;
        return r;
      }
    }
  }
  if (auto hostile = ResolveHostile(host, path)) return *hostile;
  return r;
}

std::string Universe::RenderBigPage(uint32_t host, uint64_t page) const {
  // Over 1 MiB: a link home, a link to the page it is about, then text.
  Rng rng(Hash(options_.seed, host, page, kSaltFile));
  std::string body = "<h1>Archive</h1>\n<p><a href=\"/\">Home</a> <a href=\"" + PagePath(host, page) + "\">" +
                     Words(rng, 2, host) + "</a></p>\n";
  const std::string paragraph = "<p>" + Words(rng, 200, host) + ".</p>\n";
  while (body.size() < (1U << 20) + 100'000) body += paragraph;
  return SimpleHtml("Archive " + std::to_string(page), body);
}

std::string Universe::Mangle(std::string html) const {
  auto replace_all = [&html](std::string_view from, std::string_view to) {
    for (size_t at = html.find(from); at != std::string::npos; at = html.find(from, at + to.size()))
      html.replace(at, from.size(), to);
  };
  // Unclosed tags, a wrong charset label, bad entities, stray bytes. Links
  // stay intact: a tolerant parser still finds them all.
  replace_all("</p>", "");
  replace_all("</li>", "");
  replace_all("<meta charset=\"utf-8\">", "<meta charset=\"iso-8859-1\">");
  const size_t body = html.find("<body>");
  if (body != std::string::npos) {
    static constexpr char kJunk[] =
        "\n<div><span>Caf\xC3\xA9 &nbsp &amp;amp &bogus; &#xZZ; \xFF\xFE\x80\x00 <b>";
    html.insert(body + 6, kJunk, sizeof kJunk - 1);
  }
  return html;
}

Served Universe::Serve(uint32_t host, std::string_view target) const {
  Served s;
  s.content_type = kHtml;
  if (target == "/robots.txt") {
    if (HostHas(host, Misbehaviour::kRobotsUnreachable)) {
      s.close = true;
      return s;
    }
    if (HostHas(host, Misbehaviour::kRobots5xx)) {
      s.status = 500;
      s.content_type = "text/plain; charset=utf-8";
      s.body = "internal server error\n";
      return s;
    }
    s.content_type = "text/plain; charset=utf-8";
    s.body = RobotsTxt(host);
    // A huge robots.txt comes chunked: no Range, the client must cut it.
    s.chunked = HostHas(host, Misbehaviour::kHugeRobots);
    return s;
  }
  const Resource r = Resolve(host, target);
  switch (r.type) {
    case Resource::Type::kPage:
    case Resource::Type::kDuplicate:
      s.body = RenderPageAt(host, r.page);
      if (HostHas(host, Misbehaviour::kMalformedHtml) &&
          (r.page == 0 || Hash(options_.seed, host, r.page, kSaltMangle) % 3 == 0)) {
        s.body = Mangle(std::move(s.body));
        s.content_type = "text/html; charset=windows-1252";
      }
      return s;
    case Resource::Type::kRedirect:
      s.status = r.status;
      s.location = r.location;
      s.body = SimpleHtml("Moved", "<p>Moved to <a href=\"" + r.location + "\">here</a>.</p>");
      return s;
    case Resource::Type::kError:
      s.status = r.status;
      if (r.status == 503) s.retry_after = 2;
      s.body =
          SimpleHtml("Error " + std::to_string(r.status), "<h1>Error " + std::to_string(r.status) + "</h1>");
      return s;
    case Resource::Type::kNonHtml: {
      Rng rng(Hash(options_.seed, host, r.page, kSaltFile));
      if (r.ext == "pdf") {
        s.content_type = "application/pdf";
        s.body = "%PDF-1.4\n% testweb\n1 0 obj << /Title (" + Words(rng, 4, host) + ") >> endobj\n";
        while (s.body.size() < 3000) s.body += "% " + Words(rng, 10, host) + "\n";
        s.body += "%%EOF\n";
      } else if (r.ext == "png") {
        s.content_type = "image/png";
        s.body = std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
        for (int i = 0; i < 2000; ++i) s.body += static_cast<char>(rng.Below(256));
      } else {
        s.content_type = "text/plain; charset=utf-8";
        s.body = Words(rng, 300, host) + "\n";
      }
      return s;
    }
    case Resource::Type::kBigPage:
      s.body = RenderBigPage(host, r.page);
      s.chunked = r.chunked;
      return s;
    case Resource::Type::kCalendar: {
      const int prev_y = r.month == 1 ? r.year - 1 : r.year, prev_m = r.month == 1 ? 12 : r.month - 1;
      const int next_y = r.month == 12 ? r.year + 1 : r.year, next_m = r.month == 12 ? 1 : r.month + 1;
      std::string body = "<h1>Events " + std::to_string(r.year) + "-" + std::to_string(r.month) + "</h1>\n";
      if (prev_y >= 1000) body += "<a href=\"" + CalendarPath(prev_y, prev_m) + "\">Previous month</a>\n";
      if (next_y <= 9999) body += "<a href=\"" + CalendarPath(next_y, next_m) + "\">Next month</a>\n";
      body += "<a href=\"/\">Home</a>";
      s.body = SimpleHtml("Calendar", body);
      return s;
    }
    case Resource::Type::kDeep:
      s.body = SimpleHtml("Deeper", "<a href=\"a/\">Deeper</a>\n<a href=\"/\">Home</a>");
      return s;
    case Resource::Type::kSitemap:
      s.body = RenderSitemap(host, r);
      if (r.ext == "xml.gz") {
        // A compressed file (no Content-Encoding): the client gunzips it.
        s.content_type = "application/gzip";
        s.body = GzipCompress(s.body);
      } else {
        s.content_type = "application/xml";
      }
      return s;
    case Resource::Type::kHostile:
      return ServeHostile(host, r);
    case Resource::Type::kNotFound:
      break;
  }
  if (HostHas(host, Misbehaviour::kSoft404)) {
    s.body = SimpleHtml(
        "Page not found",
        "<h1>Sorry, this page was not found</h1>\n<p>It may have moved. <a href=\"/\">Home</a></p>");
    return s;
  }
  s.status = 404;
  s.body =
      "<!DOCTYPE html>\n<html><head><title>Not Found</title></head><body><h1>Not "
      "Found</h1></body></html>\n";
  return s;
}

std::vector<std::string> Universe::ResourceLinks(uint32_t host, const Resource& r) const {
  const std::string origin = Origin(host);
  std::vector<std::string> out;
  switch (r.type) {
    case Resource::Type::kPage:
    case Resource::Type::kDuplicate:
      for (Link& l : Links(host, r.page)) {
        // The endless spam is cut at kSpamTruthLevels, as traps are.
        if (IsDynamicSpamHost(l.target.host) && SpamLevel(l.target.page) > kSpamTruthLevels) continue;
        if (!l.nofollow) out.push_back(std::move(l.url));
      }
      break;
    case Resource::Type::kRedirect:
      out.push_back(r.location);
      break;
    case Resource::Type::kBigPage:
      out.push_back(origin + "/");
      out.push_back(PageUrl(host, r.page));
      break;
    case Resource::Type::kCalendar: {
      const int offset = MonthOffset(r.year, r.month);
      const int prev_y = r.month == 1 ? r.year - 1 : r.year, prev_m = r.month == 1 ? 12 : r.month - 1;
      const int next_y = r.month == 12 ? r.year + 1 : r.year, next_m = r.month == 12 ? 1 : r.month + 1;
      if (offset - 1 >= -kTrapMonths && prev_y >= 1000) out.push_back(origin + CalendarPath(prev_y, prev_m));
      if (offset + 1 <= kTrapMonths && next_y <= 9999) out.push_back(origin + CalendarPath(next_y, next_m));
      out.push_back(origin + "/");
      break;
    }
    case Resource::Type::kDeep:
      if (r.depth + 1 <= kTrapDepth) out.push_back(origin + DeepPath(r.depth + 1));
      out.push_back(origin + "/");
      break;
    case Resource::Type::kNotFound:
      // A soft 404 links home; a real one links nothing.
      if (HostHas(host, Misbehaviour::kSoft404)) out.push_back(origin + "/");
      break;
    case Resource::Type::kSitemap:
      out = SitemapLinks(host, r);
      break;
    case Resource::Type::kHostile:
      out = HostileLinks(host, r);
      break;
    case Resource::Type::kError:
    case Resource::Type::kNonHtml:
      break;
  }
  return out;
}

void Universe::Walk(const std::function<void(const WalkedUrl&)>& sink) const {
  std::unordered_map<std::string, uint32_t> depth_of;
  std::deque<std::string> queue;
  std::vector<bool> host_seen(hosts_.size(), false);
  for (const auto& seed : Seeds()) {
    if (depth_of.emplace(seed, 0).second) queue.push_back(seed);
  }
  WalkedUrl w;
  while (!queue.empty()) {
    w.url = std::move(queue.front());
    queue.pop_front();
    w.depth = depth_of[w.url];
    w.outlinks.clear();
    w.allowed = IsAllowed(w.url);
    auto parts = crawl::url::Split(w.url);
    std::optional<uint32_t> host;
    if (parts.ok()) host = HostIndex(parts->host);
    Resource r;
    if (host) r = Resolve(*host, parts->target);
    switch (r.type) {
      case Resource::Type::kPage:
        w.kind = IsFarmHost(*host) || IsCldFarmHost(*host) ? "farm"
                 : IsSpamCldHost(*host)                    ? "spam"
                                                           : "normal";
        break;
      case Resource::Type::kBigPage:
        w.kind = "normal";
        break;
      case Resource::Type::kDuplicate:
        w.kind = "duplicate";
        break;
      case Resource::Type::kRedirect:
        w.kind = "redirect";
        break;
      case Resource::Type::kNonHtml:
      case Resource::Type::kSitemap:
        w.kind = "non-html";
        break;
      case Resource::Type::kCalendar:
      case Resource::Type::kDeep:
        w.kind = "trap";
        break;
      case Resource::Type::kHostile:
        w.kind = "hostile";
        break;
      case Resource::Type::kError:
      case Resource::Type::kNotFound:
        w.kind = "error";
        break;
    }
    if (!w.allowed) w.kind = "disallowed";
    // A host's first URL: a crawler fetches robots.txt, which names the
    // sitemap; it follows one hop deeper, before this URL's links.
    const uint32_t host_index = host.value_or(UINT32_MAX);
    if (host_index != UINT32_MAX && !host_seen[host_index]) {
      host_seen[host_index] = true;
      auto sitemap = SitemapUrl(host_index);
      if (sitemap && depth_of.emplace(*sitemap, w.depth + 1).second) queue.push_back(std::move(*sitemap));
    }
    if (w.allowed && host) {
      for (auto& link : ResourceLinks(*host, r)) {
        if (std::find(w.outlinks.begin(), w.outlinks.end(), link) != w.outlinks.end()) continue;
        if (depth_of.emplace(link, w.depth + 1).second) queue.push_back(link);
        w.outlinks.push_back(std::move(link));
      }
    }
    sink(w);
  }
}

void Universe::ExportMisbehavingTo(
    const std::function<void(const std::string&, const std::vector<std::string>&)>& sink) const {
  std::vector<std::string> out;
  Walk([&](const WalkedUrl& w) {
    if (!w.allowed) return;
    out.clear();
    for (const auto& l : w.outlinks) {
      if (IsAllowed(l)) out.push_back(l);
    }
    sink(w.url, out);
  });
}

}  // namespace crawl::testweb
