#include "common/url/cld.h"

#include <libpsl.h>

#include <boost/asio/ip/address.hpp>
#include <cctype>
#include <vector>

namespace crawl {
namespace {

const psl_ctx_t* Psl() {
  // psl_latest prefers the newer of the system list and the built-in one.
  static const psl_ctx_t* psl = psl_latest(nullptr);
  return psl;
}

std::vector<std::string_view> Labels(std::string_view host) {
  std::vector<std::string_view> labels;
  size_t start = 0;
  while (start <= host.size()) {
    const size_t dot = host.find('.', start);
    const size_t end = dot == std::string_view::npos ? host.size() : dot;
    labels.push_back(host.substr(start, end - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return labels;
}

}  // namespace

Result<CldRule> ParseCldRule(std::string_view name) {
  if (name == "psl") return CldRule::kPublicSuffixList;
  if (name == "simple") return CldRule::kSimple;
  return Status::InvalidArgument("unknown CLD rule '" + std::string(name) + "' (psl or simple)");
}

Result<std::string> CompanyLevelDomain(std::string_view raw, CldRule rule) {
  std::string host(raw);
  if (!host.empty() && host.back() == '.') host.pop_back();
  if (host.empty()) return Status::InvalidArgument("empty host");
  for (char& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (host.front() == '[') return host;  // IPv6 literal
  boost::system::error_code ec;
  boost::asio::ip::make_address(host, ec);
  if (!ec) return host;  // IP literal
  const auto labels = Labels(host);
  for (const auto& l : labels) {
    if (l.empty()) return Status::InvalidArgument("empty label in host '" + host + "'");
  }
  if (rule == CldRule::kSimple) {
    const size_t n = labels.size();
    const size_t keep = (n >= 3 && labels[n - 1].size() == 2 && labels[n - 2].size() == 2) ? 3 : 2;
    if (n <= keep) return host;
    size_t offset = 0;
    for (size_t i = 0; i < n - keep; ++i) offset += labels[i].size() + 1;
    return host.substr(offset);
  }
  const char* registrable = psl_registrable_domain(Psl(), host.c_str());
  if (registrable == nullptr) return host;  // the host is a public suffix itself
  return std::string(registrable);
}

}  // namespace crawl
