// imbWEM's control side (queueserver/frontier/site_control.h): the
// Objective's crawl-size criteria, the target control rules and the keyword
// relevance passive rule, each on a small site frontier; and how a crawl's
// parameters turn into them (queueserver/structure_params.h).
#include "queueserver/frontier/site_control.h"

#include <catch2/catch.hpp>

#include "common/url/url_glob.h"
#include "queueserver/frontier/structure_module.h"
#include "queueserver/structure_params.h"

using namespace crawl::queueserver;
using Strings = std::vector<std::string>;

namespace {

Strings Urls(const std::vector<Target>& ts) {
  Strings out;
  for (const Target& t : ts) out.push_back(t.url());
  return out;
}

std::string S(const char* path) { return std::string("http://s.test") + path; }

// A context holding `paths` in discovery order.
void Fill(SiteContext& ctx, const std::vector<const char*>& paths) {
  uint64_t seq = 1;
  for (const char* p : paths) ctx.AddTarget(S(p), seq++);
}

}  // namespace

// imbWEM: "The Objective ... has static criteria defining the crawl size
// limits as given by Crawl Job configuration parameters."
TEST_CASE("objective.pages: a site's session ends at its page limit", "[unit]") {
  SiteControlOptions o;
  o.max_pages_per_site = 5;
  SiteFrontier f(3);
  AddSiteControl(o, f);
  SiteContext ctx("http://s.test");
  Fill(ctx, {"/1", "/2", "/3", "/4", "/5", "/6", "/7", "/8"});
  IterationOutcome first = f.Iterate(ctx);
  CHECK(Urls(first.load) == Strings{S("/1"), S("/2"), S("/3")});
  CHECK_FALSE(first.objective_ended);
  // Two more make five: the sixth is not loaded, the rest leave the crawl.
  IterationOutcome second = f.Iterate(ctx);
  CHECK(Urls(second.load) == Strings{S("/4"), S("/5")});
  CHECK(second.objective_ended);
  CHECK(Urls(second.dismissed) == Strings{S("/6"), S("/7"), S("/8")});
  CHECK(ctx.end_reason() == "objective.pages");
  CHECK(ctx.metrics().loaded == 5);
  CHECK(ctx.active_size() == 0);
}

TEST_CASE("objective.pages: pages that came back unfetched do not count", "[unit]") {
  SiteControlOptions o;
  o.max_pages_per_site = 2;
  SiteFrontier f(2);
  AddSiteControl(o, f);
  SiteContext ctx("http://s.test");
  Fill(ctx, {"/1", "/2", "/3"});
  CHECK(f.Iterate(ctx).load.size() == 2);
  ++ctx.metrics().returned;  // one of them came back (its lease expired)
  ctx.AddTarget(S("/2"), 2);
  IterationOutcome again = f.Iterate(ctx);
  CHECK(Urls(again.load) == Strings{S("/2")});
  CHECK(again.objective_ended);
}

TEST_CASE("objective.time: a site's session ends after its time", "[unit]") {
  SiteControlOptions o;
  o.max_site_ms = 60'000;
  SiteFrontier f(2);
  AddSiteControl(o, f);
  SiteContext ctx("http://s.test");
  Fill(ctx, {"/1", "/2", "/3"});
  ctx.set_started_ms(1'000'000);
  ctx.set_now_ms(1'000'000 + 59'999);
  CHECK(f.Iterate(ctx).load.size() == 2);
  ctx.set_now_ms(1'000'000 + 60'000);
  IterationOutcome late = f.Iterate(ctx);
  CHECK(late.load.empty());
  CHECK(late.objective_ended);
  CHECK(Urls(late.dismissed) == Strings{S("/3")});
  CHECK(ctx.end_reason() == "objective.time");
  CHECK(ctx.metrics().iterations == 1);  // no iteration once it is met
}

TEST_CASE("objective.time: without a clock or a session start it is never met", "[unit]") {
  SiteContext ctx("http://s.test");
  TimeObjective t(1);
  CHECK_FALSE(t.Met(ctx));
  ctx.set_now_ms(5'000);
  CHECK_FALSE(t.Met(ctx));
  ctx.set_started_ms(1'000);
  CHECK(t.Met(ctx));
}

// imbWEM: control rules exclude a target (it stays in the context) or
// dismiss it (it leaves the site's crawl).
TEST_CASE("control rules: URL globs dismiss or exclude targets", "[unit]") {
  SiteControlOptions o;
  o.dismiss_patterns = {"*/calendar/*"};
  o.exclude_patterns = {"*/private/*", "*.pdf"};
  SiteFrontier f(10);
  AddSiteControl(o, f);
  SiteContext ctx("http://s.test");
  Fill(ctx, {"/a.html", "/calendar/2020/01/", "/private/x.html", "/doc.pdf", "/b/c.html"});
  IterationOutcome out = f.Iterate(ctx);
  CHECK(Urls(out.load) == Strings{S("/a.html"), S("/b/c.html")});
  CHECK(Urls(out.dismissed) == Strings{S("/calendar/2020/01/")});
  CHECK(ctx.metrics().excluded == 2);
  CHECK(ctx.metrics().dismissed == 1);
  // Excluded targets stay active; the next iteration excludes them again.
  CHECK(ctx.active_size() == 2);
  CHECK(f.Iterate(ctx).load.empty());
  CHECK(ctx.metrics().excluded == 4);
}

TEST_CASE("control rules: targets deeper than the path depth are dismissed", "[unit]") {
  SiteControlOptions o;
  o.max_path_depth = 1;
  SiteFrontier f(10);
  AddSiteControl(o, f);
  SiteContext ctx("http://s.test");
  // Folders in the path: 0, 1, 2, 1 (a trailing slash is a folder), 3.
  Fill(ctx, {"/top.html", "/a/x.html", "/a/b/c.html", "/a/", "/cal/3826/04/"});
  IterationOutcome out = f.Iterate(ctx);
  CHECK(Urls(out.load) == Strings{S("/top.html"), S("/a/x.html"), S("/a/")});
  CHECK(Urls(out.dismissed) == Strings{S("/a/b/c.html"), S("/cal/3826/04/")});
}

TEST_CASE("relevance.keywords: targets with the crawl's keywords rank first, evaluated once", "[unit]") {
  SiteControlOptions o;
  o.keywords = {"sport", "results"};
  SiteFrontier f(1);
  AddSiteControl(o, f);
  SiteContext ctx("http://s.test");
  Fill(ctx, {"/news/plain.html", "/news/a.html", "/news/sport-results.html"});
  // A keyword in the anchor text counts as one in the URL.
  ctx.Find(S("/news/a.html"))->AddLink(S("/"), "Sport today");
  CHECK(Urls(f.Iterate(ctx).load) == Strings{S("/news/sport-results.html")});  // 2 keywords
  const Target* a = ctx.Find(S("/news/a.html"));
  REQUIRE(a->registry().count("relevance.keywords") == 1);
  CHECK(a->registry().at("relevance.keywords").score == 1);
  // Passive: later anchor text does not change the cached result.
  ctx.Find(S("/news/plain.html"))->AddLink(S("/x"), "sport results");
  CHECK(Urls(f.Iterate(ctx).load) == Strings{S("/news/a.html")});
  CHECK(Urls(f.Iterate(ctx).load) == Strings{S("/news/plain.html")});
}

TEST_CASE("no settings: no Objective, control or relevance module", "[unit]") {
  SiteFrontier f(10);
  AddSiteControl(SiteControlOptions{}, f);
  SiteContext ctx("http://s.test");
  Fill(ctx, {"/calendar/1/2/3/", "/private/x"});
  IterationOutcome out = f.Iterate(ctx);
  CHECK(out.load.size() == 2);
  CHECK_FALSE(out.objective_ended);
}

TEST_CASE("URL globs: '*' any run, case-sensitive, the whole URL", "[unit]") {
  CHECK(crawl::UrlGlobMatch("*/calendar/*", "http://s.test/calendar/2020/"));
  CHECK_FALSE(crawl::UrlGlobMatch("*/calendar/*", "http://s.test/Calendar/2020/"));
  CHECK_FALSE(crawl::UrlGlobMatch("*/calendar/", "http://s.test/calendar/2020/"));
  CHECK(crawl::UrlGlobMatch("http://s.test/*.pdf", "http://s.test/a/b.pdf"));
  CHECK(crawl::UrlGlobMatch("*", ""));
  // Many stars on a long URL stay fast (one backtrack point).
  CHECK_FALSE(crawl::UrlGlobMatch("*a*a*a*a*a*a*a*b", std::string(5000, 'a')));
}

TEST_CASE("site control parameters: bad values are refused with a message", "[unit]") {
  crawl::v1::CrawlParams p;
  p.add_site_dismiss_patterns("*/calendar/*");
  p.add_site_keywords("Sport-Results");
  p.set_site_max_pages(25);
  p.set_site_max_seconds(90);
  p.set_site_max_path_depth(4);
  auto ok = SiteControlFor(p);
  REQUIRE(ok.ok());
  CHECK(ok->keywords == Strings{"sport", "results"});
  CHECK(ok->max_site_ms == 90'000);
  CHECK(ok->max_pages_per_site == 25);

  auto refused = [](auto set) {
    crawl::v1::CrawlParams q;
    set(q);
    auto r = SiteControlFor(q);
    return !r.ok() && r.status().code() == crawl::StatusCode::kInvalidArgument &&
           !r.status().message().empty();
  };
  CHECK(refused([](auto& q) { q.add_site_dismiss_patterns(""); }));
  CHECK(refused([](auto& q) { q.add_site_exclude_patterns("a b"); }));
  CHECK(refused([](auto& q) { q.add_site_exclude_patterns(std::string(1001, 'a')); }));
  CHECK(refused([](auto& q) { q.add_site_keywords("--"); }));
  CHECK(refused([](auto& q) { q.set_site_max_path_depth(1001); }));
  CHECK(refused([](auto& q) { q.set_site_max_seconds(31 * 86'400); }));
  CHECK(refused([](auto& q) { q.set_site_reports_kept(10'001); }));
  CHECK(refused([](auto& q) {
    for (int i = 0; i < 101; ++i) q.add_site_keywords("k" + std::to_string(i));
  }));
}
