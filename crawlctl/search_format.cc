// crawlctl search output (search_format.h).
#include "crawlctl/search_format.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "common/base/json.h"
#include "crawlctl/crawlctl_format.h"

namespace crawl::crawlctl {
namespace {

// A score part to six significant digits, as printf's "%.6g" rounds; null
// when not finite (common/base/json.h).
boost::json::value Score(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return JsonNumber(std::strtod(buf, nullptr));
}

}  // namespace

std::string ClusterHex(uint64_t cluster) {
  if (cluster == 0) return "";
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(cluster));
  return buf;
}

namespace {

std::string Fixed(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

}  // namespace

std::string SearchJson(const v1::SearchResponse& response) {
  boost::json::array errors;
  for (const std::string& e : response.errors()) errors.push_back(JsonText(e));
  boost::json::array results;
  for (const v1::SearchResult& r : response.results()) {
    const v1::ScoreParts& s = r.score();
    boost::json::array alternates;
    for (const v1::HreflangAlternate& a : r.alternates())
      alternates.push_back(
          boost::json::object{{"hreflang", JsonText(a.language())}, {"url", JsonText(a.url())}});
    results.push_back(
        boost::json::object{{"url", JsonText(r.url())},
                            {"title", JsonText(r.title())},
                            {"snippet", JsonText(r.snippet())},
                            {"language", JsonText(r.language())},
                            {"score", Score(s.total())},
                            {"doc_rank", Score(s.doc_rank())},
                            {"bonus", Score(s.bonus())},
                            {"relevance", Score(s.relevance())},
                            {"proximity", Score(s.proximity())},
                            {"link_only", r.link_only()},
                            {"similar_pages", r.similar_pages()},
                            {"near_duplicate_cluster", JsonText(ClusterHex(r.near_duplicate_cluster()))},
                            {"queue_server", JsonText(r.queue_server_id())},
                            {"canonical_url", JsonText(r.canonical_url())},
                            {"alternates", std::move(alternates)}});
  }
  return JsonLine(boost::json::object{{"crawl_id", response.crawl_id()},
                                      {"matches", response.matches()},
                                      {"documents", response.documents()},
                                      {"timed_out", response.timed_out()},
                                      {"errors", std::move(errors)},
                                      {"results", std::move(results)}});
}

std::string SearchText(const v1::SearchResponse& response, bool explain) {
  std::ostringstream o;
  if (response.results_size() == 0) o << "no results\n";
  for (int i = 0; i < response.results_size(); ++i) {
    const v1::SearchResult& r = response.results(i);
    o << i + 1 << ". " << (r.title().empty() ? r.url() : r.title())
      << (r.link_only() ? "  (linked, not fetched)" : "") << "\n   " << r.url() << "\n";
    if (!r.snippet().empty()) o << "   " << r.snippet() << "\n";
    if (!r.canonical_url().empty()) o << "   (shown for a copy that names it as canonical)\n";
    if (r.alternates_size() > 0) {
      o << "   alternates:";
      for (const v1::HreflangAlternate& a : r.alternates()) o << " " << a.language() << " " << a.url();
      o << "\n";
    }
    if (r.similar_pages() > 0)
      o << "   " << r.similar_pages() << (r.similar_pages() == 1 ? " similar page" : " similar pages")
        << "\n";
    if (explain) {
      const v1::ScoreParts& s = r.score();
      o << "   score " << Fixed(s.total()) << " = doc rank " << Fixed(s.doc_rank()) << " + bonus "
        << Fixed(s.bonus()) << " + relevance " << Fixed(s.relevance()) << " + proximity "
        << Fixed(s.proximity()) << "  [" << r.queue_server_id() << "]\n";
    }
  }
  for (const std::string& e : response.errors()) o << "warning: no answer from queue server " << e << "\n";
  if (response.timed_out()) o << "warning: the search stopped at its time limit; results may be incomplete\n";
  return o.str();
}

std::string NearDuplicatesJson(const v1::NearDuplicateClustersResponse& response) {
  boost::json::array errors;
  for (const std::string& e : response.errors()) errors.push_back(JsonText(e));
  boost::json::array clusters;
  for (const v1::NearDuplicateCluster& c : response.clusters()) {
    boost::json::array samples;
    for (const std::string& u : c.sample_urls()) samples.push_back(JsonText(u));
    clusters.push_back(boost::json::object{{"cluster", JsonText(ClusterHex(c.cluster()))},
                                           {"url", JsonText(c.url())},
                                           {"pages", c.pages()},
                                           {"sample_urls", std::move(samples)}});
  }
  return JsonLine(boost::json::object{{"errors", std::move(errors)}, {"clusters", std::move(clusters)}});
}

std::string NearDuplicatesText(const v1::NearDuplicateClustersResponse& response) {
  std::ostringstream o;
  if (response.clusters_size() == 0) o << "no near-duplicate clusters\n";
  for (int i = 0; i < response.clusters_size(); ++i) {
    const v1::NearDuplicateCluster& c = response.clusters(i);
    o << i + 1 << ". " << c.pages() << " pages like " << c.url() << "\n";
    for (const std::string& u : c.sample_urls()) o << "   " << u << "\n";
  }
  for (const std::string& e : response.errors()) o << "warning: no answer from queue server " << e << "\n";
  return o.str();
}

}  // namespace crawl::crawlctl
