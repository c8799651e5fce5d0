// testweb: serves, exports and lists the synthetic web (docs/DESIGN.md §10).
//
//   testweb serve  --seed S --hosts H --pages P [--preset clean|misbehaving|bench|hostile|spam]
//                  [--enable NAMES] [--disable NAMES] --hosts-file F
//                  [--port PORT] [--access-log FILE] [--bind-base 127.20.0.0]
//                  [--threads N] [--page-kb K] [--change-mean-interval S]
//                  [--clock real|logical] [--robots-control]
//                  [--degrading-hosts N --degrade-base-ms B --degrade-capacity R]
//   testweb export --seed S --hosts H --pages P [universe flags]
//                  [--out FILE|-] [--truth FILE|-] [--at T --versions FILE|-]
//   testweb seeds  --seed S --hosts H --pages P [universe flags]
//   testweb check-politeness LOG --seed S --hosts H --pages P [universe flags] [--json]
//                  [--ips N --bind-base B] [--max-per-ip N]
//   testweb pagerank-captured --truth FILE --fetched FILE [--every K]
//
// Change model (universe.h "Change model", off by default):
// --change-mean-interval S makes pages change (median S seconds apart),
// appear and disappear; serve measures time from its start, or with
// --clock logical from POST /_testweb/clock?t=T (request_handler.h);
// export --at T writes the graph (--out) and every page's state (--versions:
// 'URL STATUS VERSION ETAG LAST_MODIFIED DIGEST') at T.
//
// --robots-control lets a test replace a host's robots.txt while serving
// (robots_control.h).
//
// --degrading-hosts N makes hosts 0..N-1 degrade under load
// (degrading_hosts.h): each answer waits B x (1 + (r / R)^2) ms, r being the
// requests the host received in the last second (--degrade-base-ms B,
// --degrade-capacity R requests a second); the access log's DURATION_MS
// shows the latency, for testing adaptive pacing.
//
// Misbehaviours (--enable/--disable, comma-separated or repeated, applied
// after the preset in that order): see universe_options.h and universe.h.
// check-politeness exits 0 whatever it finds (the report says); 1 only when
// the log cannot be read or parsed.
//
// serve writes the hosts file ("IP:PORT NAME" lines) only once every
// listener is bound: its appearance means "ready". SIGINT/SIGTERM stop it
// with exit status 0. Errors: one line on stderr, non-zero exit status.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <cstdio>
#include <exception>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <string>

#include "common/base/atomic_file.h"
#include "tests/testweb/access_log.h"
#include "tests/testweb/captured_pagerank.h"
#include "tests/testweb/ground_truth.h"
#include "tests/testweb/hosts_file.h"
#include "tests/testweb/politeness.h"
#include "tests/testweb/server.h"
#include "tests/testweb/universe.h"

namespace crawl::testweb {
namespace {

int Fail(const std::string& message) {
  std::fprintf(stderr, "testweb: %s\n", message.c_str());
  return 1;
}

// The flags every subcommand shares: which universe. page_kb 0 means "as
// the preset says".
struct UniverseFlags {
  UniverseOptions options;
  uint32_t page_kb = 0;
  std::vector<std::string> enable;
  std::vector<std::string> disable;
};

// The --help footer of every universe command: each preset and switch.
std::string PresetsAndSwitchesHelp() {
  return R"(Presets (--preset):
  clean        Nothing misbehaves: a well-behaved web, 4 KiB median pages, text
               drawn word by word. The default; what the end-to-end test crawls.
  misbehaving  Every switch below on except the hostile ones; 20 KiB median
               pages, corpus text.
  bench        Nothing misbehaves; 20 KiB median pages, corpus text (sentences
               copied from a per-seed corpus): for scale and load benchmarks.
  hostile      Normal hosts among hostile ones: the hostile switches below
               (slowloris .. huge-robots, one per host, i%10==1..8) plus traps;
               8 KiB median pages, corpus text. Truth kind "hostile" marks
               their URLs. What tests/integration/crawl_hostile_test.sh crawls.
  spam         Link spam host budgeting must resist (IRLbot, WWW 2008/TWEB 2009),
               hosts/6 each: www.spam<k>.test (one CLD each, linking each other
               and themselves, endless /s<L>/p<i>.html pages; truth kind spam)
               and h<j>.linkfarm.test (many hosts on ONE CLD, the same endless
               pages; kind farm), the last hosts; 3 deep high-quality sites
               (hosts 3-5: 45% of the pages, fan-out 2, a quarter of the
               cross-host links); 3% of normal pages link a spam root; traps
               on; 8 KiB median pages, corpus text.

Switches (--enable/--disable NAME[,NAME...] or all; host i misbehaves when
i % period == phase, the same hosts for every seed; farm hosts do not):
  robots-rules        i%4==1   robots.txt with Allow, '*', '$' and Crawl-delay: 1
  robots-5xx          i%10==7  robots.txt answers 500 (the host is off limits)
  robots-unreachable  i%10==9  robots.txt: connection closed without an answer
  redirects           i%3==0   /redirect/CODE/HOPS/J chains (301 302 307 308, 1-3
                               hops) and /loop/0/J <-> /loop/1/J loops (302)
  errors              i%3==1   /error/CODE/J: 404, 410, 500, 503 + Retry-After: 2
  slow                i%8==5   1 s to the first byte, then the answer trickled in
                               10 pieces 150 ms apart
  big-pages           i%5==2   /big/J.html (> 1 MiB, Content-Length) and
                               /big-chunked/J.html (> 1 MiB, chunked)
  gzip                i%2==0   Content-Encoding: gzip when the client accepts it
  non-html            i%3==2   /files/J.pdf, /files/J.png, /files/J.txt
  duplicates          i%4==0   the same page under ?sessionid=HEX and ?utm_*= URLs
  soft-404            i%6==3   unknown paths answer 200 "not found"; /old/J.html
                               links lead there
  malformed-html      i%5==4   unclosed tags, bad entities, stray bytes, wrong
                               charset labels (meta and Content-Type)
  traps               i%7==3   endless /calendar/YYYY/MM/ and /deep/a/a/.../
  link-farm           i%10==4  the last max(2, hosts/10) hosts are
                               farm<j>.spam.test (one CLD, dense internal links);
                               these hosts' roots are its only in-links
  https               i%9==4   https:// only, TLS with a self-signed certificate
                               made at start (crawl with --accept-self-signed);
                               same port as http; http:// answers 301
  sitemaps            i%4==2   robots.txt names /sitemap.xml (urlset) or
                               /sitemap_index.xml (-> /sitemaps/1.xml.gz, a gzip
                               file, and /sitemaps/2.xml)
  host-names          i%6==1   www.site<i>.co.test; i%6==4 blog.site<i-1>.test and
                               i%6==5 shop.site<i-2>.test (same CLD as i-1, i-2)
Hostile switches (not in 'misbehaving'; "/" of the host links the URLs):
  slowloris           i%10==1  /slowloris/J.html: status line, then a header byte
                               every 2 s, forever
  endless-body        i%10==2  /endless/J.html: chunked body that never ends
  gzip-bomb           i%10==3  /bomb/J.html: ~4 MiB of gzip decoding to 4 GiB
  huge-headers        i%10==4  /huge-headers/J.html: 1 MiB of header lines
  redirect-chain      i%10==5  /rloop/0 <-> /rloop/1, /chain/N -> /chain/N+1 forever
  link-flood          i%10==6  /flood.html: 10,000 links (/flood/K.html)
  bad-bytes           i%10==7  /bytes/J.html: invalid UTF-8 and NUL bytes
  huge-robots         i%10==8  robots.txt of 10 MiB (chunked); a 'Disallow: /'
                               group after 600 KiB, past RFC 9309's 500 KiB
)";
}

void AddUniverseFlags(CLI::App* cmd, UniverseFlags& flags) {
  UniverseOptions& o = flags.options;
  cmd->add_option("--seed", o.seed, "Random seed: the same seed gives the same web")
      ->required()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--hosts", o.hosts, "Number of hosts (www.site<i>.test)")
      ->required()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--pages", o.pages, "Number of pages over all hosts (>= hosts)")
      ->required()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--preset", o.preset,
                  "Preset: clean (nothing misbehaves, 4 KiB pages), misbehaving (every switch on, 20 KiB "
                  "pages), bench (clean at 20 KiB pages, fast text), hostile (hostile hosts among normal "
                  "ones), spam (link spam: spam CLDs, a one-CLD farm, deep sites); see the list below")
      ->capture_default_str();
  cmd->add_option("--enable", flags.enable, "Switch misbehaviours on (comma-separated, or 'all'; list below)")
      ->delimiter(',');
  cmd->add_option("--disable", flags.disable, "Switch misbehaviours off (after --enable)")->delimiter(',');
  cmd->add_option("--page-kb", flags.page_kb, "Median page size in KiB (default: the preset's)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--change-mean-interval", o.change_mean_interval_s,
                  "Change model: pages change (median S seconds between changes, heavy-tailed per page), "
                  "appear and disappear; 0 (default): a static web. Clean and bench presets only")
      ->check(CLI::Range(0.0, 1e9));
  cmd->footer(PresetsAndSwitchesHelp());
}

Result<Universe> MakeUniverse(const UniverseFlags& flags) {
  UniverseOptions options = flags.options;
  if (Status s = ApplyPreset(options); !s.ok()) return s;
  if (flags.page_kb != 0) options.page_kb = flags.page_kb;  // an explicit flag wins over the preset
  for (const auto& name : flags.enable) {
    if (Status s = SetMisbehaviours(options.misbehaviours, name, true); !s.ok()) return s;
  }
  for (const auto& name : flags.disable) {
    if (Status s = SetMisbehaviours(options.misbehaviours, name, false); !s.ok()) return s;
  }
  return Universe::Create(options);
}

struct ServeFlags {
  std::string hosts_file;
  uint16_t port = 0;
  std::string access_log;
  std::string bind_base = std::string(kDefaultBindBase);
  uint64_t ips = 0;  // 0: one address per host
  int threads = 1;
  std::string clock = "real";
  bool robots_control = false;
  DegradeOptions degrade;
  uint32_t degrade_base_ms = 50;  // into degrade.base
};

int Serve(const UniverseFlags& options, const ServeFlags& flags) {
  auto universe = MakeUniverse(options);
  if (!universe.ok()) return Fail(universe.status().message());
  // With --ips, host i on address i % ips: the Host header tells hosts apart.
  auto addresses = HostAddresses(flags.bind_base, universe->HostCount(), flags.ips);
  if (!addresses.ok()) return Fail(addresses.status().message());
  // A stale hosts file would announce readiness too early.
  std::remove(flags.hosts_file.c_str());

  AccessLog access_log;
  ServerOptions server_options;
  server_options.addresses = std::move(*addresses);
  server_options.port = flags.port;
  ChangeClock clock(flags.clock == "logical" ? ChangeClock::Mode::kLogical : ChangeClock::Mode::kReal);
  server_options.clock = &clock;
  RobotsControl robots_control;
  if (flags.robots_control) server_options.robots_control = &robots_control;
  if (flags.degrade.hosts > universe->HostCount()) return Fail("--degrading-hosts is more than --hosts");
  std::vector<std::string> degrading_names;
  for (uint32_t i = 0; i < flags.degrade.hosts; ++i) degrading_names.push_back(universe->HostName(i));
  DegradeOptions degrade = flags.degrade;
  degrade.base = std::chrono::milliseconds(flags.degrade_base_ms);
  DegradingHosts degrading(degrade, std::move(degrading_names));
  if (flags.degrade.hosts > 0) server_options.degrading = &degrading;
  if (!flags.access_log.empty()) {
    if (Status s = access_log.Open(flags.access_log); !s.ok()) return Fail(s.message());
    server_options.access_log = &access_log;
  }
  // Shutdown order: signals, then server (listeners, io_context, sessions),
  // then the access log and the universe they point to.
  Server server(*universe, std::move(server_options));
  if (Status s = server.Start(); !s.ok()) return Fail(s.message());
  if (Status s = WriteHostsFile(flags.hosts_file, server.Entries()); !s.ok()) return Fail(s.message());

  boost::asio::signal_set signals(server.io_context(), SIGINT, SIGTERM);
  signals.async_wait([&server](const boost::system::error_code& ec, int /*signal*/) {
    if (!ec) server.Stop();
  });
  spdlog::info("serving {} hosts, {} pages, port {}, hosts file {}", universe->HostCount(),
               universe->TotalPages(), server.port(), flags.hosts_file);
  server.Run(flags.threads);
  spdlog::info("stopped");
  return 0;
}

void WriteExportLine(std::ostream& out, const std::string& url, const std::vector<std::string>& outlinks) {
  out << url;
  for (const auto& l : outlinks) out << '\t' << l;
  out << '\n';
}

int WriteTruthFile(const Universe& universe, const std::string& path) {
  const auto rows = GroundTruth(universe);
  if (path == "-") {
    WriteTruth(rows, std::cout);
    std::cout.flush();
    return std::cout ? 0 : Fail("cannot write to stdout");
  }
  AtomicFile file(path);
  if (Status s = file.Open(); !s.ok()) return Fail(s.message());
  WriteTruth(rows, file.stream());
  if (Status s = file.Commit(); !s.ok()) return Fail(s.message());
  return 0;
}

struct ExportFlags {
  std::string out;
  std::string truth;
  std::string versions;
  double at = 0;
};

// Writes through `write` to `path` (atomically) or to stdout for "-".
int WriteOutput(const std::string& path, const std::function<void(std::ostream&)>& write) {
  if (path == "-") {
    write(std::cout);
    std::cout.flush();
    return std::cout ? 0 : Fail("cannot write to stdout");
  }
  AtomicFile file(path);
  if (Status s = file.Open(); !s.ok()) return Fail(s.message());
  write(file.stream());
  if (Status s = file.Commit(); !s.ok()) return Fail(s.message());
  return 0;
}

int Export(const UniverseFlags& options, const ExportFlags& flags) {
  auto universe = MakeUniverse(options);
  if (!universe.ok()) return Fail(universe.status().message());
  if (flags.out.empty() && flags.truth.empty() && flags.versions.empty())
    return Fail("export needs --out, --truth or --versions");
  if ((flags.out == "-") + (flags.truth == "-") + (flags.versions == "-") > 1)
    return Fail("only one of --out, --truth and --versions can be stdout");
  const bool changing = universe->change_model().enabled();
  if ((flags.at != 0 || !flags.versions.empty()) && !changing)
    return Fail("--at and --versions need the change model (--change-mean-interval S)");
  if (flags.at != 0 && !flags.truth.empty())
    return Fail("--truth is the web at t = 0; use --out and --versions with --at");
  if (!flags.truth.empty()) {
    if (int rc = WriteTruthFile(*universe, flags.truth); rc != 0) return rc;
  }
  if (!flags.versions.empty()) {
    const int rc =
        WriteOutput(flags.versions, [&](std::ostream& out) { WriteVersions(*universe, flags.at, out); });
    if (rc != 0) return rc;
  }
  if (flags.out.empty()) return 0;
  return WriteOutput(flags.out, [&](std::ostream& out) {
    universe->ExportTo(
        [&out](const std::string& url, const std::vector<std::string>& outlinks) {
          WriteExportLine(out, url, outlinks);
        },
        flags.at);
  });
}

int CheckPolitenessCommand(const UniverseFlags& options, const std::string& log_path, bool json,
                           const ServeFlags& serve_flags, uint32_t max_per_ip) {
  auto universe = MakeUniverse(options);
  if (!universe.ok()) return Fail(universe.status().message());
  // Every address's peak is reported. It is judged against --max-per-ip
  // when given, else against one connection only when hosts share
  // addresses (with one per host, the per-host count says it all).
  auto addresses = HostAddresses(serve_flags.bind_base, universe->HostCount(), serve_flags.ips);
  if (!addresses.ok()) return Fail(addresses.status().message());
  const bool shared = serve_flags.ips != 0 && serve_flags.ips < universe->HostCount();
  const uint32_t limit = max_per_ip > 0 ? max_per_ip : shared ? 1 : 0;
  std::ifstream in(log_path);
  if (!in) return Fail("cannot open access log " + log_path);
  std::vector<AccessRecord> records;
  std::string line;
  uint64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    auto record = ParseAccessLine(line);
    if (!record.ok()) return Fail(log_path + ":" + std::to_string(number) + ": " + record.status().message());
    records.push_back(std::move(record).value());
  }
  if (in.bad()) return Fail("cannot read access log " + log_path);
  const PolitenessReport report = CheckPoliteness(*universe, std::move(records), &*addresses, limit);
  std::cout << (json ? ToJson(report) : ToText(report));
  std::cout.flush();
  return std::cout ? 0 : Fail("cannot write to stdout");
}

int PageRankCaptured(const std::string& truth_path, const std::string& fetched_path, uint64_t every) {
  std::ifstream truth_in(truth_path);
  if (!truth_in) return Fail("cannot open truth file " + truth_path);
  auto ranks = ParseTruthRanks(truth_in);
  if (!ranks.ok()) return Fail(truth_path + ": " + ranks.status().message());
  std::ifstream fetched_in(fetched_path);
  if (!fetched_in) return Fail("cannot open fetched list " + fetched_path);
  auto fetched = ParseFetched(fetched_in);
  if (!fetched.ok()) return Fail(fetched_path + ": " + fetched.status().message());
  char line[64];
  for (const auto& p : CapturedPageRank(*ranks, *fetched, every)) {
    std::snprintf(line, sizeof line, "%llu\t%.9f\n", static_cast<unsigned long long>(p.pages), p.captured);
    std::cout << line;
  }
  std::cout.flush();
  return std::cout ? 0 : Fail("cannot write to stdout");
}

int Seeds(const UniverseFlags& options) {
  auto universe = MakeUniverse(options);
  if (!universe.ok()) return Fail(universe.status().message());
  for (const auto& seed : universe->Seeds()) std::cout << seed << '\n';
  std::cout.flush();
  return std::cout ? 0 : Fail("cannot write to stdout");
}

void AddExportFlags(CLI::App* exp, ExportFlags& export_flags) {
  exp->add_option("--out", export_flags.out,
                  "The crawlable graph: 'URL<TAB>OUTLINK...' per allowed page, or - for stdout");
  exp->add_option(
      "--truth", export_flags.truth,
      "Ground truth: 'URL<TAB>KIND<TAB>DEPTH<TAB>PAGERANK' per reachable URL, or - for stdout; KIND is "
      "normal, farm, spam (spam preset: spam CLDs), trap, duplicate, disallowed, error, redirect, non-html "
      "(files and "
      "sitemaps) or hostile; traps are cut at 24 months and 20 /deep/ levels");
  exp->add_option("--at", export_flags.at,
                  "Change model: the web at T seconds after its epoch (--out: the graph of pages alive at T)")
      ->check(CLI::Range(0.0, 1e15));
  exp->add_option("--versions", export_flags.versions,
                  "Change model: 'URL<TAB>STATUS<TAB>VERSION<TAB>ETAG<TAB>LAST_MODIFIED<TAB>DIGEST' per page "
                  "at --at (STATUS 200, 404 or 410; the other fields '-' unless 200; LAST_MODIFIED in "
                  "seconds after the epoch; DIGEST FNV-1a 64 of the body), or - for stdout");
}

int Main(int argc, char** argv) {
  // Logs go to stderr: stdout carries export and seeds output.
  spdlog::set_default_logger(spdlog::stderr_color_mt("testweb"));
  CLI::App app("testweb: a deterministic synthetic web on loopback addresses (docs/DESIGN.md §10)");
  app.require_subcommand(1);
  app.footer(
      "Universe flags (serve, export, seeds, check-politeness): --seed S --hosts H --pages P\n"
      "[--preset NAME] [--enable NAMES] [--disable NAMES] [--page-kb K]; 'testweb COMMAND --help'\n"
      "lists a command's flags.\n\n" +
      PresetsAndSwitchesHelp());

  UniverseFlags options;
  ServeFlags serve_flags;

  CLI::App* serve = app.add_subcommand("serve", "Serve the web over HTTP on one loopback address per host");
  AddUniverseFlags(serve, options);
  serve
      ->add_option("--hosts-file", serve_flags.hosts_file,
                   "Where to write 'IP:PORT NAME' lines once listening (the readiness signal)")
      ->required();
  serve->add_option("--port", serve_flags.port, "Port for every host; 0 picks a free one")
      ->check(CLI::Range(0, 65535))
      ->capture_default_str();
  serve->add_option("--access-log", serve_flags.access_log, "Append one line per request to this file");
  serve
      ->add_option("--bind-base", serve_flags.bind_base,
                   "Host i listens on the i-th usable address after this one")
      ->capture_default_str();
  serve
      ->add_option("--ips", serve_flags.ips,
                   "Distinct addresses (host i on the (i % N)-th); 0: one per host. Fewer addresses mean "
                   "fewer listening sockets, but a crawler's per-IP politeness then spans several hosts")
      ->capture_default_str();
  serve
      ->add_option("--clock", serve_flags.clock,
                   "Change model time: real (seconds since start) or logical (set by POST "
                   "/_testweb/clock?t=SECONDS on any host)")
      ->check(CLI::IsMember({"real", "logical"}))
      ->capture_default_str();
  serve->add_flag("--robots-control", serve_flags.robots_control,
                  "Tests: PUT /_testweb/robots on a host replaces its robots.txt with the request body, "
                  "DELETE restores it");
  serve
      ->add_option("--degrading-hosts", serve_flags.degrade.hosts,
                   "Hosts 0..N-1 degrade under load: each answer waits B x (1 + (r/R)^2) ms, r being the "
                   "requests the host received in the last second (testing adaptive pacing)")
      ->capture_default_str();
  serve
      ->add_option("--degrade-base-ms", serve_flags.degrade_base_ms,
                   "B: a degrading host's unloaded latency (ms)")
      ->check(CLI::Range(1, 10'000))
      ->capture_default_str();
  serve
      ->add_option("--degrade-capacity", serve_flags.degrade.capacity,
                   "R: a degrading host's capacity (requests a second); past it latency climbs fast")
      ->check(CLI::Range(0.01, 1e6))
      ->capture_default_str();
  serve->add_option("--threads", serve_flags.threads, "Threads running the io_context")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();

  CLI::App* exp =
      app.add_subcommand("export", "Write the link graph a polite crawler can reach from the seeds");
  AddUniverseFlags(exp, options);
  std::string truth_path;
  ExportFlags export_flags;
  AddExportFlags(exp, export_flags);

  std::string log_path;
  bool json = false;
  CLI::App* polite = app.add_subcommand(
      "check-politeness",
      "Report per-host concurrency, request gaps, Crawl-delay and robots violations of a log");
  AddUniverseFlags(polite, options);
  polite->add_option("log", log_path, "The access log written by 'serve --access-log'")->required();
  polite->add_flag("--json", json, "Print one JSON object (its 'violations' field counts them all)");
  polite
      ->add_option("--ips", serve_flags.ips,
                   "As given to serve: hosts shared N addresses; then each address is judged too (at most "
                   "one connection at a time to it, or --max-per-ip)")
      ->capture_default_str();
  uint32_t max_per_ip = 0;
  polite
      ->add_option("--max-per-ip", max_per_ip,
                   "Judge each address against N connections open at once (default: 1 when --ips makes "
                   "hosts share addresses, else addresses are not judged; their peaks are reported anyway)")
      ->check(CLI::Range(uint32_t{1}, uint32_t{1'000'000}));
  polite->add_option("--bind-base", serve_flags.bind_base, "As given to serve")->capture_default_str();

  std::string fetched_path;
  uint64_t every = 1;
  CLI::App* captured = app.add_subcommand(
      "pagerank-captured", "Print 'K<TAB>CAPTURED' lines: the PageRank a crawl held after its first K pages");
  captured->add_option("--truth", truth_path, "The truth file of 'export --truth'")->required();
  captured
      ->add_option("--fetched", fetched_path,
                   "Fetched URLs in fetch order, one per line (or 'crawlctl log' lines: the first "
                   "http(s):// field); robots.txt lines are skipped")
      ->required();
  captured->add_option("--every", every, "One line every K pages (and after the last)")
      ->check(CLI::Range(uint64_t{1}, UINT64_MAX))
      ->capture_default_str();

  CLI::App* seeds = app.add_subcommand("seeds", "Print the seed URLs, one per line");
  AddUniverseFlags(seeds, options);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return Fail(std::string(e.what()) + " (see --help)");
  }

  if (serve->parsed()) return Serve(options, serve_flags);
  if (exp->parsed()) return Export(options, export_flags);
  if (polite->parsed()) return CheckPolitenessCommand(options, log_path, json, serve_flags, max_per_ip);
  if (captured->parsed()) return PageRankCaptured(truth_path, fetched_path, every);
  if (seeds->parsed()) return Seeds(options);
  return Fail("no subcommand");
}

}  // namespace
}  // namespace crawl::testweb

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  try {
    return crawl::testweb::Main(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "testweb: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "testweb: unexpected error\n");
  }
  return 1;
}
