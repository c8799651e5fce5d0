// Tests for the hostile hosts of the synthetic web (tests/testweb/universe.h
// "Hostile hosts", universe_hostile.cc), their answers (request_handler.h),
// the never-ending streams of the server (server.cc) and the ground truth of
// the "hostile" preset.
#include <zlib.h>

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "common/url/robots.h"
#include "tests/testweb/ground_truth.h"
#include "tests/testweb/request_handler.h"
#include "tests/testweb/server.h"
#include "tests/testweb/universe.h"

namespace crawl::testweb {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using M = Misbehaviour;

Universe Make(uint64_t hosts = 20, uint64_t pages = 1000) {
  UniverseOptions o;
  o.seed = 3;
  o.hosts = hosts;
  o.pages = pages;
  o.preset = "hostile";
  REQUIRE(ApplyPreset(o).ok());
  auto u = Universe::Create(o);
  REQUIRE(u.ok());
  return std::move(u).value();
}

Request Get(const Universe& u, uint32_t host, const std::string& target) {
  Request req{http::verb::get, target, 11};
  req.set(http::field::host, u.HostName(host));
  req.set(http::field::accept_encoding, "identity");
  return req;
}

// The hostile special link of a host's root that starts with `prefix`.
std::string RootLink(const Universe& u, uint32_t host, std::string_view prefix) {
  for (const auto& l : u.Links(host, 0)) {
    if (l.special && l.href.starts_with(prefix)) return l.href;
  }
  return "";
}

constexpr M kHostile[] = {M::kSlowloris,     M::kEndlessBody, M::kGzipBomb, M::kHugeHeaders,
                          M::kRedirectChain, M::kLinkFlood,   M::kBadBytes, M::kHugeRobots};

TEST_CASE("the hostile preset: one hostile behaviour per host i%10==1..8 plus traps and nothing else",
          "[unit]") {
  const Universe u = Make();
  for (uint32_t h = 0; h < u.HostCount(); ++h) {
    int count = 0;
    for (size_t k = 0; k < std::size(kHostile); ++k) {
      const bool has = u.HostHas(h, kHostile[k]);
      CHECK(has == (h % 10 == k + 1));
      count += has ? 1 : 0;
    }
    CHECK(count <= 1);
    CHECK(u.HostHas(h, M::kTraps) == (h % 7 == 3));
    for (M m : {M::kRedirects, M::kErrors, M::kSlow, M::kGzip, M::kHttps, M::kLinkFarm, M::kHostNames})
      CHECK_FALSE(u.HostHas(h, m));
  }
  // The misbehaving preset has none of the hostile behaviours.
  UniverseOptions o;
  o.preset = "misbehaving";
  REQUIRE(ApplyPreset(o).ok());
  for (M m : kHostile) CHECK_FALSE(o.Has(m));
  CHECK(std::find(PresetNames().begin(), PresetNames().end(), "hostile") != PresetNames().end());
}

TEST_CASE("slowloris and endless-body URLs answer with never-ending streams", "[unit]") {
  const Universe u = Make();
  const std::string slow = RootLink(u, 1, "/slowloris/");
  const std::string endless = RootLink(u, 2, "/endless/");
  REQUIRE(!slow.empty());
  REQUIRE(!endless.empty());
  CHECK(HandleRequest(u, Get(u, 1, slow), std::nullopt).stream == Served::Stream::kSlowloris);
  CHECK(HandleRequest(u, Get(u, 2, endless), std::nullopt).stream == Served::Stream::kEndlessBody);
  // Only on their hosts; the hosts' pages are normal.
  CHECK(HandleRequest(u, Get(u, 2, slow), std::nullopt).response.result() == http::status::not_found);
  const Handled page = HandleRequest(u, Get(u, 1, u.PagePath(1, 1)), std::nullopt);
  CHECK(page.stream == Served::Stream::kNone);
  CHECK(page.response.result() == http::status::ok);
  // The endless chunk is valid chunked framing of HTML text without links.
  const std::string& chunk = EndlessChunk();
  CHECK(chunk.starts_with("10000\r\n"));
  CHECK(chunk.ends_with("\r\n"));
  CHECK(chunk.size() == kEndlessChunk + 9);
  CHECK(chunk.find("href") == std::string::npos);
}

TEST_CASE("the gzip bomb is a few MiB of gzip sent whatever the client accepts and inflates far past 1 MB",
          "[unit]") {
  const Universe u = Make();
  const std::string bomb = RootLink(u, 3, "/bomb/");
  REQUIRE(!bomb.empty());
  const Handled h = HandleRequest(u, Get(u, 3, bomb), std::nullopt);  // Accept-Encoding: identity
  REQUIRE(h.response.result() == http::status::ok);
  CHECK(h.response[http::field::content_encoding] == "gzip");
  const std::string& body = h.response.body();
  CHECK(body.size() < 5'000'000);
  CHECK(body.size() > 1'000'000);
  // Its first megabyte of wire bytes alone inflates to over 100 MB.
  z_stream z{};
  REQUIRE(inflateInit2(&z, 15 + 16) == Z_OK);
  std::string out(1 << 20, 'x');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
  z.avail_in = 1'000'000;
  uint64_t decoded = 0;
  int rc = Z_OK;
  while (rc == Z_OK && z.avail_in > 0) {
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    rc = inflate(&z, Z_NO_FLUSH);
    decoded += out.size() - z.avail_out;
    if (rc == Z_STREAM_END) {
      inflateReset(&z);
      rc = Z_OK;
    }
  }
  inflateEnd(&z);
  CHECK(decoded > 100'000'000);
  CHECK(out[0] == '\0');
}

TEST_CASE("huge-headers answers with over 1 MiB of header lines", "[unit]") {
  const Universe u = Make();
  const std::string target = RootLink(u, 4, "/huge-headers/");
  REQUIRE(!target.empty());
  const Handled h = HandleRequest(u, Get(u, 4, target), std::nullopt);
  CHECK(h.response.result() == http::status::ok);
  uint64_t header_bytes = 0;
  for (const auto& field : h.response) header_bytes += field.name_string().size() + field.value().size() + 4;
  CHECK(header_bytes >= kHugeHeaderBytes);
}

TEST_CASE("redirect-chain: a two-URL loop and a chain that never ends", "[unit]") {
  const Universe u = Make();
  const std::string origin = u.Origin(5);
  CHECK(RootLink(u, 5, "/rloop/0") == "/rloop/0");
  CHECK(RootLink(u, 5, "/chain/1") == "/chain/1");
  const Handled a = HandleRequest(u, Get(u, 5, "/rloop/0"), std::nullopt);
  const Handled b = HandleRequest(u, Get(u, 5, "/rloop/1"), std::nullopt);
  CHECK(a.response.result() == http::status::found);
  CHECK(a.response[http::field::location] == origin + "/rloop/1");
  CHECK(b.response[http::field::location] == origin + "/rloop/0");
  for (uint64_t n : {1ULL, 2ULL, 1000ULL, 123456789ULL}) {
    const Handled c = HandleRequest(u, Get(u, 5, "/chain/" + std::to_string(n)), std::nullopt);
    CHECK(c.response.result() == http::status::found);
    CHECK(c.response[http::field::location] == origin + "/chain/" + std::to_string(n + 1));
  }
  CHECK(HandleRequest(u, Get(u, 5, "/chain/0"), std::nullopt).response.result() == http::status::not_found);
}

TEST_CASE("link-flood: one page with 10000 distinct links to small pages", "[unit]") {
  const Universe u = Make();
  CHECK(RootLink(u, 6, "/flood") == "/flood.html");
  const Handled h = HandleRequest(u, Get(u, 6, "/flood.html"), std::nullopt);
  REQUIRE(h.response.result() == http::status::ok);
  std::set<std::string> hrefs;
  const std::string& body = h.response.body();
  for (size_t at = body.find("href=\""); at != std::string::npos; at = body.find("href=\"", at + 1)) {
    hrefs.insert(body.substr(at + 6, body.find('"', at + 6) - at - 6));
  }
  CHECK(hrefs.size() == kFloodLinks);
  CHECK(hrefs.count("/flood/9999.html") == 1);
  CHECK(HandleRequest(u, Get(u, 6, "/flood/9999.html"), std::nullopt).response.result() == http::status::ok);
  CHECK(HandleRequest(u, Get(u, 6, "/flood/10000.html"), std::nullopt).response.result() ==
        http::status::not_found);
}

TEST_CASE("bad-bytes pages carry NUL bytes and invalid UTF-8 and still link a normal page", "[unit]") {
  const Universe u = Make();
  const std::string target = RootLink(u, 7, "/bytes/");
  REQUIRE(!target.empty());
  const Handled h = HandleRequest(u, Get(u, 7, target), std::nullopt);
  REQUIRE(h.response.result() == http::status::ok);
  const std::string& body = h.response.body();
  CHECK(body.find('\0') != std::string::npos);
  CHECK(body.find("\xed\xa0\x80") != std::string::npos);  // a surrogate
  CHECK(body.find("\xc0\xaf") != std::string::npos);      // overlong
  CHECK(body.find("href=\"/bytes/\xff\xc0.html\"") != std::string::npos);
  const auto r = u.Resolve(7, target);
  CHECK(body.find("href=\"" + u.PagePath(7, r.page) + "\"") != std::string::npos);
}

TEST_CASE(
    "huge-robots: 10 MiB chunked where the first 500 KiB hold the host's rules and a full read shuts the "
    "host",
    "[unit][rfc9309]") {
  const Universe u = Make();
  const Served s = u.Serve(8, "/robots.txt");
  CHECK(s.status == 200);
  CHECK(s.chunked);
  CHECK(s.body.size() >= kHugeRobotsBytes);
  const auto within = robots::Parse(std::string_view(s.body).substr(0, robots::kMaxRobotsBodyBytes), "*");
  const auto everything = robots::Parse(s.body, "*");  // Parse itself stops at the limit
  const std::string page = u.PagePath(8, 1);
  REQUIRE(u.IsPageAllowed(8, 1));
  CHECK(within.IsAllowed(page));
  CHECK(everything.IsAllowed(page));
  // A parser without the limit would see the later "Disallow: /" group.
  const size_t shut = s.body.find("User-agent: *\nDisallow: /\n");
  REQUIRE(shut != std::string::npos);
  CHECK(shut >= robots::kMaxRobotsBodyBytes);
  CHECK_FALSE(robots::Parse(s.body.substr(shut), "*").IsAllowed(page));
  // The other hosts keep a small robots.txt.
  CHECK(u.RobotsTxt(0).size() < 1000);
}

TEST_CASE("the hostile ground truth: hostile URLs are kind hostile and hostile hosts' pages stay normal",
          "[unit]") {
  const Universe u = Make(30, 1500);
  std::map<std::string, std::string> kind;
  for (const auto& row : GroundTruth(u)) kind[row.url] = std::string(row.kind);
  for (uint32_t h = 1; h <= 8; ++h) {
    INFO("host " << h);
    const std::string root = u.PageUrl(h, 0);
    if (!kind.count(root)) continue;  // not reached from the seeds
    CHECK(kind[root] == "normal");
    for (const auto& l : u.Links(h, 0)) {
      if (!l.special || l.href.starts_with("/calendar") || l.href.starts_with("/deep")) continue;
      CHECK(kind[l.url] == "hostile");
    }
  }
  const std::string flood = u.Origin(6) + "/flood.html";
  if (kind.count(flood)) {
    CHECK(kind[u.Origin(6) + "/flood/0.html"] == "hostile");
    CHECK(kind[u.Origin(6) + "/flood/9999.html"] == "hostile");
  }
  const std::string chain = u.Origin(5) + "/chain/";
  if (kind.count(chain + "1")) {
    CHECK(kind.count(chain + std::to_string(kTrapDepth)) == 1);
    CHECK(kind.count(chain + std::to_string(kTrapDepth + 1)) == 0);  // cut like the traps
  }
  // The huge robots.txt host's pages are allowed (its first 500 KiB).
  CHECK(u.IsAllowed(u.PageUrl(8, 1)));
}

// The streams through a real server on loopback.
class HostileServer {
 public:
  HostileServer() : universe_(Make(10, 200)) {
    ServerOptions so;
    so.addresses.assign(universe_.HostCount(), "127.0.0.1");
    server_ = std::make_unique<Server>(universe_, so);
    status_ = server_->Start();
    if (status_.ok()) thread_ = std::thread([this] { server_->Run(); });
  }
  ~HostileServer() {
    server_->Stop();
    if (thread_.joinable()) thread_.join();
  }
  Universe universe_;
  std::unique_ptr<Server> server_;
  Status status_;
  std::thread thread_;
};

void Send(beast::tcp_stream& stream, const std::string& host, const std::string& target) {
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, host);
  http::write(stream, req);
}

TEST_CASE("the server sends an endless chunked body and a slowloris header byte by byte", "[unit][slow]") {
  HostileServer hs;
  REQUIRE(hs.status_.ok());
  const Universe& u = hs.universe_;
  asio::io_context ioc;
  {
    beast::tcp_stream stream(ioc);
    stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), hs.server_->port()));
    Send(stream, u.HostName(2), RootLink(u, 2, "/endless/"));
    http::response_parser<http::string_body> parser;
    parser.body_limit(3'000'000);
    beast::flat_buffer buffer;
    beast::error_code ec;
    http::read(stream, buffer, parser, ec);
    // More than 3 MB arrived and the body had not ended.
    CHECK(ec == http::error::body_limit);
    CHECK(parser.get().result() == http::status::ok);
    CHECK(parser.chunked());
  }
  {
    beast::tcp_stream stream(ioc);
    stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), hs.server_->port()));
    Send(stream, u.HostName(1), RootLink(u, 1, "/slowloris/"));
    std::string got;
    char byte[64];
    while (got.size() < kSlowlorisStatusLine.size() + 2) {
      const size_t n = stream.socket().read_some(asio::buffer(byte));
      got.append(byte, n);
      // After the status line, each read brings a single byte.
      if (got.size() > kSlowlorisStatusLine.size()) CHECK(n == 1);
    }
    CHECK(got == std::string(kSlowlorisStatusLine) + "X-");
  }
}

}  // namespace
}  // namespace crawl::testweb
