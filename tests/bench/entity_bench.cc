// Character reference decoding (fetcher/page/html_entities.h) on three
// inputs (run by hand): the mix of references the processing corpus has
// (&gt; &lt; &amp; &#39; &quot; &#187;, in text), every reference of the
// standard's list (in text), and URL queries in an attribute value, where
// "&b=" and "&lang=" are looked up and stay as written. Prints MB/s of input
// and ns per reference, best of 15 rounds of this thread's CPU time.
//
//   build-rel/bin/entity_bench fetcher/page/entities/entities.json
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "fetcher/page/html_links.h"
#include "tests/bench/bench_util.h"

namespace {

void Run(const char* name, const std::string& in, bool attribute, std::size_t references) {
  std::string out;
  double best = 1e9;
  std::size_t bytes_out = 0;
  for (int round = 0; round < 15; ++round) {
    const double start = crawl::bench::ThreadCpuSeconds();
    constexpr int kPasses = 20;
    for (int pass = 0; pass < kPasses; ++pass) {
      out.clear();
      crawl::html::AppendDecodedEntities(in, attribute, out);
    }
    bytes_out = out.size();
    best = std::min(best, (crawl::bench::ThreadCpuSeconds() - start) / kPasses);
  }
  std::printf("%-34s %8.1f MB/s %8.1f ns/reference  (%zu bytes in, %zu out)\n", name,
              static_cast<double>(in.size()) / best / 1e6, best * 1e9 / static_cast<double>(references),
              in.size(), bytes_out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: entity_bench ENTITIES_JSON   (fetcher/page/entities/entities.json)\n");
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  std::stringstream json;
  json << file.rdbuf();
  // Every key of the JSON ("&AElig", "&AElig;", ...), space-separated.
  std::string all_once;
  std::size_t all_count = 0;
  const std::string text = json.str();
  for (std::size_t p = 0; (p = text.find("\"&", p)) != std::string::npos;) {
    const std::size_t end = text.find('"', p + 1);
    if (end == std::string::npos) break;
    all_once.append(text, p + 1, end - p - 1).push_back(' ');
    ++all_count;
    p = end;
  }
  if (all_count == 0) {
    std::fprintf(stderr, "entity_bench: no references in %s\n", argv[1]);
    return 1;
  }
  std::string common, urls, all;
  for (int i = 0; i < 20000; ++i) {
    common += "x &lt;a href=&quot;b&quot;&gt; y &amp; z &#39;q&#39; &#187; ";
    urls += "/p?a=1&b=2&c=3&copy=4&lang=en&amp;d=5 ";
  }
  for (int i = 0; i < 40; ++i) all += all_once;
  std::printf("machine: %s; one thread, CPU time\n", crawl::bench::CpuModel().c_str());
  Run("corpus mix, text", common, false, 20000 * 8);
  Run("all 2,231 references, text", all, false, all_count * 40);
  Run("URL queries, attribute value", urls, true, 20000 * 6);
  return 0;
}
