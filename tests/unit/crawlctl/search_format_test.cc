// crawlctl search output (crawlctl/search_format.h).
#include "crawlctl/search_format.h"

#include <boost/json.hpp>
#include <catch2/catch.hpp>
#include <limits>

using namespace crawl::crawlctl;
namespace v1 = crawl::v1;

namespace {
v1::SearchResult R(const std::string& url, uint64_t url_hash, uint64_t text_hash, double rank, double rel) {
  v1::SearchResult r;
  r.set_url(url);
  r.set_title("T " + url);
  r.set_url_hash(url_hash);
  r.set_text_hash(text_hash);
  r.mutable_score()->set_doc_rank(rank);
  r.mutable_score()->set_relevance(rel);
  r.mutable_score()->set_total(rank + rel);
  return r;
}
}  // namespace

TEST_CASE("search JSON has a results array with url, title, snippet, score and parts", "[unit]") {
  v1::SearchResponse resp;
  resp.set_crawl_id(5);
  v1::SearchResult* r = resp.add_results();
  *r = R("http://x/\"q\"", 1, 2, 1.5, 0.25);
  r->set_snippet("a snippet");
  r->set_language("ja");
  r->mutable_score()->set_proximity(0.125);
  r->mutable_score()->set_total(1.875);
  const std::string json = SearchJson(resp);
  CHECK(json.find("\"results\":[{\"url\":\"http://x/\\\"q\\\"\"") != std::string::npos);
  CHECK(json.find("\"snippet\":\"a snippet\"") != std::string::npos);
  const boost::json::value parsed = boost::json::parse(json);
  const auto& result = parsed.at("results").at(0).as_object();
  CHECK(result.at("score").as_double() == 1.875);
  CHECK(result.at("language").as_string() == "ja");
  CHECK(result.at("doc_rank").as_double() == 1.5);
  CHECK(result.at("proximity").as_double() == 0.125);
  CHECK(result.at("relevance").as_double() == 0.25);
  const std::string text = SearchText(resp, true);
  CHECK(text.find("score 1.875 = doc rank 1.500 + bonus 0.000 + relevance 0.250 + proximity 0.125") !=
        std::string::npos);
  CHECK(SearchText(v1::SearchResponse(), false) == "no results\n");
}

TEST_CASE("search JSON stays valid for quotes, control bytes, bad UTF-8 and non-finite scores", "[unit]") {
  v1::SearchResponse resp;
  resp.add_errors("qs\"1\"\n");
  v1::SearchResult* r = resp.add_results();
  *r = R("http://x/\\\x01", 1, 2, std::numeric_limits<double>::quiet_NaN(), 0.1234567);
  r->set_title("bad \xc3");
  r->mutable_score()->set_total(std::numeric_limits<double>::infinity());
  const std::string json = SearchJson(resp);
  CHECK(json.find("NaN") == std::string::npos);
  CHECK(json.find("nan") == std::string::npos);
  CHECK(json.find("Infinity") == std::string::npos);
  boost::json::error_code ec;
  const boost::json::value v = boost::json::parse(json, ec);  // strict: valid UTF-8, finite numbers
  REQUIRE_FALSE(ec);
  CHECK(v.at("errors").at(0).as_string() == "qs\"1\"\n");
  const auto& result = v.at("results").at(0).as_object();
  CHECK(result.at("url").as_string() == "http://x/\\\x01");
  CHECK(result.at("title").as_string() == "bad \xef\xbf\xbd");
  CHECK(result.at("score").is_null());  // non-finite numbers are null
  CHECK(result.at("doc_rank").is_null());
  CHECK(result.at("relevance").as_double() == 0.123457);  // six significant digits, as before
}

TEST_CASE("search output shows hreflang alternates and a copy shown as its canonical", "[unit][directives]") {
  v1::SearchResponse resp;
  v1::SearchResult* r = resp.add_results();
  *r = R("http://x/main", 1, 2, 1.0, 0.0);
  r->set_canonical_url("http://x/main");
  v1::HreflangAlternate* de = r->add_alternates();
  de->set_language("de");
  de->set_url("http://x/de");
  const boost::json::value parsed = boost::json::parse(SearchJson(resp));
  const auto& result = parsed.at("results").at(0).as_object();
  CHECK(result.at("canonical_url").as_string() == "http://x/main");
  CHECK(result.at("alternates").at(0).at("hreflang").as_string() == "de");
  CHECK(result.at("alternates").at(0).at("url").as_string() == "http://x/de");
  const std::string text = SearchText(resp, false);
  CHECK(text.find("   alternates: de http://x/de\n") != std::string::npos);
  CHECK(text.find("names it as canonical") != std::string::npos);
}
