// Fault injection into StartCrawl (start_fault.h).
#include "nameserver/start_fault.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdlib>

namespace crawl::nameserver {

bool ExitAtStartFault(std::string_view step) {
  const char* wanted = std::getenv("CRAWL_FAULT_STARTCRAWL");
  if (wanted == nullptr || step != wanted) return false;
  spdlog::warn("CRAWL_FAULT_STARTCRAWL={}: exiting now, as if killed", step);
  spdlog::default_logger()->flush();
  _exit(86);
}

}  // namespace crawl::nameserver
