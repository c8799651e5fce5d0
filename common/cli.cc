#include "common/cli.h"

#include <filesystem>
#include <iostream>

#include "common/process.h"

namespace crawl {

void AddLoggingFlags(CLI::App& app, LoggingFlags& flags) {
  app.add_option("--log-level", flags.level, "trace, debug, info, warn, error")->capture_default_str();
  app.add_option("--log-file", flags.file, "Log to this file instead of stderr");
}

Status PrepareProcess(const std::string& process_name, const LoggingFlags& logging, const std::string& data_dir) {
  if (auto s = InitLogging(process_name, logging.level, logging.file); !s.ok()) return s;
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

int FailStartup(std::string_view process, std::string_view message) {
  std::cerr << process << ": " << message << "\n";
  return 1;
}

}  // namespace crawl
