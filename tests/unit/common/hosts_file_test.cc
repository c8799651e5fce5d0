// Tests for HostsFile (common/net/hosts_file.h).
#include "common/net/hosts_file.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>

using crawl::HostsFile;

namespace {

HostsFile MustParse(std::string_view text) {
  auto hosts = HostsFile::Parse(text);
  INFO((hosts.ok() ? std::string("ok") : hosts.status().ToString()));
  REQUIRE(hosts.ok());
  return std::move(hosts).value();
}

// A file in the temp directory, removed at scope exit.
struct TempFile {
  explicit TempFile(std::string_view text) {
    path = (std::filesystem::temp_directory_path() /
            ("hosts_file_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++)))
               .string();
    std::ofstream(path) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
  std::string path;
  static inline int counter = 0;
};

}  // namespace

TEST_CASE("hosts file maps a name to an address and port", "[unit]") {
  HostsFile hosts = MustParse("127.20.0.1:40123 www.site0.test\n");
  auto entry = hosts.Lookup("www.site0.test");
  REQUIRE(entry);
  CHECK(entry->address.to_string() == "127.20.0.1");
  REQUIRE(entry->port);
  CHECK(*entry->port == 40123);
  CHECK_FALSE(hosts.Lookup("site0.test"));
}

TEST_CASE("hosts file port is optional", "[unit]") {
  HostsFile hosts = MustParse("10.1.2.3 a.test\n");
  auto entry = hosts.Lookup("a.test");
  REQUIRE(entry);
  CHECK(entry->address.to_string() == "10.1.2.3");
  CHECK_FALSE(entry->port);
}

TEST_CASE("hosts file lines may carry several names", "[unit]") {
  HostsFile hosts = MustParse("127.0.0.2:81 a.test\tb.test   c.test\n");
  CHECK(hosts.size() == 3);
  for (const char* name : {"a.test", "b.test", "c.test"}) {
    auto entry = hosts.Lookup(name);
    REQUIRE(entry);
    CHECK(*entry->port == 81);
  }
}

TEST_CASE("hosts file names match case-insensitively and ignore a trailing dot", "[unit]") {
  HostsFile hosts = MustParse("127.0.0.1 WWW.Example.TEST\n");
  CHECK(hosts.Lookup("www.example.test"));
  CHECK(hosts.Lookup("WWW.EXAMPLE.TEST"));
  CHECK(hosts.Lookup("www.example.test."));
}

TEST_CASE("hosts file skips comments and blank lines", "[unit]") {
  HostsFile hosts = MustParse(
      "# synthetic web\n"
      "\n"
      "   \t \n"
      "127.0.0.1:8080 a.test  # trailing comment\n"
      "#127.0.0.2 b.test\n"
      "127.0.0.3 c.test\r\n");
  CHECK(hosts.size() == 2);
  CHECK(hosts.Lookup("a.test"));
  CHECK_FALSE(hosts.Lookup("b.test"));
  CHECK(hosts.Lookup("c.test"));
}

TEST_CASE("hosts file accepts bracketed IPv6 with a port and bare IPv6 without", "[unit]") {
  HostsFile hosts = MustParse(
      "[::1]:8443 v6.test\n"
      "::1 bare.test\n"
      "[fe80::1] noport.test\n");
  auto v6 = hosts.Lookup("v6.test");
  REQUIRE(v6);
  CHECK(v6->address.is_v6());
  CHECK(v6->address.to_string() == "::1");
  CHECK(*v6->port == 8443);
  auto bare = hosts.Lookup("bare.test");
  REQUIRE(bare);
  CHECK(bare->address.to_string() == "::1");
  CHECK_FALSE(bare->port);
  auto noport = hosts.Lookup("noport.test");
  REQUIRE(noport);
  CHECK_FALSE(noport->port);
}

TEST_CASE("hosts file keeps the first mapping of a repeated name", "[unit]") {
  HostsFile hosts = MustParse("127.0.0.1 a.test\n127.0.0.2 a.test\n");
  CHECK(hosts.Lookup("a.test")->address.to_string() == "127.0.0.1");
}

TEST_CASE("hosts file rejects a bad line and names its number", "[unit]") {
  const char* bad_lines[] = {
      "127.0.0.1\n",               // no name
      "300.1.2.3 a.test\n",        // bad IPv4
      "127.0.0.1:0 a.test\n",      // port 0
      "127.0.0.1:70000 a.test\n",  // port too large
      "127.0.0.1:80x a.test\n",    // junk in port
      "127.0.0.1: a.test\n",       // empty port
      "[::1 a.test\n",             // missing bracket
      "[::1]x a.test\n",           // junk after bracket
      "[zz::1]:80 a.test\n",       // bad IPv6
      "::1:80:: a.test x\n",       // not an address at all
      "127.0.0.1 bad/name\n",      // bad name
      "www.a.test 127.0.0.1\n",    // fields swapped
  };
  for (const char* line : bad_lines) {
    auto hosts = HostsFile::Parse(std::string("# header\n127.0.0.1 ok.test\n") + line, "h.txt");
    INFO(line);
    REQUIRE_FALSE(hosts.ok());
    CHECK(hosts.status().code() == crawl::StatusCode::kInvalidArgument);
    CHECK(hosts.status().message().rfind("h.txt:3: ", 0) == 0);
  }
}

TEST_CASE("hosts file loads from disk", "[unit]") {
  TempFile file("127.20.0.1:40123 www.site0.test\n127.20.0.2:40124 www.site1.test\n");
  auto hosts = HostsFile::Load(file.path);
  REQUIRE(hosts.ok());
  CHECK(hosts->size() == 2);
  CHECK(*hosts->Lookup("www.site1.test")->port == 40124);
}

TEST_CASE("hosts file load reports a missing file and a bad line with the path", "[unit]") {
  auto missing = HostsFile::Load("/nonexistent/dir/hosts.txt");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().code() == crawl::StatusCode::kNotFound);
  CHECK(missing.status().message().find("/nonexistent/dir/hosts.txt") != std::string::npos);

  TempFile file("127.0.0.1 a.test\nnot-an-address b.test\n");
  auto bad = HostsFile::Load(file.path);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().find(file.path + ":2:") != std::string::npos);
}

TEST_CASE("an empty hosts file maps nothing", "[unit]") {
  HostsFile hosts = MustParse("");
  CHECK(hosts.empty());
  CHECK_FALSE(hosts.Lookup("a.test"));
  CHECK_FALSE(HostsFile().Lookup("a.test"));
}
