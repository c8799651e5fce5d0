// Settings of page processing (docs/DESIGN.md §6), from CrawlParams, and
// the per-thread state processors reuse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/crawl/document_types.h"
#include "common/text/stemmer.h"
#include "fetcher/page/link_pruning.h"

namespace crawl::fetcher {

class DocumentParser;  // fetcher/document/worker_client.h

struct ProcessOptions {
  // Links extracted per page (CrawlParams.max_links_per_page; docs/DESIGN.md: 300).
  uint32_t max_links = 300;
  // robots.txt bodies beyond this are cut (RFC 9309 section 2.5: 500 KiB).
  size_t max_robots_bytes = 500 * 1024;
  // Links kept after pruning by effective terms
  // (CrawlParams.max_links_after_prune; docs/DESIGN.md: 50).
  uint32_t max_links_after_prune = 50;
  // Which links are pruned to max_links_after_prune (CrawlParams.link_pruning,
  // resolved by the name server; common/crawl/link_pruning_mode.h).
  LinkPruning link_pruning = LinkPruning::kAll;
  // Description budget in characters (CrawlParams.max_description_chars).
  size_t max_description_chars = 2000;
  // Mini index positions stored per page: about 50,000 words of text (a
  // 300-400 KB page of prose); beyond that the record would weigh more than
  // the words are worth (a results batch of 400 such pages stays far below
  // the 256 MiB gRPC message limit of common/net/grpc_util.cc).
  uint32_t max_index_positions = 50'000;
  // Our robots product token: <meta name="TOKEN"> is obeyed like
  // <meta name="robots"> ("" : only the latter).
  std::string robots_meta_token;
  // Document types processed (CrawlParams.document_types; bit i is
  // kDocumentTypeNames[i], common/crawl/document_types.h): a link whose URL
  // extension names one is not likely_non_html, and a feed is read as a
  // feed (fetcher/page/feed_processor.h) only when "feed" is on.
  DocumentTypeSet document_types_enabled = DocumentTypeSet().set();
  // Range request size and body cap for such documents
  // (CrawlParams.max_document_bytes, resolved by the name server).
  uint64_t max_document_bytes = kDefaultMaxDocumentBytes;
  // Parses binary documents (PDF, Office, OpenDocument, EPUB, RTF) in the
  // document worker (fetcher/page/document_processor.h); null: such
  // documents get the record only. Not owned; thread-safe.
  const DocumentParser* document_parser = nullptr;
};

// State a processing thread reuses between pages (stemmers, compressor).
// Not thread-safe: one per thread.
struct ProcessingContext {
  text::StemmerCache stemmers;
  LinkPruner pruner;
};

}  // namespace crawl::fetcher
