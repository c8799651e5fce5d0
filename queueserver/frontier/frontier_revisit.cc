// Frontier::Revisit (frontier.h): a recrawl's due page filed again.
#include "common/url/robots.h"
#include "queueserver/frontier/frontier.h"

namespace crawl::queueserver {

void Frontier::Revisit(FrontierEntry entry, int64_t now_ms) {
  ++activity_;
  entry.kind = UrlKind::kPage;
  entry.retries = 0;
  OriginEntry* found = OriginOfUrl(entry.url);
  if (found != nullptr && found->second.record.robots == RobotsState::kKnown &&
      !RobotsDue(found->second, now_ms) && robots::IsAllowedUrl(found->second.record.rules, entry.url)) {
    // Ahead of new pages: the share of due pages per schedule is bounded by
    // how many the shard re-enters (RecrawlScheduler::ReenterDue); Lease's origin
    // checks (one schedule per origin, crawl delay, back-off) still apply.
    Queue(QueueKind::kPages, std::move(entry), /*front=*/true);
    return;
  }
  Route(std::move(entry), now_ms);
}

}  // namespace crawl::queueserver
