// Hostile documents (document_bombs.h). The zip writer follows APPNOTE.TXT
// 6.3 (local headers, central directory, end record; no zip64); the PDFs
// follow ISO 32000-1 7.5 (file structure) loosely, on purpose.
#include "tests/testweb/document_bombs.h"

#include <zlib.h>

#include <cstdio>
#include <iterator>
#include <mutex>
#include <vector>

namespace crawl::testweb {
namespace {

// A raw deflate stream (RFC 1951) of `copies` times `unit`: `unit` is
// compressed once and ended with a full flush (byte-aligned, no reference
// back), so copies of that segment concatenate into a valid stream, closed
// by an empty final stored block. `*crc` gets the CRC-32 of the whole,
// `*adler` its Adler-32.
std::string RepeatedDeflate(std::string_view unit, uint64_t copies, uint32_t* crc,
                            uint32_t* adler = nullptr) {
  z_stream z{};
  deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY);
  std::string segment(deflateBound(&z, unit.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(unit.data()));
  z.avail_in = static_cast<uInt>(unit.size());
  z.next_out = reinterpret_cast<Bytef*>(segment.data());
  z.avail_out = static_cast<uInt>(segment.size());
  deflate(&z, Z_FULL_FLUSH);
  segment.resize(segment.size() - z.avail_out);
  deflateEnd(&z);
  const uLong unit_crc =
      crc32(0, reinterpret_cast<const Bytef*>(unit.data()), static_cast<uInt>(unit.size()));
  const uLong unit_adler =
      adler32(1, reinterpret_cast<const Bytef*>(unit.data()), static_cast<uInt>(unit.size()));
  uLong total = 0, total_adler = 1;
  std::string out;
  out.reserve(segment.size() * copies + 8);
  for (uint64_t i = 0; i < copies; ++i) {
    out += segment;
    total = i == 0 ? unit_crc : crc32_combine(total, unit_crc, static_cast<z_off_t>(unit.size()));
    total_adler =
        i == 0 ? unit_adler : adler32_combine(total_adler, unit_adler, static_cast<z_off_t>(unit.size()));
  }
  if (adler != nullptr) *adler = static_cast<uint32_t>(total_adler);
  out += std::string("\x01\x00\x00\xff\xff", 5);  // BFINAL, stored, LEN 0
  *crc = static_cast<uint32_t>(total);
  return out;
}

void Put16(std::string& s, uint32_t v) {
  s += static_cast<char>(v & 0xff);
  s += static_cast<char>((v >> 8) & 0xff);
}
void Put32(std::string& s, uint32_t v) {
  Put16(s, v & 0xffff);
  Put16(s, v >> 16);
}

struct ZipEntry {
  std::string name;
  std::string data;  // as stored
  bool deflated = false;
  uint32_t crc = 0;
  uint64_t size = 0;  // uncompressed
};

ZipEntry Stored(std::string name, std::string data) {
  ZipEntry e{std::move(name), std::move(data)};
  e.crc = static_cast<uint32_t>(
      crc32(0, reinterpret_cast<const Bytef*>(e.data.data()), static_cast<uInt>(e.data.size())));
  e.size = e.data.size();
  return e;
}

// A zip archive of `entries` (sizes must fit 32 bits).
std::string Zip(const std::vector<ZipEntry>& entries) {
  std::string out, central;
  for (const ZipEntry& e : entries) {
    const uint32_t offset = static_cast<uint32_t>(out.size());
    auto header = [&](std::string& s, bool is_central) {
      Put32(s, is_central ? 0x02014b50 : 0x04034b50);
      if (is_central) Put16(s, 20);  // made by
      Put16(s, 20);                  // needed
      Put16(s, 0);                   // flags
      Put16(s, e.deflated ? 8 : 0);
      Put16(s, 0);     // time
      Put16(s, 0x21);  // date 1980-01-01
      Put32(s, e.crc);
      Put32(s, static_cast<uint32_t>(e.data.size()));
      Put32(s, static_cast<uint32_t>(e.size));
      Put16(s, static_cast<uint32_t>(e.name.size()));
      Put16(s, 0);  // extra
      if (is_central) {
        Put16(s, 0);  // comment
        Put16(s, 0);  // disk
        Put16(s, 0);  // internal attributes
        Put32(s, 0);  // external attributes
        Put32(s, offset);
      }
      s += e.name;
    };
    header(out, false);
    out += e.data;
    header(central, true);
  }
  const uint32_t central_offset = static_cast<uint32_t>(out.size());
  out += central;
  Put32(out, 0x06054b50);
  Put16(out, 0);
  Put16(out, 0);
  Put16(out, static_cast<uint32_t>(entries.size()));
  Put16(out, static_cast<uint32_t>(entries.size()));
  Put32(out, static_cast<uint32_t>(central.size()));
  Put32(out, central_offset);
  Put16(out, 0);
  return out;
}

constexpr std::string_view kContentTypes =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
    "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
    "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
    "<Override PartName=\"/word/document.xml\" "
    "ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml\"/>"
    "</Types>";
constexpr std::string_view kRels =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
    "<Relationship Id=\"rId1\" "
    "Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" "
    "Target=\"word/document.xml\"/></Relationships>";

// Ten entity levels of ten references each, and `root` using the last.
std::string Laughs(std::string_view root_open, std::string_view root_close) {
  std::string xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n";
  for (int level = 1; level <= 9; ++level) {
    xml += " <!ENTITY lol" + std::to_string(level) + " \"";
    const std::string ref = level == 1 ? "&lol;" : "&lol" + std::to_string(level - 1) + ";";
    for (int i = 0; i < 10; ++i) xml += ref;
    xml += "\">\n";
  }
  xml += "]>\n";
  xml += root_open;
  xml += "&lol9;";
  xml += root_close;
  return xml;
}

std::string DocxWithBody(ZipEntry document) {
  return Zip({Stored("[Content_Types].xml", std::string(kContentTypes)),
              Stored("_rels/.rels", std::string(kRels)), std::move(document)});
}

std::string ZipBombDocx() {
  ZipEntry doc;
  doc.name = "word/document.xml";
  doc.deflated = true;
  doc.size = kZipBombBytes;
  doc.data = RepeatedDeflate(std::string(size_t{64} << 20, '\0'), kZipBombBytes >> 26, &doc.crc);
  return DocxWithBody(std::move(doc));
}

std::string LaughsDocx() {
  return DocxWithBody(
      Stored("word/document.xml",
             Laughs("<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\">"
                    "<w:body><w:p><w:r><w:t>",
                    "</w:t></w:r></w:p></w:body></w:document>")));
}

std::string LaughsOdt() {
  const std::string manifest =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\">"
      "<manifest:file-entry manifest:full-path=\"/\" "
      "manifest:media-type=\"application/vnd.oasis.opendocument.text\"/>"
      "<manifest:file-entry manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/>"
      "</manifest:manifest>";
  return Zip(
      {Stored("mimetype", "application/vnd.oasis.opendocument.text"),
       Stored("META-INF/manifest.xml", manifest),
       Stored("content.xml", Laughs("<office:document-content "
                                    "xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
                                    "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\">"
                                    "<office:body><office:text><text:p>",
                                    "</text:p></office:text></office:body></office:document-content>"))});
}

// A PDF of objects 1..n: `objects[i]` is object i+1's body. With
// `bad_xref`, the xref table and startxref are garbage.
std::string Pdf(const std::vector<std::string>& objects, bool bad_xref) {
  std::string pdf = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  std::vector<size_t> offsets;
  for (size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(pdf.size());
    pdf += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  const size_t xref = pdf.size();
  pdf += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  char line[32];
  for (size_t offset : offsets) {
    std::snprintf(line, sizeof line, "%010zu 00000 n \n", bad_xref ? offset * 7 + 13 : offset);
    pdf += line;
  }
  if (bad_xref) pdf += "\x8f garbage \xff\xfe 99999999 never an entry\n";
  pdf += "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R >>\nstartxref\n" +
         std::to_string(bad_xref ? xref * 3 + 11 : xref) + "\n%%EOF\n";
  return pdf;
}

// Catalog, pages, one page showing `content` (a stream dictionary tail and
// its data) in Helvetica.
std::vector<std::string> OnePage(const std::string& stream_dict, const std::string& data) {
  return {"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
          "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
          "/Resources << /Font << /F1 5 0 R >> >> >>",
          "<< /Length " + std::to_string(data.size()) + stream_dict + " >>\nstream\n" + data + "\nendstream",
          "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"};
}

std::string TextContent(int lines) {
  std::string text = "BT /F1 12 Tf 72 720 Td 14 TL\n";
  for (int i = 0; i < lines; ++i) text += "(All work and no play makes a parser dull) '\n";
  return text + "ET\n";
}

std::string TruncatedPdf() {
  const std::string whole = Pdf(OnePage("", TextContent(40)), false);
  return whole.substr(0, whole.find("stream\n") + 300);
}

std::string SlowPdf() {
  // Whole lines per segment, so the repeated stream stays well formed.
  const std::string line = "(All work and no play makes a parser dull) '\n";
  std::string unit;
  while (unit.size() + line.size() <= (size_t{4} << 20)) unit += line;
  uint32_t crc = 0, adler = 0;
  const std::string raw = RepeatedDeflate(unit, kSlowPdfBytes / unit.size(), &crc, &adler);
  // The zlib wrapper (RFC 1950) FlateDecode reads: header, stream, Adler-32.
  std::string data = std::string("\x78\xda", 2) + raw;
  for (int shift = 24; shift >= 0; shift -= 8) data += static_cast<char>((adler >> shift) & 0xff);
  // The text state is set by a first, small content stream (object 6).
  std::vector<std::string> objects = OnePage(" /Filter /FlateDecode", data);
  const size_t contents = objects[2].find("4 0 R");
  objects[2].replace(contents, 5, "[6 0 R 4 0 R]");
  const std::string setup = "BT /F1 12 Tf 72 720 Td 14 TL\n";
  objects.push_back("<< /Length " + std::to_string(setup.size()) + " >>\nstream\n" + setup + "\nendstream");
  return Pdf(objects, false);
}

}  // namespace

const std::string& DocumentBombBody(size_t index) {
  static std::once_flag once[std::size(kDocumentBombs)];
  static std::string bodies[std::size(kDocumentBombs)];
  if (index >= std::size(kDocumentBombs)) index = 0;
  std::call_once(once[index], [index] {
    switch (index) {
      case 0:
        bodies[index] = TruncatedPdf();
        break;
      case 1:
        bodies[index] = Pdf(OnePage("", TextContent(40)), true);
        break;
      case 2:
        bodies[index] = SlowPdf();
        break;
      case 3:
        bodies[index] = ZipBombDocx();
        break;
      case 4:
        bodies[index] = LaughsDocx();
        break;
      case 5:
        bodies[index] = LaughsOdt();
        break;
      default:
        bodies[index] = Laughs("<rss version=\"2.0\"><channel><title>Laughs</title><item><title>",
                               "</title><link>/</link></item></channel></rss>");
    }
  });
  return bodies[index];
}

}  // namespace crawl::testweb
