#include "common/base/cli.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <iostream>

#include "common/base/atomic_file.h"
#include "common/base/clock_skew.h"
#include "common/base/process.h"
#include "common/net/admin_http.h"

namespace crawl {

void AddLoggingFlags(CLI::App& app, LoggingFlags& flags) {
  app.add_option("--log-level", flags.level, "trace, debug, info, warn, error")->capture_default_str();
  app.add_option("--log-file", flags.file, "Log to this file instead of stderr");
  // docs/DESIGN.md §9: every flag may also come from a TOML file (`name = value`,
  // names as the long flags without dashes); flags on the command line win.
  app.set_config("--config", "", "Read flags from this TOML file (e.g. data-dir = \"/var/lib/crawl\")");
}

Status PrepareProcess(const std::string& process_name, const LoggingFlags& logging,
                      const std::string& data_dir) {
  if (auto s = InitLogging(process_name, logging.level, logging.file); !s.ok()) return s;
  StartClockSkewFromEnvironment();
  if (!data_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(data_dir, ec);
    if (ec) return Status::IoError("cannot create --data-dir " + data_dir + ": " + ec.message());
  }
  return Status::Ok();
}

std::optional<int> ParseCommandLine(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return std::nullopt;
}

void AddHttpFlags(CLI::App& app, HttpFlags& flags) {
  app.add_option("--http-listen", flags.listen,
                 "HTTP address host:port for /metrics (Prometheus), /healthz and pages; port 0 picks a "
                 "free one; 'off' disables it")
      ->capture_default_str();
  app.add_option("--http-port-file", flags.port_file, "Write the bound HTTP port here once listening");
  app.add_option(
      "--http-host", flags.hosts,
      "A Host name (or address) HTTP requests may use besides localhost, 127.0.0.0/8, [::1] and the "
      "--http-listen address; repeatable. Others get 421 (DNS rebinding defence; /healthz answers "
      "any). With a wildcard listen (0.0.0.0, ::) the machine's names are unknown: name them here. "
      "An empty value adds nothing");
  app.add_option("--http-tls-cert", flags.tls_cert,
                 "PEM certificate chain: serve HTTPS only (with --http-tls-key)");
  app.add_option("--http-tls-key", flags.tls_key, "PEM private key of --http-tls-cert");
}

Status ValidateHttpFlags(const HttpFlags& flags) {
  if (flags.listen.empty() || flags.listen == "off") return Status::Ok();
  if (auto s = ValidateHostPort(flags.listen); !s.ok())
    return Status::InvalidArgument("--http-listen: " + s.message());
  if (flags.tls_cert.empty() != flags.tls_key.empty())
    return Status::InvalidArgument("--http-tls-cert and --http-tls-key go together");
  for (const auto& h : flags.hosts)
    if (h.find_first_of(" /\t@") != std::string::npos)
      return Status::InvalidArgument("--http-host: not a host name: '" + h + "'");
  return Status::Ok();
}

Status StartAdminHttp(const std::string& process_name, const HttpFlags& flags, AdminHttpServer& server) {
  if (flags.listen.empty() || flags.listen == "off") return Status::Ok();
  if (auto s = ValidateHttpFlags(flags); !s.ok()) return s;
  if (!flags.tls_cert.empty()) {
    if (auto s = server.UseTls(flags.tls_cert, flags.tls_key); !s.ok()) return s;
  }
  server.AllowHostNames(flags.hosts);
  auto port = server.Start(flags.listen);
  if (!port.ok()) return Status::Unavailable("--http-listen: " + port.status().message());
  spdlog::info("{} metrics at {}://{}:{}/metrics", process_name, flags.tls_cert.empty() ? "http" : "https",
               flags.listen.substr(0, flags.listen.rfind(':')), *port);
  if (!flags.port_file.empty()) return WriteFileAtomically(flags.port_file, std::to_string(*port) + "\n");
  return Status::Ok();
}

int FailStartup(std::string_view process, std::string_view message) {
  std::cerr << process << ": " << message << "\n";
  return 1;
}

}  // namespace crawl
