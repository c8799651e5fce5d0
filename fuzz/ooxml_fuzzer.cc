// Fuzz target: Office Open XML documents (docx, xlsx, pptx; the first byte
// chooses) through ParseDocument (fuzz/document_fuzz.h).
#include "fuzz/document_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using crawl::fetcher::DocumentType;
  return FuzzDocument(data, size, {DocumentType::kDocx, DocumentType::kXlsx, DocumentType::kPptx});
}
