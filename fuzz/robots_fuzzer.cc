// Fuzz target: the robots.txt parser and matcher (common/url/robots.h, RFC 9309).
// Input: "PATH\nBODY" (the first line is a path to match, the rest the
// robots.txt). Checks, besides ASan/UBSan: Serialize/Deserialize round-trips
// the rules and /robots.txt is always allowed.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/url/robots.h"
#include "fuzz/fuzz_check.h"

namespace {

// Counts events; every value must be readable (ASan checks the views).
class CountingHandler final : public crawl::robots::RobotsParseHandler {
 public:
  void HandleUserAgent(int, std::string_view value) override { Touch(value); }
  void HandleAllow(int, std::string_view pattern) override { Touch(pattern); }
  void HandleDisallow(int, std::string_view pattern) override { Touch(pattern); }
  void HandleSitemap(int, std::string_view value) override { Touch(value); }
  void HandleCrawlDelay(int, std::string_view value) override { Touch(value); }
  void HandleUnknownAction(int, std::string_view key, std::string_view value) override {
    Touch(key);
    Touch(value);
  }
  size_t bytes = 0;

 private:
  void Touch(std::string_view v) {
    for (char c : v) bytes += static_cast<unsigned char>(c) & 1;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t nl = input.find('\n');
  const std::string_view path = nl == std::string_view::npos ? std::string_view() : input.substr(0, nl);
  const std::string_view body = nl == std::string_view::npos ? input : input.substr(nl + 1);

  CountingHandler handler;
  crawl::robots::ParseRobotsTxt(body, handler);

  for (std::string_view agent : {"crawlbot", "*", "Googlebot"}) {
    const crawl::robots::RobotsRules rules = crawl::robots::Parse(body, agent);
    (void)rules.IsAllowed(path);
    (void)rules.IsAllowed(crawl::robots::NormalizePath(path));
    FUZZ_CHECK(rules.IsAllowed("/robots.txt"), "/robots.txt disallowed");
    (void)crawl::robots::IsAllowedUrl(rules, "http://a.test" + std::string(path));

    const std::string stored = rules.Serialize();
    auto back = crawl::robots::RobotsRules::Deserialize(stored);
    FUZZ_CHECK(back.ok(), "Deserialize rejected Serialize output: %s", back.status().message().c_str());
    FUZZ_CHECK(*back == rules, "Serialize/Deserialize changed the rules");
    if (auto d = rules.crawl_delay()) FUZZ_CHECK(*d >= 0, "negative crawl delay");
  }

  // The stored form comes from disk: any bytes must be rejected cleanly.
  (void)crawl::robots::RobotsRules::Deserialize(input);
  (void)crawl::robots::NormalizePattern(path);
  (void)crawl::robots::GetPathParamsQuery(path);
  (void)crawl::robots::IsValidUserAgentToken(path);
  return 0;
}
