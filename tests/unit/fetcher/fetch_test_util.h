// Helpers the fetcher's HTTP/1.1 and HTTP/2 tests share: options for
// loopback servers, a sequence run to completion, and response bodies in
// chunked and compressed forms.
#pragma once

#include <zlib.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "fetcher/http/http_fetcher.h"

namespace crawl::fetcher::testing {

// A user agent, private addresses allowed (the test servers are on
// loopback), 2 s to connect and 5 s a request.
inline FetcherOptions TestOptions() {
  FetcherOptions options;
  options.user_agent = "crawl-test/1.0";
  options.allow_private = true;
  options.connect_timeout = std::chrono::milliseconds(2000);
  options.request_timeout = std::chrono::milliseconds(5000);
  return options;
}

// Runs one sequence to completion on a private io_context and checks what
// every sequence must give: it completes once, nothing stays in flight, and
// every URL gets exactly one result, in order.
inline std::vector<FetchResult> FetchTargets(const FetcherOptions& options,
                                             const std::vector<FetchTarget>& targets,
                                             std::chrono::milliseconds delay = std::chrono::milliseconds(0)) {
  boost::asio::io_context ioc;
  HttpFetcher fetcher(ioc, options);
  std::vector<FetchResult> results;
  int done = 0;
  fetcher.FetchSequence(
      targets, [&](FetchResult r) { results.push_back(std::move(r)); }, [&] { ++done; }, delay);
  ioc.run();
  CHECK(done == 1);
  CHECK(fetcher.active_sequences() == 0);
  CHECK(fetcher.requests_in_flight() == 0);
  REQUIRE(results.size() == targets.size());
  for (size_t i = 0; i < targets.size(); ++i) CHECK(results[i].url == targets[i].url);
  return results;
}

// The same for plain URLs (no validators).
inline std::vector<FetchResult> FetchAll(const FetcherOptions& options, const std::vector<std::string>& urls,
                                         std::chrono::milliseconds delay = std::chrono::milliseconds(0)) {
  std::vector<FetchTarget> targets;
  targets.reserve(urls.size());
  for (const std::string& url : urls) targets.push_back({url, "", ""});
  return FetchTargets(options, targets, delay);
}

// A port on 127.0.0.1 on which nothing listens.
inline uint16_t ClosedPort() {
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::acceptor acceptor(
      ioc, boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0));
  return acceptor.local_endpoint().port();
}

// A 200 answer with `body` in chunks of `chunk` bytes.
inline std::string ChunkedResponse(std::string_view body, size_t chunk, std::string_view extra_headers = "") {
  std::string out = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n" +
                    std::string(extra_headers) + "\r\n";
  for (size_t i = 0; i < body.size(); i += chunk) {
    std::string_view part = body.substr(i, chunk);
    char size[32];
    std::snprintf(size, sizeof size, "%zx\r\n", part.size());
    out += size;
    out += part;
    out += "\r\n";
  }
  return out + "0\r\n\r\n";
}

// deflate with zlib: window_bits 15+16 = gzip, 15 = zlib, -15 = raw.
inline std::string Compress(std::string_view in, int window_bits) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&zs, static_cast<uLong>(in.size())) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

}  // namespace crawl::fetcher::testing
