// A fresh directory under the system's temp directory for one test, removed
// with everything in it when the TempDir goes.
#pragma once

#include <filesystem>
#include <random>
#include <string>
#include <system_error>

namespace crawl::test_support {

struct TempDir {
  TempDir() {
    std::random_device rd;
    path = std::filesystem::temp_directory_path() /
           ("crawl-unit." + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::filesystem::path path;
};

}  // namespace crawl::test_support
