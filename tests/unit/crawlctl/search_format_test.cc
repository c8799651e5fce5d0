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

TEST_CASE("search says how many similar pages a result stands for, in text and JSON", "[neardup]") {
  v1::SearchResponse resp;
  v1::SearchResult* r = resp.add_results();
  *r = R("http://x/", 1, 2, 1.5, 0.25);
  r->set_similar_pages(3);
  r->set_near_duplicate_cluster(0xabcULL);
  *resp.add_results() = R("http://y/", 3, 4, 1.0, 0.25);
  const std::string text = SearchText(resp, false);
  CHECK(text.find("3 similar pages") != std::string::npos);
  CHECK(text.find("similar page") == text.rfind("similar page"));  // only the first result
  const auto json = boost::json::parse(SearchJson(resp));
  CHECK(json.at("results").at(0).at("similar_pages").to_number<int64_t>() == 3);
  CHECK(json.at("results").at(0).at("near_duplicate_cluster").as_string() == "0000000000000abc");
  CHECK(json.at("results").at(1).at("similar_pages").to_number<int64_t>() == 0);
}

TEST_CASE("near-duplicates lists clusters largest first, in text and JSON", "[neardup]") {
  v1::NearDuplicateClustersResponse resp;
  auto* c = resp.add_clusters();
  c->set_cluster(0x10);
  c->set_url("http://first/");
  c->set_pages(3);
  c->add_sample_urls("http://copy/");
  resp.add_errors("qs1: down");
  const std::string text = NearDuplicatesText(resp);
  CHECK(text.find("1. 3 pages like http://first/\n   http://copy/\n") != std::string::npos);
  CHECK(text.find("warning: no answer from queue server qs1: down") != std::string::npos);
  const auto json = boost::json::parse(NearDuplicatesJson(resp));
  CHECK(json.at("clusters").at(0).at("pages").to_number<int64_t>() == 3);
  CHECK(json.at("clusters").at(0).at("url").as_string() == "http://first/");
  CHECK(json.at("clusters").at(0).at("sample_urls").at(0).as_string() == "http://copy/");
  CHECK(NearDuplicatesText(v1::NearDuplicateClustersResponse()) == "no near-duplicate clusters\n");
}
