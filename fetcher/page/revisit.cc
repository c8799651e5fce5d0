// Validators, freshness and revisits of a fetch (revisit.h).
#include "fetcher/page/revisit.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include "fetcher/http/http_date.h"

namespace crawl::fetcher {
namespace {

// Case-insensitive ASCII comparison.
bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string KeepableValidator(std::string_view v) {
  if (v.size() > kMaxValidatorBytes) return {};
  const bool printable = std::all_of(v.begin(), v.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x7f;
  });
  return printable ? std::string(v) : std::string();
}

int64_t MaxAgeSeconds(std::string_view cache_control) {
  while (!cache_control.empty()) {
    const size_t comma = cache_control.find(',');
    std::string_view directive = Trim(cache_control.substr(0, comma));
    cache_control = comma == std::string_view::npos ? std::string_view() : cache_control.substr(comma + 1);
    const size_t eq = directive.find('=');
    if (eq == std::string_view::npos || !EqualsIgnoreCase(Trim(directive.substr(0, eq)), "max-age")) continue;
    std::string_view value = Trim(directive.substr(eq + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
      value = value.substr(1, value.size() - 2);
    if (value.empty()) return -1;
    int64_t seconds = 0;
    for (char c : value) {
      if (c < '0' || c > '9') return -1;
      // RFC 9111 1.2.2: a delta-seconds too large to hold is 2^31.
      if (seconds > (int64_t{1} << 31)) continue;
      seconds = seconds * 10 + (c - '0');
    }
    return std::min<int64_t>(seconds, int64_t{1} << 31);
  }
  return -1;
}

int64_t ExpiresUnixSeconds(std::string_view cache_control, std::string_view expires,
                           int64_t fetch_start_unix_s) {
  if (const int64_t max_age = MaxAgeSeconds(cache_control); max_age >= 0) return fetch_start_unix_s + max_age;
  if (expires.empty()) return 0;
  // RFC 9111 5.3: an invalid Expires (e.g. "0") means already expired; we
  // keep 0 ("unknown") for it as for none: the recrawl policy decides.
  return ParseHttpDate(expires).value_or(0);
}

bool NoteValidators(const v1::ScheduledUrl& scheduled, const FetchResult& result, v1::FetchRecord* record) {
  record->set_conditional(result.conditional);
  if (result.status <= 0) return false;
  record->set_etag(KeepableValidator(result.etag));
  record->set_last_modified(KeepableValidator(result.last_modified));
  record->set_expires_unix_s(
      ExpiresUnixSeconds(result.cache_control, result.expires, result.start_unix_us / 1'000'000));
  if (scheduled.kind() != v1::URL_KIND_PAGE) return false;
  // A 304 answers a conditional request only; to an unconditional one it is
  // a server error, reported as any other status.
  if (result.status == 304 && result.conditional) {
    record->set_revisit(v1::REVISIT_NOT_MODIFIED);
    record->set_content_digest(scheduled.previous_digest());
    return true;
  }
  const bool success = result.status >= 200 && result.status < 300;
  if (success && !scheduled.previous_digest().empty() &&
      record->content_digest() == scheduled.previous_digest()) {
    record->set_revisit(v1::REVISIT_IDENTICAL_DIGEST);
    return true;
  }
  return false;
}

}  // namespace crawl::fetcher
