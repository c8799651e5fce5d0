// Fuzz target: OpenDocument text, spreadsheets and presentations (the first
// byte chooses) through ParseDocument (fuzz/document_fuzz.h).
#include "fuzz/document_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using crawl::fetcher::DocumentType;
  return FuzzDocument(data, size, {DocumentType::kOdt, DocumentType::kOds, DocumentType::kOdp});
}
