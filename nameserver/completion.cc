#include "nameserver/completion.h"

namespace crawl::nameserver {

std::string CompletionDetector::OnRound(const std::vector<v1::QueueServerStats>& round) {
  uint64_t pages = 0;
  bool idle = true;
  std::vector<uint64_t> activity;
  activity.reserve(round.size());
  for (const auto& s : round) {
    pages += s.pages_fetched();
    idle = idle && s.frontier_size() == 0 && s.leased_urls() == 0 && s.outstanding_schedules() == 0;
    activity.push_back(s.activity_counter());
  }
  if (max_pages_ > 0 && pages >= max_pages_) return "max pages";
  if (!idle) {
    idle_rounds_ = 0;
  } else if (idle_rounds_ > 0 && activity == last_activity_) {
    ++idle_rounds_;
  } else {
    idle_rounds_ = 1;
  }
  last_activity_ = std::move(activity);
  return idle_rounds_ >= 2 && !continuous_ ? "frontier exhausted" : "";
}

}  // namespace crawl::nameserver
