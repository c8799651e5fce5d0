// Command-line pieces every server binary shares (CLI11): logging flags, the
// data directory, and the one-line start-up failure.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"

namespace crawl {

struct LoggingFlags {
  std::string level = "info";
  std::string file;  // empty: stderr
};

// Adds --log-level, --log-file and --config (flags from a TOML file).
void AddLoggingFlags(CLI::App& app, LoggingFlags& flags);

// The admin HTTP endpoint (common/net/admin_http.h: /metrics, /healthz, pages).
struct HttpFlags {
  std::string listen = "127.0.0.1:0";  // "" or "off": no HTTP endpoint
  std::string port_file;
  std::vector<std::string> hosts;  // Host names answered besides loopback and the listen address
  std::string tls_cert, tls_key;   // both set: HTTPS only
};

// Adds --http-listen, --http-port-file, --http-host, --http-tls-cert and
// --http-tls-key.
void AddHttpFlags(CLI::App& app, HttpFlags& flags);

// Checks the flags before anything starts.
[[nodiscard]] Status ValidateHttpFlags(const HttpFlags& flags);

class AdminHttpServer;
// Starts `server` as the flags say (after the caller added its routes),
// logs the address and writes the port file. Returns the first problem.
[[nodiscard]] Status StartAdminHttp(const std::string& process_name, const HttpFlags& flags,
                                    AdminHttpServer& server);

// Applies the logging flags (InitLogging) and creates `data_dir` if it is
// given. Returns the first problem, phrased for the user.
[[nodiscard]] Status PrepareProcess(const std::string& process_name, const LoggingFlags& logging,
                                    const std::string& data_dir);

// Parses the command line. Returns nothing when the program should go on,
// or the exit code CLI11 chose (0 after --help, non-zero for a bad flag,
// with its message printed).
[[nodiscard]] std::optional<int> ParseCommandLine(CLI::App& app, int argc, char** argv);

// Prints "<process>: <message>" on stderr and returns the exit code 1.
int FailStartup(std::string_view process, std::string_view message);

}  // namespace crawl
