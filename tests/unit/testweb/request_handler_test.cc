// Tests for request routing and responses (tests/testweb/request_handler.h).
#include "tests/testweb/request_handler.h"

#include <catch2/catch.hpp>

namespace crawl::testweb {
namespace {

namespace http = boost::beast::http;

Universe Make() {
  UniverseOptions o;
  o.seed = 1;
  o.hosts = 3;
  o.pages = 60;
  auto u = Universe::Create(o);
  REQUIRE(u.ok());
  return std::move(u).value();
}

Request Get(const std::string& host, const std::string& target, http::verb verb = http::verb::get) {
  Request req{verb, target, 11};
  if (!host.empty()) req.set(http::field::host, host);
  return req;
}

TEST_CASE("pages are routed by the Host header, port and case ignored", "[unit]") {
  const Universe u = Make();
  const std::string path = u.PagePath(1, 3);
  const Handled h = HandleRequest(u, Get("WWW.Site1.test:8080", path), 0);
  CHECK(h.response.result() == http::status::ok);
  CHECK(h.host == "www.site1.test");
  CHECK(h.response.body() == u.RenderPageAt(1, 3));
  CHECK(h.response[http::field::content_type] == "text/html; charset=utf-8");
  CHECK(h.body_bytes == h.response.body().size());
}

TEST_CASE("an unknown Host header falls back to the host of the local address", "[unit]") {
  const Universe u = Make();
  const Handled h = HandleRequest(u, Get("example.com", "/"), 2);
  CHECK(h.response.result() == http::status::ok);
  CHECK(h.host == "www.site2.test");
  CHECK(h.response.body() == u.RenderPageAt(2, 0));
  const Handled none = HandleRequest(u, Get("example.com", "/"), std::nullopt);
  CHECK(none.response.result() == http::status::not_found);
}

TEST_CASE("robots.txt is text/plain and unknown paths are 404", "[unit]") {
  const Universe u = Make();
  const Handled robots = HandleRequest(u, Get("www.site0.test", "/robots.txt"), 0);
  CHECK(robots.response.result() == http::status::ok);
  CHECK(robots.response.body() == u.RobotsTxt(0));
  CHECK(robots.response[http::field::content_type].starts_with("text/plain"));
  CHECK(HandleRequest(u, Get("www.site0.test", "/nope.html"), 0).response.result() ==
        http::status::not_found);
  CHECK(HandleRequest(u, Get("www.site0.test", "/?x=1"), 0).response.result() == http::status::not_found);
}

TEST_CASE("HEAD has the GET headers and no body; other methods are 405", "[unit]") {
  const Universe u = Make();
  const Handled get = HandleRequest(u, Get("www.site0.test", "/"), 0);
  const Handled head = HandleRequest(u, Get("www.site0.test", "/", http::verb::head), 0);
  CHECK(head.response.result() == http::status::ok);
  CHECK(head.response.body().empty());
  CHECK(head.body_bytes == 0);
  CHECK(head.response[http::field::content_length] == std::to_string(get.response.body().size()));
  CHECK(HandleRequest(u, Get("www.site0.test", "/", http::verb::post), 0).response.result() ==
        http::status::method_not_allowed);
}

TEST_CASE("a short byte range gets 206 with Content-Range, a long one 200", "[unit]") {
  const Universe u = Make();
  const std::string full = u.RenderPageAt(0, 0);
  Request req = Get("www.site0.test", "/");
  req.set(http::field::range, "bytes=0-99");
  const Handled part = HandleRequest(u, req, 0);
  CHECK(part.response.result() == http::status::partial_content);
  CHECK(part.response.body() == full.substr(0, 100));
  CHECK(part.response[http::field::content_range] == "bytes 0-99/" + std::to_string(full.size()));
  req.set(http::field::range, "bytes=0-" + std::to_string(full.size() + 10));
  const Handled whole = HandleRequest(u, req, 0);
  CHECK(whole.response.result() == http::status::ok);
  CHECK(whole.response.body() == full);
}

TEST_CASE("keep-alive follows the request", "[unit]") {
  const Universe u = Make();
  Request req = Get("www.site0.test", "/");
  CHECK(HandleRequest(u, req, 0).response.keep_alive());
  req.keep_alive(false);
  CHECK_FALSE(HandleRequest(u, req, 0).response.keep_alive());
}

TEST_CASE("robots control: PUT replaces a host's robots.txt, DELETE restores it, others keep theirs",
          "[unit]") {
  const Universe u = Make();
  RobotsControl control;
  // Without a control the path is an ordinary (missing) page.
  Request put = Get("www.site1.test", std::string(kRobotsControlPath), http::verb::put);
  put.body() = "User-agent: *\nDisallow: /\n";
  CHECK(HandleRequest(u, put, 0).response.result() == http::status::method_not_allowed);
  CHECK(HandleRequest(u, Get("www.site1.test", "/robots.txt"), 0).response.body() == u.RobotsTxt(1));

  const Handled set = HandleRequest(u, put, 0, false, nullptr, &control);
  CHECK(set.response.result() == http::status::ok);
  CHECK(set.admin);
  const Handled served = HandleRequest(u, Get("www.site1.test", "/robots.txt"), 0, false, nullptr, &control);
  CHECK(served.response.result() == http::status::ok);
  CHECK(served.response.body() == "User-agent: *\nDisallow: /\n");
  CHECK(served.response[http::field::content_type].starts_with("text/plain"));
  CHECK_FALSE(served.admin);
  CHECK(HandleRequest(u, Get("www.site1.test", std::string(kRobotsControlPath)), 0, false, nullptr, &control)
            .response.body() == "User-agent: *\nDisallow: /\n");
  CHECK(HandleRequest(u, Get("www.site2.test", "/robots.txt"), 0, false, nullptr, &control).response.body() ==
        u.RobotsTxt(2));

  const Handled restored =
      HandleRequest(u, Get("www.site1.test", std::string(kRobotsControlPath), http::verb::delete_), 0, false,
                    nullptr, &control);
  CHECK(restored.response.result() == http::status::ok);
  CHECK(HandleRequest(u, Get("www.site1.test", "/robots.txt"), 0, false, nullptr, &control).response.body() ==
        u.RobotsTxt(1));
  CHECK(HandleRequest(u, Get("www.site1.test", std::string(kRobotsControlPath), http::verb::post), 0, false,
                      nullptr, &control)
            .response.result() == http::status::method_not_allowed);
}

}  // namespace
}  // namespace crawl::testweb
