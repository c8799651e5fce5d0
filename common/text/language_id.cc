// A text's language over CLD2 (language_id.h).
#include "common/text/language_id.h"

// compact_lang_det.h uses FILE without including its header.
#include <cstdint>
#include <cstdio>
//
#include <cld2/public/compact_lang_det.h>
#include <cld2/public/encodings.h>

#include <utility>

namespace crawl::text {
namespace {

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + ('a' - 'A')) : c; }

// CLD2's own spelling of a normalized code: it still uses the withdrawn
// codes for Hebrew, Yiddish, Indonesian and Javanese.
CLD2::Language ToCld2(std::string_view code) {
  if (code.empty()) return CLD2::UNKNOWN_LANGUAGE;
  static constexpr std::pair<std::string_view, const char*> kWithdrawn[] = {
      {"he", "iw"}, {"yi", "ji"}, {"id", "in"}, {"jv", "jw"}};
  for (const auto& [current, old] : kWithdrawn) {
    if (code == current) {
      const CLD2::Language l = CLD2::GetLanguageFromName(old);
      if (l != CLD2::UNKNOWN_LANGUAGE) return l;
    }
  }
  return CLD2::GetLanguageFromName(std::string(code).c_str());
}

std::string FromCld2(CLD2::Language l) {
  switch (l) {
    // CLD2's joke and pseudo languages of its extended set.
    case CLD2::X_BORK_BORK_BORK:
    case CLD2::X_PIG_LATIN:
    case CLD2::X_HACKER:
    case CLD2::X_KLINGON:
    case CLD2::X_ELMER_FUDD:
    case CLD2::UNKNOWN_LANGUAGE:
      return {};
    default:
      return NormalizeLanguageCode(CLD2::LanguageCode(l));
  }
}

// The longest prefix of `s` of at most `max` bytes that ends at a
// character boundary.
std::string_view CutAtCharacter(std::string_view s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end);
}

}  // namespace

int TextLanguage::PercentOf(std::string_view code) const {
  for (std::size_t i = 0; i < top.size(); ++i) {
    if (!top[i].empty() && top[i] == code) return percent[i];
  }
  return 0;
}

std::string NormalizeLanguageCode(std::string_view tag) {
  const std::size_t end = tag.find_first_of("-_");
  const std::string_view primary = tag.substr(0, end);
  if (primary.size() < 2 || primary.size() > 3) return {};
  std::string code;
  for (char c : primary) {
    c = Lower(c);
    if (c < 'a' || c > 'z') return {};
    code.push_back(c);
  }
  static constexpr std::pair<std::string_view, std::string_view> kRewrites[] = {
      {"iw", "he"}, {"ji", "yi"}, {"in", "id"}, {"jw", "jv"}, {"mo", "ro"}, {"nb", "no"},
      {"un", ""},   {"und", ""},  {"xx", ""},   {"mul", ""},  {"zxx", ""}};
  for (const auto& [from, to] : kRewrites) {
    if (code == from) return std::string(to);
  }
  return code;
}

bool ScriptsDiffer(std::string_view a, std::string_view b) {
  const CLD2::Language la = ToCld2(a);
  const CLD2::Language lb = ToCld2(b);
  if (la == CLD2::UNKNOWN_LANGUAGE || lb == CLD2::UNKNOWN_LANGUAGE) return false;
  // A language is recognised in at most four scripts.
  bool any_a = false;
  for (int i = 0; i < 4; ++i) {
    const CLD2::ULScript sa = CLD2::LanguageRecognizedScript(la, i);
    if (sa == CLD2::ULScript_Common) continue;
    any_a = true;
    for (int j = 0; j < 4; ++j) {
      if (CLD2::LanguageRecognizedScript(lb, j) == sa) return false;
    }
  }
  bool any_b = false;
  for (int j = 0; j < 4; ++j) any_b |= CLD2::LanguageRecognizedScript(lb, j) != CLD2::ULScript_Common;
  return any_a && any_b;
}

std::string LanguageOfScript(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (s[i] < 0x80) {
      if ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z') return "";
      continue;
    }
    uint32_t cp = 0;
    if ((s[i] & 0xE0) == 0xC0 && i + 1 < text.size()) {
      cp = ((s[i] & 0x1Fu) << 6) | (s[i + 1] & 0x3Fu);
    } else if ((s[i] & 0xF0) == 0xE0 && i + 2 < text.size()) {
      cp = ((s[i] & 0x0Fu) << 12) | ((s[i + 1] & 0x3Fu) << 6) | (s[i + 2] & 0x3Fu);
    } else {
      continue;  // a continuation byte, or beyond the BMP's scripts below
    }
    if (cp >= 0x0400 && cp <= 0x052F) return "ru";
    if (cp >= 0x0370 && cp <= 0x03FF) return "el";
    if (cp >= 0x0600 && cp <= 0x06FF) return "ar";
    if (cp >= 0x0530 && cp <= 0x058F) return "hy";
    if (cp >= 0x0900 && cp <= 0x097F) return "hi";
    if (cp >= 0x0B80 && cp <= 0x0BFF) return "ta";
    if (cp >= 0x00C0) return "";  // a letter of another script
  }
  return "";
}

TextLanguage IdentifyLanguage(std::string_view text, const LanguageHints& hints) {
  TextLanguage out;
  text = CutAtCharacter(text, kMaxIdentifiedBytes);
  if (text.empty()) return out;

  // CLD2 reads the hints as C strings.
  std::string content_language;
  if (!hints.content_language.empty()) {
    // One code in our spelling: CLD2's ("he" -> "iw"); a list as given.
    const CLD2::Language one = hints.content_language.find(',') == std::string_view::npos
                                   ? ToCld2(NormalizeLanguageCode(hints.content_language))
                                   : CLD2::UNKNOWN_LANGUAGE;
    content_language = one != CLD2::UNKNOWN_LANGUAGE ? std::string(CLD2::LanguageCode(one))
                                                     : std::string(hints.content_language);
  }
  std::string tld;
  for (char c : hints.tld) tld.push_back(Lower(c));
  const CLD2::CLDHints cld_hints{content_language.empty() ? nullptr : content_language.c_str(),
                                 tld.empty() ? nullptr : tld.c_str(), CLD2::UNKNOWN_ENCODING,
                                 CLD2::UNKNOWN_LANGUAGE};

  CLD2::Language language3[3];
  int percent3[3];
  double scores3[3];
  int text_bytes = 0;
  bool reliable = false;
  int valid_prefix = 0;
  CLD2::Language best = CLD2::ExtDetectLanguageSummaryCheckUTF8(
      text.data(), static_cast<int>(text.size()), /*is_plain_text=*/true, &cld_hints,
      /*flags=*/hints.best_effort ? CLD2::kCLDFlagBestEffort : 0, language3, percent3, scores3,
      /*resultchunkvector=*/nullptr, &text_bytes, &reliable, &valid_prefix);
  if (valid_prefix >= 0 && static_cast<std::size_t>(valid_prefix) < text.size()) {
    // Invalid UTF-8 at valid_prefix: CLD2 scored nothing; score what comes
    // before it (cut back to a character boundary, which it already is).
    if (valid_prefix == 0) return out;
    best = CLD2::ExtDetectLanguageSummaryCheckUTF8(
        text.data(), valid_prefix, /*is_plain_text=*/true, &cld_hints,
        /*flags=*/hints.best_effort ? CLD2::kCLDFlagBestEffort : 0, language3, percent3, scores3, nullptr,
        &text_bytes, &reliable, &valid_prefix);
  }
  out.language = FromCld2(best);
  out.reliable = reliable && !out.language.empty();
  out.text_bytes = text_bytes;
  // Simplified and Traditional Chinese are both "zh": one entry, shares added.
  std::size_t n = 0;
  for (int i = 0; i < 3; ++i) {
    std::string code = FromCld2(language3[i]);
    if (code.empty()) continue;
    std::size_t at = 0;
    while (at < n && out.top[at] != code) ++at;
    if (at == n) out.top[n++] = std::move(code);
    out.percent[at] += percent3[i];
  }
  return out;
}

}  // namespace crawl::text
