// The document worker process and its client (fetcher/document/worker_client.h,
// fetcher/document/worker_process.h): documents parsed in a confined child, and a
// child that dies, hangs or misbehaves costs one document, never the fetcher.
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <thread>

#include "common/base/metrics.h"
#include "fetcher/document/worker_client.h"

using crawl::fetcher::DocumentParser;
using crawl::fetcher::DocumentParserOptions;

namespace {

DocumentParserOptions TestOptions() {
  DocumentParserOptions options;
  options.executable = CRAWL_FETCHER_BINARY;
  options.extra_args = {"--test-hooks"};
  options.timeout = std::chrono::seconds(20);
  return options;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("The document worker answers under its seccomp filter", "[document_worker]") {
  DocumentParser parser(TestOptions());
  auto echoed = parser.ParseNamed("test:echo", "http://a.test/x", "hello worker");
  REQUIRE(echoed.ok());
  CHECK(echoed->text() == "hello worker");
  CHECK(echoed->info().type() == "echo");
  // The worker stays up between documents.
  const std::vector<int> pids = parser.WorkerPids();
  REQUIRE(pids.size() == 1);
  REQUIRE(parser.ParseNamed("test:echo", "http://a.test/y", "again").ok());
  CHECK(parser.WorkerPids() == pids);
}

TEST_CASE("A worker killed mid-document fails that document and the next one parses", "[document_worker]") {
  DocumentParser parser(TestOptions());
  REQUIRE(parser.ParseNamed("test:echo", "http://a.test/warm", "up").ok());
  const int first_pid = parser.WorkerPids().at(0);
  crawl::Result<crawl::v1::ParsedDocument> spun = crawl::Status::Internal("not run");
  std::thread t([&] { spun = parser.ParseNamed("test:spin", "http://a.test/spin", ""); });
  // The worker is busy with the spinning document until killed.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  REQUIRE(kill(first_pid, SIGKILL) == 0);
  t.join();
  REQUIRE_FALSE(spun.ok());
  CHECK_THAT(spun.status().message(), Catch::Contains("SIGKILL"));
  auto next = parser.ParseNamed("test:echo", "http://a.test/next", "still here");
  REQUIRE(next.ok());
  CHECK(next->text() == "still here");
  CHECK(parser.WorkerPids().at(0) != first_pid);
}

TEST_CASE("A document over the time limit is an error and its worker is replaced", "[document_worker]") {
  DocumentParserOptions options = TestOptions();
  options.timeout = std::chrono::milliseconds(300);
  DocumentParser parser(options);
  auto spun = parser.ParseNamed("test:spin", "http://a.test/slow.pdf", "");
  REQUIRE_FALSE(spun.ok());
  CHECK_THAT(spun.status().message(), Catch::Contains("time limit"));
  CHECK(parser.WorkerPids().empty());  // killed and reaped
  CHECK(parser.ParseNamed("test:echo", "http://a.test/next", "fine").ok());
}

// Sanitizer builds set no address-space limit (worker_sandbox.cc).
#if !defined(CRAWL_SANITIZER_BUILD)
TEST_CASE("A document over the memory limit is an error naming the limit", "[document_worker]") {
  DocumentParserOptions options = TestOptions();
  options.memory_bytes = size_t{256} << 20;
  DocumentParser parser(options);
  auto grown = parser.ParseNamed("test:alloc", "http://a.test/bomb.docx", "");
  REQUIRE_FALSE(grown.ok());
  CHECK_THAT(grown.status().message(), Catch::Contains("memory limit"));
  CHECK(parser.ParseNamed("test:echo", "http://a.test/next", "fine").ok());
}
#endif

// Sanitizer builds install no filter (worker_sandbox.cc).
#if !defined(CRAWL_SANITIZER_BUILD)
TEST_CASE("A worker making a forbidden system call is killed by its filter", "[document_worker]") {
  DocumentParser parser(TestOptions());
  auto r = parser.ParseNamed("test:syscall", "http://a.test/evil.pdf", "");
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.status().message(), Catch::Contains("SIGSYS"));
  // Without the filter the same call goes through (the hook reports it).
  DocumentParserOptions off = TestOptions();
  off.seccomp = "off";
  DocumentParser unfiltered(off);
  auto plain = unfiltered.ParseNamed("test:syscall", "http://a.test/evil.pdf", "");
  REQUIRE_FALSE(plain.ok());
  CHECK_THAT(plain.status().message(), Catch::Contains("socket() returned"));
}
#endif

TEST_CASE("A crashing worker's document fails with the signal's name", "[document_worker]") {
  DocumentParser parser(TestOptions());
  auto r = parser.ParseNamed("test:abort", "http://a.test/crash.rtf", "");
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.status().message(), Catch::Contains("SIGABRT"));
  const std::string exposition = crawl::metrics::Exposition();
  CHECK_THAT(exposition, Catch::Contains("crawl_fetcher_document_worker_restarts_total"));
}

TEST_CASE("Test hooks are refused unless the worker was started with them", "[document_worker]") {
  DocumentParserOptions options = TestOptions();
  options.extra_args.clear();
  DocumentParser parser(options);
  auto r = parser.ParseNamed("test:abort", "http://a.test/x", "");
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.status().message(), Catch::Contains("test hooks are off"));
  CHECK(parser.WorkerPids().size() == 1);  // it did not abort
}

TEST_CASE("A pool of workers parses documents from several threads at once", "[document_worker]") {
  DocumentParserOptions options = TestOptions();
  options.workers = 2;
  DocumentParser parser(options);
  std::vector<std::thread> threads;
  std::atomic<int> good{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) {
        const std::string body = "doc " + std::to_string(t) + "." + std::to_string(i);
        auto r = parser.ParseNamed("test:echo", "http://a.test/", body);
        if (r.ok() && r->text() == body) ++good;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(good == 40);
  CHECK(parser.WorkerPids().size() == 2);
}

TEST_CASE("Every test document parses in the worker under the seccomp filter", "[document_worker]") {
  // tests/data/documents/MANIFEST.tsv: file, type, title, a phrase of the text.
  const std::string dir = std::string(CRAWL_SOURCE_DIR) + "/tests/data/documents/";
  std::ifstream manifest(dir + "MANIFEST.tsv");
  REQUIRE(manifest);
  DocumentParser parser(TestOptions());
  std::string line;
  std::getline(manifest, line);  // header
  int parsed = 0;
  while (std::getline(manifest, line)) {
    std::vector<std::string> f;
    std::stringstream fields(line);
    for (std::string field; std::getline(fields, field, '\t');) f.push_back(field);
    if (f.size() < 4) continue;
    const auto type = crawl::fetcher::DocumentTypeFromName(f[1]);
    REQUIRE(type);
    INFO(f[0]);
    auto doc = parser.Parse(*type, "http://a.test/" + f[0], ReadFile(dir + f[0]));
    REQUIRE(doc.ok());
    CHECK(doc->title() == f[2]);
    CHECK_THAT(doc->text(), Catch::Contains(f[3]));
    ++parsed;
  }
  CHECK(parsed >= 9);
  CHECK(parser.WorkerPids().size() == 1);  // one worker did them all: none was killed
}
