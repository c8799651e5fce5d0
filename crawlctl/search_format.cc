// crawlctl search output (search_format.h).
#include "crawlctl/search_format.h"

#include <cstdio>
#include <sstream>

#include "crawlctl/crawlctl_format.h"

namespace crawl::crawlctl {
namespace {

std::string Number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string Fixed(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

}  // namespace

std::string SearchJson(const v1::SearchResponse& response) {
  std::ostringstream o;
  o << "{\"crawl_id\":" << response.crawl_id() << ",\"matches\":" << response.matches()
    << ",\"documents\":" << response.documents() << ",\"timed_out\":" << (response.timed_out() ? "true" : "false")
    << ",\"errors\":[";
  for (int i = 0; i < response.errors_size(); ++i) o << (i ? "," : "") << JsonString(response.errors(i));
  o << "],\"results\":[";
  for (int i = 0; i < response.results_size(); ++i) {
    const v1::SearchResult& r = response.results(i);
    const v1::ScoreParts& s = r.score();
    o << (i ? "," : "") << "{\"url\":" << JsonString(r.url()) << ",\"title\":" << JsonString(r.title())
      << ",\"snippet\":" << JsonString(r.snippet()) << ",\"score\":" << Number(s.total())
      << ",\"doc_rank\":" << Number(s.doc_rank()) << ",\"bonus\":" << Number(s.bonus())
      << ",\"relevance\":" << Number(s.relevance()) << ",\"proximity\":" << Number(s.proximity())
      << ",\"link_only\":" << (r.link_only() ? "true" : "false")
      << ",\"queue_server\":" << JsonString(r.queue_server_id()) << "}";
  }
  o << "]}\n";
  return o.str();
}

std::string SearchText(const v1::SearchResponse& response, bool explain) {
  std::ostringstream o;
  if (response.results_size() == 0) o << "no results\n";
  for (int i = 0; i < response.results_size(); ++i) {
    const v1::SearchResult& r = response.results(i);
    o << i + 1 << ". " << (r.title().empty() ? r.url() : r.title()) << (r.link_only() ? "  (linked, not fetched)" : "")
      << "\n   " << r.url() << "\n";
    if (!r.snippet().empty()) o << "   " << r.snippet() << "\n";
    if (explain) {
      const v1::ScoreParts& s = r.score();
      o << "   score " << Fixed(s.total()) << " = doc rank " << Fixed(s.doc_rank()) << " + bonus "
        << Fixed(s.bonus()) << " + relevance " << Fixed(s.relevance()) << " + proximity " << Fixed(s.proximity())
        << "  [" << r.queue_server_id() << "]\n";
    }
  }
  for (const std::string& e : response.errors()) o << "warning: no answer from queue server " << e << "\n";
  if (response.timed_out()) o << "warning: the search stopped at its time limit; results may be incomplete\n";
  return o.str();
}

}  // namespace crawl::crawlctl
