// crawlctl's subcommand helpers that need no name server: seeds files, the
// token, --tracking-params, the connection flags and gRPC failure messages.
#include <stdlib.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "crawlctl/crawl_commands.h"
#include "crawlctl/local_commands.h"
#include "crawlctl/nameserver_client.h"

namespace {

using namespace crawl::crawlctl;  // NOLINT: the unit under test

// A file under the temporary directory, removed with the object.
class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    std::string pattern = (std::filesystem::temp_directory_path() / "crawlctl-test.XXXXXX").string();
    const int fd = mkstemp(pattern.data());
    REQUIRE(fd >= 0);
    close(fd);
    path_ = pattern;
    std::ofstream(path_, std::ios::binary | std::ios::trunc) << text;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Sets CRAWL_TOKEN for the object's lifetime (unset: nullptr).
class TokenEnv {
 public:
  explicit TokenEnv(const char* value) {
    if (value)
      setenv("CRAWL_TOKEN", value, 1);
    else
      unsetenv("CRAWL_TOKEN");
  }
  ~TokenEnv() { unsetenv("CRAWL_TOKEN"); }
  TokenEnv(const TokenEnv&) = delete;
  TokenEnv& operator=(const TokenEnv&) = delete;
};

}  // namespace

TEST_CASE("a seeds file gives its URLs, trimmed, without blank lines and comments", "[unit]") {
  TempFile file("  http://a.example/ \r\n\n# a comment\n\thttp://b.example/x\n   # indented comment\n");
  auto seeds = ReadSeeds(file.path());
  REQUIRE(seeds.ok());
  CHECK(*seeds == std::vector<std::string>{"http://a.example/", "http://b.example/x"});
}

TEST_CASE("a seeds file that is missing or holds no URL is an error naming it", "[unit]") {
  auto missing = ReadSeeds("/nonexistent/seeds.txt");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message() == "cannot read seeds file '/nonexistent/seeds.txt'");
  TempFile empty("\n# only a comment\n");
  auto none = ReadSeeds(empty.path());
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().message() == "seeds file '" + empty.path() + "' holds no URL");
}

TEST_CASE("a seed over 2,048 bytes is an error naming its line", "[unit]") {
  const std::string long_url = "http://a.example/" + std::string(2048, 'x');
  TempFile file("http://a.example/\n# comment\n" + long_url + "\n");
  auto seeds = ReadSeeds(file.path());
  REQUIRE_FALSE(seeds.ok());
  CHECK(seeds.status().message() == "seeds file '" + file.path() + "' line 3: URL of " +
                                        std::to_string(long_url.size()) + " bytes, over the limit of 2048");
  TempFile ok("http://a.example/" + std::string(2048 - 17, 'x') + "\n");
  CHECK(ReadSeeds(ok.path()).ok());
}

TEST_CASE("the token comes from CRAWL_TOKEN before the token file", "[unit]") {
  TempFile file("from-file\n");
  {
    TokenEnv env("from-env");
    auto token = LoadToken(file.path());
    REQUIRE(token.ok());
    CHECK(*token == "from-env");
  }
  TokenEnv env(nullptr);
  auto token = LoadToken(file.path());
  REQUIRE(token.ok());
  CHECK(*token == "from-file");
  auto none = LoadToken("");
  REQUIRE(none.ok());
  CHECK(none->empty());
}

TEST_CASE("an empty or unreadable token file and a token with white space are errors", "[unit]") {
  TokenEnv unset(nullptr);
  TempFile blank(" \n\t\n");
  auto empty = LoadToken(blank.path());
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.status().message() == "--token-file " + blank.path() + " is empty");
  auto missing = LoadToken("/nonexistent/token");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message().rfind("--token-file: ", 0) == 0);
  TokenEnv spaced("a b");
  auto bad = LoadToken("");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message() == "the token holds white space");
}

TEST_CASE("url removes the default tracking parameters unless told otherwise", "[unit]") {
  UrlOptions options;
  options.url = "http://a.example/?utm_source=x&foo=1&z=2";
  auto defaults = TrackingParamsFromFlags(options);
  REQUIRE(defaults.ok());
  CHECK(crawl::url::RemoveTrackingParams(options.url, *defaults) == "http://a.example/?foo=1&z=2");
  options.tracking_params = {"foo"};
  auto listed = TrackingParamsFromFlags(options);
  REQUIRE(listed.ok());
  CHECK(crawl::url::RemoveTrackingParams(options.url, *listed) == "http://a.example/?utm_source=x&z=2");
  options.keep_tracking = true;
  auto kept = TrackingParamsFromFlags(options);
  REQUIRE(kept.ok());
  CHECK(crawl::url::RemoveTrackingParams(options.url, *kept) == options.url);
}

TEST_CASE("bad --tracking-params name the flag", "[unit]") {
  UrlOptions options;
  options.tracking_params = {"a**"};
  auto bad = TrackingParamsFromFlags(options);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().rfind("--tracking-params: ", 0) == 0);
}

TEST_CASE("connecting needs a valid name server address before anything else", "[unit]") {
  ConnectionFlags flags;
  auto none = ConnectToNameServer(flags);
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().message() == "no name server: pass --nameserver host:port or set CRAWL_NAMESERVER");
  flags.nameserver = "no-port";
  auto bad = ConnectToNameServer(flags);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().rfind("--nameserver: ", 0) == 0);
}

TEST_CASE("failed calls read as one line saying what to do", "[unit]") {
  NameServerClient client;
  client.address = "127.0.0.1:1";
  CHECK(client.Check(grpc::Status::OK).ok());
  CHECK(client.Check(grpc::Status(grpc::StatusCode::UNAVAILABLE, "down")).message() ==
        "cannot reach name server at 127.0.0.1:1: down");
  CHECK(client.Check(grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED, "slow")).message() ==
        "cannot reach name server at 127.0.0.1:1: slow");
  CHECK(client.Check(grpc::Status(grpc::StatusCode::UNAUTHENTICATED, "no token")).message() ==
        "not authenticated: no token (give a certificate with --tls-cert/--tls-key or a token)");
  CHECK(client.Check(grpc::Status(grpc::StatusCode::PERMISSION_DENIED, "reader")).message() ==
        "permission denied: reader");
  CHECK(client.Check(grpc::Status(grpc::StatusCode::NOT_FOUND, "no crawl 7")).message() == "no crawl 7");
}
