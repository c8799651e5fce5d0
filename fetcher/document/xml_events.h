// A bounded XML event reader over expat for the document formats (OOXML,
// OpenDocument, EPUB's OPF and XHTML): namespace-aware element and text
// events, an element depth limit, expat's billion-laughs protection
// (amplification capped, expat >= 2.4), no external entities or DTDs ever
// loaded. Internal to fetcher/document/.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/base/status.h"

namespace crawl::fetcher::document {

// An element or attribute name: its namespace URI ("" when none) and local
// name.
struct XmlName {
  std::string_view uri;
  std::string_view local;
  [[nodiscard]] bool Is(std::string_view u, std::string_view l) const { return local == l && uri == u; }
};

// Attributes as expat passes them: name, value, ..., nullptr.
class XmlAttributes {
 public:
  explicit XmlAttributes(const char** attrs) : attrs_(attrs) {}
  // The value of the attribute with local name `local` in namespace `uri`,
  // or "" when absent.
  [[nodiscard]] std::string_view Get(std::string_view uri, std::string_view local) const;
  // The same, in any namespace or none.
  [[nodiscard]] std::string_view GetLocal(std::string_view local) const;
  // Names are "URI\x01local" (or "local" outside any namespace).
  [[nodiscard]] const char* const* raw() const { return attrs_; }

 private:
  const char** attrs_;
};

class XmlHandler {
 public:
  virtual ~XmlHandler() = default;
  virtual void Start(const XmlName& name, const XmlAttributes& attrs) = 0;
  virtual void End(const XmlName& name) = 0;
  // Character data, UTF-8, in pieces.
  virtual void Text(std::string_view text) = 0;
  // A reference to an entity the document did not declare (XHTML's
  // &nbsp; under an unread DTD); ignored by default.
  virtual void SkippedEntity(std::string_view /*name*/) {}
  // False stops the parse early without an error (e.g. the text is full).
  [[nodiscard]] virtual bool WantsMore() const { return true; }
};

struct XmlLimits {
  size_t max_depth = 256;
};

// Parses `xml` whole, passing events to `handler`. An error for XML that is
// not well-formed, deeper than max_depth, or whose entities amplify it.
[[nodiscard]] Status ParseXml(std::string_view xml, XmlHandler& handler, const XmlLimits& limits = {});

}  // namespace crawl::fetcher::document
