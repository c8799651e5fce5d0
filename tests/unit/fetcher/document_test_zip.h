// A minimal zip writer for the document parser tests (APPNOTE.TXT 4.3):
// deflated entries, and entries of N zero bytes deflated in a stream so a
// zip bomb is built without holding its inflated size in memory.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

namespace crawl::fetcher::testing {

class TestZip {
 public:
  void Add(const std::string& name, const std::string& data) { AddDeflated(name, data.size(), &data, 0); }
  // An entry of `zeros` zero bytes.
  void AddZeros(const std::string& name, size_t zeros) { AddDeflated(name, zeros, nullptr, zeros); }

  std::string Finish() {
    std::string central;
    for (const auto& e : entries_) {
      Put32(&central, 0x02014b50);
      Put16(&central, 20);
      Header(&central, e);
      Put16(&central, 0);  // comment
      Put16(&central, 0);  // disk
      Put16(&central, 0);  // internal attributes
      Put32(&central, 0);  // external attributes
      Put32(&central, e.offset);
      central += e.name;
    }
    std::string out = body_ + central;
    Put32(&out, 0x06054b50);
    Put16(&out, 0);
    Put16(&out, 0);
    Put16(&out, static_cast<uint16_t>(entries_.size()));
    Put16(&out, static_cast<uint16_t>(entries_.size()));
    Put32(&out, static_cast<uint32_t>(central.size()));
    Put32(&out, static_cast<uint32_t>(body_.size()));
    Put16(&out, 0);
    return out;
  }

 private:
  struct Entry {
    std::string name;
    uint32_t crc, compressed, size, offset;
  };
  static void Put16(std::string* s, uint16_t v) {
    s->push_back(static_cast<char>(v & 0xFF));
    s->push_back(static_cast<char>(v >> 8));
  }
  static void Put32(std::string* s, uint32_t v) {
    Put16(s, static_cast<uint16_t>(v & 0xFFFF));
    Put16(s, static_cast<uint16_t>(v >> 16));
  }
  static void Header(std::string* s, const Entry& e) {
    Put16(s, 20);  // version needed
    Put16(s, 0);   // flags
    Put16(s, 8);   // deflate
    Put16(s, 0);   // time
    Put16(s, 0x21);
    Put32(s, e.crc);
    Put32(s, e.compressed);
    Put32(s, e.size);
    Put16(s, static_cast<uint16_t>(e.name.size()));
    Put16(s, 0);  // extra
  }

  // Deflates *data, or `zeros` zero bytes when data is null.
  void AddDeflated(const std::string& name, size_t size, const std::string* data, size_t zeros) {
    z_stream z{};
    deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY);
    std::string compressed;
    const std::string block(1 << 20, '\0');
    uLong crc = crc32(0, nullptr, 0);
    size_t left = data != nullptr ? data->size() : zeros;
    size_t at = 0;
    char out[1 << 16];
    do {
      const std::string& source = data != nullptr ? *data : block;
      const size_t n = data != nullptr ? left : std::min(left, block.size());
      const char* from = data != nullptr ? data->data() + at : block.data();
      crc = crc32(crc, reinterpret_cast<const Bytef*>(from), static_cast<uInt>(n));
      (void)source;
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(from));
      z.avail_in = static_cast<uInt>(n);
      left -= n;
      at += n;
      const int flush = left == 0 ? Z_FINISH : Z_NO_FLUSH;
      do {
        z.next_out = reinterpret_cast<Bytef*>(out);
        z.avail_out = sizeof(out);
        deflate(&z, flush);
        compressed.append(out, sizeof(out) - z.avail_out);
      } while (z.avail_out == 0);
    } while (left > 0);
    deflateEnd(&z);
    Entry e{name, static_cast<uint32_t>(crc), static_cast<uint32_t>(compressed.size()),
            static_cast<uint32_t>(size), static_cast<uint32_t>(body_.size())};
    Put32(&body_, 0x04034b50);
    Header(&body_, e);
    body_ += name;
    body_ += compressed;
    entries_.push_back(e);
  }

  std::string body_;
  std::vector<Entry> entries_;
};

}  // namespace crawl::fetcher::testing
