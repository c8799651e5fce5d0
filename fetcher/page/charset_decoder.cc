// Decoders of the Encoding Standard's encodings (charset.h: Decoder).
//
// Single-byte: the standard's index tables (encoding_table.inc). UTF-8:
// common/text/utf8.h. x-user-defined and replacement: by hand, as the
// standard writes them. The rest through ICU, with the converter whose
// table is the standard's index, and two corrections where ICU and the
// standard part (checked pointer by pointer against the standard's
// index-*.txt: tests/bench/charset_index_check.cc):
//   - an unmapped two-byte pair whose second byte is ASCII is U+FFFD and
//     then that ASCII character (the standard "restores" the byte; ICU
//     consumes it): Shift_JIS, EUC-KR, Big5, gb18030;
//   - the user-defined areas ICU maps to the Private Use Area are errors in
//     the standard's Big5 and EUC-KR indexes, as are the lone bytes
//     windows-949 and ICU's EUC-JP read as C1 controls; the standard's
//     single-byte 0x80 (Shift_JIS: U+0080; gb18030: the euro sign) and its
//     four Big5 pairs that are two code points are added; gb18030's 19 two-byte codes
//     GB 18030-2022 moved out of the Private Use Area (and that the
//     standard follows) decode to their 2022 characters.
#include <unicode/ucnv.h>
#include <unicode/ucnv_cb.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "common/text/utf8_append.h"
#include "fetcher/page/charset.h"

namespace crawl::fetcher {
namespace {

using text::AppendUtf8;

#include "fetcher/page/encoding_table.inc"

constexpr std::string_view kReplacementUtf8 = "\xEF\xBF\xBD";

static_assert(sizeof(kEncodingNames) / sizeof(kEncodingNames[0]) == kEncodingCount);
static_assert(kSingleByteTables[0].encoding == Encoding::kIbm866);

const char* IcuConverterName(Encoding encoding) {
  switch (encoding) {
    case Encoding::kGbk:  // the standard's GBK decoder is its gb18030 decoder
    case Encoding::kGb18030:
      return "gb18030";
    case Encoding::kBig5:
      return "Big5-HKSCS";
    case Encoding::kEucJp:
      return "EUC-JP";
    case Encoding::kIso2022Jp:
      return "ISO-2022-JP";
    case Encoding::kShiftJis:
      return "windows-31j";
    case Encoding::kEucKr:
      return "windows-949";
    case Encoding::kUtf16Be:
      return "UTF-16BE";
    case Encoding::kUtf16Le:
      return "UTF-16LE";
    default:
      return nullptr;
  }
}

bool TwoByteLegacy(Encoding e) {
  return e == Encoding::kShiftJis || e == Encoding::kEucKr || e == Encoding::kBig5 || e == Encoding::kGbk ||
         e == Encoding::kGb18030;
}

// gb18030 two-byte codes ICU 72 (GB 18030-2005) reads as Private Use Area
// characters and the standard (GB 18030-2022) as these.
struct Gb2022 {
  uint16_t pua;
  uint16_t code_point;
};
constexpr std::array<Gb2022, 19> kGb2022 = {{{0xE5E5, 0x3000},
                                             {0xE78D, 0xFE10},
                                             {0xE78E, 0xFE12},
                                             {0xE78F, 0xFE11},
                                             {0xE790, 0xFE13},
                                             {0xE791, 0xFE14},
                                             {0xE792, 0xFE15},
                                             {0xE793, 0xFE16},
                                             {0xE794, 0xFE17},
                                             {0xE795, 0xFE18},
                                             {0xE796, 0xFE19},
                                             {0xE81E, 0x9FB4},
                                             {0xE826, 0x9FB5},
                                             {0xE82B, 0x9FB6},
                                             {0xE82C, 0x9FB7},
                                             {0xE832, 0x9FB8},
                                             {0xE843, 0x9FB9},
                                             {0xE854, 0x9FBA},
                                             {0xE864, 0x9FBB}}};

// Big5 codes the standard (its index, HKSCS-2008 in Unicode) reads as
// characters and ICU 72 as errors or Private Use Area characters; printed by
// tests/bench/charset_index_check --big5-table. Sorted by code.
struct Big5Unicode {
  uint16_t code;
  uint32_t code_point;
};
constexpr Big5Unicode kBig5Unicode[] = {
    {0x87A4, 0x9F97}, {0x87AC, 0x9F96}, {0x8840, 0x31C0}, {0x8841, 0x31C1}, {0x8842, 0x31C2},
    {0x8843, 0x31C3}, {0x8844, 0x31C4}, {0x8846, 0x31C5}, {0x8849, 0x31C6}, {0x884A, 0x31C7},
    {0x884D, 0x31C8}, {0x884F, 0x31C9}, {0x8850, 0x31CA}, {0x8851, 0x31CB}, {0x8852, 0x31CC},
    {0x8854, 0x31CD}, {0x8855, 0x31CE}, {0x88A9, 0x23DA}, {0x88AA, 0x23DB}, {0x8C43, 0x9FA6},
    {0x8C6D, 0x9FA7}, {0x8C74, 0x9FA8}, {0x8CB7, 0x9FA9}, {0x8CB9, 0x9FAA}, {0x8CBB, 0x9FAB},
    {0x8CC0, 0x9FAC}, {0x8CD7, 0x9FAD}, {0x8CD8, 0x9FAE}, {0x8CDA, 0x9FAF}, {0x8CED, 0x9FB2},
    {0x8D48, 0x9FB3}, {0x8E69, 0x7BB8}, {0x8E6F, 0x7C06}, {0x8E7E, 0x7CCE}, {0x8EAB, 0x7DD2},
    {0x8EB4, 0x7E1D}, {0x8ECD, 0x8005}, {0x8ED0, 0x8028}, {0x8F57, 0x83C1}, {0x8F69, 0x84A8},
    {0x8F6E, 0x840F}, {0x8FCB, 0x89A6}, {0x8FCC, 0x89A9}, {0x8FFE, 0x8D77}, {0x906D, 0x90FD},
    {0x907A, 0x92B9}, {0x90DC, 0x975C}, {0x90F1, 0x97FF}, {0x91BF, 0x9F16}, {0x9244, 0x8503},
    {0x92AF, 0x5159}, {0x92B0, 0x515B}, {0x92B1, 0x515D}, {0x92B2, 0x515E}, {0x92C8, 0x936E},
    {0x92D1, 0x7479}, {0x9447, 0x6D67}, {0x94CA, 0x799B}, {0x95D9, 0x9097}, {0x9644, 0x975D},
    {0x96ED, 0x701E}, {0x96FC, 0x5B28}, {0x9B76, 0x7201}, {0x9B78, 0x77D7}, {0x9B7B, 0x7E87},
    {0x9BC6, 0x99D6}, {0x9BDE, 0x91D4}, {0x9BEC, 0x60DE}, {0x9BF6, 0x6FB6}, {0x9C42, 0x8F36},
    {0x9C53, 0x4FBB}, {0x9C62, 0x71DF}, {0x9C68, 0x9104}, {0x9C6B, 0x9DF0}, {0x9C77, 0x83CF},
    {0x9CBC, 0x5C10}, {0x9CBD, 0x79E3}, {0x9CD0, 0x5A67}, {0x9D57, 0x8F0B}, {0x9D5A, 0x7B51},
    {0x9DC4, 0x62D0}, {0x9EA9, 0x6062}, {0x9EEF, 0x75F9}, {0x9EFD, 0x6C4A}, {0x9F60, 0x9B2E},
    {0x9F66, 0x9F17}, {0x9FCB, 0x50ED}, {0x9FD8, 0x5F0C}, {0xA063, 0x880F}, {0xA077, 0x62CE},
    {0xA0D5, 0x7468}, {0xA0DF, 0x7162}, {0xA0E4, 0x7250}, {0xA3C0, 0x2400}, {0xA3C1, 0x2401},
    {0xA3C2, 0x2402}, {0xA3C3, 0x2403}, {0xA3C4, 0x2404}, {0xA3C5, 0x2405}, {0xA3C6, 0x2406},
    {0xA3C7, 0x2407}, {0xA3C8, 0x2408}, {0xA3C9, 0x2409}, {0xA3CA, 0x240A}, {0xA3CB, 0x240B},
    {0xA3CC, 0x240C}, {0xA3CD, 0x240D}, {0xA3CE, 0x240E}, {0xA3CF, 0x240F}, {0xA3D0, 0x2410},
    {0xA3D1, 0x2411}, {0xA3D2, 0x2412}, {0xA3D3, 0x2413}, {0xA3D4, 0x2414}, {0xA3D5, 0x2415},
    {0xA3D6, 0x2416}, {0xA3D7, 0x2417}, {0xA3D8, 0x2418}, {0xA3D9, 0x2419}, {0xA3DA, 0x241A},
    {0xA3DB, 0x241B}, {0xA3DC, 0x241C}, {0xA3DD, 0x241D}, {0xA3DE, 0x241E}, {0xA3DF, 0x241F},
    {0xA3E0, 0x2421}, {0xC6CF, 0x5EF4}, {0xC6D3, 0x65E0}, {0xC6D5, 0x7676}, {0xC6D7, 0x96B6},
    {0xC6DE, 0x3003}, {0xC6DF, 0x4EDD}, {0xC879, 0x31CF}, {0xC8A1, 0x9FB0}, {0xC8A3, 0x9FB1},
    {0xFA5F, 0x5029}, {0xFA66, 0x507D}, {0xFABD, 0x5305}, {0xFAC5, 0x5344}, {0xFAD5, 0x537F},
    {0xFB48, 0x5605}, {0xFBB8, 0x5A77}, {0xFBF3, 0x5E75}, {0xFBF9, 0x5ED0}, {0xFC4F, 0x5F58},
    {0xFC6C, 0x60A4}, {0xFCB9, 0x6490}, {0xFCE2, 0x6674}, {0xFCF1, 0x675E}, {0xFDB7, 0x6C9C},
    {0xFDB8, 0x6E1D}, {0xFDBB, 0x6E2F}, {0xFDF1, 0x716E}, {0xFE52, 0x732A}, {0xFE6F, 0x745C},
    {0xFEAA, 0x74E9}, {0xFEDD, 0x7809},
};

// The standard's character for the Big5 pair lead/trail where ICU has none,
// or 0.
uint32_t Big5Fix(unsigned char lead, unsigned char trail) {
  const uint16_t code = static_cast<uint16_t>(lead << 8 | trail);
  const auto* it = std::lower_bound(std::begin(kBig5Unicode), std::end(kBig5Unicode), code,
                                    [](const Big5Unicode& e, uint16_t c) { return e.code < c; });
  return it != std::end(kBig5Unicode) && it->code == code ? it->code_point : 0;
}

// Code points as ICU's UTF-16.
int32_t ToUtf16(uint32_t cp, UChar* out) {
  if (cp < 0x10000) {
    out[0] = static_cast<UChar>(cp);
    return 1;
  }
  out[0] = static_cast<UChar>(0xD800 + ((cp - 0x10000) >> 10));
  out[1] = static_cast<UChar>(0xDC00 + ((cp - 0x10000) & 0x3FF));
  return 2;
}

}  // namespace

struct Decoder::Icu {
  UConverter* converter = nullptr;
  Encoding encoding = Encoding::kUtf8;
  uint32_t* invalid = nullptr;
  UChar pending_high = 0;  // a high surrogate at the end of the last buffer
  ~Icu() {
    if (converter != nullptr) ucnv_close(converter);
  }
};

namespace {

// The Big5 pairs the standard reads as two code points (a letter and a
// combining mark); ICU reads them as Private Use Area characters.
std::u16string_view Big5Pair(unsigned char lead, unsigned char trail) {
  if (lead != 0x88) return {};
  switch (trail) {
    case 0x62:
      return u"\u00CA\u0304";
    case 0x64:
      return u"\u00CA\u030C";
    case 0xA3:
      return u"\u00EA\u0304";
    case 0xA5:
      return u"\u00EA\u030C";
    default:
      return {};
  }
}

// Where ICU and the standard part on a unit ICU wrote for the bytes `from`
// (see the top): true when the standard's reading is written to *out
// instead; else *u may be replaced and is the unit to write.
bool CorrectedUnit(Encoding e, std::string_view from, uint32_t* u, std::string* out, uint32_t* invalid) {
  const bool gb = e == Encoding::kGbk || e == Encoding::kGb18030;
  // windows-949 and ICU's EUC-JP read lone bytes 0x80-0x9F as C1 controls;
  // the standard's EUC-KR and EUC-JP as errors.
  if ((e == Encoding::kEucKr || e == Encoding::kEucJp) && *u >= 0x80 && *u <= 0x9F) {
    ++*invalid;
    out->append(kReplacementUtf8);
    return true;
  }
  // ICU's EUC-JP reads IBM's extension rows 0x73-0x74 of JIS X 0212; the
  // standard's index ends before them.
  if (e == Encoding::kEucJp && from.size() == 3 && static_cast<unsigned char>(from[0]) == 0x8F &&
      static_cast<unsigned char>(from[1]) >= 0xF3) {
    ++*invalid;
    out->append(kReplacementUtf8);
    return true;
  }
  if (*u < 0xE000 || *u > 0xF8FF) return false;
  if (gb) {
    for (const Gb2022& g : kGb2022) {
      if (g.pua == *u) *u = g.code_point;
    }
    return false;
  }
  if (e != Encoding::kBig5 && e != Encoding::kEucKr) return false;
  const bool pair = from.size() == 2;
  const std::u16string_view two = pair && e == Encoding::kBig5 ? Big5Pair(static_cast<unsigned char>(from[0]),
                                                                          static_cast<unsigned char>(from[1]))
                                                               : std::u16string_view();
  if (!two.empty()) {
    AppendUtf8(two[0], out);
    AppendUtf8(two[1], out);
    return true;
  }
  if (pair && e == Encoding::kBig5) {
    if (const uint32_t cp =
            Big5Fix(static_cast<unsigned char>(from[0]), static_cast<unsigned char>(from[1]))) {
      AppendUtf8(cp, out);
      return true;
    }
  }
  ++*invalid;
  out->append(kReplacementUtf8);
  if (pair && static_cast<unsigned char>(from[1]) < 0x80) out->push_back(from[1]);
  return true;
}

// ICU's error callback: one U+FFFD per invalid sequence, counted; an
// unmapped pair's ASCII second byte is given back (see the top).

// ICU's error callback: one U+FFFD per invalid sequence, counted; an
// unmapped pair's ASCII second byte is given back (see the top). Bytes the
// standard maps and ICU does not are written as the standard says.
void CountingCallback(const void* context, UConverterToUnicodeArgs* args, const char* units, int32_t length,
                      UConverterCallbackReason reason, UErrorCode* error) {
  if (reason > UCNV_IRREGULAR) return;  // reset, close, clone: nothing to write
  const auto* icu = static_cast<const Decoder::Icu*>(context);
  const Encoding e = icu->encoding;
  *error = U_ZERO_ERROR;
  const auto first = static_cast<unsigned char>(units[0]);
  if (length == 1 && first == 0x80 && e != Encoding::kUtf16Be && e != Encoding::kUtf16Le) {
    // Shift_JIS: U+0080; GBK and gb18030: the euro sign.
    const UChar c = e == Encoding::kShiftJis                         ? 0x80
                    : e == Encoding::kGbk || e == Encoding::kGb18030 ? 0x20AC
                                                                     : 0;
    if (c != 0) return ucnv_cbToUWriteUChars(args, &c, 1, 0, error);
  }
  if (length == 2 && e == Encoding::kBig5) {
    if (const uint32_t cp = Big5Fix(first, static_cast<unsigned char>(units[1])); cp != 0) {
      std::array<UChar, 2> fixed{};
      return ucnv_cbToUWriteUChars(args, fixed.data(), ToUtf16(cp, fixed.data()), 0, error);
    }
  }
  ++*icu->invalid;
  std::array<UChar, 2> out = {0xFFFD, 0};
  int32_t n = 1;
  if (reason == UCNV_UNASSIGNED && length >= 2 && TwoByteLegacy(e) &&
      static_cast<unsigned char>(units[length - 1]) < 0x80) {
    out[1] = static_cast<unsigned char>(units[length - 1]);
    n = 2;
  }
  ucnv_cbToUWriteUChars(args, out.data(), n, 0, error);
}

}  // namespace

Decoder::Decoder(Encoding encoding) : encoding_(encoding) {
  if (IsSingleByte(encoding)) {
    high_ = kSingleByteTables[static_cast<int>(encoding) - static_cast<int>(Encoding::kIbm866)].high;
    return;
  }
  const char* name = IcuConverterName(encoding);
  if (name == nullptr) return;
  icu_ = std::make_unique<Icu>();
  icu_->encoding = encoding;
  icu_->invalid = &invalid_;
  UErrorCode error = U_ZERO_ERROR;
  icu_->converter = ucnv_open(name, &error);
  if (U_FAILURE(error)) {  // ICU built without the converter: read as UTF-8
    icu_.reset();
    return;
  }
  ucnv_setToUCallBack(icu_->converter, CountingCallback, icu_.get(), nullptr, nullptr, &error);
  ucnv_setFallback(icu_->converter, true);
}

Decoder::~Decoder() = default;

void Decoder::Decode(std::string_view bytes, bool last, std::string* out) {
  if (high_ != nullptr) return DecodeSingleByte(bytes, out);
  if (icu_ != nullptr) return DecodeIcu(bytes, last, out);
  switch (encoding_) {
    case Encoding::kReplacement:  // the whole stream is one error
      if (!seen_input_ && !bytes.empty()) {
        seen_input_ = true;
        out->append(kReplacementUtf8);
        ++invalid_;
      }
      return;
    case Encoding::kXUserDefined:  // 0x80-0xFF are U+F780-U+F7FF
      for (char c : bytes) {
        const auto b = static_cast<unsigned char>(c);
        AppendUtf8(b < 0x80 ? b : 0xF780 + b - 0x80, out);
      }
      return;
    default:
      return DecodeUtf8(bytes, last, out);
  }
}

void Decoder::DecodeSingleByte(std::string_view bytes, std::string* out) {
  out->reserve(out->size() + bytes.size() + bytes.size() / 4);
  std::size_t i = 0;
  const std::size_t n = bytes.size();
  while (i < n) {
    std::size_t j = i;
    while (j < n && static_cast<unsigned char>(bytes[j]) < 0x80) ++j;
    out->append(bytes.substr(i, j - i));
    if (j == n) break;
    const uint16_t cp = high_[static_cast<unsigned char>(bytes[j]) - 0x80];
    if (cp == 0) {
      out->append(kReplacementUtf8);
      ++invalid_;
    } else {
      AppendUtf8(cp, out);
    }
    i = j + 1;
  }
}

void Decoder::DecodeUtf8(std::string_view bytes, bool last, std::string* out) {
  std::string joined;
  if (!pending_.empty()) {
    joined = pending_ + std::string(bytes);
    pending_.clear();
    bytes = joined;
  }
  std::size_t end = bytes.size();
  if (!last) {
    // Keep an unfinished character at the end for the next piece: a lead
    // byte within the last three bytes that needs more than follow it.
    for (std::size_t back = 1; back <= 3 && back <= bytes.size(); ++back) {
      const auto b = static_cast<unsigned char>(bytes[bytes.size() - back]);
      if (b < 0x80) break;
      if (b >= 0xC0) {
        const std::size_t need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
        if (need > back) end = bytes.size() - back;
        break;
      }
    }
  }
  const std::string_view now = bytes.substr(0, end);
  if (ValidUtf8Prefix(now) == now.size()) {
    out->append(now);
  } else {
    out->append(text::Utf8Cleaned(now, &invalid_));
  }
  pending_.assign(bytes.substr(end));
}

void Decoder::DecodeIcu(std::string_view bytes, bool last, std::string* out) {
  // The two-byte encodings and EUC-JP keep a piece's unfinished character
  // here, not in ICU: ICU reads a character split between pieces unlike one
  // inside a piece (it gives an unmapped pair's ASCII second byte back
  // itself; the corrections above see no bytes for it), and they have no
  // other state to lose.
  const bool hold = TwoByteLegacy(encoding_) || encoding_ == Encoding::kEucJp;
  std::string joined;
  if (!pending_.empty()) {
    joined = pending_ + std::string(bytes);
    pending_.clear();
    bytes = joined;
  }
  const char* source = bytes.data();
  const char* const limit = source + bytes.size();
  std::array<UChar, 4096> units;
  std::array<int32_t, 4096> offsets;
  out->reserve(out->size() + bytes.size() + bytes.size() / 2);
  for (;;) {
    UChar* target = units.data();
    const char* const start = source;
    UErrorCode error = U_ZERO_ERROR;
    ucnv_toUnicode(icu_->converter, &target, units.data() + units.size(), &source, limit, offsets.data(),
                   last, &error);
    const auto produced = static_cast<std::size_t>(target - units.data());
    // Bytes ICU keeps for the next piece: they end no unit of this one.
    UErrorCode pending_error = U_ZERO_ERROR;
    const int32_t kept = last ? 0 : std::max(0, ucnv_toUCountPending(icu_->converter, &pending_error));
    for (std::size_t k = 0; k < produced; ++k) {
      uint32_t u = units[k];
      if (icu_->pending_high != 0) {
        const UChar high = icu_->pending_high;
        icu_->pending_high = 0;
        if (u >= 0xDC00 && u <= 0xDFFF) {
          AppendUtf8(0x10000 + ((high - 0xD800) << 10) + (u - 0xDC00), out);
          continue;
        }
        out->append(kReplacementUtf8);  // ICU pairs its surrogates: not reached
      }
      if (u >= 0xD800 && u <= 0xDBFF) {
        icu_->pending_high = static_cast<UChar>(u);
        continue;
      }
      // How many bytes made this unit (ICU's offsets: where each began).
      const int32_t at = offsets[k];
      const int32_t next = k + 1 < produced ? offsets[k + 1] : static_cast<int32_t>(source - start) - kept;
      const std::string_view from = at >= 0 && next > at
                                        ? std::string_view(start + at, static_cast<std::size_t>(next - at))
                                        : std::string_view();
      if (CorrectedUnit(encoding_, from, &u, out, &invalid_)) continue;
      AppendUtf8(u >= 0xDC00 && u <= 0xDFFF ? 0xFFFD : u, out);
    }
    if (error != U_BUFFER_OVERFLOW_ERROR) break;
  }
  if (last && icu_->pending_high != 0) {
    icu_->pending_high = 0;
    out->append(kReplacementUtf8);
  }
  if (hold && !last) {
    UErrorCode error = U_ZERO_ERROR;
    const int32_t held = ucnv_toUCountPending(icu_->converter, &error);
    if (U_SUCCESS(error) && held > 0 && static_cast<std::size_t>(held) <= bytes.size()) {
      pending_.assign(bytes.substr(bytes.size() - static_cast<std::size_t>(held)));
      ucnv_resetToUnicode(icu_->converter);
    }
  }
}

std::string ToUtf8(std::string_view bytes, Encoding encoding, uint32_t* invalid) {
  Decoder decoder(encoding);
  std::string out;
  decoder.Decode(bytes, /*last=*/true, &out);
  *invalid += decoder.invalid();
  return out;
}

bool IsSingleByte(Encoding encoding) {
  return encoding >= Encoding::kIbm866 && encoding <= Encoding::kXMacCyrillic;
}

std::string_view EncodingName(Encoding encoding) { return kEncodingNames[static_cast<int>(encoding)]; }

std::optional<Encoding> EncodingForLabel(std::string_view label) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; };
  while (!label.empty() && space(label.front())) label.remove_prefix(1);
  while (!label.empty() && space(label.back())) label.remove_suffix(1);
  if (label.empty() || label.size() > 32) return std::nullopt;
  std::array<char, 32> lower{};
  for (std::size_t i = 0; i < label.size(); ++i) {
    const char c = label[i];
    lower[i] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  const std::string_view key(lower.data(), label.size());
  const auto* begin = std::begin(kEncodingLabels);
  const auto* end = std::end(kEncodingLabels);
  const auto* it = std::lower_bound(begin, end, key,
                                    [](const EncodingLabel& e, std::string_view k) { return e.label < k; });
  if (it == end || it->label != key) return std::nullopt;
  return it->encoding;
}

}  // namespace crawl::fetcher
