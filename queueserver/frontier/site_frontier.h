// Site-focused frontier ranking after imbWEM (Goran Grubić's Web Exploration
// Model; docs/DESIGN.md §5.4): inside one site (a per-host crawling
// context) an evaluator decides which of the site's known-but-unfetched
// targets go to the next fetch schedule.
//
// The model, as built here:
//   - SiteContext: the active targets of one host (discovered, not yet sent
//     to fetch), the URLs crawled, and metrics.
//   - Target: one address with its link vector: the links that point to it
//     grouped by address (referrer + anchor text), the tokens of their anchor
//     texts and the tokens of the URL itself, plus its evaluation registry.
//   - Rules of three kinds. A passive rule is evaluated once per target and
//     its result is cached in the target's evaluation registry under the
//     rule's signature; an active rule's results are cleared and evaluated
//     again every iteration; a control rule may exclude a target (back to the
//     active set), dismiss it (it leaves the site's crawl) or end the
//     objective (the site's crawl is over). A RuleResult carries a layer
//     assignment (or kNeutral) and a score.
//   - Modules run in the order layer modules, ranking modules, control
//     modules; Objectives (imbWEM's crawl-size criteria, site_control.h)
//     are checked before an iteration and before each load. A layer
//     module narrows the input (queueserver/site_frontier.cc: first
//     non-empty layer), a ranking module scores it,
//     the control modules filter the ranked list.
//   - One iteration: the first `load_take` ranked targets that pass every
//     control module are sent to fetch (removed from the active set); the
//     rest stay active. A target's score is the sum of its passive and
//     active results; ties keep discovery order.
//
// Plain classes: no I/O, no clock, not thread-safe. The crawl order that
// drives them is queueserver/frontier/structure_order.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace crawl::queueserver {

// Lower-cased runs of ASCII letters and digits (anchor text and URL tokens).
[[nodiscard]] std::vector<std::string> SiteTokens(std::string_view text);

// What one rule said about one target.
struct RuleResult {
  static constexpr int kNeutral = -1;
  int layer = kNeutral;  // layer rules: the layer index assigned, or kNeutral
  double score = 0;      // ranking rules: the score contribution
  bool operator==(const RuleResult&) const = default;
};

// One link to a target.
struct TargetLink {
  std::string referrer;  // "" for a seed
  std::string anchor_text;
  bool operator==(const TargetLink&) const = default;
};

class Target {
 public:
  // `seq`: the target's position in discovery order (ties in ranking).
  Target(std::string url, uint64_t seq);

  [[nodiscard]] const std::string& url() const { return url_; }
  [[nodiscard]] uint64_t seq() const { return seq_; }
  // Adds a link to this address; a repeated referrer+anchor pair counts once.
  void AddLink(std::string referrer, std::string anchor_text);
  [[nodiscard]] const std::vector<TargetLink>& links() const { return links_; }
  // Distinct anchor-text tokens over all links, in first-seen order.
  [[nodiscard]] const std::vector<std::string>& anchor_tokens() const { return anchor_tokens_; }
  // Tokens of the URL's host, path and query.
  [[nodiscard]] const std::vector<std::string>& url_tokens() const { return url_tokens_; }

  // The evaluation registry: passive results by rule signature.
  [[nodiscard]] const std::map<std::string, RuleResult>& registry() const { return registry_; }
  // Active results of the current iteration by rule signature.
  [[nodiscard]] const std::map<std::string, RuleResult>& active() const { return active_; }
  void SetPassive(const std::string& signature, RuleResult r) { registry_[signature] = r; }
  void SetActive(const std::string& signature, RuleResult r) { active_[signature] = r; }
  void ClearActive() { active_.clear(); }
  // Sum of the passive and active scores.
  [[nodiscard]] double score() const;

 private:
  std::string url_;
  uint64_t seq_;
  std::vector<TargetLink> links_;
  std::vector<std::string> anchor_tokens_;
  std::unordered_set<std::string> anchor_token_set_;
  std::vector<std::string> url_tokens_;
  std::map<std::string, RuleResult> registry_;
  std::map<std::string, RuleResult> active_;
};

struct SiteMetrics {
  uint64_t iterations = 0;
  uint64_t loaded = 0;     // targets sent to fetch
  uint64_t returned = 0;   // sent to fetch and come back unfetched
  uint64_t crawled = 0;    // distinct URLs reported fetched
  uint64_t excluded = 0;   // control: excluded (stayed active), per iteration
  uint64_t dismissed = 0;  // control: dismissed, or left when the objective ended
  uint64_t targets = 0;    // distinct targets the context was given
  // Per iteration, the sizes of the first layer module's layers (imbWEM's
  // per-layer frontier sizes; empty rows when there is no layer module):
  // a few numbers per iteration, kept for the site's whole crawl.
  std::vector<std::vector<uint32_t>> layer_sizes;
};

// The crawling context of one host.
class SiteContext {
 public:
  explicit SiteContext(std::string host) : host_(std::move(host)) {}
  [[nodiscard]] const std::string& host() const { return host_; }

  // The active target with this URL, created with `seq` if it is new.
  Target& AddTarget(const std::string& url, uint64_t seq);
  [[nodiscard]] Target* Find(const std::string& url);
  [[nodiscard]] const Target* Find(const std::string& url) const;
  // Removes an active target and returns it.
  std::optional<Target> Remove(const std::string& url);
  // Active targets in discovery order (ascending seq).
  [[nodiscard]] std::vector<Target*> Active();
  [[nodiscard]] size_t active_size() const { return by_seq_.size(); }

  // Records a fetched URL; false when it was already recorded.
  bool MarkCrawled(const std::string& url);
  [[nodiscard]] const std::unordered_set<std::string>& crawled() const { return crawled_; }

  [[nodiscard]] bool objective_ended() const { return ended_; }
  // The site's crawl is over; `reason` names what ended it (an Objective's
  // or a control rule's signature).
  void EndObjective(std::string reason = "control") {
    ended_ = true;
    end_reason_ = std::move(reason);
  }
  [[nodiscard]] const std::string& end_reason() const { return end_reason_; }
  // Time as the owner last set it (Unix ms; 0 without a clock), and when the
  // site's session started (0: not yet). The context reads no clock itself.
  void set_now_ms(int64_t now) { now_ms_ = now; }
  [[nodiscard]] int64_t now_ms() const { return now_ms_; }
  void set_started_ms(int64_t t) { started_ms_ = t; }
  [[nodiscard]] int64_t started_ms() const { return started_ms_; }
  [[nodiscard]] SiteMetrics& metrics() { return metrics_; }
  [[nodiscard]] const SiteMetrics& metrics() const { return metrics_; }

 private:
  std::string host_;
  std::map<uint64_t, Target> by_seq_;
  std::unordered_map<std::string, uint64_t> seq_of_;
  std::unordered_set<std::string> crawled_;
  bool ended_ = false;
  std::string end_reason_;
  int64_t now_ms_ = 0;
  int64_t started_ms_ = 0;
  SiteMetrics metrics_;
};

// imbWEM's Objective (of the Stage Model): criteria that, once met, end the
// site's session (queueserver/frontier/site_control.h has the crawl-size
// criteria). Checked before every iteration and before every load.
class Objective {
 public:
  virtual ~Objective() = default;
  [[nodiscard]] virtual std::string signature() const = 0;
  [[nodiscard]] virtual bool Met(const SiteContext& ctx) const = 0;
};

// A layer or ranking rule.
class Rule {
 public:
  enum class Kind { kPassive, kActive };
  virtual ~Rule() = default;
  // Unique among the rules of one evaluator: the registry key.
  [[nodiscard]] virtual std::string signature() const = 0;
  [[nodiscard]] virtual Kind kind() const = 0;
  [[nodiscard]] virtual RuleResult Evaluate(const Target& t, const SiteContext& ctx) = 0;
};

// The result of `rule` for `t`: passive results come from (or go to) the
// target's registry, active ones are evaluated and recorded for this
// iteration.
RuleResult ApplyRule(Rule& rule, Target& t, const SiteContext& ctx);

enum class ControlAction { kPass, kExclude, kDismiss, kEndObjective };

class ControlRule {
 public:
  virtual ~ControlRule() = default;
  [[nodiscard]] virtual std::string signature() const = 0;
  [[nodiscard]] virtual ControlAction Check(const Target& t, const SiteContext& ctx) = 0;
};

class Module {
 public:
  virtual ~Module() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  // A URL of the site was fetched (after SiteContext::MarkCrawled).
  virtual void OnCrawled(SiteContext& /*ctx*/, const std::string& /*url*/) {}
};

// Ordered layers (index 0 first). Passive rules, then active rules, assign
// each target: the first non-neutral result wins. Unassigned targets go to
// the deepest layer, or are dismissed from this iteration when
// `dismiss_unassigned` (they stay active). The output is the first
// non-empty layer; when dismissing and every layer is empty, the whole input.
class LayerModule : public Module {
 public:
  LayerModule(std::string name, std::vector<std::string> layer_names, bool dismiss_unassigned);
  [[nodiscard]] std::string name() const override { return name_; }
  void AddRule(std::unique_ptr<Rule> rule);
  // REQUIRES: `input` in discovery order. Returns a subset in the same order.
  std::vector<Target*> Distribute(SiteContext& ctx, const std::vector<Target*>& input);

  [[nodiscard]] const std::vector<std::string>& layer_names() const { return layer_names_; }
  // The last Distribute: URLs per layer, and the unassigned ones it dismissed.
  [[nodiscard]] const std::vector<std::vector<std::string>>& last_layers() const { return last_layers_; }
  [[nodiscard]] const std::vector<std::string>& last_unassigned() const { return last_unassigned_; }

 protected:
  // Called first in every Distribute with its input (the structure module
  // builds its graphs here).
  virtual void Prepare(SiteContext& /*ctx*/, const std::vector<Target*>& /*input*/) {}

 private:
  std::string name_;
  std::vector<std::string> layer_names_;
  bool dismiss_unassigned_;
  std::vector<std::unique_ptr<Rule>> passive_;
  std::vector<std::unique_ptr<Rule>> active_;
  std::vector<std::vector<std::string>> last_layers_;
  std::vector<std::string> last_unassigned_;
};

// Evaluates its rules on every target of the input (their sum is the score).
class RankingModule : public Module {
 public:
  explicit RankingModule(std::string name) : name_(std::move(name)) {}
  [[nodiscard]] std::string name() const override { return name_; }
  void AddRule(std::unique_ptr<Rule> rule);
  void Rank(SiteContext& ctx, const std::vector<Target*>& input);

 private:
  std::string name_;
  std::vector<std::unique_ptr<Rule>> rules_;
};

// The first non-pass action of its rules, in order.
class ControlModule : public Module {
 public:
  explicit ControlModule(std::string name) : name_(std::move(name)) {}
  [[nodiscard]] std::string name() const override { return name_; }
  void AddRule(std::unique_ptr<ControlRule> rule);
  [[nodiscard]] ControlAction Check(const Target& t, const SiteContext& ctx);

 private:
  std::string name_;
  std::vector<std::unique_ptr<ControlRule>> rules_;
};

// What one iteration decided. `load` and `dismissed` left the active set.
struct IterationOutcome {
  std::vector<Target> load;       // to the fetch schedule, best first
  std::vector<Target> dismissed;  // left the site's crawl
  bool objective_ended = false;
};

// The evaluator of one site: its modules and the iteration.
class SiteFrontier {
 public:
  explicit SiteFrontier(size_t load_take) : load_take_(load_take == 0 ? 1 : load_take) {}
  void AddLayerModule(std::unique_ptr<LayerModule> m) { layer_.push_back(std::move(m)); }
  void AddRankingModule(std::unique_ptr<RankingModule> m) { ranking_.push_back(std::move(m)); }
  void AddControlModule(std::unique_ptr<ControlModule> m) { control_.push_back(std::move(m)); }
  void AddObjective(std::unique_ptr<Objective> o) { objectives_.push_back(std::move(o)); }
  [[nodiscard]] size_t load_take() const { return load_take_; }

  // One iteration over the active targets of `ctx`. Nothing happens once the
  // objective has ended. An Objective met before the iteration, or before a
  // load, ends it (the loads chosen until then are still sent).
  IterationOutcome Iterate(SiteContext& ctx);
  // A URL of the site was fetched: recorded in `ctx`, told to every module.
  void OnCrawled(SiteContext& ctx, const std::string& url);

  [[nodiscard]] const std::vector<std::unique_ptr<LayerModule>>& layer_modules() const { return layer_; }

 private:
  // The first Objective met, or null.
  [[nodiscard]] const Objective* MetObjective(const SiteContext& ctx) const;
  // The ranked targets' loads; control rules and Objectives decide.
  void Select(SiteContext& ctx, const std::vector<Target*>& ranked, IterationOutcome& out,
              std::vector<std::string>& load, std::vector<std::string>& dismissed);

  size_t load_take_;
  std::vector<std::unique_ptr<Objective>> objectives_;
  std::vector<std::unique_ptr<LayerModule>> layer_;
  std::vector<std::unique_ptr<RankingModule>> ranking_;
  std::vector<std::unique_ptr<ControlModule>> control_;
};

}  // namespace crawl::queueserver
