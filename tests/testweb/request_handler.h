// From one HTTP request to its response, for the clean web: route by Host
// header (falling back to the host that owns the local address), serve
// /robots.txt and pages, 404 otherwise; GET and HEAD only; single byte
// ranges (byte_range.h). No sockets here, so tests can call it directly.
#pragma once

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "tests/testweb/universe.h"

namespace crawl::testweb {

using Request = boost::beast::http::request<boost::beast::http::string_body>;
using Response = boost::beast::http::response<boost::beast::http::string_body>;

struct Handled {
  Response response;
  std::string host;         // the host that answered, "" if none
  uint64_t body_bytes = 0;  // body bytes that will be sent (0 for HEAD)
};

// `fallback_host`: the host owning the address the request arrived on, used
// when the Host header names no host of `universe`.
// REQUIRES: fallback_host, if set, < universe.HostCount().
[[nodiscard]] Handled HandleRequest(const Universe& universe, const Request& request,
                                    std::optional<uint32_t> fallback_host);

}  // namespace crawl::testweb
