// The testweb server's HTTP/2 side: a cleartext connection that opens with
// the HTTP/2 connection preface (prior knowledge, RFC 9113 3.3) is served
// by libnghttp2's server session, each stream answered by the same
// HandleRequest as HTTP/1.1 and logged to the same access log with its
// connection number, so check-politeness counts h2 connections as it
// counts HTTP/1.1 ones. Behaviours that are byte-level in HTTP/1.1 map to
// their nearest h2 form: a first-byte delay or a trickle delays the whole
// answer by the same total time, an endless body is endless DATA, a
// slowloris header is a stream that never answers, a dropped connection
// drops the connection.
#pragma once

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <memory>
#include <string_view>

#include "tests/testweb/server_context.h"

namespace crawl::testweb {

// "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" (RFC 9113 3.4).
inline constexpr std::string_view kH2Preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

// Serves `stream` as h2c; `buffer` holds the bytes already read (the
// preface's start). Owns itself through its pending handlers.
void ServeH2(boost::beast::tcp_stream&& stream, boost::beast::flat_buffer&& buffer,
             std::shared_ptr<const ServerContext> context);

}  // namespace crawl::testweb
