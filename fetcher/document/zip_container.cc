// ZipContainer over libzip (fetcher/document/zip_container.h).
#include "fetcher/document/zip_container.h"

#include <zip.h>

#include <algorithm>
#include <vector>

namespace crawl::fetcher::document {
namespace {

constexpr size_t kChunk = 64 * 1024;

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string PercentDecoded(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      const int hi = HexValue(s[i + 1]), lo = HexValue(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(s[i]);
  }
  return out;
}

}  // namespace

Result<std::unique_ptr<ZipContainer>> ZipContainer::Open(std::string_view body,
                                                         const DocumentLimits& limits) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(body.data(), body.size(), 0, &error);
  if (source == nullptr) {
    zip_error_fini(&error);
    return Status::InvalidArgument("zip: cannot read the body");
  }
  zip_t* archive = zip_open_from_source(source, ZIP_RDONLY, &error);
  if (archive == nullptr) {
    std::string message = std::string("not a zip container: ") + zip_error_strerror(&error);
    zip_source_free(source);
    zip_error_fini(&error);
    return Status::InvalidArgument(std::move(message));
  }
  zip_error_fini(&error);
  const zip_int64_t entries = zip_get_num_entries(archive, 0);
  if (entries < 0 || static_cast<uint64_t>(entries) > limits.max_zip_entries) {
    zip_discard(archive);
    return Status::InvalidArgument("zip: " + std::to_string(entries) + " entries, over the limit of " +
                                   std::to_string(limits.max_zip_entries));
  }
  return std::unique_ptr<ZipContainer>(new ZipContainer(archive, limits.max_inflated_bytes));
}

ZipContainer::~ZipContainer() { zip_discard(archive_); }

bool ZipContainer::Has(std::string_view name) const {
  return zip_name_locate(archive_, std::string(name).c_str(), 0) >= 0;
}

Result<std::string> ZipContainer::Read(std::string_view name) {
  const std::string key(name);
  const zip_int64_t index = zip_name_locate(archive_, key.c_str(), 0);
  if (index < 0) return Status::NotFound("zip: no entry " + key);
  zip_stat_t stat;
  zip_stat_init(&stat);
  const bool sized = zip_stat_index(archive_, static_cast<zip_uint64_t>(index), 0, &stat) == 0 &&
                     (stat.valid & ZIP_STAT_SIZE) != 0;
  zip_file_t* file = zip_fopen_index(archive_, static_cast<zip_uint64_t>(index), 0);
  if (file == nullptr) return Status::InvalidArgument("zip: cannot open entry " + key);
  std::string out;
  if (sized) out.reserve(std::min<size_t>(stat.size, budget_ - inflated_));
  std::vector<char> chunk(kChunk);
  while (true) {
    const zip_int64_t got = zip_fread(file, chunk.data(), chunk.size());
    if (got < 0) {
      zip_fclose(file);
      return Status::InvalidArgument("zip: entry " + key + " is broken");
    }
    if (got == 0) break;
    const size_t n = static_cast<size_t>(got);
    if (n > budget_ - inflated_) {
      inflated_ = budget_;
      zip_fclose(file);
      return Status::InvalidArgument("zip: entry " + key + " inflates past the limit of " +
                                     std::to_string(budget_) + " bytes");
    }
    inflated_ += n;
    out.append(chunk.data(), n);
  }
  zip_fclose(file);
  return out;
}

std::string ResolvePartPath(std::string_view base_dir, std::string_view target) {
  target = target.substr(0, target.find('#'));
  const std::string decoded = PercentDecoded(target);
  std::string joined =
      !decoded.empty() && decoded[0] == '/' ? decoded.substr(1) : std::string(base_dir) + decoded;
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= joined.size()) {
    size_t end = joined.find('/', start);
    if (end == std::string::npos) end = joined.size();
    const std::string part = joined.substr(start, end - start);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    start = end + 1;
  }
  std::string out;
  for (const auto& part : parts) {
    if (!out.empty()) out.push_back('/');
    out += part;
  }
  return out;
}

std::string PartFolder(std::string_view part) {
  const size_t slash = part.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(part.substr(0, slash + 1));
}

}  // namespace crawl::fetcher::document
