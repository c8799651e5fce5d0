// Crawl parameters by name, for `crawlctl set-param NAME VALUE` and the console: the value
// is parsed by the CrawlParams field's type (protobuf reflection), so every
// parameter, including ones added later, can be changed the same way.
#pragma once

#include <string>

#include "common/base/status.h"
#include "proto/crawl.pb.h"

namespace crawl {

// Sets field `name` of `params` from `value`: integers in decimal (range
// checked), booleans as true/false/1/0/yes/no/on/off, strings as given,
// repeated strings as a comma-separated list ("" clears it).
[[nodiscard]] Status SetParamFromText(v1::CrawlParams* params, const std::string& name,
                                      const std::string& value);

}  // namespace crawl
