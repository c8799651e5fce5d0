#include "common/security/admin_tokens.h"

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include "common/base/process.h"

namespace crawl::security {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

Result<TokenEntry> ParseLine(std::string_view line) {
  const auto fields = Fields(line);
  if (fields.size() != 3) return Status::InvalidArgument("expected 'role sha256hex name'");
  auto role = ParseRole(fields[0]);
  if (!role || (*role != Role::kAdmin && *role != Role::kReader))
    return Status::InvalidArgument("role must be admin or reader");
  if (fields[1].size() != 64) return Status::InvalidArgument("the hash must be 64 hex digits (SHA-256)");
  TokenEntry entry;
  entry.role = *role;
  for (size_t i = 0; i < 32; ++i) {
    const int hi = HexValue(fields[1][2 * i]);
    const int lo = HexValue(fields[1][2 * i + 1]);
    if (hi < 0 || lo < 0) return Status::InvalidArgument("the hash must be 64 hex digits (SHA-256)");
    entry.hash[i] = static_cast<uint8_t>(hi * 16 + lo);
  }
  entry.name = std::string(fields[2]);
  return entry;
}

}  // namespace

Sha256 HashToken(std::string_view token) {
  Sha256 out{};
  SHA256(reinterpret_cast<const unsigned char*>(token.data()), token.size(), out.data());
  return out;
}

std::string Sha256Hex(std::string_view token) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : HashToken(token)) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

Result<std::vector<TokenEntry>> ParseTokenFile(std::string_view text) {
  std::vector<TokenEntry> entries;
  size_t line_no = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') continue;
    auto entry = ParseLine(line);
    if (!entry.ok())
      return Status::InvalidArgument("line " + std::to_string(line_no) + ": " + entry.status().message());
    entries.push_back(std::move(*entry));
  }
  return entries;
}

std::optional<std::string_view> BearerToken(std::string_view header) {
  constexpr std::string_view kBearer = "Bearer ";
  if (header.size() <= kBearer.size() || header.substr(0, kBearer.size()) != kBearer) return std::nullopt;
  std::string_view token = header.substr(kBearer.size());
  if (token.find_first_of(" \t\r\n") != std::string_view::npos) return std::nullopt;
  return token;
}

Status AdminTokens::Load(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return Status::InvalidArgument("admin tokens: " + text.status().message());
  auto entries = ParseTokenFile(*text);
  if (!entries.ok())
    return Status::InvalidArgument("admin tokens " + path + ": " + entries.status().message());
  MutexLock lock(mu_);
  path_ = path;
  entries_ = std::move(*entries);
  return Status::Ok();
}

Status AdminTokens::Reload() {
  std::string path;
  {
    MutexLock lock(mu_);
    path = path_;
  }
  if (path.empty()) return Status::Ok();
  return Load(path);
}

void AdminTokens::Set(std::vector<TokenEntry> entries) {
  MutexLock lock(mu_);
  entries_ = std::move(entries);
}

std::optional<TokenMatch> AdminTokens::Match(std::string_view token) const {
  const Sha256 hash = HashToken(token);
  MutexLock lock(mu_);
  const TokenEntry* found = nullptr;
  for (const TokenEntry& e : entries_) {
    // No early exit: every entry is compared, each in constant time.
    if (CRYPTO_memcmp(e.hash.data(), hash.data(), hash.size()) == 0) found = &e;
  }
  if (found == nullptr) return std::nullopt;
  return TokenMatch{found->role, found->name};
}

size_t AdminTokens::size() const {
  MutexLock lock(mu_);
  return entries_.size();
}

}  // namespace crawl::security
