// Cumulative captured PageRank; see captured_pagerank.h.
#include "tests/testweb/captured_pagerank.h"

#include <charconv>
#include <cmath>
#include <unordered_set>

namespace crawl::testweb {
namespace {

std::vector<std::string_view> SplitTabs(std::string_view line) {
  std::vector<std::string_view> fields;
  while (true) {
    const size_t tab = line.find('\t');
    fields.push_back(line.substr(0, tab));
    if (tab == std::string_view::npos) return fields;
    line.remove_prefix(tab + 1);
  }
}

bool IsRobots(std::string_view url) {
  const size_t scheme = url.find("://");
  const size_t slash = url.find('/', scheme == std::string_view::npos ? 0 : scheme + 3);
  if (slash == std::string_view::npos) return false;
  std::string_view path = url.substr(slash);
  path = path.substr(0, path.find_first_of("?#"));
  return path == "/robots.txt";
}

}  // namespace

Result<RankTable> ParseTruthRanks(std::istream& in) {
  RankTable ranks;
  std::string line;
  uint64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const auto f = SplitTabs(line);
    auto bad = [&](const std::string& what) {
      return Status::InvalidArgument("truth:" + std::to_string(number) + ": " + what);
    };
    if (f.size() != 4) return bad("expected URL<TAB>KIND<TAB>DEPTH<TAB>PAGERANK");
    if (f[0].empty()) return bad("empty URL");
    double rank = 0;
    const auto [end, ec] = std::from_chars(f[3].data(), f[3].data() + f[3].size(), rank);
    if (ec != std::errc() || end != f[3].data() + f[3].size() || !std::isfinite(rank) || rank < 0)
      return bad("bad PageRank '" + std::string(f[3]) + "'");
    ranks[std::string(f[0])] = rank;
  }
  if (in.bad()) return Status::IoError("cannot read the truth file");
  return ranks;
}

Result<std::vector<std::string>> ParseFetched(std::istream& in) {
  std::vector<std::string> urls;
  std::string line;
  uint64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::string_view url;
    for (std::string_view f : SplitTabs(line)) {
      if (f.starts_with("http://") || f.starts_with("https://")) {
        url = f;
        break;
      }
    }
    if (url.empty())
      return Status::InvalidArgument("fetched:" + std::to_string(number) + ": no http:// or https:// URL");
    if (!IsRobots(url)) urls.emplace_back(url);
  }
  if (in.bad()) return Status::IoError("cannot read the fetched list");
  return urls;
}

std::vector<CapturedPoint> CapturedPageRank(const RankTable& ranks, const std::vector<std::string>& fetched,
                                            uint64_t every) {
  if (every == 0) every = 1;
  std::vector<CapturedPoint> points;
  std::unordered_set<std::string_view> seen;
  double captured = 0;
  for (uint64_t k = 1; k <= fetched.size(); ++k) {
    const std::string& url = fetched[k - 1];
    if (seen.insert(url).second) {
      if (const auto it = ranks.find(url); it != ranks.end()) captured += it->second;
    }
    if (k % every == 0 || k == fetched.size()) points.push_back({k, captured});
  }
  return points;
}

}  // namespace crawl::testweb
