// Fuzz target: pdf documents through ParseDocument (fuzz/document_fuzz.h).
#include "fuzz/document_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return FuzzDocument(data, size, {crawl::fetcher::DocumentType::kPdf});
}
