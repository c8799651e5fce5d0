// crawlctl search output (crawlctl/search_format.h).
#include "crawlctl/search_format.h"

#include <catch2/catch.hpp>

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
  r->mutable_score()->set_proximity(0.125);
  r->mutable_score()->set_total(1.875);
  const std::string json = SearchJson(resp);
  CHECK(json.find("\"results\":[{\"url\":\"http://x/\\\"q\\\"\"") != std::string::npos);
  CHECK(json.find("\"snippet\":\"a snippet\"") != std::string::npos);
  CHECK(json.find("\"score\":1.875") != std::string::npos);
  CHECK(json.find("\"doc_rank\":1.5") != std::string::npos);
  CHECK(json.find("\"proximity\":0.125") != std::string::npos);
  const std::string text = SearchText(resp, true);
  CHECK(text.find("score 1.875 = doc rank 1.500 + bonus 0.000 + relevance 0.250 + proximity 0.125") !=
        std::string::npos);
  CHECK(SearchText(v1::SearchResponse(), false) == "no results\n");
}
