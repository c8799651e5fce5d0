// RocksDB's CRC-32C on the crc32 instruction (queueserver/store/rocksdb_crc32c.h):
// the published vectors, agreement with librocksdb's own implementation, and
// the interposition itself.
#include "queueserver/store/rocksdb_crc32c.h"

#include <dlfcn.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace crawl::queueserver {
namespace {

constexpr const char* kExtendSymbol = "_ZN7rocksdb6crc32c6ExtendEjPKcm";
using ExtendFn = uint32_t (*)(uint32_t, const char*, size_t);

// librocksdb's own Extend: the definition after ours in the lookup order.
ExtendFn LibraryExtend() { return reinterpret_cast<ExtendFn>(dlsym(RTLD_NEXT, kExtendSymbol)); }

uint32_t Whole(ExtendFn fn, const std::string& s) { return fn(0, s.data(), s.size()); }

const std::vector<std::pair<std::string, ExtendFn>>& Implementations() {
  static const std::vector<std::pair<std::string, ExtendFn>> all = {
      {"hardware", &Crc32cHardware},
      {"table", &Crc32cTable},
      {"interposed Extend", &rocksdb::crc32c::Extend}};
  return all;
}

// RFC 3720 B.4 "CRC Examples", and the usual check value of "123456789".
TEST_CASE("every crc32c implementation gives the RFC 3720 values", "[unit]") {
  std::string ascending(32, '\0');
  std::string descending(32, '\0');
  for (int i = 0; i < 32; ++i) {
    ascending[i] = static_cast<char>(i);
    descending[i] = static_cast<char>(31 - i);
  }
  for (const auto& [name, fn] : Implementations()) {
    INFO(name);
    CHECK(Whole(fn, std::string(32, '\0')) == 0x8A9136AAu);
    CHECK(Whole(fn, std::string(32, '\xFF')) == 0x62A8AB43u);
    CHECK(Whole(fn, ascending) == 0x46DD794Eu);
    CHECK(Whole(fn, descending) == 0x113FDB5Cu);
    CHECK(Whole(fn, "123456789") == 0xE3069283u);
    CHECK(Whole(fn, "") == 0u);
  }
}

TEST_CASE("crc32c agrees with librocksdb's own at every length, alignment and start", "[unit]") {
  const ExtendFn library = LibraryExtend();
  REQUIRE(library != nullptr);
  REQUIRE(library != &rocksdb::crc32c::Extend);
  std::mt19937_64 rng(20261128);
  std::vector<char> buffer(400);
  for (char& c : buffer) c = static_cast<char>(rng());
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t length = 0; length <= 300; ++length) {
      const auto init = static_cast<uint32_t>(rng());
      const uint32_t expected = library(init, buffer.data() + offset, length);
      for (const auto& [name, fn] : Implementations()) {
        INFO(name << " offset " << offset << " length " << length);
        REQUIRE(fn(init, buffer.data() + offset, length) == expected);
      }
    }
  }
}

TEST_CASE("crc32c continued chunk by chunk equals the whole, as the library's", "[unit]") {
  const ExtendFn library = LibraryExtend();
  REQUIRE(library != nullptr);
  std::mt19937_64 rng(7);
  std::string megabyte(1u << 20, '\0');
  for (char& c : megabyte) c = static_cast<char>(rng());
  const uint32_t whole = library(0, megabyte.data(), megabyte.size());
  for (const auto& [name, fn] : Implementations()) {
    INFO(name);
    CHECK(fn(0, megabyte.data(), megabyte.size()) == whole);
    uint32_t crc = 0;
    for (size_t at = 0; at < megabyte.size();) {
      const size_t chunk = std::min<size_t>(megabyte.size() - at, rng() % 5000);
      crc = fn(crc, megabyte.data() + at, chunk);
      at += chunk;
    }
    CHECK(crc == whole);
  }
}

// librocksdb calls Extend through its PLT, so the symbol the dynamic linker
// finds first is the one RocksDB's WAL and tables use.
TEST_CASE("librocksdb's calls to crc32c::Extend land on ours", "[unit]") {
  void* first = dlsym(RTLD_DEFAULT, kExtendSymbol);
  CHECK(first == reinterpret_cast<void*>(&rocksdb::crc32c::Extend));
#if defined(__x86_64__)
  __builtin_cpu_init();
  CHECK(std::string(RocksdbCrc32cPath()) == (__builtin_cpu_supports("sse4.2") ? "sse4.2" : "table"));
#endif
}

}  // namespace
}  // namespace crawl::queueserver
