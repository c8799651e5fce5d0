// The hostile preset's sitemap bombs and long links (tests/testweb/
// sitemap_bomb.h, universe.h "Hostile hosts"): past the sitemaps.org limits
// and common/url/url.h kMaxUrlBytes, as the crawler's bounds need them.
#include "tests/testweb/sitemap_bomb.h"

#include <zlib.h>

#include <boost/beast/http.hpp>
#include <catch2/catch.hpp>

#include "tests/testweb/request_handler.h"
#include "tests/testweb/universe.h"

namespace crawl::testweb {
namespace {

namespace http = boost::beast::http;

Universe Make() {
  UniverseOptions o;
  o.seed = 3;
  o.hosts = 20;
  o.pages = 100;
  o.preset = "hostile";
  REQUIRE(ApplyPreset(o).ok());
  auto u = Universe::Create(o);
  REQUIRE(u.ok());
  return std::move(u).value();
}

std::string Body(const Universe& u, uint32_t host, const std::string& target) {
  Request req{http::verb::get, target, 11};
  req.set(http::field::host, u.HostName(host));
  req.set(http::field::accept_encoding, "identity");
  const Handled h = HandleRequest(u, req, std::nullopt);
  REQUIRE(h.response.result() == http::status::ok);
  return h.response.body();
}

std::string Gunzip(const std::string& gz) {
  z_stream zs{};
  REQUIRE(inflateInit2(&zs, 15 + 16) == Z_OK);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  zs.avail_in = static_cast<uInt>(gz.size());
  std::string out;
  char buf[1 << 16];
  int rc = Z_OK;
  while (rc == Z_OK) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
  }
  inflateEnd(&zs);
  CHECK(rc == Z_STREAM_END);
  return out;
}

size_t Count(const std::string& s, std::string_view what) {
  size_t n = 0;
  for (size_t i = s.find(what); i != std::string::npos; i = s.find(what, i + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("hostile preset: host i%10==9 serves a sitemap index of bombs, i%10==0 a page of long links",
          "[unit]") {
  const Universe u = Make();
  CHECK(u.HostHas(9, Misbehaviour::kSitemapBomb));
  CHECK_FALSE(u.HostHas(8, Misbehaviour::kSitemapBomb));
  CHECK(u.HostHas(10, Misbehaviour::kLongLinks));
  const std::string index = Body(u, 9, "/bomb-sitemaps/index.xml");
  CHECK(index.find("<sitemapindex") != std::string::npos);
  CHECK(Count(index, "<loc>") == kBombSitemaps + 2);
  CHECK(Body(u, 9, "/robots.txt").find("Disallow: /bomb-items/") != std::string::npos);
  const std::string page = Body(u, 10, "/long-links.html");
  CHECK(Count(page, "href=\"") == kLongUrls + 1);
  CHECK(page.find(LongUrl(u.Origin(10), 0)) != std::string::npos);
  CHECK(LongUrl(u.Origin(10), 0).size() == kLongUrlBytes);
}

TEST_CASE("a big bomb sitemap lists 50,500 URLs of 1,000 bytes; the inflate bomb inflates past 50 MB",
          "[unit][slow]") {
  const Universe u = Make();
  const std::string gz = Body(u, 9, "/bomb-sitemaps/big-1.xml.gz");
  CHECK(gz.size() < 2'000'000);
  const std::string xml = Gunzip(gz);
  CHECK(Count(xml, "<loc>") == kBombSitemapUrls);
  CHECK(xml.size() > 50'000'000);
  const std::string inflated = Gunzip(Body(u, 9, "/bomb-sitemaps/inflate.xml.gz"));
  CHECK(inflated.size() > (50ULL << 20));
  CHECK(Count(Body(u, 9, "/bomb-sitemaps/long.xml"), "<loc>") == kLongUrls + 1);
}

}  // namespace crawl::testweb
