// RocksDB's CRC-32C on the crc32 instruction (see rocksdb_crc32c.h).
#include "queueserver/store/rocksdb_crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace crawl::queueserver {
namespace {

// The reflected Castagnoli polynomial (RFC 3720 B.4).
constexpr uint32_t kCastagnoli = 0x82F63B78u;

constexpr std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t byte = 0; byte < 256; ++byte) {
    uint32_t crc = byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1u) ? kCastagnoli : 0u);
    table[byte] = crc;
  }
  return table;
}

constexpr std::array<uint32_t, 256> kTable = MakeTable();

bool CpuHasCrc32Instruction() {
#if defined(__x86_64__)
  // This runs from a static initializer, maybe before libgcc's own.
  __builtin_cpu_init();
  return __builtin_cpu_supports("sse4.2");
#else
  return false;
#endif
}

const bool kUseHardware = CpuHasCrc32Instruction();

}  // namespace

uint32_t Crc32cTable(uint32_t init_crc, const char* data, size_t n) {
  uint32_t crc = ~init_crc;
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) crc = kTable[(crc ^ p[i]) & 0xFFu] ^ (crc >> 8);
  return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t Crc32cHardware(uint32_t init_crc, const char* data, size_t n) {
  uint64_t crc = ~init_crc;
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  // Bytes up to an 8-byte boundary, then eight at a time, then the tail.
  while (n > 0 && (reinterpret_cast<uintptr_t>(p) & 7u) != 0) {
    crc = _mm_crc32_u8(static_cast<uint32_t>(crc), *p++);
    --n;
  }
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t word;
    std::memcpy(&word, p, sizeof word);
    crc = _mm_crc32_u64(crc, word);
  }
  for (; n > 0; --n) crc = _mm_crc32_u8(static_cast<uint32_t>(crc), *p++);
  return ~static_cast<uint32_t>(crc);
}
#else
uint32_t Crc32cHardware(uint32_t init_crc, const char* data, size_t n) {
  return Crc32cTable(init_crc, data, n);
}
#endif

const char* RocksdbCrc32cPath() { return kUseHardware ? "sse4.2" : "table"; }

}  // namespace crawl::queueserver

namespace rocksdb::crc32c {

uint32_t Extend(uint32_t init_crc, const char* data, size_t n) {
  return crawl::queueserver::kUseHardware ? crawl::queueserver::Crc32cHardware(init_crc, data, n)
                                          : crawl::queueserver::Crc32cTable(init_crc, data, n);
}

}  // namespace rocksdb::crc32c
