// RocksDB's CRC-32C on the CPU's crc32 instruction.
//
// Debian's librocksdb is built for baseline x86-64, so its
// rocksdb::crc32c::Extend takes the table path (the store's LOG says "Fast
// CRC32 supported: Not supported on x86"). Every WAL record and table block
// is summed that way, a large cost in a queue server. rocksdb_crc32c.cc defines
// rocksdb::crc32c::Extend in our binaries: librocksdb calls it through its
// PLT, so ELF symbol interposition (as for malloc) sends those calls here.
// The sum is the same CRC-32C (Castagnoli, RFC 3720 B.4), so stores written
// by either implementation read with the other; the test checks ours
// against the library's own on random input.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rocksdb::crc32c {
// The interposed function, with librocksdb's signature (util/crc32c.h): the
// CRC-32C of data[0, n) continued from init_crc (a finished CRC; 0 to start).
uint32_t Extend(uint32_t init_crc, const char* data, size_t n);
}  // namespace rocksdb::crc32c

namespace crawl::queueserver {

// "sse4.2" when Extend runs on the crc32 instruction, "table" on a CPU
// without it. QueueStore::Open logs it; the call also keeps this file's
// object (and so the interposing definition) linked into the binary.
const char* RocksdbCrc32cPath();

// The two implementations behind Extend, for the tests. Same contract.
uint32_t Crc32cHardware(uint32_t init_crc, const char* data, size_t n);
uint32_t Crc32cTable(uint32_t init_crc, const char* data, size_t n);

}  // namespace crawl::queueserver
