// Language identification accuracy on the held-out paragraphs of
// tests/data/language_id (one file per language, one paragraph of about 200
// characters per line; see its README). Prints, per language, the share of
// paragraphs labelled right by
//   - words: the frequent-word guess the fetcher used before CLD2 (the list
//     covering the most token bytes, at least 10% of them; reimplemented here
//     from fetcher/page/frequent_words.h for the comparison);
//   - page: fetcher::DetectLanguage with no declaration and no country TLD
//     (CLD2, only when reliable);
//   - cld2: CLD2's best language, reliable or not;
// the share CLD2 called reliable, and the microseconds per paragraph.
//
// Usage: language_id_bench DIR   (tests/data/language_id; or run
// tests/data/language_id/accuracy.sh)
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/text/language_id.h"
#include "common/text/tokenizer.h"
#include "fetcher/page/frequent_words.h"
#include "fetcher/page/language.h"

namespace {

// The tree-before guess: the language whose frequent words cover the most
// bytes of the first 2,000 tokens, if they cover at least 10%.
std::string FrequentWordGuess(std::string_view text) {
  std::unordered_map<std::string, uint32_t> counted;
  std::string token;
  std::size_t pos = 0;
  for (int tokens = 0; tokens < 2000 && crawl::text::NextToken(text, &pos, &token); ++tokens)
    ++counted[token];
  std::string best;
  std::size_t best_bytes = 0, total = 0;
  for (const auto& [word, n] : counted) total += word.size() * n;
  for (const auto& list : crawl::fetcher::FrequentWordLists()) {
    std::size_t covered = 0;
    for (const auto& [word, n] : counted) {
      if (crawl::fetcher::IsFrequentWord(list.language, word)) covered += word.size() * n;
    }
    if (covered > best_bytes) {
      best_bytes = covered;
      best = std::string(list.language);
    }
  }
  if (total == 0 || static_cast<double>(best_bytes) < 0.10 * static_cast<double>(total)) return {};
  return best;
}

struct Row {
  int n = 0, words = 0, page = 0, cld2 = 0, reliable = 0;
  double micros = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: language_id_bench DIR (tests/data/language_id)\n");
    return 2;
  }
  const std::filesystem::path dir(argv[1]);
  std::map<std::string, Row> rows;
  std::map<std::string, std::map<std::string, int>> mistakes;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".txt") continue;
    const std::string code = entry.path().stem().string();
    std::ifstream in(entry.path());
    std::string line;
    Row& row = rows[code];
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      ++row.n;
      row.words += FrequentWordGuess(line) == code;
      const auto t0 = std::chrono::steady_clock::now();
      const crawl::fetcher::LanguageGuess page = crawl::fetcher::DetectLanguage("", "", "", line);
      row.micros += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      row.page += page.language == code;
      if (page.language != code) ++mistakes[code][page.language.empty() ? "-" : page.language];
      const crawl::text::TextLanguage found = crawl::text::IdentifyLanguage(line);
      row.cld2 += found.language == code;
      row.reliable += found.reliable;
    }
  }
  if (rows.empty()) {
    std::fprintf(stderr, "language_id_bench: no .txt files in %s\n", dir.c_str());
    return 1;
  }
  const auto pct = [](int k, int n) { return n == 0 ? 0.0 : 100.0 * k / n; };
  std::printf("%-5s %5s %7s %7s %7s %9s %8s  page mistakes\n", "lang", "paras", "words%", "page%", "cld2%",
              "reliable%", "us/para");
  Row all;
  for (const auto& [code, r] : rows) {
    std::string wrong;
    for (const auto& [label, k] : mistakes[code]) wrong += label + "x" + std::to_string(k) + " ";
    std::printf("%-5s %5d %7.1f %7.1f %7.1f %9.1f %8.1f  %s\n", code.c_str(), r.n, pct(r.words, r.n),
                pct(r.page, r.n), pct(r.cld2, r.n), pct(r.reliable, r.n), r.micros / r.n, wrong.c_str());
    all.n += r.n;
    all.words += r.words;
    all.page += r.page;
    all.cld2 += r.cld2;
    all.reliable += r.reliable;
    all.micros += r.micros;
  }
  std::printf("%-5s %5d %7.1f %7.1f %7.1f %9.1f %8.1f\n", "all", all.n, pct(all.words, all.n),
              pct(all.page, all.n), pct(all.cld2, all.n), pct(all.reliable, all.n), all.micros / all.n);
  return 0;
}
