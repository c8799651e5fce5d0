// The index's shared byte layouts (index_records.h).
#include "queueserver/index/index_records.h"

#include "common/base/hash.h"
#include "queueserver/index/postings_codec.h"

namespace crawl::queueserver {

uint64_t TitleTermId(uint64_t term_id) {
  std::string key = "title";
  key.push_back('\0');
  for (int i = 7; i >= 0; --i) key.push_back(static_cast<char>((term_id >> (8 * i)) & 0xff));
  return hash::Hash8(key);
}

void PutU32Be(std::string* out, uint32_t v) {
  for (int i = 3; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutU64Be(std::string* out, uint64_t v) {
  for (int i = 7; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
uint64_t ReadBe(std::string_view d, size_t bytes) {
  uint64_t v = 0;
  for (size_t i = 0; i < bytes; ++i) v = (v << 8) | static_cast<uint8_t>(d[i]);
  return v;
}
void PutString(std::string* out, std::string_view s) {
  PutVarint(out, s.size());
  out->append(s);
}
bool GetString(std::string_view in, size_t* pos, std::string* s) {
  uint64_t n = 0;
  if (!GetVarint(in, pos, &n) || n > in.size() - *pos) return false;
  s->assign(in.substr(*pos, n));
  *pos += n;
  return true;
}

std::array<uint8_t, 24> MakeDocId(uint64_t url_hash, char type, uint64_t text_hash7, uint64_t host_hash) {
  std::array<uint8_t, 24> id{};
  for (int i = 0; i < 8; ++i) id[i] = static_cast<uint8_t>(url_hash >> (56 - 8 * i));
  id[8] = static_cast<uint8_t>(type);
  for (int i = 0; i < 7; ++i) id[9 + i] = static_cast<uint8_t>(text_hash7 >> (48 - 8 * i));
  for (int i = 0; i < 8; ++i) id[16 + i] = static_cast<uint8_t>(host_hash >> (56 - 8 * i));
  return id;
}
std::string IdString(const std::array<uint8_t, 24>& id) { return std::string(id.begin(), id.end()); }

std::string LivenessKey(uint64_t url_hash) {
  std::string key = "u";
  PutU64Be(&key, url_hash);
  return key;
}
std::string EncodeLiveness(const PageLiveness& l) {
  std::string v(1, l.live ? '+' : '-');
  for (int i = 6; i >= 0; --i) v.push_back(static_cast<char>((l.text_hash >> (8 * i)) & 0xff));
  return v;
}
bool DecodeLiveness(std::string_view value, PageLiveness* l) {
  if (value.size() != 8 || (value[0] != '+' && value[0] != '-')) return false;
  l->live = value[0] == '+';
  l->text_hash = ReadBe(value.substr(1), 7);
  return true;
}
bool DocIsLive(const IndexedDoc& doc, const PageLiveness* l) {
  if (l == nullptr) return true;
  if (doc.link) return l->live;
  return l->live && l->text_hash == doc.text_hash;
}

std::string CutUtf8(std::string s, size_t n) {
  if (s.size() <= n) return s;
  while (n > 0 && (static_cast<uint8_t>(s[n]) & 0xc0) == 0x80) --n;
  s.resize(n);
  return s;
}

}  // namespace crawl::queueserver
