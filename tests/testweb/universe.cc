// The synthetic web generated on demand; see universe.h for its shape.
#include "tests/testweb/universe.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <deque>

#include "common/url/url.h"
#include "tests/testweb/rng.h"
#include "tests/testweb/zipf.h"

namespace crawl::testweb {
namespace {

// Salts: one independent random stream per purpose, so e.g. the links of a
// page do not change when its text generator draws more words.
enum Salt : uint64_t {
  kSaltHost = 0x686F7374,
  kSaltLinks = 0x6C696E6B,
  kSaltText = 0x74657874,
  kSaltPrivate = 0x70726976,
  kSaltCorpus = 0x636F7270,
};

// Sentences in the corpus of corpus_text (about 150 KB of text: it stays
// in a core's cache).
constexpr uint32_t kCorpusSentences = 2048;

constexpr std::string_view kHostPrefix = "www.site";
constexpr std::string_view kHostSuffix = ".test";
constexpr std::string_view kFarmPrefix = "farm";
constexpr std::string_view kFarmSuffix = ".spam.test";

// Directories some hosts put all their pages under (index 0: none).
constexpr std::string_view kPathPrefixes[] = {"", "docs/", "wiki/", "articles/", "blog/", "pages/"};

// Robots variants: most hosts keep /private/ out, some allow everything,
// some also shut out one named bot completely (RFC 9309 group selection).
// RobotsRich only on robots-rules hosts of a misbehaving web.
constexpr uint32_t kRobotsPrivate = 0, kRobotsAllowAll = 1, kRobotsNamedBot = 2, kRobotsRich = 3;
constexpr std::string_view kNamedBot = "ExampleBot";

// The path from the directory of `from` to `to` ("../b2/p9.html", "./").
std::string RelativeRef(std::string_view from, std::string_view to) {
  auto split_dirs = [](std::string_view path) {
    std::vector<std::string_view> dirs;
    const size_t last = path.rfind('/');
    std::string_view d = path.substr(1, last == 0 ? 0 : last - 1);
    while (!d.empty()) {
      const size_t slash = d.find('/');
      dirs.push_back(d.substr(0, slash));
      d = slash == std::string_view::npos ? std::string_view() : d.substr(slash + 1);
    }
    return dirs;
  };
  const auto from_dirs = split_dirs(from);
  const auto to_dirs = split_dirs(to);
  size_t common = 0;
  while (common < from_dirs.size() && common < to_dirs.size() && from_dirs[common] == to_dirs[common])
    ++common;
  std::string rel;
  for (size_t i = common; i < from_dirs.size(); ++i) rel += "../";
  for (size_t i = common; i < to_dirs.size(); ++i) {
    rel += to_dirs[i];
    rel += '/';
  }
  rel += to.substr(to.rfind('/') + 1);
  return rel.empty() ? "./" : rel;
}

void AppendCapitalized(std::string& out, std::string_view word) {
  if (word.empty()) return;
  out += static_cast<char>(std::toupper(static_cast<unsigned char>(word[0])));
  out += word.substr(1);
}

}  // namespace

Result<Universe> Universe::Create(const UniverseOptions& options) {
  if (Status s = Validate(options); !s.ok()) return s;
  Universe u;
  u.options_ = options;
  u.change_ = ChangeModel(options);
  u.vocabulary_ = std::make_shared<const Vocabulary>(options.vocabulary_size, 1.0);
  if (options.corpus_text) {
    auto corpus = std::make_shared<Corpus>();
    Rng rng(Hash(options.seed, kSaltCorpus));
    corpus->text.reserve(kCorpusSentences * 80);
    for (uint32_t s = 0; s < kCorpusSentences; ++s) {
      corpus->starts.push_back(static_cast<uint32_t>(corpus->text.size()));
      const uint64_t words = rng.Between(6, 18);
      std::string_view previous;
      for (uint64_t w = 0; w < words; ++w) {
        std::string_view word;
        for (int attempt = 0; attempt < 3 && (word.empty() || word == previous); ++attempt)
          word = u.vocabulary_->Draw(rng);
        if (w == 0) {
          AppendCapitalized(corpus->text, word);
        } else {
          corpus->text += ' ';
          corpus->text += word;
        }
        previous = word;
      }
      corpus->text += ". ";
    }
    corpus->starts.push_back(static_cast<uint32_t>(corpus->text.size()));
    u.corpus_ = std::move(corpus);
  }
  u.robots_ = {
      RobotsRules({{{"*"}, {"/private/"}}}),
      RobotsRules({{{"*"}, {""}}}),
      RobotsRules({{{std::string(kNamedBot)}, {"/"}}, {{"*"}, {"/private/"}}}),
      RobotsRules({{{std::string(kNamedBot)}, {"/"}},
                   {{"*"},
                    {"/private/", "/*?sessionid=", "/files/*.pdf$", "/calendar/", "/deep/a/a/a/"},
                    {"/files/1.pdf$", "/calendar/2026/"},
                    1.0}}),
  };
  // Normal hosts first (the link farm at their end), then the link spam.
  const uint64_t spam_hosts = uint64_t{options.spam_clds} + options.farm_cld_hosts;
  const uint64_t normal = options.hosts - spam_hosts;
  if (spam_hosts > 0) {
    u.first_spam_ = static_cast<uint32_t>(normal);
    u.first_cld_farm_ = static_cast<uint32_t>(normal + options.spam_clds);
  }
  if (options.Has(Misbehaviour::kLinkFarm) && normal >= 5) {
    u.first_farm_ = static_cast<uint32_t>(normal - std::max<uint64_t>(2, normal / 10));
  }
  const auto sizes = HostSizes(options, normal);
  u.hosts_.resize(options.hosts);
  uint64_t first = 0;
  for (uint64_t i = 0; i < options.hosts; ++i) {
    Host& h = u.hosts_[i];
    Rng rng(Hash(options.seed, i, kSaltHost));
    const bool spam = i >= normal;
    // A spam host's pages: the endless tree up to kSpamMaxLevel (universe.h).
    h.pages = spam ? SpamPageSpace() : sizes[i];
    h.first = first;
    if (!spam) first += h.pages;
    h.fanout = static_cast<uint32_t>(rng.Between(3, 10));
    if (spam) h.fanout = static_cast<uint32_t>(kSpamFanout);
    if (u.IsDeepSite(static_cast<uint32_t>(i))) h.fanout = 2;
    const uint64_t depth_roll = rng.Below(100);
    h.dir_depth = depth_roll < 10 ? 0 : depth_roll < 40 ? 1 : depth_roll < 75 ? 2 : depth_roll < 95 ? 3 : 4;
    h.prefix = rng.Below(100) < 60 ? 0 : static_cast<uint32_t>(1 + rng.Below(std::size(kPathPrefixes) - 1));
    const uint64_t robots_roll = rng.Below(100);
    h.robots = robots_roll < 75 ? kRobotsPrivate : robots_roll < 90 ? kRobotsAllowAll : kRobotsNamedBot;
    if (u.HostHas(static_cast<uint32_t>(i), Misbehaviour::kRobotsRules)) h.robots = kRobotsRich;
    if (spam) h.robots = kRobotsAllowAll;
    if (spam || u.IsDeepSite(static_cast<uint32_t>(i))) h.dir_depth = 4;
    const uint64_t topics = rng.Between(2, 4);
    for (uint64_t t = 0; t < topics; ++t)
      h.topics.push_back(static_cast<uint32_t>(rng.Below(Vocabulary::TopicCount())));
  }
  return u;
}

std::string Universe::HostName(uint32_t host) const {
  if (auto spam = SpamHostName(host)) return *std::move(spam);
  if (IsFarmHost(host)) {
    return std::string(kFarmPrefix) + std::to_string(host - first_farm_) + std::string(kFarmSuffix);
  }
  std::string name;
  if (options_.Has(Misbehaviour::kHostNames)) {
    // Sites of several hosts (www, blog, shop of one CLD) and a two-label
    // suffix: see universe.h, "Host names".
    switch (host % 6) {
      case 1:
        return "www.site" + std::to_string(host) + ".co.test";
      case 4:
        return "blog.site" + std::to_string(host - 1) + ".test";
      case 5:
        return "shop.site" + std::to_string(host - 2) + ".test";
      default:
        break;
    }
  }
  name = kHostPrefix;
  name += std::to_string(host);
  name += kHostSuffix;
  return name;
}

std::optional<uint32_t> Universe::HostIndex(std::string_view name) const {
  if (first_spam_ != UINT32_MAX) {
    if (auto spam = SpamHostIndex(name)) return spam;
  }
  if (first_farm_ != UINT32_MAX && name.size() > kFarmPrefix.size() + kFarmSuffix.size() &&
      name.starts_with(kFarmPrefix) && name.ends_with(kFarmSuffix)) {
    const auto j =
        ParseIndex(name.substr(kFarmPrefix.size(), name.size() - kFarmPrefix.size() - kFarmSuffix.size()));
    if (!j || *j >= FarmEnd() - first_farm_) return std::nullopt;
    return static_cast<uint32_t>(first_farm_ + *j);
  }
  // "<label>.site<N>.<suffix>": the index follows from the label and N;
  // the name must then be exactly HostName(index).
  const size_t dot = name.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const std::string_view label = name.substr(0, dot);
  std::string_view rest = name.substr(dot + 1);
  uint64_t offset = 0;
  if (label == "blog") {
    offset = 1;
  } else if (label == "shop") {
    offset = 2;
  } else if (label != "www") {
    return std::nullopt;
  }
  if (!rest.starts_with("site")) return std::nullopt;
  rest.remove_prefix(4);
  const size_t end = rest.find('.');
  if (end == std::string_view::npos) return std::nullopt;
  const auto n = ParseIndex(rest.substr(0, end));
  if (!n || *n + offset >= hosts_.size() || *n + offset >= std::min(first_farm_, first_spam_))
    return std::nullopt;
  const auto index = static_cast<uint32_t>(*n + offset);
  if (HostName(index) != name) return std::nullopt;
  return index;
}

std::optional<uint64_t> Universe::ParentPage(uint32_t host, uint64_t page) const {
  if (page == 0) return std::nullopt;
  return (page - 1) / hosts_[host].fanout;
}

bool Universe::IsPrivate(uint32_t host, uint64_t page) const {
  const Host& h = hosts_[host];
  // Only leaves of the tree, so hiding them hides no other page.
  if (page == 0 || page * h.fanout + 1 < h.pages) return false;
  Rng rng(Hash(options_.seed, host, page, kSaltPrivate));
  return rng.PerMille(options_.private_permille);
}

std::string Universe::PagePath(uint32_t host, uint64_t page) const {
  if (page == 0) return "/";
  if (IsDynamicSpamHost(host)) return SpamPagePath(page);
  const Host& h = hosts_[host];
  // Ancestors of `page` below the root, deepest first: chain[0] == page.
  uint64_t chain[64];
  size_t depth = 0;
  for (uint64_t a = page; a != 0 && depth < std::size(chain); a = (a - 1) / h.fanout) chain[depth++] = a;
  std::string path = "/";
  if (IsPrivate(host, page)) path += "private/";
  path += kPathPrefixes[h.prefix];
  const size_t dirs = std::min<size_t>(depth - 1, h.dir_depth);
  for (size_t d = 1; d <= dirs; ++d) {
    const uint64_t ancestor = chain[depth - d];  // the ancestor at tree depth d
    path += static_cast<char>('a' + d - 1);
    path += std::to_string((ancestor - 1) % h.fanout + 1);
    path += '/';
  }
  path += 'p';
  path += std::to_string(page);
  path += ".html";
  return path;
}

std::string Universe::PageUrl(uint32_t host, uint64_t page) const {
  return Origin(host) + PagePath(host, page);
}

std::optional<uint64_t> Universe::LookupPath(uint32_t host, std::string_view path) const {
  if (host >= hosts_.size()) return std::nullopt;
  if (path == "/") return 0;
  if (IsDynamicSpamHost(host)) return LookupSpamPath(path);
  const size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::string_view file = path.substr(slash + 1);
  if (!file.starts_with('p') || !file.ends_with(".html")) return std::nullopt;
  const auto index = ParseIndex(file.substr(1, file.size() - 6));
  if (!index || *index == 0 || *index >= hosts_[host].pages) return std::nullopt;
  if (PagePath(host, *index) != path) return std::nullopt;
  return *index;
}

std::optional<PageRef> Universe::LookupUrl(std::string_view url) const {
  auto parts = crawl::url::Split(url);
  if (!parts.ok()) return std::nullopt;
  const auto host = HostIndex(parts->host);
  if (!host || !SchemeMatches(*host, parts->scheme, parts->port)) return std::nullopt;
  const auto page = LookupPath(*host, parts->target);
  if (!page) return std::nullopt;
  return PageRef{*host, *page};
}

uint32_t Universe::HostOfGlobal(uint64_t global) const {
  const auto it = std::upper_bound(hosts_.begin(), hosts_.end(), global,
                                   [](uint64_t g, const Host& h) { return g < h.first; });
  return static_cast<uint32_t>((it - hosts_.begin()) - 1);
}

std::string Universe::MakeHref(uint32_t from_host, const std::string& from_path, PageRef to,
                               const std::string& to_path, Rng& rng) const {
  std::string href;
  if (to.host != from_host) {
    // Cross-host: absolute, sometimes scheme-relative.
    // (Scheme-relative only to a host of the same scheme.)
    href = rng.Below(100) < 20 && IsHttps(to.host) == IsHttps(from_host) ? "//" : SchemePrefix(to.host);
    href += HostName(to.host);
    href += to_path;
  } else {
    const uint64_t form = rng.Below(100);
    if (form < 45) {
      href = to_path;
    } else if (form < 90) {
      href = RelativeRef(from_path, to_path);
    } else {
      href = PageUrl(to.host, to.page);
    }
  }
  if (rng.PerMille(options_.fragment_permille)) {
    href += "#s";
    href += std::to_string(rng.Below(20));
  }
  return href;
}

std::vector<Link> Universe::AllLinks(uint32_t host, uint64_t page) const {
  if (IsDynamicSpamHost(host)) return SpamLinks(host, page);
  const Host& h = hosts_[host];
  Rng rng(Hash(options_.seed, host, page, kSaltLinks));
  const std::string from_path = PagePath(host, page);
  const uint64_t wanted = rng.Between(options_.min_links, options_.max_links);
  std::vector<Link> links;
  links.reserve(wanted + h.fanout + 1);

  auto add = [&](PageRef to, bool nav, bool nofollow) {
    Link link;
    const std::string to_path = PagePath(to.host, to.page);
    link.href = MakeHref(host, from_path, to, to_path, rng);
    link.url = Origin(to.host) + to_path;
    link.anchor = Words(rng, rng.Between(1, 3), host);
    link.nofollow = nofollow;
    link.nav = nav;
    link.target = to;
    links.push_back(std::move(link));
  };

  // Tree links first (the nav list): up to the parent sometimes, down to
  // every child always, never nofollow, so each page is reachable.
  if (page > 0 && rng.PerMille(500)) add({host, (page - 1) / h.fanout}, true, false);
  const uint64_t first_child = page * h.fanout + 1;
  for (uint64_t c = first_child; c < h.pages && c < first_child + h.fanout; ++c) add({host, c}, true, false);

  // Then links in the text: at least two, up to `wanted` in all.
  const uint64_t extra = links.size() + 2 > wanted ? 2 : wanted - links.size();
  for (uint64_t i = 0; i < extra; ++i) {
    PageRef to{host, 0};
    if (hosts_.size() > 1 && rng.PerMille(options_.cross_host_permille)) {
      // Preferential attachment: a uniform page of the whole web picks its
      // host with probability proportional to host size.
      to.host = HostOfGlobal(rng.Below(options_.pages));
      // Deep sites draw a further share of cross-host links (no draw, and
      // so the same links as before, when there are none).
      if (auto deep = DrawDeepSite(rng)) to.host = *deep;
    }
    // The link farm links only itself, and the rest of the web never links
    // it by chance (its few in-links are special links of some roots).
    if (IsFarmHost(host)) {
      to.host = first_farm_ + static_cast<uint32_t>(rng.Below(FarmEnd() - first_farm_));
    } else if (IsFarmHost(to.host)) {
      to.host = host;
    }
    to.page = LowBiased(rng, hosts_[to.host].pages);
    add(to, false, rng.PerMille(options_.nofollow_permille));
  }
  if (auto spam = SpamEntryLink(host, page)) links.push_back(*std::move(spam));
  if (options_.misbehaviours != 0) AppendSpecialLinks(host, page, links);
  return links;
}

std::string_view Universe::DrawWord(Rng& rng, uint32_t host, std::string_view previous) const {
  const Host& h = hosts_[host];
  std::string_view word;
  // "the the" is rare in real text even though "the" is the top word.
  for (int attempt = 0; attempt < 3 && (word.empty() || word == previous); ++attempt) {
    word =
        rng.PerMille(30) ? Vocabulary::Topic(h.topics[rng.Below(h.topics.size())]) : vocabulary_->Draw(rng);
  }
  return word;
}

std::string Universe::Words(Rng& rng, uint64_t n, uint32_t host) const {
  std::string out;
  std::string_view previous;
  for (uint64_t i = 0; i < n; ++i) {
    if (i > 0) out += ' ';
    previous = DrawWord(rng, host, previous);
    out += previous;
  }
  return out;
}

std::string Universe::RenderPageAt(uint32_t host, uint64_t page, double t) const {
  const Host& h = hosts_[host];
  // Change model: version v > 0 redraws title and text from another stream.
  const uint64_t v = change_.enabled() ? PageStateAt(host, page, t).version : 0;
  Rng rng(Hash(options_.seed, host, page, v == 0 ? kSaltText : Hash(kSaltText, v)));
  const std::vector<Link> links = Links(host, page, t);
  // Median page_kb. Word-by-word text (clean): spread over [0.5, 1.5] x
  // page_kb (triangular). Corpus text: log-normal with sigma 0.6 (the
  // heavy right tail of real HTML sizes: 10% of pages over 2.2x the
  // median, 1% over 4x), cut to [0.2, 8] x page_kb; Box-Muller from the
  // same two uniforms.
  const double u1 = rng.Uniform(), u2 = rng.Uniform();
  double factor = 0.5 + (u1 + u2) / 2;
  if (corpus_) {
    const double normal = std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2.0 * 3.14159265358979323846 * u2);
    factor = std::clamp(std::exp(0.6 * normal), 0.2, 8.0);
  }
  const auto target_size = static_cast<size_t>(factor * options_.page_kb * 1024);

  std::string html;
  html.reserve(target_size + 2048);
  html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>";
  AppendCapitalized(html, Vocabulary::Topic(h.topics[rng.Below(h.topics.size())]));
  html += ": ";
  html += Words(rng, rng.Between(2, 5), host);
  html += "</title>\n</head>\n<body>\n<h1>";
  AppendCapitalized(html, Words(rng, rng.Between(2, 6), host));
  html += "</h1>\n";

  auto append_link = [&html](const Link& l) {
    html += "<a href=\"";
    html += l.href;
    html += l.nofollow ? "\" rel=\"nofollow\">" : "\">";
    html += l.anchor;
    html += "</a>";
  };

  size_t next = 0;
  if (!links.empty() && links[0].nav) {
    html += "<ul class=\"nav\">\n";
    for (; next < links.size() && links[next].nav; ++next) {
      html += "<li>";
      append_link(links[next]);
      html += "</li>\n";
    }
    html += "</ul>\n";
  }

  if (corpus_) {
    AppendCorpusText(rng, host, links, next, target_size, html);
    html += "</body>\n</html>\n";
    return html;
  }

  // Paragraphs of sentences until the page is big enough and every text
  // link has been placed (one or two per paragraph, at random words).
  while (html.size() < target_size || next < links.size()) {
    const uint64_t words = rng.Between(30, 90);
    std::vector<uint64_t> at;
    const uint64_t here = std::min<uint64_t>(links.size() - next, rng.Between(1, 2));
    for (uint64_t k = 0; k < here; ++k) at.push_back(rng.Below(words));
    std::sort(at.begin(), at.end());
    html += "<p>";
    uint64_t sentence_left = 0;
    size_t a = 0;
    std::string_view previous;
    for (uint64_t w = 0; w < words; ++w) {
      const bool start = sentence_left == 0;
      if (start) sentence_left = rng.Between(6, 18);
      if (w > 0) html += ' ';
      while (a < at.size() && at[a] == w) {
        append_link(links[next++]);
        html += ' ';
        ++a;
      }
      previous = DrawWord(rng, host, previous);
      if (start) {
        AppendCapitalized(html, previous);
      } else {
        html += previous;
      }
      if (--sentence_left == 0 || w + 1 == words) {
        html += '.';
        sentence_left = 0;
      }
    }
    html += "</p>\n";
  }
  html += "</body>\n</html>\n";
  return html;
}

void Universe::AppendCorpusText(Rng& rng, uint32_t host, const std::vector<Link>& links, size_t next,
                                size_t target_size, std::string& html) const {
  const Host& h = hosts_[host];
  const Corpus& c = *corpus_;
  const auto sentences = static_cast<uint64_t>(c.starts.size() - 1);
  while (html.size() < target_size || next < links.size()) {
    // "<p><b>Topic</b> Sentence. [link] Sentence. ...</p>": the topic word
    // keeps the host's subject searchable; one or two links per paragraph
    // sit between sentences.
    html += "<p><b>";
    AppendCapitalized(html, Vocabulary::Topic(h.topics[rng.Below(h.topics.size())]));
    html += "</b> ";
    // A run of 3-6 consecutive corpus sentences (one copy from one place:
    // cheap on caches), split once at a sentence end for each link.
    const uint64_t count = rng.Between(3, 6);
    const uint64_t first = rng.Below(sentences - count);
    uint64_t here = std::min<uint64_t>(links.size() - next, rng.Between(1, 2));
    uint64_t from = first;
    for (; here > 0; --here) {
      const uint64_t cut = from + rng.Below(first + count - from + 1);
      html.append(c.text, c.starts[from], c.starts[cut] - c.starts[from]);
      const Link& l = links[next++];
      html += "<a href=\"";
      html += l.href;
      html += l.nofollow ? "\" rel=\"nofollow\">" : "\">";
      html += l.anchor;
      html += "</a> ";
      from = cut;
    }
    html.append(c.text, c.starts[from], c.starts[first + count] - c.starts[from]);
    html += "</p>\n";
  }
}

std::optional<std::string> Universe::RenderPage(uint32_t host, std::string_view path) const {
  const auto page = LookupPath(host, path);
  if (!page) return std::nullopt;
  return RenderPageAt(host, *page);
}

const RobotsRules& Universe::Robots(uint32_t host) const { return robots_[hosts_[host].robots]; }

bool Universe::IsAllowed(std::string_view url) const {
  auto parts = crawl::url::Split(url);
  if (!parts.ok()) return false;
  const auto host = HostIndex(parts->host);
  if (!host || !SchemeMatches(*host, parts->scheme, parts->port)) return false;
  // RFC 9309 section 2.3.1.4: an unreachable robots.txt disallows everything.
  if (HostHas(*host, Misbehaviour::kRobots5xx) || HostHas(*host, Misbehaviour::kRobotsUnreachable))
    return parts->target == "/robots.txt";
  return Robots(*host).Allows("*", parts->target);
}

bool Universe::IsPageAllowed(uint32_t host, uint64_t page) const {
  if (HostHas(host, Misbehaviour::kRobots5xx) || HostHas(host, Misbehaviour::kRobotsUnreachable))
    return false;
  return Robots(host).Allows("*", PagePath(host, page));
}

std::vector<std::string> Universe::Seeds() const {
  std::vector<std::string> seeds;
  const uint32_t n = std::min<uint32_t>(HostCount(), options_.seed_hosts);
  for (uint32_t i = 0; i < n; ++i) seeds.push_back(PageUrl(i, 0));
  return seeds;
}

void Universe::ExportTo(
    const std::function<void(const std::string& url, const std::vector<std::string>& outlinks)>& sink,
    double t) const {
  // The spam's pages are endless: only the walk cuts them.
  if (options_.misbehaviours != 0 || first_spam_ != UINT32_MAX) return ExportMisbehavingTo(sink);
  std::vector<bool> seen(options_.pages, false);
  std::deque<PageRef> queue;
  auto visit = [&](PageRef p) {
    const uint64_t global = hosts_[p.host].first + p.page;
    if (seen[global]) return;
    seen[global] = true;
    queue.push_back(p);
  };
  const uint32_t n = std::min<uint32_t>(HostCount(), options_.seed_hosts);
  for (uint32_t i = 0; i < n; ++i) {
    if (IsPageAllowed(i, 0)) visit({i, 0});
  }
  std::vector<std::string> out;
  while (!queue.empty()) {
    const PageRef p = queue.front();
    queue.pop_front();
    out.clear();
    for (Link& l : Links(p.host, p.page, t)) {
      if (l.nofollow || !IsPageAllowed(l.target.host, l.target.page)) continue;
      if (std::find(out.begin(), out.end(), l.url) != out.end()) continue;
      visit(l.target);
      out.push_back(std::move(l.url));
    }
    sink(PageUrl(p.host, p.page), out);
  }
}

std::vector<ExportedPage> Universe::Export() const {
  std::vector<ExportedPage> pages;
  ExportTo([&pages](const std::string& url, const std::vector<std::string>& outlinks) {
    pages.push_back({url, outlinks});
  });
  return pages;
}

}  // namespace crawl::testweb
