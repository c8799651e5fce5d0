// One sitemap at a time (sitemap_gate.h).
#include "fetcher/sitemap_gate.h"

namespace crawl::fetcher {

std::shared_ptr<void> SitemapGate::Acquire() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [this] { return !busy_; });
  busy_ = true;
  lock.unlock();
  // The hold keeps the gate alive: a batch may outlive the lane's options.
  return std::shared_ptr<void>(this, [self = shared_from_this()](void*) { self->Release(); });
}

bool SitemapGate::busy() const {
  std::lock_guard lock(mu_);
  return busy_;
}

void SitemapGate::Release() {
  {
    std::lock_guard lock(mu_);
    busy_ = false;
  }
  cv_.notify_one();
}

}  // namespace crawl::fetcher
