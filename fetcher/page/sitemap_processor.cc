// Sitemap scanning and gunzip (sitemap_processor.h).
#include "fetcher/page/sitemap_processor.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <optional>

#include "common/base/zlib_stream.h"
#include "fetcher/page/charset.h"
#include "fetcher/page/html_links.h"

namespace crawl::fetcher {
namespace {

constexpr std::size_t kHeadBytes = 4096;  // where the root element must be
constexpr std::size_t kDeclBytes = 1024;  // where the XML declaration must end (charset.h)
constexpr std::string_view kOpen = "<loc";
constexpr std::string_view kClose = "</loc>";

bool IsXmlSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsXmlSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsXmlSpace(s.back())) s.remove_suffix(1);
  return s;
}

// Text content of an element: CDATA sections verbatim, the rest with
// character references decoded; tags inside are dropped.
std::string ElementText(std::string_view raw) {
  std::string out;
  std::size_t i = 0;
  while (i < raw.size()) {
    if (raw.substr(i, 9) == "<![CDATA[") {
      const std::size_t end = raw.find("]]>", i + 9);
      const std::size_t stop = end == std::string_view::npos ? raw.size() : end;
      out.append(raw.substr(i + 9, stop - i - 9));
      i = end == std::string_view::npos ? raw.size() : end + 3;
      continue;
    }
    if (raw[i] == '<') {
      const std::size_t gt = raw.find('>', i);
      i = gt == std::string_view::npos ? raw.size() : gt + 1;
      continue;
    }
    std::size_t next = raw.find('<', i);
    if (next == std::string_view::npos) next = raw.size();
    html::AppendDecodedEntities(raw.substr(i, next - i), /*in_attribute=*/false, out);
    i = next;
  }
  return std::string(Trim(out));
}

bool IndexBeforeUrlset(std::string_view xml) {
  const std::size_t root = xml.find("<sitemapindex");
  const std::size_t urlset = xml.find("<urlset");
  return root != std::string_view::npos && (urlset == std::string_view::npos || root < urlset);
}

// Scans XML fed in pieces for <loc> elements. Holds at most the unread
// tail of the input: one <loc> element (up to kSitemapChunkBytes) and the
// piece being read.
class LocScanner {
 public:
  LocScanner(const SitemapLimits& limits, const std::function<void(std::string&&)>& emit, SitemapScan* scan,
             bool check_head, std::string_view header_charset = {})
      : limits_(limits), emit_(emit), scan_(*scan), header_charset_(header_charset), decided_(!check_head) {}

  // False once nothing more is wanted (a limit, or not a sitemap).
  bool Feed(std::string_view piece) {
    if (done_) return false;
    const std::size_t room = limits_.max_bytes - scan_.bytes;
    if (piece.size() > room) {
      piece = piece.substr(0, room);
      scan_.truncated = true;
      cut_ = true;
    }
    scan_.bytes += piece.size();
    AppendDecoded(piece, cut_);
    if (!Decide(cut_) || !Scan(cut_) || cut_) done_ = true;
    return !done_;
  }

  // The input ended.
  void Finish() {
    if (done_) return;
    AppendDecoded({}, /*last=*/true);
    if (Decide(true)) (void)Scan(true);
    done_ = true;
  }

 private:
  // Appends `piece` to buf_ as UTF-8. Sitemaps are UTF-8 (sitemaps.org),
  // but one that says otherwise (BOM, Content-Type charset, XML
  // declaration, in that order) is read as it says; either way each
  // invalid sequence becomes U+FFFD and is counted.
  void AppendDecoded(std::string_view piece, bool last) {
    if (decoder_ == nullptr) {
      head_.append(piece);
      if (head_.size() < kDeclBytes && !last) return;
      std::size_t bom = 0;
      std::optional<Encoding> encoding = BomEncoding(head_, &bom);
      if (!encoding && !header_charset_.empty()) encoding = EncodingForLabel(header_charset_);
      if (!encoding) encoding = XmlDeclaredEncoding(std::string_view(head_).substr(bom));
      decoder_ = std::make_unique<Decoder>(encoding.value_or(Encoding::kUtf8));
      scan_.charset = CharsetName(decoder_->encoding());
      decoder_->Decode(std::string_view(head_).substr(bom), last, &buf_);
      head_ = std::string();
    } else {
      decoder_->Decode(piece, last, &buf_);
    }
    scan_.invalid_bytes = decoder_->invalid();
  }

  // The root element must be in the first kHeadBytes.
  bool Decide(bool at_end) {
    if (decided_) return true;
    if (buf_.size() < kHeadBytes && !at_end) return true;
    const std::string_view head = std::string_view(buf_).substr(0, kHeadBytes);
    decided_ = true;
    scan_.is_sitemap = LooksLikeSitemap(head);
    scan_.is_index = IndexBeforeUrlset(head);
    if (!scan_.is_sitemap) done_ = true;
    return scan_.is_sitemap;
  }

  bool Scan(bool at_end) {
    if (!decided_) return true;
    const std::string_view b = buf_;
    std::size_t i = 0;
    bool go_on = true;
    while (go_on) {
      if (skipping_) {  // inside a <loc> too long to keep: up to its end
        const std::size_t close = b.find(kClose, i);
        if (close == std::string_view::npos) {
          i = std::max(i, b.size() - std::min(b.size(), kClose.size() - 1));
          break;
        }
        skipping_ = false;
        i = close + kClose.size();
        continue;
      }
      const std::size_t open = b.find(kOpen, i);
      if (open == std::string_view::npos) {
        i = std::max(i, b.size() - std::min(b.size(), kOpen.size() - 1));
        break;
      }
      const std::size_t after = open + kOpen.size();
      if (after >= b.size()) {
        i = open;
        break;
      }
      if (b[after] != '>' && !IsXmlSpace(b[after])) {  // <location>, <locale>...
        i = after;
        continue;
      }
      const std::size_t open_end = b.find('>', after);
      const std::size_t close = open_end == std::string_view::npos ? open_end : b.find(kClose, open_end + 1);
      if (close == std::string_view::npos && !(at_end && open_end != std::string_view::npos)) {
        if (b.size() - open <= kSitemapChunkBytes) {  // wait for the rest
          i = open;
          break;
        }
        ++scan_.too_long;
        skipping_ = open_end != std::string_view::npos;
        i = after;
        continue;
      }
      const std::size_t stop = close == std::string_view::npos ? b.size() : close;
      go_on = Emit(ElementText(b.substr(open_end + 1, stop - open_end - 1)));
      i = close == std::string_view::npos ? b.size() : close + kClose.size();
    }
    buf_.erase(0, std::min(i, buf_.size()));
    return go_on;
  }

  bool Emit(std::string url) {
    if (url.empty()) return true;
    if (url.size() > limits_.max_url_bytes) {
      ++scan_.too_long;
      return true;
    }
    if (scan_.urls >= limits_.max_urls || scan_.url_bytes + url.size() > limits_.max_url_text_bytes) {
      scan_.truncated = true;
      return false;
    }
    ++scan_.urls;
    scan_.url_bytes += url.size();
    emit_(std::move(url));
    return true;
  }

  const SitemapLimits& limits_;
  const std::function<void(std::string&&)>& emit_;
  SitemapScan& scan_;
  std::string_view header_charset_;
  std::unique_ptr<Decoder> decoder_;  // once the encoding is known
  std::string head_;                  // the first bytes until then
  std::string buf_;                   // UTF-8
  bool decided_;
  bool skipping_ = false;
  bool cut_ = false;
  bool done_ = false;
};

// Ends the inflate stream on every way out.
struct ZStream {
  z_stream zs{};
  bool open = false;
  ~ZStream() {
    if (open) inflateEnd(&zs);
  }
};

// Inflates the first gzip or zlib stream of `data` piece by piece into the
// scanner; what follows that stream is ignored.
Status InflateInto(std::string_view data, LocScanner& scanner, SitemapScan* scan) {
  ZStream stream;
  z_stream& zs = stream.zs;
  if (inflateInit2(&zs, 15 + 32) != Z_OK) return Status::Internal("zlib initialisation failed");
  stream.open = true;
  // A body is at most the range size: far below uInt's range.
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(std::min<std::size_t>(data.size(), UINT_MAX));
  std::string out(kSitemapChunkBytes, '\0');
  for (;;) {
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    const int rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
      return Status(StatusCode::kInvalidArgument, "corrupt gzip data");
    const std::size_t produced = out.size() - zs.avail_out;
    if (produced > 0 && !scanner.Feed(std::string_view(out.data(), produced))) return Status::Ok();
    if (rc == Z_STREAM_END) break;
    if (rc == Z_BUF_ERROR || (zs.avail_in == 0 && produced == 0)) {  // a cut .gz: keep what was read
      scan->truncated = true;
      break;
    }
  }
  scanner.Finish();
  return Status::Ok();
}

}  // namespace

bool IsGzip(std::string_view body) { return body.size() >= 2 && body[0] == '\x1f' && body[1] == '\x8b'; }

Result<std::string> Gunzip(std::string_view data, std::size_t max_bytes, bool* truncated) {
  *truncated = false;
  std::string out;
  // The first gzip or zlib stream (header detected); what follows it is ignored.
  auto inflated = Inflate(data, {.format = ZlibFormat::kAuto, .max_output = max_bytes}, &out);
  if (!inflated.ok()) {
    if (inflated.status().code() != StatusCode::kInvalidArgument) return inflated.status();
    return Status(StatusCode::kInvalidArgument, "corrupt gzip data");
  }
  // Cut short (a range-truncated .gz) or past the cap: keep what we have.
  *truncated = inflated->capped || !inflated->complete;
  return out;
}

bool LooksLikeSitemap(std::string_view xml) {
  const std::string_view head = xml.substr(0, kHeadBytes);
  return head.find("<urlset") != std::string_view::npos ||
         head.find("<sitemapindex") != std::string_view::npos;
}

Result<SitemapScan> ScanSitemap(std::string_view body, const SitemapLimits& limits,
                                const std::function<void(std::string&&)>& emit,
                                std::string_view header_charset) {
  SitemapScan scan;
  LocScanner scanner(limits, emit, &scan, /*check_head=*/true, header_charset);
  if (IsGzip(body)) {
    if (Status s = InflateInto(body, scanner, &scan); !s.ok()) return s;
    return scan;
  }
  for (std::size_t i = 0; i < body.size(); i += kSitemapChunkBytes) {
    if (!scanner.Feed(body.substr(i, kSitemapChunkBytes))) return scan;
  }
  scanner.Finish();
  return scan;
}

SitemapEntries ParseSitemap(std::string_view xml, std::size_t max_urls) {
  SitemapEntries out;
  SitemapScan scan;
  const SitemapLimits limits{
      .max_urls = max_urls, .max_bytes = SIZE_MAX, .max_url_bytes = SIZE_MAX, .max_url_text_bytes = SIZE_MAX};
  const std::function<void(std::string &&)> keep = [&](std::string&& u) { out.urls.push_back(std::move(u)); };
  LocScanner scanner(limits, keep, &scan, /*check_head=*/false);
  out.is_index = IndexBeforeUrlset(xml);
  for (std::size_t i = 0; i < xml.size(); i += kSitemapChunkBytes) {
    if (!scanner.Feed(xml.substr(i, kSitemapChunkBytes))) break;
  }
  scanner.Finish();
  out.truncated = scan.truncated;
  return out;
}

}  // namespace crawl::fetcher
