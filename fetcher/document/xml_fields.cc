// XmlFields (fetcher/document/xml_fields.h).
#include "fetcher/document/xml_fields.h"

#include <algorithm>

namespace crawl::fetcher::document {
namespace {

constexpr size_t kMaxFieldBytes = 64 * 1024;
constexpr size_t kMaxElements = 100'000;

bool Contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

XmlFields::XmlFields(std::vector<std::string> texts, std::vector<std::string> elements)
    : wanted_texts_(std::move(texts)), wanted_elements_(std::move(elements)) {}

void XmlFields::Start(const XmlName& name, const XmlAttributes& attrs) {
  ++depth_;
  if (current_.empty() && Contains(wanted_texts_, name.local) && !texts_.count(std::string(name.local))) {
    current_ = std::string(name.local);
    current_depth_ = depth_;
    texts_[current_];
  }
  if (Contains(wanted_elements_, name.local) && elements_.size() < kMaxElements) {
    Element element{std::string(name.local), {}};
    for (const char* const* a = attrs.raw(); a != nullptr && a[0] != nullptr; a += 2) {
      const std::string_view full(a[0]);
      const size_t sep = full.find('\x01');
      if (sep == std::string_view::npos) {
        element.attributes[std::string(full)] = a[1];
      } else {
        element.attributes["ns:" + std::string(full.substr(sep + 1))] = a[1];
        element.attributes.emplace(std::string(full.substr(sep + 1)), a[1]);
      }
    }
    elements_.push_back(std::move(element));
  }
}

void XmlFields::End(const XmlName&) {
  if (!current_.empty() && depth_ == current_depth_) current_.clear();
  --depth_;
}

void XmlFields::Text(std::string_view text) {
  if (current_.empty()) return;
  std::string& field = texts_[current_];
  if (field.size() < kMaxFieldBytes) field.append(text.substr(0, kMaxFieldBytes - field.size()));
}

std::string XmlFields::text(const std::string& local) const {
  const auto it = texts_.find(local);
  return it == texts_.end() ? std::string() : it->second;
}

}  // namespace crawl::fetcher::document
