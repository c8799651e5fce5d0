#include "queueserver/frontier/trap_rules.h"

#include "common/base/find_any.h"

namespace crawl::queueserver {
namespace {

// The path of an absolute URL, without query and fragment ("" if none).
std::string_view PathOf(std::string_view url) {
  url = url.substr(0, FindAnyOf(url, "?#"));
  const size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return {};
  const size_t slash = url.find('/', scheme + 3);
  return slash == std::string_view::npos ? std::string_view() : url.substr(slash);
}

}  // namespace

TrapVerdict CheckTrap(const TrapRules& rules, std::string_view url, uint32_t depth) {
  if (!rules.enabled) return TrapVerdict::kKeep;
  if (depth > rules.max_hops) return TrapVerdict::kTooManyHops;
  std::string_view path = PathOf(url);
  uint32_t segments = 0;
  uint32_t run = 0;  // times the current segment followed itself
  std::string_view previous;
  bool first = true;
  while (!path.empty()) {
    path.remove_prefix(1);  // the '/'
    const size_t end = path.find('/');
    // Heritrix counts "x/" segments: a last segment without a slash (a
    // file name) counts for depth but not for repetition.
    const bool closed = end != std::string_view::npos;
    const std::string_view segment = path.substr(0, end);
    if (segment.empty() && !closed) break;
    if (++segments > rules.max_path_segments) return TrapVerdict::kTooManySegments;
    if (closed) {
      run = !first && segment == previous ? run + 1 : 0;
      if (run >= rules.max_repetitions) return TrapVerdict::kRepeatedSegment;
      previous = segment;
      first = false;
    }
    path = closed ? path.substr(end) : std::string_view();
  }
  return TrapVerdict::kKeep;
}

}  // namespace crawl::queueserver
