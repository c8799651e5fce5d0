// Fuzz target: the WHATWG URL parser and the crawl's canonical form
// (common/url/whatwg_url.h, common/url/url.h). Input: "REFERENCE" or
// "BASE\nREFERENCE". Checks, besides ASan/UBSan: a canonical URL is a fixed
// point (url.h promises Canonicalize(Canonicalize(x)) == Canonicalize(x)),
// a resolved URL is canonical, and the URL helpers accept canonical URLs.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/url/url.h"
#include "common/url/whatwg_url.h"
#include "fuzz/fuzz_check.h"

namespace {

void CheckCanonical(const std::string& canonical) {
  auto again = crawl::url::Canonicalize(canonical);
  FUZZ_CHECK(again.ok(), "canonical URL rejected: '%s': %s", canonical.c_str(),
             again.status().message().c_str());
  FUZZ_CHECK(*again == canonical, "not a fixed point: '%s' -> '%s'", canonical.c_str(), again->c_str());
  auto parts = crawl::url::Split(canonical);
  FUZZ_CHECK(parts.ok(), "Split rejected canonical '%s'", canonical.c_str());
  FUZZ_CHECK(!parts->target.empty() && parts->target[0] == '/', "target of '%s' is '%s'", canonical.c_str(),
             parts->target.c_str());
  FUZZ_CHECK(!crawl::url::HostOf(canonical).empty(), "no host in '%s'", canonical.c_str());
  auto origin = crawl::url::OriginOf(canonical);
  FUZZ_CHECK(origin.ok(), "OriginOf rejected canonical '%s'", canonical.c_str());
  auto robots = crawl::url::RobotsUrlFor(canonical);
  FUZZ_CHECK(robots.ok(), "RobotsUrlFor rejected canonical '%s'", canonical.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  // The whole input as one absolute URL.
  if (auto parsed = crawl::whatwg::Parse(input); parsed.ok()) {
    const std::string href = parsed->Href();
    auto reparsed = crawl::whatwg::Parse(href);
    FUZZ_CHECK(reparsed.ok(), "WHATWG href rejected: '%s'", href.c_str());
  }
  if (auto canonical = crawl::url::Canonicalize(input); canonical.ok()) CheckCanonical(*canonical);
  (void)crawl::url::HostOf(input);

  // "BASE\nREFERENCE": resolution, once and with the reusable resolver.
  if (const size_t nl = input.find('\n'); nl != std::string_view::npos) {
    const std::string_view base = input.substr(0, nl);
    const std::string_view reference = input.substr(nl + 1);
    auto resolved = crawl::url::Resolve(base, reference);
    if (resolved.ok()) CheckCanonical(*resolved);
    if (auto resolver = crawl::url::Resolver::ForBase(base); resolver.ok()) {
      auto again = resolver->Resolve(reference);
      FUZZ_CHECK(again.ok() == resolved.ok(), "Resolver and Resolve disagree on '%s' + '%s'",
                 std::string(base).c_str(), std::string(reference).c_str());
      if (again.ok()) FUZZ_CHECK(*again == *resolved, "'%s' vs '%s'", again->c_str(), resolved->c_str());
    }
  }
  return 0;
}
