#include "common/base/memory_budget.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

namespace crawl {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

// memory.max of the cgroup v2 this process runs in, or 0 ("max", none).
size_t CgroupMemoryMax() {
  std::ifstream cgroup("/proc/self/cgroup");
  std::string line, path;
  while (std::getline(cgroup, line))
    if (line.rfind("0::", 0) == 0) path = line.substr(3);
  if (path.empty()) return 0;
  std::ifstream max("/sys/fs/cgroup" + path + "/memory.max");
  std::string value;
  if (!(max >> value) || value == "max") return 0;
  try {
    return static_cast<size_t>(std::stoull(value));
  } catch (...) {
    return 0;
  }
}

}  // namespace

size_t MachineMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  size_t bytes = pages > 0 && page_size > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page_size) : 0;
  const size_t limit = CgroupMemoryMax();
  if (limit > 0 && (bytes == 0 || limit < bytes)) bytes = limit;
  return bytes;
}

size_t DefaultMemoryBudgetMb(MemoryRole role, size_t machine_bytes) {
  size_t divisor = 16, low = 256, high = 16 * 1024;
  if (role == MemoryRole::kFetcher) divisor = 96, low = 128, high = 1024;
  if (role == MemoryRole::kNameServer) divisor = 128, low = 64, high = 256;
  if (machine_bytes == 0) return low;
  return std::clamp(machine_bytes / divisor / kMiB, low, high);
}

void AddMemoryBudgetFlag(CLI::App& app, MemoryRole role, size_t* mb) {
  *mb = DefaultMemoryBudgetMb(role, MachineMemoryBytes());
  app.add_option("--memory-budget-mb", *mb,
                 "Memory this process sizes its caches and buffers from, in MiB (docs/OPERATIONS.md "
                 "\"Memory\"); the default is a share of this machine's memory")
      ->capture_default_str()
      ->check(CLI::Range(size_t{32}, size_t{1} << 22));
}

}  // namespace crawl
