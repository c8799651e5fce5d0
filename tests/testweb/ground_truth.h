// The ground truth of a synthetic web (`testweb export --truth`): every URL
// Universe::Walk reaches, with its kind, its depth from the seeds and its
// PageRank over the walked graph (pagerank.h: damping 0.85, dangling mass
// spread uniformly, converged to 1e-9 in L1). Traps are cut as Walk cuts
// them (universe.h). One line per URL, tab-separated, in walk order:
//   URL  KIND  DEPTH  PAGERANK
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "tests/testweb/universe.h"

namespace crawl::testweb {

struct TruthRow {
  std::string url;
  std::string_view kind;
  uint32_t depth = 0;
  double pagerank = 0;
};

[[nodiscard]] std::vector<TruthRow> GroundTruth(const Universe& universe);

// "URL\tKIND\tDEPTH\tPAGERANK\n" per row; PageRank printed with 17
// significant digits.
void WriteTruth(const std::vector<TruthRow>& rows, std::ostream& out);

// Change model (`testweb export --at T --versions`): one line per page of
// the web at time t (Universe::ExportVersionsTo), tab-separated:
//   URL  STATUS  VERSION  ETAG  LAST_MODIFIED  DIGEST
// STATUS 200, 404 (not yet born, or gone) or 410 (gone); for 200, VERSION
// the page's version, ETag as served (quotes included), LAST_MODIFIED the
// whole seconds after the epoch (change_model.h) that Last-Modified shows,
// DIGEST ContentDigest of the body served at t; "-" for each otherwise.
void WriteVersions(const Universe& universe, double t, std::ostream& out);
[[nodiscard]] std::string FormatVersionRow(const VersionRow& row);

}  // namespace crawl::testweb
