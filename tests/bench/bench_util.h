// What every benchmark under tests/bench prints and measures the same way:
// the machine it ran on, this thread's CPU time (per-core figures that a
// shared, noisy machine disturbs less than wall time) and the process RSS.
#pragma once

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace crawl::bench {

// The CPU model from /proc/cpuinfo ("unknown" when absent).
inline std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  }
  return "unknown";
}

// CPU seconds this thread has used.
inline double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Resident set size of this process in bytes.
inline size_t RssBytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

// A page corpus: the files a list names (one path a line), each read whole;
// files that cannot be read are skipped.
struct CorpusFile {
  std::string path;
  std::string body;
};
inline std::vector<CorpusFile> ReadCorpusList(const std::string& list) {
  std::vector<CorpusFile> files;
  std::ifstream in(list);
  for (std::string path; std::getline(in, path);) {
    std::ifstream f(path, std::ios::binary);
    if (!f) continue;
    std::ostringstream ss;
    ss << f.rdbuf();
    files.push_back({path, ss.str()});
  }
  return files;
}

// The command line of a corpus benchmark: [--repeat N] FILE_LIST. Prints
// the usage line and gives false when FILE_LIST is missing.
struct CorpusArgs {
  int repeat = 3;
  std::string list;
};
inline bool ParseCorpusArgs(int argc, char** argv, const char* name, CorpusArgs* args) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) {
      args->repeat = std::max(1, std::atoi(argv[++i]));
    } else {
      args->list = a;
    }
  }
  if (args->list.empty()) {
    std::cerr << "usage: " << name << " [--repeat N] FILE_LIST\n";
    return false;
  }
  return true;
}

}  // namespace crawl::bench
