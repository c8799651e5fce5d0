// From one HTTP request to its response: route by Host header (falling back
// to the host that owns the local address), answer what Universe::Serve says
// (/robots.txt, pages, and in a misbehaving web redirects, errors, files,
// traps...), 404 otherwise; GET and HEAD only; single byte ranges
// (byte_range.h) on 200 answers that are neither gzipped nor chunked.
// Transport misbehaviours are returned for the server to apply: close
// without answering, a delayed first byte, a trickled body. No sockets here,
// so tests can call it directly.
#pragma once

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tests/testweb/change_clock.h"
#include "tests/testweb/robots_control.h"
#include "tests/testweb/universe.h"

namespace crawl::testweb {

using Request = boost::beast::http::request<boost::beast::http::string_body>;
using Response = boost::beast::http::response<boost::beast::http::string_body>;

struct Handled {
  Response response;
  std::string host;                               // the host that answered, "" if none
  uint64_t body_bytes = 0;                        // body bytes that will be sent (0 for HEAD)
  bool close = false;                             // close the connection without any answer
  std::chrono::milliseconds first_byte_delay{0};  // wait before the first byte
  int trickle_pieces = 0;                         // > 1: send in this many pieces
  std::chrono::milliseconds trickle_interval{0};  //   with this pause between them
  // Hostile hosts: instead of `response`, the server sends an answer that
  // never ends (Served::Stream; GET only).
  Served::Stream stream = Served::Stream::kNone;
  bool admin = false;  // a /_testweb/ request (the change model's clock): not a crawl request
};

// Change model (universe.h "Change model"; off: none of this happens).
// Pages carry ETag and Last-Modified, and a GET/HEAD whose If-None-Match
// matches (or, without If-None-Match, whose If-Modified-Since is at or
// after Last-Modified) answers 304 with the ETag and no body
// (conditional.h). The clock, on every host: GET kClockPath answers the
// time ("t=SECONDS\n"); with a logical clock POST kClockPath?t=SECONDS sets
// it (400 on a bad or negative value, 409 with a real clock).
inline constexpr std::string_view kClockPath = "/_testweb/clock";

// The slowloris answer: the status line, then these bytes one at a time,
// cyclically, kSlowlorisInterval apart, forever.
inline constexpr std::string_view kSlowlorisStatusLine = "HTTP/1.1 200 OK\r\n";
inline constexpr std::string_view kSlowlorisCycle = "X-Slowloris: still thinking\r\n";
inline constexpr std::chrono::milliseconds kSlowlorisInterval{2000};
// The endless body: this header, then chunks of kEndlessChunk text, forever.
inline constexpr std::string_view kEndlessHeader =
    "HTTP/1.1 200 OK\r\nServer: testweb\r\nContent-Type: text/html; charset=utf-8\r\n"
    "Transfer-Encoding: chunked\r\n\r\n";
inline constexpr size_t kEndlessChunk = 64 * 1024;
// One chunk of the endless body (chunk framing included): HTML text, no links.
[[nodiscard]] const std::string& EndlessChunk();

// `fallback_host`: the host owning the address the request arrived on, used
// when the Host header names no host of `universe`. `tls`: the request came
// over TLS; a plain request for an https host answers 301 to its https URL.
// `clock`: the change model's time (null: t = 0); not owned. `robots`:
// robots.txt replaced by a test (robots_control.h; null: no control path).
// REQUIRES: fallback_host, if set, < universe.HostCount().
[[nodiscard]] Handled HandleRequest(const Universe& universe, const Request& request,
                                    std::optional<uint32_t> fallback_host, bool tls = false,
                                    ChangeClock* clock = nullptr, RobotsControl* robots = nullptr);

}  // namespace crawl::testweb
