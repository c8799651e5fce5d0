// WARC/1.1 page caches (warc_writer.h).
#include "queueserver/store/warc_writer.h"

#include <openssl/evp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "common/base/zlib_stream.h"
#include "common/url/url.h"

namespace crawl::queueserver {
namespace {

// Whole file in memory (WARC files are rolled at the size limit).
Result<std::string> Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IoError("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// One gzip member at zlib's default level (6); empty if zlib fails.
std::string Gzip(const std::string& data) {
  Deflater deflater({.format = ZlibFormat::kGzip});
  std::string out;
  if (!deflater.Compress(data, &out).ok()) return {};
  return out;
}

// Inflates the gzip member at `offset`; *consumed = its compressed size.
// False if there is no complete, undamaged member there.
bool Gunzip(std::string_view in, uint64_t offset, std::string* out, uint64_t* consumed) {
  if (offset >= in.size()) return false;
  auto inflated = Inflate(in.substr(offset), {.format = ZlibFormat::kGzip}, out);
  if (!inflated.ok() || !inflated->complete) return false;
  *consumed = inflated->consumed;
  return true;
}

bool ParseRecord(std::string_view text, WarcRecord* r) {
  const size_t end = text.find("\r\n\r\n");
  if (!text.starts_with("WARC/1.1\r\n") || end == std::string_view::npos) return false;
  std::string_view head = text.substr(10, end - 10 + 2);
  while (!head.empty()) {
    const size_t eol = head.find("\r\n");
    const std::string_view line = head.substr(0, eol);
    head.remove_prefix(eol + 2);
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) return false;
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    r->headers[std::string(line.substr(0, colon))] = std::string(value);
  }
  auto length = r->headers.find("Content-Length");
  if (length == r->headers.end()) return false;
  const uint64_t n = std::strtoull(length->second.c_str(), nullptr, 10);
  if (n > text.size() - end - 4) return false;
  r->block.assign(text.substr(end + 4, n));
  return true;
}

std::string IsoDate(int64_t unix_us) {
  const std::time_t t = static_cast<std::time_t>(unix_us / 1'000'000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

uint64_t SplitMix(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::string Reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 203:
      return "Non-Authoritative Information";
    case 206:
      return "Partial Content";
    case 301:
      return "Moved Permanently";
    case 302:
      return "Found";
    case 304:
      return "Not Modified";
    case 404:
      return "Not Found";
    default:
      return "Status";
  }
}

std::string Record(const std::vector<std::pair<std::string, std::string>>& headers,
                   const std::string& block) {
  std::string out = "WARC/1.1\r\n";
  for (const auto& [k, v] : headers) out += k + ": " + v + "\r\n";
  out += "Content-Length: " + std::to_string(block.size()) + "\r\n\r\n";
  out += block;
  out += "\r\n\r\n";
  return out;
}

}  // namespace

std::string Base32(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  std::string out;
  uint64_t buffer = 0;
  int bits = 0;
  for (unsigned char c : bytes) {
    buffer = (buffer << 8) | c;
    bits += 8;
    while (bits >= 5) {
      out.push_back(kAlphabet[(buffer >> (bits - 5)) & 31]);
      bits -= 5;
    }
  }
  if (bits > 0) out.push_back(kAlphabet[(buffer << (5 - bits)) & 31]);
  while (out.size() % 8 != 0) out.push_back('=');
  return out;
}

std::string Sha1Digest(std::string_view data) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(data.data(), data.size(), md, &n, EVP_sha1(), nullptr);
  return "sha1:" + Base32(std::string_view(reinterpret_cast<const char*>(md), n));
}

Status ReadWarcFile(const std::string& path, const std::function<void(WarcRecord&&)>& visit) {
  auto data = Slurp(path);
  if (!data.ok()) return data.status();
  uint64_t offset = 0;
  std::string text;
  while (offset < data->size()) {
    uint64_t consumed = 0;
    if (!Gunzip(*data, offset, &text, &consumed) || consumed == 0) break;
    WarcRecord r;
    r.offset = offset;
    if (!ParseRecord(text, &r)) break;
    visit(std::move(r));
    offset += consumed;
  }
  return Status::Ok();
}

Result<WarcRecord> ReadWarcRecordAt(const std::string& path, uint64_t offset) {
  auto data = Slurp(path);
  if (!data.ok()) return data.status();
  std::string text;
  uint64_t consumed = 0;
  WarcRecord r;
  r.offset = offset;
  if (!Gunzip(*data, offset, &text, &consumed) || !ParseRecord(text, &r))
    return Status::Internal("no WARC record at " + path + ":" + std::to_string(offset));
  return r;
}

Result<HttpResponseParts> ParseHttpResponse(std::string_view block) {
  const size_t end = block.find("\r\n\r\n");
  if (!block.starts_with("HTTP/") || end == std::string_view::npos)
    return Status::InvalidArgument("not an HTTP response block");
  HttpResponseParts p;
  const size_t space = block.find(' ');
  p.status = std::atoi(std::string(block.substr(space + 1, 3)).c_str());
  std::string_view head = block.substr(0, end + 2);
  head.remove_prefix(head.find("\r\n") + 2);
  while (!head.empty()) {
    const size_t eol = head.find("\r\n");
    const std::string_view line = head.substr(0, eol);
    head.remove_prefix(eol + 2);
    if (line.size() > 13 && (line.starts_with("Content-Type:") || line.starts_with("content-type:"))) {
      std::string_view v = line.substr(13);
      while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
      p.content_type = std::string(v);
    }
  }
  p.body = std::string(block.substr(end + 4));
  return p;
}

WarcWriter::WarcWriter(std::string dir, uint64_t crawl_id, uint64_t max_file_bytes, WarcLocationIndex* index)
    : dir_(std::move(dir)), crawl_id_(crawl_id), max_file_bytes_(max_file_bytes), index_(index) {
  if (index_ == nullptr) {
    own_index_ = std::make_unique<MemoryWarcLocationIndex>();
    index_ = own_index_.get();
  }
  std::random_device rd;
  uuid_state_ = (uint64_t{rd()} << 32) ^ rd() ^
                static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
}

std::string WarcWriter::FilePath(uint32_t number) const {
  char name[64];
  std::snprintf(name, sizeof name, "crawl-%llu-%05u.warc.gz", static_cast<unsigned long long>(crawl_id_),
                number);
  return (std::filesystem::path(dir_) / name).string();
}

Result<size_t> RemoveWarcFiles(const std::string& dir, uint64_t crawl_id) {
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) return size_t{0};
  const std::string prefix = "crawl-" + std::to_string(crawl_id) + "-";
  std::vector<std::filesystem::path> found;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(prefix) && name.ends_with(".warc.gz")) found.push_back(entry.path());
  }
  if (ec) return Status::IoError("cannot list " + dir + ": " + ec.message());
  for (const auto& path : found) {
    if (!std::filesystem::remove(path, ec) && ec)
      return Status::IoError("cannot remove " + path.string() + ": " + ec.message());
  }
  return found.size();
}

namespace {

// The Content-Type field of a reconstructed response: the media type, and
// the charset the fetcher read the body as when it is a plain token (a
// record comes from another process): a replay, or the console's cached
// view, shows a Shift_JIS page labelled only by its <meta>, or by nothing,
// as it was read rather than as UTF-8.
std::string ContentTypeField(const v1::FetchRecord& record) {
  std::string field = "Content-Type: " + record.mime_type();
  const std::string& charset = record.charset();
  if (!charset.empty() && charset.size() <= 40 &&
      charset.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_.:") == std::string::npos)
    field += "; charset=" + charset;
  return field + "\r\n";
}

}  // namespace

Status WarcWriter::Open() {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) return Status::IoError("cannot create " + dir_ + ": " + ec.message());
  const std::string prefix = "crawl-" + std::to_string(crawl_id_) + "-";
  std::vector<std::pair<uint32_t, std::string>> found;  // by file number, not name (past 99999)
  for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix) || !name.ends_with(".warc.gz")) continue;
    const auto number = static_cast<uint32_t>(std::strtoul(name.c_str() + prefix.size(), nullptr, 10));
    found.emplace_back(number, entry.path().string());
  }
  if (ec) return Status::IoError("cannot list " + dir_ + ": " + ec.message());
  std::sort(found.begin(), found.end());
  for (const auto& [number, path] : found) {
    next_number_ = std::max(next_number_, number + 1);
    files_.push_back(path);
  }
  auto indexed = index_->Indexed();
  if (!indexed.ok()) return indexed.status();
  // A mark rather than "any location stored": a migration cut by a kill
  // after some files has locations but no mark, and is done again.
  const size_t first = *indexed && !found.empty() ? found.size() - 1 : 0;
  for (size_t i = first; i < found.size(); ++i) {
    if (Status s = IndexFile(found[i].first, found[i].second); !s.ok()) return s;
  }
  return *indexed ? Status::Ok() : index_->MarkIndexed();
}

Status WarcWriter::IndexFile(uint32_t number, const std::string& path) {
  std::vector<WarcLocationEntry> entries;
  Status s = ReadWarcFile(path, [&](WarcRecord&& r) {
    if (r.headers["WARC-Type"] == "response")
      entries.push_back({r.headers["WARC-Target-URI"], number, r.offset});
  });
  if (!s.ok()) return s;
  return index_->PutLocations(entries);
}

Status WarcWriter::FlushLocations() {
  Status s = index_->PutLocations(pending_);
  pending_.clear();
  return s;
}

Status WarcWriter::Append(const std::string& record_text, uint64_t* offset) {
  const std::string member = Gzip(record_text);
  if (member.empty()) return Status::Internal("gzip failed");
  std::ofstream out(current_, std::ios::binary | std::ios::app);
  if (!out) return Status::IoError("cannot write " + current_);
  *offset = current_size_;
  out.write(member.data(), static_cast<std::streamsize>(member.size()));
  out.flush();
  if (!out) return Status::IoError("cannot write " + current_);
  current_size_ += member.size();
  return Status::Ok();
}

std::string WarcWriter::NewRecordId() {
  const uint64_t a = SplitMix(&uuid_state_), b = SplitMix(&uuid_state_);
  char buf[64];
  std::snprintf(buf, sizeof buf, "<urn:uuid:%08x-%04x-4%03x-%04x-%012llx>", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xffff), static_cast<unsigned>(a & 0xfff),
                static_cast<unsigned>(0x8000 | ((b >> 48) & 0x3fff)),
                static_cast<unsigned long long>(b & 0xffffffffffffull));
  return std::string(buf);
}

Status WarcWriter::StartFileIfDue(const std::string& date) {
  if (!current_.empty() && current_size_ < max_file_bytes_) return Status::Ok();
  current_number_ = next_number_++;
  current_ = FilePath(current_number_);
  current_size_ = 0;
  files_.push_back(current_);
  const std::string info = "software: crawl queue server\r\nformat: WARC File Format 1.1\r\n";
  uint64_t ignored = 0;
  return Append(Record({{"WARC-Type", "warcinfo"},
                        {"WARC-Record-ID", NewRecordId()},
                        {"WARC-Date", date},
                        {"WARC-Filename", std::filesystem::path(current_).filename().string()},
                        {"Content-Type", "application/warc-fields"}},
                       info),
                &ignored);
}

Status WarcWriter::Write(const v1::FetchRecord& record, const std::string& user_agent) {
  if (record.status() <= 0) return Status::Ok();
  auto parts = url::Split(record.url());
  if (!parts.ok()) return parts.status();
  auto uuid = [this] { return NewRecordId(); };
  const std::string date = IsoDate(record.timestamp_unix_us());
  if (Status s = StartFileIfDue(date); !s.ok()) return s;
  const std::string& body = record.body();
  std::string response =
      "HTTP/1.1 " + std::to_string(record.status()) + " " + Reason(record.status()) + "\r\n";
  if (!record.mime_type().empty()) response += ContentTypeField(record);
  response += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  response += body;
  const std::string host =
      parts->port == 80 || parts->port == 443 ? parts->host : parts->host + ":" + std::to_string(parts->port);
  const std::string request = "GET " + parts->target + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: " +
                              (user_agent.empty() ? std::string("crawlbot") : user_agent) + "\r\n\r\n";
  const std::string response_id = uuid();
  uint64_t offset = 0;
  Status s = Append(Record({{"WARC-Type", "response"},
                            {"WARC-Record-ID", response_id},
                            {"WARC-Date", date},
                            {"WARC-Target-URI", record.url()},
                            {"Content-Type", "application/http;msgtype=response"},
                            {"WARC-Payload-Digest", Sha1Digest(body)},
                            {"WARC-Block-Digest", Sha1Digest(response)}},
                           response),
                    &offset);
  if (!s.ok()) return s;
  pending_.push_back({record.url(), current_number_, offset});
  uint64_t ignored = 0;
  return Append(Record({{"WARC-Type", "request"},
                        {"WARC-Record-ID", uuid()},
                        {"WARC-Date", date},
                        {"WARC-Target-URI", record.url()},
                        {"WARC-Concurrent-To", response_id},
                        {"Content-Type", "application/http;msgtype=request"},
                        {"WARC-Block-Digest", Sha1Digest(request)}},
                       request),
                &ignored);
}

Status WarcWriter::WriteRevisit(const v1::FetchRecord& record, v1::RevisitKind kind,
                                int64_t refers_to_unix_us) {
  if (kind == v1::REVISIT_NONE || record.status() <= 0) return Status::Ok();
  if (!url::Split(record.url()).ok()) return Status::InvalidArgument("revisit of a bad URL: " + record.url());
  const bool not_modified = kind == v1::REVISIT_NOT_MODIFIED;
  // identical-payload-digest needs the payload's digest: without the whole
  // body (cut, or not shipped) there is nothing true to write.
  if (!not_modified && record.body().size() != record.bytes()) return Status::Ok();
  // WARC 1.1 6.7.2: the block is the HTTP response header only.
  std::string block = "HTTP/1.1 " + std::to_string(record.status()) + " " + Reason(record.status()) + "\r\n";
  if (!record.mime_type().empty() && !not_modified) block += ContentTypeField(record);
  // Validators from another process: only a value without line breaks is a header field.
  auto field_value = [](const std::string& v) {
    return !v.empty() && v.find_first_of("\r\n") == std::string::npos;
  };
  if (field_value(record.etag())) block += "ETag: " + record.etag() + "\r\n";
  if (field_value(record.last_modified())) block += "Last-Modified: " + record.last_modified() + "\r\n";
  if (!not_modified) block += "Content-Length: " + std::to_string(record.body().size()) + "\r\n";
  block += "\r\n";
  const std::string date = IsoDate(record.timestamp_unix_us());
  if (Status s = StartFileIfDue(date); !s.ok()) return s;
  std::vector<std::pair<std::string, std::string>> headers = {
      {"WARC-Type", "revisit"},
      {"WARC-Record-ID", NewRecordId()},
      {"WARC-Date", date},
      {"WARC-Target-URI", record.url()},
      {"WARC-Profile", not_modified ? kRevisitNotModifiedProfile : kRevisitIdenticalDigestProfile},
      {"WARC-Refers-To-Target-URI", record.url()}};
  if (refers_to_unix_us > 0) headers.emplace_back("WARC-Refers-To-Date", IsoDate(refers_to_unix_us));
  headers.emplace_back("Content-Type", "application/http;msgtype=response");
  if (!not_modified) headers.emplace_back("WARC-Payload-Digest", Sha1Digest(record.body()));
  headers.emplace_back("WARC-Block-Digest", Sha1Digest(block));
  uint64_t ignored = 0;
  return Append(Record(headers, block), &ignored);
}

Result<std::optional<WarcWriter::Location>> WarcWriter::Find(const std::string& url) const {
  std::optional<WarcLocationEntry> at;
  auto newest = std::find_if(pending_.rbegin(), pending_.rend(), [&](const auto& e) { return e.url == url; });
  if (newest != pending_.rend()) {
    at = *newest;
  } else {
    auto stored = index_->GetLocation(url);
    if (!stored.ok()) return stored.status();
    at = std::move(*stored);
  }
  if (!at) return std::optional<Location>();
  return std::optional<Location>(Location{FilePath(at->file_number), at->offset});
}

}  // namespace crawl::queueserver
