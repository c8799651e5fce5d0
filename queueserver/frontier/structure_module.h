// imbWEM's structure module (docs/DESIGN.md §5.4): a frontier layer module
// with the layers Primary, Secondary and Reserve whose active layer rule
// distributes targets by link-path trees, and the structure-rank ranking
// rule. Plain classes on top of queueserver/frontier/site_frontier.h.
//
// Link-path trees. A URL's path is split at '/'; its folders are nodes keyed
// "/", "/a/", "/a/b/". A target is a leaf of one node: a target with a file
// name (the minor segment after the last '/', "/a/b/c.html" or "/a/b/c") is
// a leaf of its folder ("/a/b/"); a target with no minor segment ("/a/b/")
// is a leaf of the node of its full path ("/a/b/"). The query does not make
// nodes. A node's score counts the unique targets walked
// through it (the leaves of its subtree); the root counts all.
//
// Per iteration of one site:
//   GT  the tree of the module's input targets;
//   GC  the tree of the URLs crawled so far; a node's score starts at 2 when
//       the first crawled URL walks through it and grows by 1 with each
//       further one (so it is 1 + crawled URLs under it, never 1 or 0);
//   GB  a bonus per node, kept for the whole crawl of the host;
//   GD  GT with each node's score divided by the matching GC score (when GC
//       has the node) plus the matching GB score (when GB has it); GD = GT
//       when GC is empty.
// From the top GD node (highest score; ties: the shallower node, then the
// smaller key): its leaves go to Primary, the leaves of its children (GT
// nodes whose parent it is) to Secondary, every other target to Reserve. If
// the top node has no leaves but has children, its GD score is spread
// equally to the children in GB (each gets score / children) and subtracted
// from itself in GB. Structure rank (an active ranking rule): a target's
// score is the GD score of its node.
//
// GC and GB persist (the crawl order writes every change to the queue
// server's RocksDB, queueserver/frontier/structure_order.h); GT and GD live for one
// iteration.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "queueserver/frontier/site_frontier.h"

namespace crawl::queueserver {

// Link-path helpers.
// The node a URL is a leaf of ("/" for a URL without a path).
[[nodiscard]] std::string LeafNodeOf(std::string_view url);
// The nodes from the root down to `node`: "/", "/a/", "/a/b/".
[[nodiscard]] std::vector<std::string> NodePath(const std::string& node);
// The parent of a node ("" for the root).
[[nodiscard]] std::string ParentNode(const std::string& node);
// Depth of a node: 0 for "/".
[[nodiscard]] size_t NodeDepth(const std::string& node);

// One change to a persisted graph.
struct GraphChange {
  char graph = 'C';  // 'C': GC, 'B': GB
  std::string node;
  double value = 0;
  bool operator==(const GraphChange&) const = default;
};

class StructureModule final : public LayerModule {
 public:
  static constexpr int kPrimary = 0, kSecondary = 1, kReserve = 2;
  StructureModule();

  void OnCrawled(SiteContext& ctx, const std::string& url) override;

  // Restores a persisted GC or GB node (no change is recorded).
  void RestoreNode(char graph, const std::string& node, double value);

  // The layer a URL was given by the last Distribute (kReserve if unknown).
  [[nodiscard]] int LayerOf(const std::string& url) const;
  // The GD score of the URL's node in the last Distribute (0 if none).
  [[nodiscard]] double GdScoreOf(const std::string& url) const;

  [[nodiscard]] const std::map<std::string, double>& gt() const { return gt_; }
  [[nodiscard]] const std::map<std::string, double>& gc() const { return gc_; }
  [[nodiscard]] const std::map<std::string, double>& gb() const { return gb_; }
  [[nodiscard]] const std::map<std::string, double>& gd() const { return gd_; }
  [[nodiscard]] const std::string& top_node() const { return top_; }
  // GC and GB changes since the last call, in order.
  std::vector<GraphChange> TakeChanges() { return std::exchange(changes_, {}); }

 protected:
  void Prepare(SiteContext& ctx, const std::vector<Target*>& input) override;

 private:
  std::map<std::string, double> gt_, gc_, gb_, gd_;
  std::map<std::string, int> layer_of_node_;
  std::string top_;
  std::vector<GraphChange> changes_;
};

// The structure module's layer rule (active): the layer Prepare computed.
class StructureLayerRule final : public Rule {
 public:
  explicit StructureLayerRule(const StructureModule* module) : module_(module) {}
  [[nodiscard]] std::string signature() const override { return "structure.layer"; }
  [[nodiscard]] Kind kind() const override { return Kind::kActive; }
  [[nodiscard]] RuleResult Evaluate(const Target& t, const SiteContext& ctx) override;

 private:
  const StructureModule* module_;
};

// Structure rank (active ranking rule): the GD score of the target's node.
class StructureRankRule final : public Rule {
 public:
  explicit StructureRankRule(const StructureModule* module) : module_(module) {}
  [[nodiscard]] std::string signature() const override { return "structure.rank"; }
  [[nodiscard]] Kind kind() const override { return Kind::kActive; }
  [[nodiscard]] RuleResult Evaluate(const Target& t, const SiteContext& ctx) override;

 private:
  const StructureModule* module_;
};

}  // namespace crawl::queueserver
