// The structure order's imbWEM control parameters (CrawlParams 81-87) as
// the queue server applies them: checked and turned into
// queueserver/frontier/site_control.h options.
#pragma once

#include "common/base/status.h"
#include "proto/crawl.pb.h"
#include "queueserver/frontier/site_control.h"

namespace crawl::queueserver {

// InvalidArgument for a bad pattern, keyword or bound (the name server
// checks the same before a crawl starts).
[[nodiscard]] Result<SiteControlOptions> SiteControlFor(const v1::CrawlParams& params);

}  // namespace crawl::queueserver
