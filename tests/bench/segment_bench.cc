// Segmentation of text without spaces (common/text/tokenizer.h), run by
// hand: recall and speed of the ways to cut Chinese, Japanese, Thai, Lao,
// Khmer and Myanmar text into index terms, on real pages.
//
// Schemes, each cutting pages and queries the same way:
//   ngram: the tokenizer as built (Han/kana: every character and every
//          neighbour pair, interleaved; Thai/Lao/Khmer/Myanmar: ICU's
//          dictionary word breaker);
//   bigram: the same without the one-character terms of longer Han/kana runs
//          (Yioop's bigrams; a lone character stays a term);
//   dict:  ICU's word breaker for every script (its CJ dictionary too), on
//          the NFKC-casefolded text.
// Queries are sampled from each page's text (visible text from
// html::ExtractLinks): its words as ICU's dictionary cuts them in context
// (split into one-, two- and longer-character words) and its clauses (runs
// of word characters of these scripts, at most 20 characters: a window of a
// longer one that starts and ends at ICU's word boundaries). A word is found when every term of its cut is in
// the page's terms; a clause when its terms are consecutive page terms (a
// phrase query). Also per page: terms (positions), distinct terms and their
// bytes, and the mini index the fetcher builds (ProcessFetch, bytes of its
// protobuf).
//
// Usage: segment_bench [--repeat N] FILE_LIST   (one HTML path a line)
#include <unicode/brkiter.h>
#include <unicode/bytestream.h>
#include <unicode/normalizer2.h>
#include <unicode/utext.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/text/tokenizer.h"
#include "fetcher/page/html_links.h"
#include "fetcher/page/page_processor.h"
#include "tests/bench/bench_util.h"

namespace {

using Terms = std::vector<std::string>;

uint32_t DecodeAt(std::string_view s, std::size_t i, std::size_t* len) {
  UChar32 c = 0;
  int32_t k = static_cast<int32_t>(i);
  U8_NEXT(reinterpret_cast<const uint8_t*>(s.data()), k, static_cast<int32_t>(s.size()), c);
  *len = static_cast<std::size_t>(k) - i;
  return c < 0 ? 0xFFFD : static_cast<uint32_t>(c);
}

bool IsCjk(uint32_t cp) {
  return (cp >= 0x3005 && cp <= 0x3007) || (cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x3400 && cp <= 0x9FFF) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x20000 && cp <= 0x3FFFF);
}
bool IsDict(uint32_t cp) {
  return (cp >= 0x0E00 && cp <= 0x0EFF) || (cp >= 0x1000 && cp <= 0x109F) || (cp >= 0x1780 && cp <= 0x17FF);
}
bool Unspaced(uint32_t cp) { return IsCjk(cp) || IsDict(cp); }

std::size_t CodePoints(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0, len = 0; i < s.size(); i += len, ++n) DecodeAt(s, i, &len);
  return n;
}

Terms Ngram(std::string_view text) {
  Terms out;
  crawl::text::ForEachToken(text, [&](std::string_view t) { out.emplace_back(t); });
  return out;
}

bool OneCjk(const std::string& t) {
  std::size_t len;
  return !t.empty() && IsCjk(DecodeAt(t, 0, &len)) && len == t.size();
}

Terms Bigram(std::string_view text) {
  Terms all = Ngram(text), out;
  for (std::size_t k = 0; k < all.size(); ++k) {
    const std::string& t = all[k];
    if (OneCjk(t)) {
      const bool next = k + 1 < all.size() && all[k + 1].size() > t.size() && all[k + 1].rfind(t, 0) == 0;
      const bool prev = k > 0 && all[k - 1].size() > t.size() &&
                        all[k - 1].compare(all[k - 1].size() - t.size(), t.size(), t) == 0 &&
                        !OneCjk(all[k - 1]);
      if (next || prev) continue;
    }
    out.push_back(t);
  }
  return out;
}

// ICU's word breaker over the whole (normalised) text: its word segments.
Terms Dict(std::string_view text) {
  static const icu::Normalizer2* nfkc_cf = [] {
    UErrorCode st = U_ZERO_ERROR;
    return icu::Normalizer2::getNFKCCasefoldInstance(st);
  }();
  static icu::BreakIterator* breaker = [] {
    UErrorCode st = U_ZERO_ERROR;
    return icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), st);
  }();
  std::string norm;
  UErrorCode st = U_ZERO_ERROR;
  icu::StringByteSink<std::string> sink(&norm);
  nfkc_cf->normalizeUTF8(0, icu::StringPiece(text.data(), static_cast<int32_t>(text.size())), sink, nullptr,
                         st);
  Terms out;
  UText ut = UTEXT_INITIALIZER;
  utext_openUTF8(&ut, norm.data(), static_cast<int64_t>(norm.size()), &st);
  breaker->setText(&ut, st);
  int32_t from = breaker->first();
  for (int32_t to = breaker->next(); to != icu::BreakIterator::DONE; from = to, to = breaker->next()) {
    if (breaker->getRuleStatus() == UBRK_WORD_NONE) continue;
    if (static_cast<std::size_t>(to - from) <= crawl::text::kMaxTokenBytes)
      out.emplace_back(norm.substr(static_cast<std::size_t>(from), static_cast<std::size_t>(to - from)));
  }
  breaker->setText(icu::UnicodeString());
  utext_close(&ut);
  return out;
}

struct Index {
  std::unordered_map<std::string, std::vector<uint32_t>> at;
  const Terms* terms = nullptr;
  explicit Index(const Terms& t) : terms(&t) {
    for (uint32_t k = 0; k < t.size(); ++k) at[t[k]].push_back(k);
  }
  bool All(const Terms& q) const {
    if (q.empty()) return false;
    return std::all_of(q.begin(), q.end(), [&](const std::string& w) { return at.count(w) != 0; });
  }
  bool Phrase(const Terms& q) const {
    if (q.empty()) return false;
    auto it = at.find(q[0]);
    if (it == at.end()) return false;
    for (uint32_t p : it->second) {
      if (p + q.size() > terms->size()) break;
      bool ok = true;
      for (std::size_t k = 1; k < q.size() && ok; ++k) ok = (*terms)[p + k] == q[k];
      if (ok) return true;
    }
    return false;
  }
};

struct Tally {
  std::size_t asked = 0, found = 0;
  void Add(bool f) {
    ++asked;
    found += f ? 1 : 0;
  }
  [[nodiscard]] double Percent() const {
    return asked == 0 ? 0 : 100.0 * static_cast<double>(found) / static_cast<double>(asked);
  }
};

struct Scheme {
  const char* name;
  Terms (*cut)(std::string_view);
  Tally word1, word2, word3, clause, clause_terms_max;
  std::size_t positions = 0, distinct = 0, distinct_bytes = 0, max_clause_terms = 0;
  double seconds = 0;
};

}  // namespace

int main(int argc, char** argv) {
  crawl::bench::CorpusArgs args;
  if (!crawl::bench::ParseCorpusArgs(argc, argv, "segment_bench", &args)) return 2;
  std::vector<std::string> texts;
  std::size_t html_bytes = 0;
  crawl::html::ExtractOptions with_text;
  with_text.collect_text = true;
  with_text.max_text_bytes = 1u << 30;
  std::vector<crawl::bench::CorpusFile> files = crawl::bench::ReadCorpusList(args.list);
  for (const auto& f : files) {
    html_bytes += f.body.size();
    texts.push_back(crawl::html::ExtractLinks(f.body, with_text).text);
  }
  if (texts.empty()) {
    std::cerr << "segment_bench: no readable page in " << args.list << "\n";
    return 2;
  }
  std::size_t text_bytes = 0;
  for (const auto& t : texts) text_bytes += t.size();

  // Queries: ICU's dictionary words of the unspaced scripts and clauses.
  std::mt19937 rng(12345);
  std::vector<std::vector<std::string>> words(texts.size()), clauses(texts.size());
  for (std::size_t p = 0; p < texts.size(); ++p) {
    const std::string& t = texts[p];
    std::vector<std::string> runs;
    std::string run;
    for (std::size_t i = 0, len = 0; i <= t.size(); i += len) {
      const uint32_t cp = i < t.size() ? DecodeAt(t, i, &len) : 0;
      if (i == t.size()) len = 1;
      if (i < t.size() && Unspaced(cp) && crawl::text::IsWordCodePoint(cp)) {
        run.append(t, i, len);
      } else if (!run.empty()) {
        runs.push_back(run);
        run.clear();
      }
    }
    std::shuffle(runs.begin(), runs.end(), rng);
    for (const std::string& r : runs) {
      if (clauses[p].size() >= 20) break;
      // The run, or a window of it of at most 20 characters that starts and
      // ends at word boundaries of ICU's dictionary (as a person would
      // quote a clause).
      if (CodePoints(r) < 2) continue;
      std::vector<std::size_t> ends{0};
      {
        UErrorCode st = U_ZERO_ERROR;
        UText ut = UTEXT_INITIALIZER;
        utext_openUTF8(&ut, r.data(), static_cast<int64_t>(r.size()), &st);
        static icu::BreakIterator* b = [] {
          UErrorCode e = U_ZERO_ERROR;
          return icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), e);
        }();
        b->setText(&ut, st);
        b->first();
        for (int32_t to = b->next(); to != icu::BreakIterator::DONE; to = b->next())
          ends.push_back(static_cast<std::size_t>(to));
        b->setText(icu::UnicodeString());
        utext_close(&ut);
      }
      std::size_t first = std::uniform_int_distribution<std::size_t>(0, ends.size() - 2)(rng),
                  last = first + 1;
      while (last + 1 < ends.size() &&
             CodePoints(std::string_view(r).substr(ends[first], ends[last + 1] - ends[first])) <= 20)
        ++last;
      const std::string clause = r.substr(ends[first], ends[last] - ends[first]);
      if (CodePoints(clause) >= 2 && CodePoints(clause) <= 20) clauses[p].push_back(clause);
    }
    for (const std::string& w : Dict(t)) {
      std::size_t len;
      if (Unspaced(DecodeAt(w, 0, &len))) words[p].push_back(w);
    }
    std::shuffle(words[p].begin(), words[p].end(), rng);
    if (words[p].size() > 60) words[p].resize(60);
  }

  std::vector<Scheme> schemes = {{"ngram", Ngram, {}, {}, {}, {}, {}, 0, 0, 0, 0, 0},
                                 {"bigram", Bigram, {}, {}, {}, {}, {}, 0, 0, 0, 0, 0},
                                 {"dict", Dict, {}, {}, {}, {}, {}, 0, 0, 0, 0, 0}};
  for (Scheme& s : schemes) {
    s.seconds = 1e9;
    for (int r = 0; r < args.repeat; ++r) {
      const double t0 = crawl::bench::ThreadCpuSeconds();
      std::size_t n = 0;
      for (const auto& t : texts) n += s.cut(t).size();
      s.seconds = std::min(s.seconds, crawl::bench::ThreadCpuSeconds() - t0);
      if (n == 0) std::cerr << "";
    }
    for (std::size_t p = 0; p < texts.size(); ++p) {
      const Terms page = s.cut(texts[p]);
      const Index index(page);
      s.positions += page.size();
      s.distinct += index.at.size();
      for (const auto& [w, _] : index.at) s.distinct_bytes += w.size();
      for (const std::string& w : words[p]) {
        const std::size_t chars = CodePoints(w);
        Tally& tally = chars == 1 ? s.word1 : chars == 2 ? s.word2 : s.word3;
        tally.Add(index.All(s.cut(w)));
      }
      for (const std::string& c : clauses[p]) {
        const Terms q = s.cut(c);
        s.max_clause_terms =
            std::max(s.max_clause_terms, std::unordered_set<std::string>(q.begin(), q.end()).size());
        s.clause.Add(index.Phrase(q));
      }
    }
  }

  // The mini index the fetcher builds with the tokenizer as built.
  std::size_t mini_bytes = 0;
  crawl::fetcher::ProcessOptions options;
  for (std::size_t i = 0; i < files.size(); ++i) {
    crawl::v1::ScheduledUrl s;
    s.set_url("http://docs.test/p" + std::to_string(i) + "/index.html");
    crawl::fetcher::FetchResult r;
    r.url = s.url();
    r.status = 200;
    r.body = files[i].body;
    r.mime_type = "text/html";
    r.content_type = "text/html";
    mini_bytes += crawl::fetcher::ProcessFetch(s, r, options).record.mini_index().ByteSizeLong();
  }

  const double pages = static_cast<double>(texts.size());
  std::printf("corpus: %zu pages, %.1f MB HTML, %.1f MB text; best of %d runs, thread CPU time\n",
              texts.size(), static_cast<double>(html_bytes) / 1e6, static_cast<double>(text_bytes) / 1e6,
              args.repeat);
  std::printf("%-7s %9s %9s %9s %8s %8s %8s %8s %9s %9s %10s\n", "scheme", "MB/s", "terms/pg", "distinct",
              "dbytes", "word1%", "word2%", "word3+%", "clause%", "clauses", "maxQterms");
  for (const Scheme& s : schemes) {
    std::printf("%-7s %9.1f %9.0f %9.0f %8.0f %8.1f %8.1f %8.1f %9.1f %9zu %10zu\n", s.name,
                static_cast<double>(text_bytes) / 1e6 / s.seconds, static_cast<double>(s.positions) / pages,
                static_cast<double>(s.distinct) / pages, static_cast<double>(s.distinct_bytes) / pages,
                s.word1.Percent(), s.word2.Percent(), s.word3.Percent(), s.clause.Percent(), s.clause.asked,
                s.max_clause_terms);
  }
  std::printf("words asked: %zu one-character, %zu two-character, %zu longer\n", schemes[0].word1.asked,
              schemes[0].word2.asked, schemes[0].word3.asked);
  std::printf("mini index (fetcher, tokenizer as built): %.0f bytes/page\n",
              static_cast<double>(mini_bytes) / pages);
  return 0;
}
