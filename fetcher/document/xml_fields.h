// Simple metadata out of XML (OOXML docProps/core.xml, OpenDocument
// meta.xml, EPUB's OPF and container.xml): the text of the first element
// with each wanted local name, and the attributes of elements by local name.
// Internal to fetcher/document/.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "fetcher/document/xml_events.h"

namespace crawl::fetcher::document {

class XmlFields : public XmlHandler {
 public:
  // Collects the text of the first element named each of `texts` (local
  // names, any namespace), and every element named one of `elements` with
  // its attributes (local name -> value, in document order).
  XmlFields(std::vector<std::string> texts, std::vector<std::string> elements);

  void Start(const XmlName& name, const XmlAttributes& attrs) override;
  void End(const XmlName& name) override;
  void Text(std::string_view text) override;

  // "" when absent.
  [[nodiscard]] std::string text(const std::string& local) const;
  struct Element {
    std::string local;
    // By local name; those in a namespace also as "ns:" + local name (an
    // attribute outside any namespace wins the plain key).
    std::map<std::string, std::string> attributes;
  };
  [[nodiscard]] const std::vector<Element>& elements() const { return elements_; }

 private:
  std::vector<std::string> wanted_texts_;
  std::vector<std::string> wanted_elements_;
  std::map<std::string, std::string> texts_;
  std::string current_;  // the wanted element whose text is being read
  size_t current_depth_ = 0;
  size_t depth_ = 0;
  std::vector<Element> elements_;
};

}  // namespace crawl::fetcher::document
