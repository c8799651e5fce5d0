// ReadXhtml (fetcher/document/xhtml_text.h); block elements after the HTML
// Standard's rendering section 15.3.
#include "fetcher/document/xhtml_text.h"

#include <algorithm>
#include <string>

#include "fetcher/document/xml_events.h"
#include "fetcher/page/html_entities.h"

namespace crawl::fetcher::document {
namespace {

constexpr std::string_view kBlocks[] = {
    "address", "article",    "aside",  "blockquote", "br",   "caption", "dd",  "div", "dl",
    "dt",      "figcaption", "figure", "footer",     "h1",   "h2",      "h3",  "h4",  "h5",
    "h6",      "header",     "hr",     "li",         "main", "nav",     "ol",  "p",   "pre",
    "section", "table",      "td",     "th",         "tr",   "ul",      "body"};
constexpr std::string_view kSkipped[] = {"head", "script", "style", "template", "noscript"};

template <size_t N>
bool In(const std::string_view (&names)[N], std::string_view name) {
  return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

class XhtmlText : public XmlHandler {
 public:
  XhtmlText(const std::function<bool(std::string_view)>& keep_link, DocumentText* text)
      : keep_link_(keep_link), text_(text) {}

  void Start(const XmlName& name, const XmlAttributes& attrs) override {
    if (In(kSkipped, name.local)) ++skipped_;
    if (skipped_ > 0) return;
    if (In(kBlocks, name.local)) text_->EndParagraph();
    if (name.local == "td" || name.local == "th") text_->Append(" ");
    if (name.local == "a") {
      href_ = std::string(attrs.GetLocal("href"));
      in_link_ = !href_.empty() && keep_link_(href_);
      anchor_.clear();
    }
  }

  void End(const XmlName& name) override {
    if (In(kSkipped, name.local)) {
      --skipped_;
      return;
    }
    if (skipped_ > 0) return;
    if (In(kBlocks, name.local)) text_->EndParagraph();
    if (name.local == "a" && in_link_) {
      text_->AddLink(href_, anchor_);
      in_link_ = false;
    }
  }

  void Text(std::string_view text) override {
    if (skipped_ > 0) return;
    text_->Append(text);
    if (in_link_ && anchor_.size() < 1024) anchor_.append(text);
  }

  void SkippedEntity(std::string_view name) override {
    if (name.size() > 40) return;
    const std::string reference = "&" + std::string(name) + ";";
    char buf[8];
    std::string_view decoded;
    if (html::internal::DecodeReference(reference, 0, false, buf, &decoded) > 0) Text(decoded);
  }

  [[nodiscard]] bool WantsMore() const override { return !text_->full(); }

 private:
  const std::function<bool(std::string_view)>& keep_link_;
  DocumentText* text_;
  int skipped_ = 0;
  bool in_link_ = false;
  std::string href_;
  std::string anchor_;
};

}  // namespace

Status ReadXhtml(std::string_view xhtml, const std::function<bool(std::string_view)>& keep_link,
                 DocumentText* text) {
  XhtmlText handler(keep_link, text);
  Status status = ParseXml(xhtml, handler);
  text->EndParagraph();
  return status;
}

}  // namespace crawl::fetcher::document
