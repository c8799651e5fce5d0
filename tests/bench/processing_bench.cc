// Processing throughput benchmark (docs/DESIGN.md §6), run
// by hand through tests/bench/processing.sh. On one core, over the same
// pages in one run:
//   (a) link extraction alone: html::ExtractLinks (fetcher/page/html_links.h);
//   (b) the whole pipeline: fetcher::ProcessFetch on a text/html 200 answer
//       (charset, links, title, language, description, robot metas, text
//       hash, effective-terms pruning, mini index with Snowball stemming);
//   (c) gumbo's parse alone (gumbo_parse + gumbo_destroy_output), the
//       reference: target (b) at least 2x faster than (c).
// Then it compares what we extract with gumbo's tree: per page, the set of
// link targets (a/area href, frame/iframe/img src, trimmed, the same
// non-page schemes dropped) and the multiset of text tokens (text nodes
// outside script/style/title/textarea, words split at non-inline element
// boundaries as when rendered, tokenised by common/text/tokenizer.h).
//
// Usage: processing_bench [--repeat N] FILE_LIST   (one HTML path a line)
#include <gumbo.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "common/text/packed_terms.h"
#include "common/text/tokenizer.h"
#include "fetcher/page/html_links.h"
#include "fetcher/page/page_processor.h"
#include "tests/bench/bench_util.h"

using crawl::bench::CpuModel;
using crawl::bench::RssBytes;
using crawl::bench::ThreadCpuSeconds;

namespace {

struct Page {
  std::string path;
  std::string body;
};

std::string Trim(std::string_view s) {
  auto sp = [](char c) { return static_cast<unsigned char>(c) <= 0x20; };
  while (!s.empty() && sp(s.front())) s.remove_prefix(1);
  while (!s.empty() && sp(s.back())) s.remove_suffix(1);
  return std::string(s);
}

bool Skipped(const std::string& href) {
  if (href.empty()) return true;
  std::string lower;
  for (char c : href.substr(0, 12)) {
    if (c == '\t' || c == '\n' || c == '\r') continue;
    lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  for (const char* s : {"javascript:", "vbscript:", "mailto:", "data:", "tel:"}) {
    if (lower.rfind(s, 0) == 0) return true;
  }
  return false;
}

// Elements that do not separate words when rendered (the same list as
// common/html_links.cc): text on both sides of them joins.
bool InlineTag(GumboTag tag) {
  static const std::set<std::string> kInline = {
      "a",      "abbr",   "b",   "bdi", "bdo",  "big", "cite", "code", "data",  "dfn",
      "em",     "font",   "i",   "kbd", "mark", "q",   "s",    "samp", "small", "span",
      "strike", "strong", "sub", "sup", "time", "tt",  "u",    "var",  "wbr"};
  return kInline.count(gumbo_normalized_tagname(tag)) > 0;
}

void GumboWalk(const GumboNode* node, std::set<std::string>* hrefs, std::string* text) {
  if (node->type == GUMBO_NODE_TEXT || node->type == GUMBO_NODE_WHITESPACE ||
      node->type == GUMBO_NODE_CDATA) {
    text->append(node->v.text.text);
    return;
  }
  if (node->type != GUMBO_NODE_ELEMENT && node->type != GUMBO_NODE_DOCUMENT) return;
  if (node->type == GUMBO_NODE_ELEMENT) {
    const GumboElement& e = node->v.element;
    const char* attr = nullptr;
    if (e.tag == GUMBO_TAG_A || e.tag == GUMBO_TAG_AREA) attr = "href";
    if (e.tag == GUMBO_TAG_FRAME || e.tag == GUMBO_TAG_IFRAME || e.tag == GUMBO_TAG_IMG) attr = "src";
    if (attr != nullptr) {
      if (const GumboAttribute* a = gumbo_get_attribute(&e.attributes, attr)) {
        std::string h = Trim(a->value);
        if (!Skipped(h)) hrefs->insert(h);
      }
    }
    if (e.tag == GUMBO_TAG_SCRIPT || e.tag == GUMBO_TAG_STYLE || e.tag == GUMBO_TAG_TITLE ||
        e.tag == GUMBO_TAG_TEXTAREA || e.tag == GUMBO_TAG_IFRAME || e.tag == GUMBO_TAG_NOEMBED ||
        e.tag == GUMBO_TAG_NOFRAMES || e.tag == GUMBO_TAG_XMP)
      return;
  }
  const GumboVector& children =
      node->type == GUMBO_NODE_DOCUMENT ? node->v.document.children : node->v.element.children;
  const bool block = node->type == GUMBO_NODE_ELEMENT && !InlineTag(node->v.element.tag);
  if (block) text->push_back(' ');
  for (unsigned i = 0; i < children.length; ++i) {
    GumboWalk(static_cast<const GumboNode*>(children.data[i]), hrefs, text);
  }
  if (block) text->push_back(' ');
}

std::map<std::string, int> TokenCounts(std::string_view text) {
  std::map<std::string, int> counts;
  crawl::text::ForEachToken(text, [&](std::string_view t) { ++counts[std::string(t)]; });
  return counts;
}

template <typename F>
double BestSeconds(int repeat, F&& f) {
  double best = 1e30;
  for (int r = 0; r < repeat; ++r) {
    const double t0 = ThreadCpuSeconds();
    f();
    best = std::min(best, ThreadCpuSeconds() - t0);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  crawl::bench::CorpusArgs args;
  if (!crawl::bench::ParseCorpusArgs(argc, argv, "processing_bench", &args)) return 2;
  const int repeat = args.repeat;
  const std::string& list = args.list;
  if (!std::ifstream(list)) {
    std::cerr << "processing_bench: cannot read " << list << "\n";
    return 2;
  }
  std::vector<Page> pages;
  std::size_t bytes = 0;
  for (crawl::bench::CorpusFile& file : crawl::bench::ReadCorpusList(list)) {
    bytes += file.body.size();
    pages.push_back({std::move(file.path), std::move(file.body)});
  }
  if (pages.empty()) {
    std::cerr << "processing_bench: no readable page in " << list << "\n";
    return 2;
  }
  const double mb = static_cast<double>(bytes) / 1e6;
  std::printf("machine: %s; %u hardware threads; one thread measured\n", CpuModel().c_str(),
              std::thread::hardware_concurrency());
  std::printf("corpus: %zu pages, %.1f MB; best of %d runs; thread CPU time\n\n", pages.size(), mb, repeat);

  std::size_t sink = 0;
  const double t_links = BestSeconds(repeat, [&] {
    for (const Page& p : pages) sink += crawl::html::ExtractLinks(p.body).links.size();
  });
  crawl::html::ExtractOptions with_text;
  with_text.collect_text = true;
  const double t_scan_text = BestSeconds(repeat, [&] {
    for (const Page& p : pages) sink += crawl::html::ExtractLinks(p.body, with_text).text.size();
  });
  crawl::fetcher::ProcessOptions options;
  std::size_t terms = 0, kept_links = 0;
  const double t_pipeline = BestSeconds(repeat, [&] {
    terms = kept_links = 0;
    for (std::size_t i = 0; i < pages.size(); ++i) {
      crawl::v1::ScheduledUrl s;
      s.set_url("http://docs.test/p" + std::to_string(i) + "/index.html");
      crawl::fetcher::FetchResult r;
      r.url = s.url();
      r.status = 200;
      r.body = pages[i].body;  // the copy is part of what a fetcher does too
      r.mime_type = "text/html";
      r.content_type = "text/html";
      auto out = crawl::fetcher::ProcessFetch(s, r, options);
      const auto counted = crawl::text::CountPackedTerms(out.record.mini_index().postings());
      terms += counted.ok() ? *counted : 0;
      kept_links += out.links.size();
    }
  });
  const double t_gumbo = BestSeconds(repeat, [&] {
    for (const Page& p : pages) {
      GumboOutput* out = gumbo_parse_with_options(&kGumboDefaultOptions, p.body.data(), p.body.size());
      sink += out->root != nullptr;
      gumbo_destroy_output(&kGumboDefaultOptions, out);
    }
  });

  auto row = [&](const char* name, double t) {
    std::printf("%-42s %8.1f MB/s %9.0f pages/s %8.2f s\n", name, mb / t,
                static_cast<double>(pages.size()) / t, t);
  };
  row("(a) link extraction (ExtractLinks)", t_links);
  row("    markup scan with visible text", t_scan_text);
  row("(b) whole pipeline (ProcessFetch + index)", t_pipeline);
  row("(c) gumbo_parse alone", t_gumbo);
  std::printf("pipeline speed / gumbo parse speed: %.2fx (target >= 2x)\n", t_gumbo / t_pipeline);
  std::printf("pipeline output: %zu index terms, %zu links kept\n\n", terms, kept_links);

  // Agreement with gumbo.
  std::size_t same_href_pages = 0, href_inter = 0, href_union = 0, ours_only = 0, gumbo_only = 0;
  std::size_t tok_common = 0, tok_ours = 0, tok_gumbo = 0, same_text_pages = 0;
  std::vector<std::pair<std::size_t, std::string>> worst;  // (differences, path)
  crawl::html::ExtractOptions all;
  all.max_links = 1'000'000;
  all.collect_text = true;
  all.max_text_bytes = 1u << 30;
  for (const Page& p : pages) {
    const auto ours = crawl::html::ExtractLinks(p.body, all);
    std::set<std::string> our_hrefs;
    for (const auto& l : ours.links) our_hrefs.insert(l.href);
    GumboOutput* out = gumbo_parse_with_options(&kGumboDefaultOptions, p.body.data(), p.body.size());
    std::set<std::string> gumbo_hrefs;
    std::string gumbo_text;
    GumboWalk(out->document, &gumbo_hrefs, &gumbo_text);
    gumbo_destroy_output(&kGumboDefaultOptions, out);

    std::size_t inter = 0;
    for (const auto& h : our_hrefs) inter += gumbo_hrefs.count(h);
    href_inter += inter;
    href_union += our_hrefs.size() + gumbo_hrefs.size() - inter;
    ours_only += our_hrefs.size() - inter;
    gumbo_only += gumbo_hrefs.size() - inter;
    if (our_hrefs == gumbo_hrefs) ++same_href_pages;

    const auto a = TokenCounts(ours.text);
    const auto b = TokenCounts(gumbo_text);
    std::size_t common = 0, na = 0, nb = 0;
    for (const auto& [t, c] : a) {
      na += static_cast<std::size_t>(c);
      auto it = b.find(t);
      if (it != b.end()) common += static_cast<std::size_t>(std::min(c, it->second));
    }
    for (const auto& [t, c] : b) nb += static_cast<std::size_t>(c);
    tok_common += common;
    tok_ours += na;
    tok_gumbo += nb;
    if (a == b) ++same_text_pages;
    const std::size_t diff =
        (our_hrefs.size() - inter) + (gumbo_hrefs.size() - inter) + (na - common) + (nb - common);
    if (diff > 0) worst.emplace_back(diff, p.path);
  }
  const double n = static_cast<double>(pages.size());
  std::printf("agreement with gumbo:\n");
  std::printf(
      "  link targets: identical sets on %.2f%% of pages; overall Jaccard %.4f "
      "(%zu common, %zu only ours, %zu only gumbo's)\n",
      100.0 * static_cast<double>(same_href_pages) / n,
      href_union ? static_cast<double>(href_inter) / static_cast<double>(href_union) : 1.0, href_inter,
      ours_only, gumbo_only);
  std::printf(
      "  text tokens: identical multisets on %.2f%% of pages; overlap %.4f of ours, %.4f of gumbo's "
      "(%zu ours, %zu gumbo's)\n",
      100.0 * static_cast<double>(same_text_pages) / n,
      tok_ours ? static_cast<double>(tok_common) / static_cast<double>(tok_ours) : 1.0,
      tok_gumbo ? static_cast<double>(tok_common) / static_cast<double>(tok_gumbo) : 1.0, tok_ours,
      tok_gumbo);
  std::sort(worst.rbegin(), worst.rend());
  for (std::size_t i = 0; i < worst.size() && i < 5; ++i)
    std::printf("  most different: %s (%zu)\n", worst[i].second.c_str(), worst[i].first);
  return sink == 0 ? 1 : 0;
}
