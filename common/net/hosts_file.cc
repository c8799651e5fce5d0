// See hosts_file.h for the format.
#include "common/net/hosts_file.h"

#include <algorithm>
#include <boost/system/error_code.hpp>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace crawl {
namespace {

std::string NormalizeName(std::string_view name) {
  if (!name.empty() && name.back() == '.') name.remove_suffix(1);
  std::string out(name);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// Letters, digits, '-', '_', '.': what a test or intranet host name uses.
bool ValidName(std::string_view name) {
  if (name.empty() || name.size() > 253) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return name.front() != '.';
}

std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) fields.push_back(line.substr(i, j - i));
    i = j;
  }
  return fields;
}

// Parses "ADDRESS[:PORT]"; returns an error message or "" on success.
std::string ParseAddress(std::string_view field, HostsFile::Entry& entry) {
  std::string_view addr = field;
  std::string_view port;
  if (!field.empty() && field.front() == '[') {
    const size_t close = field.find(']');
    if (close == std::string_view::npos) return "missing ']' in '" + std::string(field) + "'";
    addr = field.substr(1, close - 1);
    std::string_view rest = field.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':' || rest.size() == 1) return "bad port in '" + std::string(field) + "'";
      port = rest.substr(1);
    }
    boost::system::error_code ec;
    auto v6 = boost::asio::ip::make_address_v6(std::string(addr), ec);
    if (ec) return "bad IPv6 address '" + std::string(addr) + "'";
    entry.address = v6;
  } else {
    const size_t colons = static_cast<size_t>(std::count(field.begin(), field.end(), ':'));
    if (colons == 1) {
      const size_t colon = field.find(':');
      addr = field.substr(0, colon);
      port = field.substr(colon + 1);
      if (port.empty()) return "bad port in '" + std::string(field) + "'";
    }
    boost::system::error_code ec;
    if (colons == 1 || colons == 0) {
      auto v4 = boost::asio::ip::make_address_v4(std::string(addr), ec);
      if (ec) return "bad IPv4 address '" + std::string(addr) + "'";
      entry.address = v4;
    } else {
      auto v6 = boost::asio::ip::make_address_v6(std::string(addr), ec);
      if (ec) return "bad address '" + std::string(addr) + "' (write IPv6 with a port as [ADDR]:PORT)";
      entry.address = v6;
    }
  }
  entry.port.reset();
  if (!port.empty()) {
    unsigned value = 0;
    auto [end, err] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (err != std::errc() || end != port.data() + port.size() || value == 0 || value > 65535) {
      return "bad port '" + std::string(port) + "'";
    }
    entry.port = static_cast<uint16_t>(value);
  }
  return "";
}

}  // namespace

Result<HostsFile> HostsFile::Load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno;
    if (err == ENOENT) return Status::NotFound("hosts file " + path + ": no such file");
    return Status::IoError("hosts file " + path + ": cannot open: " + std::strerror(err));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Status::IoError("hosts file " + path + ": read error");
  return Parse(text.str(), path);
}

Result<HostsFile> HostsFile::Parse(std::string_view text, std::string_view source) {
  HostsFile hosts;
  size_t line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const auto fields = Fields(line);
    if (fields.empty()) continue;
    auto error = [&](const std::string& what) {
      return Status::InvalidArgument(std::string(source) + ":" + std::to_string(line_no) + ": " + what);
    };
    if (fields.size() < 2) return error("expected 'ADDRESS[:PORT] NAME [NAME...]'");
    Entry entry;
    if (std::string message = ParseAddress(fields[0], entry); !message.empty()) return error(message);
    for (size_t i = 1; i < fields.size(); ++i) {
      std::string name = NormalizeName(fields[i]);
      if (!ValidName(name)) return error("bad host name '" + std::string(fields[i]) + "'");
      hosts.entries_.emplace(std::move(name), entry);  // first mapping wins
    }
  }
  return hosts;
}

std::optional<HostsFile::Entry> HostsFile::Lookup(std::string_view name) const {
  auto it = entries_.find(NormalizeName(name));
  if (it == entries_.end()) return std::nullopt;
  return it->second;
}

}  // namespace crawl
