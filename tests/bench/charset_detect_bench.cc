// The encoding detectors for unlabelled pages compared, and the cost of
// decoding legacy-encoded pages (fetcher/page/charset.h).
//
//   tests/bench/charset_detect.sh [--chars C]     (installs, builds, runs)
//   python3 tests/bench/charset_corpus.py /tmp/charset-corpus
//   build-rel/bin/charset_detect_bench /tmp/charset-corpus [--repeat N]
//
// The corpus is CORPUS/ENCODING/*.html, ENCODING a WHATWG name (lower case).
// For each encoding and each detector (uchardet, which DecodeBody uses, and
// ICU's ucsdet) it prints the share of pages the detector's answer decodes
// to the same text as the true encoding (GBK read as gb18030, say, is
// right), and the detector's time per page; then, for each encoding, the
// time per page of DecodeBody with the page labelled (Content-Type) and
// unlabelled (detector and decoding), and the same for the page's UTF-8.
#include <unicode/ucsdet.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "fetcher/page/charset.h"

namespace {

using crawl::fetcher::Encoding;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::optional<Encoding> IcuDetect(std::string_view body) {
  // One detector, reused, as DetectLegacyEncoding reuses uchardet's.
  UErrorCode error = U_ZERO_ERROR;
  static UCharsetDetector* const detector = ucsdet_open(&error);
  if (detector == nullptr) return std::nullopt;
  const std::string_view sample = body.substr(0, crawl::fetcher::kDetectBytes);
  ucsdet_setText(detector, sample.data(), static_cast<int32_t>(sample.size()), &error);
  const UCharsetMatch* match = ucsdet_detect(detector, &error);
  std::optional<Encoding> out;
  if (U_SUCCESS(error) && match != nullptr) {
    const char* name = ucsdet_getName(match, &error);
    if (U_SUCCESS(error) && name != nullptr) out = crawl::fetcher::EncodingForLabel(name);
  }
  return out;
}

std::string Decoded(std::string_view body, Encoding e) {
  uint32_t invalid = 0;
  return crawl::fetcher::ToUtf8(body, e, &invalid);
}

struct Row {
  int pages = 0;
  int uchardet_right = 0;
  int icu_right = 0;
  double uchardet_us = 0;
  double icu_us = 0;
  double labelled_us = 0;
  double unlabelled_us = 0;
  double utf8_us = 0;
  std::size_t bytes = 0;
  std::map<std::string, int> uchardet_wrong;  // what it said instead
  std::map<std::string, int> icu_wrong;
};

template <typename F>
double MicrosPerCall(int repeat, F&& f) {
  const auto start = Clock::now();
  for (int r = 0; r < repeat; ++r) f();
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count() / repeat;
}

std::string Name(const std::optional<Encoding>& e) {
  return e ? crawl::fetcher::CharsetName(*e) : std::string("(none)");
}

void Measure(const std::string& name, Encoding truth, const std::vector<std::string>& pages, int repeat,
             Row& row) {
  volatile std::size_t sink = 0;
  for (const std::string& page : pages) {
    const std::string want = Decoded(page, truth);
    std::optional<Encoding> u;
    std::optional<Encoding> icu;
    row.uchardet_us += MicrosPerCall(repeat, [&] { u = crawl::fetcher::DetectLegacyEncoding(page); });
    row.icu_us += MicrosPerCall(repeat, [&] { icu = IcuDetect(page); });
    if (u && Decoded(page, *u) == want) {
      ++row.uchardet_right;
    } else {
      ++row.uchardet_wrong[Name(u)];
    }
    if (icu && Decoded(page, *icu) == want) {
      ++row.icu_right;
    } else {
      ++row.icu_wrong[Name(icu)];
    }
    row.labelled_us += MicrosPerCall(repeat, [&] {
      sink = sink + crawl::fetcher::DecodeBody(page, name, crawl::fetcher::BodyKind::kHtml).text().size();
    });
    row.unlabelled_us += MicrosPerCall(repeat, [&] {
      sink = sink + crawl::fetcher::DecodeBody(page, "", crawl::fetcher::BodyKind::kHtml).text().size();
    });
    row.utf8_us += MicrosPerCall(repeat, [&] {
      sink = sink + crawl::fetcher::DecodeBody(want, "", crawl::fetcher::BodyKind::kHtml).text().size();
    });
    row.bytes += page.size();
    ++row.pages;
  }
}

std::string Wrong(const std::map<std::string, int>& wrong) {
  std::vector<std::pair<int, std::string>> v;
  for (const auto& [name, n] : wrong) v.emplace_back(n, name);
  std::sort(v.rbegin(), v.rend());
  std::string out;
  for (std::size_t i = 0; i < v.size() && i < 3; ++i)
    out += " " + v[i].second + ":" + std::to_string(v[i].first);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR [--repeat N]\n", argv[0]);
    return 2;
  }
  const fs::path root = argv[1];
  int repeat = 5;
  if (argc >= 4 && std::string(argv[2]) == "--repeat") repeat = std::max(1, std::atoi(argv[3]));
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(root)) {
    if (entry.is_directory()) dirs.push_back(entry.path());
  }
  std::sort(dirs.begin(), dirs.end());
  std::printf("%-14s %5s %7s | %9s %8s | %9s %8s | %10s %10s %10s | %s\n", "encoding", "pages", "bytes",
              "uchardet", "us/page", "icu", "us/page", "labelled", "unlabelled", "utf-8",
              "wrong answers (uchardet | icu)");
  int all = 0;
  int all_u = 0;
  int all_icu = 0;
  for (const fs::path& dir : dirs) {
    const std::string name = dir.filename().string();
    const auto truth = crawl::fetcher::EncodingForLabel(name);
    if (!truth) {
      std::fprintf(stderr, "%s: not an encoding name\n", name.c_str());
      continue;
    }
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir)) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    std::vector<std::string> pages;
    for (const fs::path& f : files) pages.push_back(ReadFile(f));
    Row row;
    Measure(name, *truth, pages, repeat, row);
    if (row.pages == 0) continue;
    const double n = row.pages;
    std::printf("%-14s %5d %7zu | %8.1f%% %8.1f | %8.1f%% %8.1f | %10.1f %10.1f %10.1f |%s |%s\n",
                name.c_str(), row.pages, row.bytes / row.pages, 100.0 * row.uchardet_right / n,
                row.uchardet_us / n, 100.0 * row.icu_right / n, row.icu_us / n, row.labelled_us / n,
                row.unlabelled_us / n, row.utf8_us / n, Wrong(row.uchardet_wrong).c_str(),
                Wrong(row.icu_wrong).c_str());
    all += row.pages;
    all_u += row.uchardet_right;
    all_icu += row.icu_right;
  }
  if (all > 0) {
    std::printf("all: %d pages; uchardet %.1f%% right, icu %.1f%% right (times in microseconds per page)\n",
                all, 100.0 * all_u / all, 100.0 * all_icu / all);
  }
  return 0;
}
