// One sitemap at a time (sitemap_gate.h).
#include "fetcher/sitemap_gate.h"

namespace crawl::fetcher {

std::shared_ptr<void> SitemapGate::Acquire() {
  MutexLock lock(mu_);
  while (busy_) cv_.Wait(mu_);
  busy_ = true;
  lock.Unlock();
  // The hold keeps the gate alive: a batch may outlive the lane's options.
  return std::shared_ptr<void>(this, [self = shared_from_this()](void*) { self->Release(); });
}

bool SitemapGate::busy() const {
  MutexLock lock(mu_);
  return busy_;
}

void SitemapGate::Release() {
  {
    MutexLock lock(mu_);
    busy_ = false;
  }
  cv_.NotifyOne();
}

}  // namespace crawl::fetcher
