// The response header fields a FetchResult keeps (content type, coding,
// validators, caching, Location, Retry-After, X-Robots-Tag, Link), read the same way for
// HTTP/1.1 (Beast's parser) and HTTP/2 (H2Exchange). Internal to the fetcher.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "fetcher/http/http_fetcher.h"

namespace crawl::fetcher {

// A field's value by lower-case name ("" when absent).
using FieldLookup = std::function<std::string_view(std::string_view name)>;

// Sets result.status and the header-derived fields of `result` from a final
// response with `status` (Retry-After only for 429 and 503, RFC 9110 10.2.3).
void ReadResponseFields(int status, const FieldLookup& field, FetchResult& result);

// Every value of a repeatable field, in order, by lower-case name.
using FieldValues = std::function<std::vector<std::string_view>(std::string_view name)>;

// Sets result.x_robots_tag and result.link from all their fields.
void ReadListFields(const FieldValues& values, FetchResult& result);

// A validator from another process goes into a request header only when
// it is non-empty, short (kMaxValidatorBytes) and free of control
// characters (no header injection, no request the server must refuse).
[[nodiscard]] bool SendableValidator(const std::string& value);

}  // namespace crawl::fetcher
