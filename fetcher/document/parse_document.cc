// ParseDocument: the document types' parsers behind one entry point
// (fetcher/document/document.h); sets DocumentInfo.type.
#include "fetcher/document/document.h"
#include "fetcher/document/format_readers.h"

namespace crawl::fetcher {

Result<v1::ParsedDocument> ParseDocument(DocumentType type, std::string_view body,
                                         const DocumentLimits& limits) {
  Result<v1::ParsedDocument> parsed = Status::InvalidArgument("unknown document type");
  switch (type) {
    case DocumentType::kPdf:
      parsed = document::ReadPdf(body, limits);
      break;
    case DocumentType::kDocx:
      parsed = document::ReadDocx(body, limits);
      break;
    case DocumentType::kXlsx:
      parsed = document::ReadXlsx(body, limits);
      break;
    case DocumentType::kPptx:
      parsed = document::ReadPptx(body, limits);
      break;
    case DocumentType::kOdt:
    case DocumentType::kOds:
    case DocumentType::kOdp:
      parsed = document::ReadOdf(body, limits);
      break;
    case DocumentType::kEpub:
      parsed = document::ReadEpub(body, limits);
      break;
    case DocumentType::kRtf:
      parsed = document::ReadRtf(body, limits);
      break;
    case DocumentType::kFeed:
      return Status::InvalidArgument("feeds are parsed by the feed processor");
  }
  if (!parsed.ok()) return parsed.status();
  parsed->mutable_info()->set_type(std::string(DocumentTypeName(type)));
  return parsed;
}

}  // namespace crawl::fetcher
