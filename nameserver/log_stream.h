// The crawl log streamed from the queue servers: each
// server's log read page by page by cursor, with the request's filters
// applied at the servers, merged by timestamp and handed to a sink chunk by
// chunk. The sink is called before the next page is fetched, so a slow
// reader (gRPC's blocking Write) slows the reads: memory holds one page per
// queue server, the reorder window and one chunk, whatever the log's size.
//
// Order: each queue server returns its records in arrival order; this
// merge sorts each page by timestamp, takes the earliest head across
// servers, and sends records through a reorder window (a min-heap of
// reorder_records) by timestamp. The output is in time order unless a
// record reached its server so late (a fetcher's batch submitted long after
// another's) that more than reorder_records merged records separate it from
// its place; such a record follows records a little younger than it.
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/net/rpc_policy.h"
#include "proto/crawl.pb.h"

namespace crawl::nameserver {

// Receives the merged log, a chunk at a time (chunk.end() on the last one;
// no chunk for an empty log). Returns false to stop (the client went away).
using LogSink = std::function<bool(const v1::CrawlLogChunk&)>;

// Reads one page from queue server `server` (an index into the list given
// to MergeCrawlLog). Tests pass fakes; StreamCrawlLog passes RPCs.
using LogPageReader =
    std::function<grpc::Status(size_t server, const v1::GetCrawlLogRequest& page, v1::CrawlLogChunk* out)>;

struct LogStreamOptions {
  // Records asked of a queue server per page (the memory bound per server).
  uint32_t page_records = 2'000;
  // Records per chunk handed to the sink.
  int chunk_records = 1'000;
  // Merged records held back to be sent in time order (the reorder window).
  size_t reorder_records = 10'000;
  // Deadline of each page RPC (StreamCrawlLog); the export as a whole has none.
  std::chrono::milliseconds page_deadline{rpc::kScanningReads.deadline};
};

// Merges the logs of `servers` (names for errors) read through `read`, with
// `req`'s filters (its crawl_id, offset, limit and cursor are replaced).
// Returns OK after the last chunk; CANCELLED when the sink refused one;
// UNAVAILABLE naming the server (and how many records were sent) when a
// page read failed, so a broken export is never taken for a short log;
// INVALID_ARGUMENT from a server rejecting the filters.
[[nodiscard]] grpc::Status MergeCrawlLog(const v1::GetCrawlLogRequest& req, uint64_t crawl_id,
                                         const std::vector<std::string>& servers, const LogPageReader& read,
                                         const LogSink& sink, const LogStreamOptions& options = {});

// MergeCrawlLog over the queue servers of `crawl`, each page one
// GetCrawlLog RPC with its own deadline. Thread-safe; no lock held.
[[nodiscard]] grpc::Status StreamCrawlLog(const v1::CrawlInfo& crawl, const v1::GetCrawlLogRequest& req,
                                          const LogSink& sink, const LogStreamOptions& options = {});

}  // namespace crawl::nameserver
