// Reading Prometheus text exposition in tests: each sample line as
// series -> value text ("crawl_x_total{class=\"2xx\"}" -> "0").
#pragma once

#include <map>
#include <sstream>
#include <string>

namespace crawl::testing {

inline std::map<std::string, std::string> Samples(const std::string& exposition) {
  std::map<std::string, std::string> samples;
  std::istringstream in(exposition);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.rfind(' ');
    if (space != std::string::npos) samples[line.substr(0, space)] = line.substr(space + 1);
  }
  return samples;
}

}  // namespace crawl::testing
