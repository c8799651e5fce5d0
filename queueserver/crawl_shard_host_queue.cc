// CrawlShard::HostQueue and HostOfRequest (crawl_shard.h): one host's queue
// for the console's host page (proto QueueServer.HostQueue), read through
// Frontier::QueueOfHost.
#include <algorithm>
#include <string>
#include <string_view>

#include "common/url/url.h"
#include "queueserver/crawl_shard.h"

namespace crawl::queueserver {

Result<std::string> HostOfRequest(std::string_view host) {
  if (host.empty()) return Status::InvalidArgument("host missing: name one as in URLs (www.example.com)");
  const auto refuse = [host] {
    return Status::InvalidArgument("not a host name: \"" + std::string(host.substr(0, 300)) +
                                   "\" (a host as in URLs, without scheme, port or path: www.example.com)");
  };
  // Characters that would make "http://" + host + "/" another URL (a path,
  // a port, userinfo) or that no host name has.
  if (host.size() > 255 || host.find_first_of("/?#@\\%") != std::string_view::npos) return refuse();
  if (std::any_of(host.begin(), host.end(), [](char c) { return static_cast<unsigned char>(c) <= ' '; }))
    return refuse();
  if (host.find(':') != std::string_view::npos && host.front() != '[') return refuse();  // a port
  auto parts = url::Split("http://" + std::string(host) + "/");
  if (!parts.ok() || parts->host.empty() || parts->port != 80) return refuse();
  return parts->host;
}

Status CrawlShard::HostQueue(const std::string& host, const v1::HostQueueRequest& req,
                             v1::HostQueueResponse* resp) const {
  // The scan reads the store as committed: a change not yet committed
  // would be missed. Every request commits (or is discarded) before it
  // answers, so there is none between requests.
  if (writer_ && writer_->pending() > 0)
    return Status::Internal("crawl " + std::to_string(crawl_id()) + " has uncommitted changes");
  const uint64_t max_scan =
      req.max_scan() == 0 ? kDefaultHostQueueScan : std::min(req.max_scan(), kMaxHostQueueScan);
  const size_t sample = std::min(req.sample_urls(), kMaxHostQueueSample);
  auto counts = frontier_.QueueOfHost(host, max_scan, sample);
  if (!counts.ok()) return counts.status();
  for (const auto& [tier, urls] : counts->tiers) {
    v1::HostQueueResponse::TierCount* t = resp->add_tiers();
    t->set_tier(tier);
    t->set_urls(urls);
  }
  resp->set_waiting_for_robots(counts->waiting_for_robots);
  resp->set_urls_added(counts->urls_added);
  resp->set_over_host_cap(counts->over_host_cap);
  resp->set_leased(counts->leased);
  resp->set_scanned(counts->scanned);
  resp->set_truncated(counts->truncated);
  for (std::string& u : counts->sample) resp->add_sample_urls(std::move(u));
  return Status::Ok();
}

}  // namespace crawl::queueserver
