#include "queueserver/frontier/structure_module.h"

#include <algorithm>

#include "common/base/find_any.h"

namespace crawl::queueserver {

std::string LeafNodeOf(std::string_view url) {
  // The path: after "scheme://authority", up to the query or fragment.
  std::string_view rest = url;
  if (const size_t p = rest.find("://"); p != std::string_view::npos) {
    rest.remove_prefix(p + 3);
    const size_t slash = FindAnyOf(rest, "/?#");
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  }
  if (const size_t q = FindAnyOf(rest, "?#"); q != std::string_view::npos) rest = rest.substr(0, q);
  std::vector<std::string_view> segments;
  size_t i = 0;
  while (i < rest.size()) {
    const size_t j = rest.find('/', i);
    const size_t end = j == std::string_view::npos ? rest.size() : j;
    if (end > i) segments.push_back(rest.substr(i, end - i));
    i = end + 1;
  }
  // The minor segment is the file name: whatever follows the last '/'. A
  // target with one is a leaf of its folder; a target without one (the path
  // ends in '/') is a leaf of the node of its full path. Either way the
  // node is the path up to its last '/'.
  const bool trailing_slash = !rest.empty() && rest.back() == '/';
  if (!segments.empty() && !trailing_slash) segments.pop_back();
  std::string node = "/";
  for (std::string_view s : segments) {
    node.append(s);
    node.push_back('/');
  }
  return node;
}

std::vector<std::string> NodePath(const std::string& node) {
  std::vector<std::string> out;
  for (size_t i = 0; i < node.size(); ++i) {
    if (node[i] == '/') out.push_back(node.substr(0, i + 1));
  }
  return out;
}

std::string ParentNode(const std::string& node) {
  if (node.size() <= 1) return "";
  const size_t p = node.rfind('/', node.size() - 2);
  return p == std::string::npos ? "" : node.substr(0, p + 1);
}

size_t NodeDepth(const std::string& node) {
  return node.empty() ? 0 : static_cast<size_t>(std::count(node.begin(), node.end(), '/')) - 1;
}

// ---------------------------------------------------------------------------

StructureModule::StructureModule()
    : LayerModule("structure", {"Primary", "Secondary", "Reserve"}, /*dismiss_unassigned=*/false) {
  AddRule(std::make_unique<StructureLayerRule>(this));
}

void StructureModule::OnCrawled(SiteContext& /*ctx*/, const std::string& url) {
  // GC: a node's score starts at 2 with the first crawled URL walked through
  // it, then grows by one per URL (docs/DESIGN.md §5.4).
  for (const std::string& node : NodePath(LeafNodeOf(url))) {
    auto [it, fresh] = gc_.try_emplace(node, 2.0);
    if (!fresh) it->second += 1.0;
    changes_.push_back(GraphChange{'C', node, it->second});
  }
}

void StructureModule::RestoreNode(char graph, const std::string& node, double value) {
  (graph == 'B' ? gb_ : gc_)[node] = value;
}

void StructureModule::Prepare(SiteContext& /*ctx*/, const std::vector<Target*>& input) {
  // GT: unique targets walked through each node; leaves per node.
  gt_.clear();
  std::map<std::string, size_t> leaves;
  for (const Target* t : input) {
    const std::string leaf = LeafNodeOf(t->url());
    ++leaves[leaf];
    for (const std::string& node : NodePath(leaf)) gt_[node] += 1.0;
  }
  // GD = GT / GC + GB; GD = GT while GC is empty (docs/DESIGN.md §5.4).
  gd_ = gt_;
  if (!gc_.empty()) {
    for (auto& [node, score] : gd_) {
      if (auto c = gc_.find(node); c != gc_.end()) score /= c->second;
      if (auto b = gb_.find(node); b != gb_.end()) score += b->second;
    }
  }
  // The top node: highest GD; ties to the shallower node, then the smaller key.
  top_.clear();
  double best = 0;
  for (const auto& [node, score] : gd_) {
    if (top_.empty() || score > best || (score == best && NodeDepth(node) < NodeDepth(top_))) {
      top_ = node;
      best = score;
    }
  }
  layer_of_node_.clear();
  if (top_.empty()) return;
  std::vector<std::string> children;
  for (const auto& [node, score] : gt_) {
    if (node == top_) {
      layer_of_node_[node] = kPrimary;
    } else if (ParentNode(node) == top_) {
      layer_of_node_[node] = kSecondary;
      children.push_back(node);
    }
  }
  // A top node without leaves of its own passes its score on to its children
  // in GB, so later iterations look below it.
  if (leaves.find(top_) == leaves.end() && !children.empty()) {
    const double share = best / static_cast<double>(children.size());
    for (const std::string& child : children) {
      double& b = gb_[child];
      b += share;
      changes_.push_back(GraphChange{'B', child, b});
    }
    double& own = gb_[top_];
    own -= best;
    changes_.push_back(GraphChange{'B', top_, own});
  }
}

int StructureModule::LayerOf(const std::string& url) const {
  auto it = layer_of_node_.find(LeafNodeOf(url));
  return it == layer_of_node_.end() ? kReserve : it->second;
}

double StructureModule::GdScoreOf(const std::string& url) const {
  auto it = gd_.find(LeafNodeOf(url));
  return it == gd_.end() ? 0.0 : it->second;
}

RuleResult StructureLayerRule::Evaluate(const Target& t, const SiteContext& /*ctx*/) {
  RuleResult r;
  r.layer = module_->LayerOf(t.url());
  return r;
}

RuleResult StructureRankRule::Evaluate(const Target& t, const SiteContext& /*ctx*/) {
  RuleResult r;
  r.score = module_->GdScoreOf(t.url());
  return r;
}

}  // namespace crawl::queueserver
