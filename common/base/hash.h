// Identifier hashes (docs/DESIGN.md §4): the 8-byte hash is MD5 with its
// first and last 8 bytes XOR-ed; the 7-byte hash is the first 7 bytes of it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace crawl::hash {

// MD5 digest of `data` (RFC 1321), computed here (common/base/md5.cc), not by
// OpenSSL: every URL, host and term of a crawl is hashed, in the fetchers
// and the queue servers, and each EVP call paid for a context reset, an init
// check and a secure wipe (OPENSSL_cleanse) besides the digest, which
// dominates for short strings. Identifiers, not security; a test checks every length
// against OpenSSL's digest.
[[nodiscard]] std::array<uint8_t, 16> Md5(std::string_view data);

// The 8-byte hash as bytes (first 8 MD5 bytes XOR last 8).
[[nodiscard]] std::array<uint8_t, 8> Hash8Bytes(std::string_view data);

// The 8-byte hash read as a big-endian integer (for maps and comparisons).
[[nodiscard]] uint64_t Hash8(std::string_view data);

// Hash8 of a string met again and again (a URL, a host), remembered per
// thread for the last 65,536 such strings of up to 512 bytes: a page's
// navigation links come back on every page of its site, and MD5 of a URL
// costs several times a lookup. Always the same value as Hash8.
[[nodiscard]] uint64_t RecurringHash8(std::string_view data);

// Lower-case hex of the 8-byte hash (16 characters).
[[nodiscard]] std::string Hash8Hex(std::string_view data);

// A page body's digest (FetchRecord.content_digest, the crawl log's digest):
// XXH3-64 of the body in lower-case hex, most significant byte first (16
// characters; what `xxhsum -H3` prints). Not the 8-byte hash: a body is
// kilobytes, not an identifier, and the digest only tells a changed page
// from an unchanged one (a cryptographic hash of every body is
// costly; WARC records carry their own SHA-1).
[[nodiscard]] std::string ContentDigestHex(std::string_view body);

// A page's text hash (FetchRecord.text_hash; its first 7 bytes are the doc
// id's): XXH3-64 of the page's words, one space apart (the xxHash
// specification; its output is frozen since xxHash 0.8.0). Not the 8-byte
// hash: a page's words are kilobytes, never shown nor compared outside the
// cluster, and MD5 of them is costly on text-heavy pages.
[[nodiscard]] uint64_t PageTextHash(std::string_view words);

}  // namespace crawl::hash
