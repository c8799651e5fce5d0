// One sitemap at a time per fetcher, from its parse until its links are
// shipped. A sitemap may hold up to kMaxSitemapUrlTextBytes of URLs as links
// (sitemap_processor.h), far more than any page; the gate keeps a fetcher's
// lanes from holding several such sets at once (parsed on the sitemap
// thread while earlier ones wait to ship), so a fetcher's memory is about
// one sitemap's links plus its serialized request, whatever the number of
// sitemaps it downloads.
//
// Deadlock freedom: only the sitemap thread (WorkerOptions::sitemap_pool)
// waits in Acquire; the hold travels with the links (ProcessedPage.hold ->
// ResultBatch.holds), the lane ships such a batch at once, and the shipping
// thread lets go of it, neither of them ever waiting on the gate.
// Thread-safe.
#pragma once

#include <memory>

#include "common/base/mutex.h"

namespace crawl::fetcher {

class SitemapGate : public std::enable_shared_from_this<SitemapGate> {
 public:
  // Blocks until no other hold is alive; the gate stays closed until the
  // returned hold (and every copy of it) is destroyed.
  // REQUIRES: the gate is owned by a shared_ptr.
  [[nodiscard]] std::shared_ptr<void> Acquire();
  [[nodiscard]] bool busy() const;

 private:
  void Release();

  mutable Mutex mu_;
  CondVar cv_;
  bool busy_ GUARDED_BY(mu_) = false;
};

}  // namespace crawl::fetcher
