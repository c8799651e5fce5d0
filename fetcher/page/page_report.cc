// `crawlctl page` report (page_report.h).
#include "fetcher/page/page_report.h"

#include <google/protobuf/util/json_util.h>

#include "common/base/json.h"
#include "common/text/packed_terms.h"
#include "common/url/url.h"
#include "fetcher/page/page_processor.h"

namespace crawl::fetcher {
namespace {

std::string LowerExtension(std::string_view name) {
  const std::size_t slash = name.find_last_of('/');
  if (slash != std::string_view::npos) name.remove_prefix(slash + 1);
  const std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos) return {};
  std::string ext;
  for (char c : name.substr(dot + 1)) ext.push_back((c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c);
  return ext;
}

// `m` in protobuf's own JSON mapping (a library too), read back to sit in
// the one object Boost.JSON prints.
Result<boost::json::value> ToJson(const google::protobuf::Message& m) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  std::string out;
  const auto status = google::protobuf::util::MessageToJsonString(m, &out, options);
  if (!status.ok())
    return Status(StatusCode::kInternal, "JSON rendering failed: " + std::string(status.message()));
  boost::json::error_code ec;
  boost::json::value v = boost::json::parse(out, ec);
  if (ec) return Status(StatusCode::kInternal, "JSON rendering failed: " + ec.message());
  return v;
}

}  // namespace

std::string GuessMime(std::string_view file_name) {
  const std::string ext = LowerExtension(file_name);
  if (ext == "txt") return "text/plain";
  if (ext == "xml") return "application/xml";
  if (ext == "gz") return "application/gzip";
  return "text/html";
}

Result<std::string> PageReportJson(const LocalPage& page) {
  auto parts = url::Split(page.url);
  if (!parts.ok()) return Status(StatusCode::kInvalidArgument, "--url: " + parts.status().message());
  auto canonical = url::Canonicalize(page.url);
  if (!canonical.ok()) return Status(StatusCode::kInvalidArgument, "--url: " + canonical.status().message());

  v1::ScheduledUrl scheduled;
  scheduled.set_url(*canonical);
  const std::string target = parts->target.substr(0, parts->target.find('?'));
  scheduled.set_kind(target == "/robots.txt" ? v1::URL_KIND_ROBOTS : v1::URL_KIND_PAGE);

  FetchResult result;
  result.url = *canonical;
  result.status = 200;
  result.body = page.body;
  result.mime_type = page.mime.empty() ? GuessMime(page.file_name) : page.mime;
  for (char& c : result.mime_type) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
  result.content_type = result.mime_type + (page.charset.empty() ? "" : "; charset=" + page.charset);

  ProcessedPage processed = ProcessFetch(scheduled, result, ProcessOptions{});
  // The terms as messages (mini_index.terms), which JSON shows; fetchers
  // ship them packed (mini_index.postings, common/text/packed_terms.h).
  if (Status s = text::UnpackTerms(processed.record.mutable_mini_index()); !s.ok()) return s;
  auto record = ToJson(processed.record);
  if (!record.ok()) return record.status();
  boost::json::array links;
  for (auto& link : processed.links) {
    link.set_referrer(processed.record.url());  // as the queue server reads it
    auto json = ToJson(link);
    if (!json.ok()) return json.status();
    links.push_back(std::move(*json));
  }
  boost::json::object out{{"url", JsonText(*canonical)},
                          {"kind", scheduled.kind() == v1::URL_KIND_ROBOTS ? "robots" : "page"},
                          {"mime_type", JsonText(result.mime_type)},
                          {"content_type", JsonText(result.content_type)},
                          {"record", std::move(*record)},
                          {"links", std::move(links)}};
  return boost::json::serialize(out);
}

}  // namespace crawl::fetcher
