// Page caches as WARC/1.1 files (ISO 28500:2017; the WARC 1.1 specification
// of the IIPC): a crawl that keeps page caches is also a standard web
// archive. Per fetched page the queue server appends a `request` and a
// `response` record, each its own gzip member (so readers can seek to any
// record), with WARC-Block-Digest and WARC-Payload-Digest as "sha1:" +
// base32 (RFC 4648) of the block and of the HTTP body. A file starts with a
// `warcinfo` record and is closed when it reaches the size limit; the next
// file gets the next number: DIR/crawl-<id>-<nnnnn>.warc.gz.
//
// Deviation: the fetcher ships the decoded body, the status and the media
// type, not the raw response: the response record's HTTP header block is
// rebuilt from them (status line, Content-Type, Content-Length), and the
// request record holds the request line, Host and User-Agent the fetcher
// sent. Files are written after the request's RocksDB commit: a kill -9
// between the two loses that batch's pages from the cache (never the index);
// a member cut by a kill is skipped by ReadWarcFile and a restarted writer
// starts a new file.
//
// Where each URL's newest response record is lives in a WarcLocationIndex
// (warc_location_index.h; the queue store's family warc_loc), not in RAM:
// Write() collects one request's locations and FlushLocations() stores them
// in one small write after the appends. A kill between the two loses only
// those locations, and Open() reads them again from the newest file, the
// only one it reads (the locations of the older ones are in the index; a
// crawl whose files were never indexed, from before the index, has every
// file read once).
//
// Revisits (WARC 1.1 section 6.7): a fetch of unchanged content (304 Not
// Modified, or a 2xx with the digest of the last fetch) gets one `revisit`
// record, profile server-not-modified or identical-payload-digest, whose
// block is the HTTP response header only, with WARC-Refers-To-Target-URI
// (the same URL) and WARC-Refers-To-Date (the fetch of the content it
// confirms, when known). Find() keeps pointing at the last response record
// (revisits are not indexed).
//
// Not thread-safe: one writer per crawl, used under the service mutex.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/status.h"
#include "proto/crawl.pb.h"
#include "queueserver/store/warc_location_index.h"

namespace crawl::queueserver {

// RFC 4648 base32 (upper case, no padding needed for 20-byte SHA-1 digests;
// padded with '=' otherwise).
[[nodiscard]] std::string Base32(std::string_view bytes);
// "sha1:" + Base32(SHA-1(data)).
[[nodiscard]] std::string Sha1Digest(std::string_view data);

// One record read back.
struct WarcRecord {
  uint64_t offset = 0;                         // of its gzip member in the file
  std::map<std::string, std::string> headers;  // names as written
  std::string block;
};

// Reads every complete record of a .warc.gz file (one gzip member per
// record), calling `visit` for each; stops at the first damaged member (a
// cut tail). Errors only when the file cannot be read.
[[nodiscard]] Status ReadWarcFile(const std::string& path, const std::function<void(WarcRecord&&)>& visit);
// Reads the one record whose gzip member starts at `offset`.
[[nodiscard]] Result<WarcRecord> ReadWarcRecordAt(const std::string& path, uint64_t offset);

// Splits an HTTP response block ("HTTP/1.1 200 OK\r\n...\r\n\r\nbody") into
// status, Content-Type and body.
struct HttpResponseParts {
  int status = 0;
  std::string content_type;
  std::string body;
};
[[nodiscard]] Result<HttpResponseParts> ParseHttpResponse(std::string_view block);

// Removes crawl `crawl_id`'s files (crawl-<id>-<n>.warc.gz) from `dir`:
// `crawlctl delete`. A missing directory holds none. Returns how many went.
[[nodiscard]] Result<size_t> RemoveWarcFiles(const std::string& dir, uint64_t crawl_id);

// WARC 1.1 6.7.2 / 6.7.3 revisit profiles.
inline constexpr char kRevisitIdenticalDigestProfile[] =
    "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest";
inline constexpr char kRevisitNotModifiedProfile[] =
    "http://netpreserve.org/warc/1.1/revisit/server-not-modified";

class WarcWriter {
 public:
  // Files go to `dir` (created if missing) as crawl-<crawl_id>-<n>.warc.gz;
  // a file is closed once it holds `max_file_bytes` or more. Locations go
  // to `index` (not owned; must outlive the writer), or, if null, to a
  // MemoryWarcLocationIndex of the writer's own.
  WarcWriter(std::string dir, uint64_t crawl_id, uint64_t max_file_bytes, WarcLocationIndex* index = nullptr);

  // Lists the crawl's files already in `dir` and continues with a new file
  // number. Reads only the newest file, storing its response records'
  // locations again (those a kill kept FlushLocations from storing); a crawl
  // the index was never marked for has every file read and stored, oldest
  // first, then marked (WarcLocationIndex::MarkIndexed). Errors when a file
  // to read cannot be read or the index fails.
  [[nodiscard]] Status Open();

  // Appends the request and response records of a fetched page (a record
  // with status > 0). `user_agent` is the crawl's.
  [[nodiscard]] Status Write(const v1::FetchRecord& record, const std::string& user_agent);
  // Appends the `revisit` record of a fetch of unchanged content (`kind`
  // not REVISIT_NONE). `refers_to_unix_us`: the fetch of the content it
  // confirms (0: unknown, no WARC-Refers-To-Date). An identical-payload-
  // digest revisit needs the record's whole body (for WARC-Payload-Digest):
  // without it nothing is written.
  [[nodiscard]] Status WriteRevisit(const v1::FetchRecord& record, v1::RevisitKind kind,
                                    int64_t refers_to_unix_us);

  // Stores the locations of the response records written since the last
  // call in one write to the index (call once per request, after its
  // records). On error they are dropped, as they are when the writer goes
  // without this call (the next Open() recovers them if their file is still
  // the newest).
  [[nodiscard]] Status FlushLocations();

  // Where the newest response record of `url` is (one not yet flushed
  // included): file path and offset; nullopt when the URL has none. Errors
  // are the index's (kInternal for a damaged record, kIoError).
  struct Location {
    std::string path;
    uint64_t offset = 0;
  };
  [[nodiscard]] Result<std::optional<Location>> Find(const std::string& url) const;

  [[nodiscard]] const std::vector<std::string>& files() const { return files_; }

 private:
  std::string FilePath(uint32_t number) const;
  // Stores the locations of the response records of file `number`.
  Status IndexFile(uint32_t number, const std::string& path);
  std::string NewRecordId();
  // Opens a new file (with its warcinfo record) before the first record
  // and once the current one is full.
  Status StartFileIfDue(const std::string& date);
  Status Append(const std::string& record_text, uint64_t* offset);

  std::string dir_;
  uint64_t crawl_id_;
  uint64_t max_file_bytes_;
  uint32_t next_number_ = 0;
  std::string current_;  // "" until the first write
  uint32_t current_number_ = 0;
  uint64_t current_size_ = 0;
  std::vector<std::string> files_;
  std::unique_ptr<WarcLocationIndex> own_index_;  // when none was given
  WarcLocationIndex* index_;
  std::vector<WarcLocationEntry> pending_;  // written, not yet flushed
  uint64_t uuid_state_;
};

}  // namespace crawl::queueserver
