// Identifier hashes (DESIGN.md section 4): the 8-byte hash is MD5 with its
// first and last 8 bytes XOR-ed; the 7-byte hash is the first 7 bytes of it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace crawl::hash {

// MD5 digest of `data` (RFC 1321).
[[nodiscard]] std::array<uint8_t, 16> Md5(std::string_view data);

// The 8-byte hash as bytes (first 8 MD5 bytes XOR last 8).
[[nodiscard]] std::array<uint8_t, 8> Hash8Bytes(std::string_view data);

// The 8-byte hash read as a big-endian integer (for maps and comparisons).
[[nodiscard]] uint64_t Hash8(std::string_view data);

// Lower-case hex of the 8-byte hash (16 characters).
[[nodiscard]] std::string Hash8Hex(std::string_view data);

// A page body's digest (FetchRecord.content_digest, the crawl log's digest):
// lower-case hex of the first 8 bytes of SHA-1 (16 characters). Not the
// 8-byte hash: a body is kilobytes, not an identifier, and OpenSSL's SHA-1
// (SHA extensions on x86) runs 2.4x faster than its MD5 on this machine.
[[nodiscard]] std::string ContentDigestHex(std::string_view body);

// A page's text hash (FetchRecord.text_hash; its first 7 bytes are the doc
// id's): XXH3-64 of the page's words, one space apart (the xxHash
// specification; its output is frozen since xxHash 0.8.0). Not the 8-byte
// hash: a page's words are kilobytes, never shown nor compared outside the
// cluster, and MD5 of them was 7% of a fetcher's CPU on text-heavy pages.
[[nodiscard]] uint64_t PageTextHash(std::string_view words);

}  // namespace crawl::hash
