#include "queueserver/frontier/site_frontier.h"

#include <algorithm>
#include <utility>

namespace crawl::queueserver {

std::vector<std::string> SiteTokens(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if ((u >= 'a' && u <= 'z') || (u >= '0' && u <= '9')) {
      cur.push_back(c);
    } else if (u >= 'A' && u <= 'Z') {
      cur.push_back(static_cast<char>(u - 'A' + 'a'));
    } else if (!cur.empty()) {
      out.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

// ---------------------------------------------------------------------------

Target::Target(std::string url, uint64_t seq) : url_(std::move(url)), seq_(seq) {
  // URL tokens: everything after the scheme (host, path, query).
  std::string_view rest = url_;
  if (const size_t p = rest.find("://"); p != std::string_view::npos) rest.remove_prefix(p + 3);
  url_tokens_ = SiteTokens(rest);
}

void Target::AddLink(std::string referrer, std::string anchor_text) {
  TargetLink link{std::move(referrer), std::move(anchor_text)};
  if (std::find(links_.begin(), links_.end(), link) != links_.end()) return;
  for (std::string& tok : SiteTokens(link.anchor_text)) {
    if (anchor_token_set_.insert(tok).second) anchor_tokens_.push_back(std::move(tok));
  }
  links_.push_back(std::move(link));
}

double Target::score() const {
  double s = 0;
  for (const auto& [sig, r] : registry_) s += r.score;
  for (const auto& [sig, r] : active_) s += r.score;
  return s;
}

// ---------------------------------------------------------------------------

Target& SiteContext::AddTarget(const std::string& url, uint64_t seq) {
  if (auto it = seq_of_.find(url); it != seq_of_.end()) return by_seq_.at(it->second);
  seq_of_.emplace(url, seq);
  ++metrics_.targets;
  return by_seq_.try_emplace(seq, url, seq).first->second;
}

Target* SiteContext::Find(const std::string& url) {
  auto it = seq_of_.find(url);
  return it == seq_of_.end() ? nullptr : &by_seq_.at(it->second);
}

const Target* SiteContext::Find(const std::string& url) const {
  auto it = seq_of_.find(url);
  return it == seq_of_.end() ? nullptr : &by_seq_.at(it->second);
}

std::optional<Target> SiteContext::Remove(const std::string& url) {
  auto it = seq_of_.find(url);
  if (it == seq_of_.end()) return std::nullopt;
  auto node = by_seq_.extract(it->second);
  seq_of_.erase(it);
  return std::move(node.mapped());
}

std::vector<Target*> SiteContext::Active() {
  std::vector<Target*> out;
  out.reserve(by_seq_.size());
  for (auto& [seq, t] : by_seq_) out.push_back(&t);
  return out;
}

bool SiteContext::MarkCrawled(const std::string& url) {
  if (!crawled_.insert(url).second) return false;
  ++metrics_.crawled;
  return true;
}

// ---------------------------------------------------------------------------

RuleResult ApplyRule(Rule& rule, Target& t, const SiteContext& ctx) {
  const std::string sig = rule.signature();
  if (rule.kind() == Rule::Kind::kPassive) {
    // Passive: once per target, then from the evaluation registry.
    if (auto it = t.registry().find(sig); it != t.registry().end()) return it->second;
    RuleResult r = rule.Evaluate(t, ctx);
    t.SetPassive(sig, r);
    return r;
  }
  RuleResult r = rule.Evaluate(t, ctx);
  t.SetActive(sig, r);
  return r;
}

LayerModule::LayerModule(std::string name, std::vector<std::string> layer_names, bool dismiss_unassigned)
    : name_(std::move(name)), layer_names_(std::move(layer_names)), dismiss_unassigned_(dismiss_unassigned) {
  if (layer_names_.empty()) layer_names_.push_back("all");
}

void LayerModule::AddRule(std::unique_ptr<Rule> rule) {
  (rule->kind() == Rule::Kind::kPassive ? passive_ : active_).push_back(std::move(rule));
}

std::vector<Target*> LayerModule::Distribute(SiteContext& ctx, const std::vector<Target*>& input) {
  Prepare(ctx, input);
  const int n = static_cast<int>(layer_names_.size());
  std::vector<std::vector<Target*>> layers(layer_names_.size());
  last_layers_.assign(layer_names_.size(), {});
  last_unassigned_.clear();
  for (Target* t : input) {
    int layer = RuleResult::kNeutral;
    // Passive rules first, then active ones; the first assignment wins. A
    // layer index out of range counts as neutral.
    for (auto* rules : {&passive_, &active_}) {
      for (auto& rule : *rules) {
        const RuleResult r = ApplyRule(*rule, *t, ctx);
        if (r.layer >= 0 && r.layer < n) {
          layer = r.layer;
          break;
        }
      }
      if (layer != RuleResult::kNeutral) break;
    }
    if (layer == RuleResult::kNeutral) {
      if (dismiss_unassigned_) {
        last_unassigned_.push_back(t->url());
        continue;
      }
      layer = n - 1;
    }
    layers[static_cast<size_t>(layer)].push_back(t);
    last_layers_[static_cast<size_t>(layer)].push_back(t->url());
  }
  for (auto& layer : layers) {
    if (!layer.empty()) return layer;
  }
  // Every layer is empty: only possible when unassigned targets were
  // dismissed; the whole input passes through rather than stalling the site.
  return input;
}

void RankingModule::AddRule(std::unique_ptr<Rule> rule) { rules_.push_back(std::move(rule)); }

void RankingModule::Rank(SiteContext& ctx, const std::vector<Target*>& input) {
  for (Target* t : input) {
    for (auto& rule : rules_) (void)ApplyRule(*rule, *t, ctx);
  }
}

void ControlModule::AddRule(std::unique_ptr<ControlRule> rule) { rules_.push_back(std::move(rule)); }

ControlAction ControlModule::Check(const Target& t, const SiteContext& ctx) {
  for (auto& rule : rules_) {
    const ControlAction a = rule->Check(t, ctx);
    if (a != ControlAction::kPass) return a;
  }
  return ControlAction::kPass;
}

// ---------------------------------------------------------------------------

const Objective* SiteFrontier::MetObjective(const SiteContext& ctx) const {
  for (const auto& o : objectives_) {
    if (o->Met(ctx)) return o.get();
  }
  return nullptr;
}

void SiteFrontier::Select(SiteContext& ctx, const std::vector<Target*>& ranked, IterationOutcome& out,
                          std::vector<std::string>& load, std::vector<std::string>& dismissed) {
  for (Target* t : ranked) {
    if (load.size() >= load_take_) break;
    // The Objective first: a site at its page limit loads nothing more.
    if (const Objective* o = MetObjective(ctx)) {
      ctx.EndObjective(o->signature());
      out.objective_ended = true;
      break;
    }
    ControlAction action = ControlAction::kPass;
    std::string by;
    for (auto& m : control_) {
      action = m->Check(*t, ctx);
      if (action != ControlAction::kPass) {
        by = m->name();
        break;
      }
    }
    if (action == ControlAction::kPass) {
      load.push_back(t->url());
      ++ctx.metrics().loaded;  // control rules see the loads chosen before them
    } else if (action == ControlAction::kExclude) {
      ++ctx.metrics().excluded;
    } else if (action == ControlAction::kDismiss) {
      dismissed.push_back(t->url());
    } else {
      ctx.EndObjective(by);
      out.objective_ended = true;
      break;
    }
  }
}

IterationOutcome SiteFrontier::Iterate(SiteContext& ctx) {
  IterationOutcome out;
  if (ctx.objective_ended()) {
    out.objective_ended = true;
    return out;
  }
  std::vector<std::string> load, dismissed;
  if (const Objective* o = MetObjective(ctx)) {
    // Met between iterations (time per site, or pages once loads came back
    // fetched): no iteration, the session ends.
    ctx.EndObjective(o->signature());
    out.objective_ended = true;
  } else {
    ++ctx.metrics().iterations;
    std::vector<Target*> current = ctx.Active();
    // Active results are per iteration.
    for (Target* t : current) t->ClearActive();
    for (auto& m : layer_) current = m->Distribute(ctx, current);
    std::vector<uint32_t> sizes;
    if (!layer_.empty()) {
      for (const auto& l : layer_.front()->last_layers()) sizes.push_back(static_cast<uint32_t>(l.size()));
    }
    ctx.metrics().layer_sizes.push_back(std::move(sizes));
    for (auto& m : ranking_) m->Rank(ctx, current);
    // Best score first; equal scores keep discovery order (the input order).
    std::stable_sort(current.begin(), current.end(),
                     [](const Target* a, const Target* b) { return a->score() > b->score(); });
    Select(ctx, current, out, load, dismissed);
  }
  for (const std::string& u : load) {
    if (auto t = ctx.Remove(u)) out.load.push_back(std::move(*t));
  }
  if (out.objective_ended) {
    // The site's crawl is over: what is still active leaves with it. What
    // was already chosen this iteration is still sent.
    for (Target* t : ctx.Active()) dismissed.push_back(t->url());
  }
  for (const std::string& u : dismissed) {
    if (auto t = ctx.Remove(u)) out.dismissed.push_back(std::move(*t));
  }
  ctx.metrics().dismissed += out.dismissed.size();
  return out;
}

void SiteFrontier::OnCrawled(SiteContext& ctx, const std::string& url) {
  if (!ctx.MarkCrawled(url)) return;
  for (auto& m : layer_) m->OnCrawled(ctx, url);
  for (auto& m : ranking_) m->OnCrawled(ctx, url);
  for (auto& m : control_) m->OnCrawled(ctx, url);
}

}  // namespace crawl::queueserver
