// Tag classes of fetcher/page/html_tags.h against their lists (the HTML standard's
// phrasing elements that do not separate words; raw and escapable text).
#include "fetcher/page/html_tags.h"

#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <string>
#include <string_view>

namespace internal = crawl::html::internal;

TEST_CASE("inline tags are exactly the listed ones, whatever the letter case", "[unit]") {
  const std::set<std::string> inline_tags = {
      "a",      "abbr",   "b",   "bdi", "bdo",  "big", "cite", "code", "data",  "dfn",
      "em",     "font",   "i",   "kbd", "mark", "q",   "s",    "samp", "small", "span",
      "strike", "strong", "sub", "sup", "time", "tt",  "u",    "var",  "wbr"};
  for (const std::string& t : inline_tags) {
    INFO(t);
    CHECK(internal::IsInlineTag(internal::Name(t)));
    std::string upper = t;
    for (char& c : upper) c = static_cast<char>(c - 'a' + 'A');
    CHECK(internal::IsInlineTag(internal::Name(upper)));
  }
  // Every other name of one to seven letters from the same alphabet, and the
  // block elements, are not.
  const std::string letters = "abcdefgimnopqrstuvwy";
  size_t checked = 0;
  for (char c1 : letters) {
    for (const std::string& rest : {std::string(), std::string("m"), std::string("dd"), std::string("pan"),
                                    std::string("mall"), std::string("trong"), std::string("trike")}) {
      const std::string name = std::string(1, c1) + rest;
      INFO(name);
      CHECK(internal::IsInlineTag(internal::Name(name)) == (inline_tags.count(name) > 0));
      ++checked;
    }
  }
  CHECK(checked == letters.size() * 7);
  for (const char* block :
       {"div", "p", "h1", "table", "li", "section", "br", "spans", "abbrev", "strongest", ""}) {
    INFO(block);
    CHECK_FALSE(internal::IsInlineTag(internal::Name(block)));
  }
}

TEST_CASE("a tag's traits: acted on, heading, raw or escapable text, inline", "[unit]") {
  using internal::ClassifyTag;
  const std::set<std::string> acted_on = {"a",    "area", "img",  "frame", "iframe", "base",     "meta",
                                          "link", "head", "body", "html",  "nav",    "plaintext"};
  const std::set<std::string> raw = {"xmp", "style", "script", "iframe", "noembed", "noframes"};
  const std::set<std::string> escapable = {"title", "textarea"};
  const std::set<std::string> headings = {"h1", "h2", "h3", "h4", "h5", "h6"};
  std::set<std::string> names = {"div",  "span",    "p",          "li",       "h0",        "h7", "hr",
                                 "img2", "scripts", "plaintexts", "plaintex", "framesets", ""};
  for (const auto* list : {&acted_on, &raw, &escapable, &headings}) names.insert(list->begin(), list->end());
  for (const std::string& name : names) {
    for (const bool upper : {false, true}) {
      std::string cased = name;
      if (upper) {
        for (char& c : cased) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
      }
      INFO(cased);
      const uint8_t traits = ClassifyTag(internal::Name(cased));
      CHECK(((traits & internal::kActedOnTag) != 0) == (acted_on.count(name) > 0));
      CHECK(((traits & internal::kRawTextTag) != 0) == (raw.count(name) > 0));
      CHECK(((traits & internal::kEscapableTextTag) != 0) == (escapable.count(name) > 0));
      CHECK(((traits & internal::kHeadingTag) != 0) == (headings.count(name) > 0));
      CHECK(((traits & internal::kInlineTag) != 0) == internal::IsInlineTag(internal::Name(cased)));
    }
  }
  CHECK(ClassifyTag(internal::Name(std::string_view("a\0", 2))) == 0);
}

TEST_CASE("a name compares as its lower-cased text, packed or not", "[unit]") {
  // Names of 1 to 12 bytes, in any letter case, against the literals the
  // scanner looks for: packed (up to 8 bytes) and not (longer).
  for (const char* raw : {"a", "A", "nav", "NAV", "iframe", "IFrame", "noframes", "NOFRAMES", "plaintext",
                          "PlainText", "http-equiv", "xml:lang", "abcdefghijkl"}) {
    const internal::Name name(raw);
    std::string lower = raw;
    for (char& c : lower) c = internal::Lower(c);
    INFO(raw);
    CHECK(name.view() == lower);
    CHECK((name == "a") == (lower == "a"));
    CHECK((name == "nav") == (lower == "nav"));
    CHECK((name == "iframe") == (lower == "iframe"));
    CHECK((name == "noframes") == (lower == "noframes"));
    CHECK((name == "plaintext") == (lower == "plaintext"));
    CHECK(name.packed() == (lower.size() <= 8 ? internal::Name::Pack(lower) : 0));
  }
  // A NUL byte is part of the name: "a\0" is not "a", and "a\0\0" not "a\0".
  const internal::Name a_nul(std::string_view("a\0", 2));
  CHECK_FALSE(static_cast<bool>(a_nul == "a"));
  CHECK(a_nul.packed() == 0);
  CHECK_FALSE(internal::IsInlineTag(a_nul));
  CHECK_FALSE(internal::SpecialContent(internal::Name(std::string_view("style\0", 6))).has_value());
  CHECK(internal::Name(std::string_view("\0a", 2)).packed() == 0);
  // Too long for the buffer: equal to nothing, not even its own prefix.
  const internal::Name too_long("abcdefghijklm");
  CHECK(too_long.view().empty());
  CHECK_FALSE(static_cast<bool>(too_long == "abcdefgh"));
}

TEST_CASE("attributes keep the first value of each known name, whatever the letter case", "[unit]") {
  internal::Attributes attrs;
  attrs.Set("class", "x");
  attrs.Set("HREF", "/a");
  attrs.Set("href", "/b");
  attrs.Set("Http-Equiv", "refresh");
  attrs.Set("xml:lang", "de");
  attrs.Set(std::string_view("src\0", 4), "/nul");
  attrs.Set("srcset", "/s 2x");
  CHECK(attrs.get(internal::kHref) == "/a");
  CHECK(attrs.get(internal::kHttpEquiv) == "refresh");
  CHECK(attrs.get(internal::kXmlLang) == "de");
  CHECK_FALSE(attrs.has(internal::kSrc));
  CHECK_FALSE(attrs.has(internal::kAlt));
}

namespace {
// IsSkippedScheme before its early exit: the first 12 bytes (tabs and
// newlines dropped) lower-cased, tested against each scheme.
bool SkippedSchemeReference(std::string_view href) {
  std::string prefix;
  for (char c : href) {
    if (prefix.size() == 12) break;
    if (c == '\t' || c == '\n' || c == '\r') continue;
    prefix.push_back(internal::Lower(c));
  }
  for (std::string_view scheme : {"javascript:", "vbscript:", "mailto:", "data:", "tel:"}) {
    if (std::string_view(prefix).starts_with(scheme)) return true;
  }
  return false;
}
}  // namespace

TEST_CASE("skipped schemes are found as a scan of every prefix finds them", "[unit]") {
  CHECK(internal::IsSkippedScheme("javascript:void(0)"));
  CHECK(internal::IsSkippedScheme("Java\tScript:x"));
  CHECK(internal::IsSkippedScheme("\nmailto:a@b"));
  CHECK(internal::IsSkippedScheme("TEL:123"));
  CHECK_FALSE(internal::IsSkippedScheme("../struct.Foo.html"));
  CHECK_FALSE(internal::IsSkippedScheme("https://x.example/javascript:"));
  CHECK_FALSE(internal::IsSkippedScheme("data"));
  CHECK_FALSE(internal::IsSkippedScheme(" javascript:x"));  // the caller trims spaces
  std::mt19937 rng(5);
  const std::string alphabet = "javscriptmlodeTJAVSCRIPT:\t\n\r/. 1#";
  for (int round = 0; round < 200000; ++round) {
    std::string href;
    // Half the strings start from a skipped scheme, so matches are common.
    if (round % 2 == 0) {
      static const char* const kStarts[] = {
          "javascript:", "vbscript:", "mailto:", "data:", "tel:", "java", "mail"};
      href = kStarts[rng() % 7];
      for (int k = static_cast<int>(rng() % 3); k > 0 && !href.empty(); --k) {
        href.insert(href.begin() + static_cast<long>(rng() % href.size()), alphabet[rng() % alphabet.size()]);
      }
    }
    for (int k = static_cast<int>(rng() % 14); k > 0; --k) href.push_back(alphabet[rng() % alphabet.size()]);
    INFO(href);
    REQUIRE(internal::IsSkippedScheme(href) == SkippedSchemeReference(href));
  }
}

// Name lower-cases and packs up to eight bytes as one word: every byte
// value, every length, against lower-casing byte by byte.
TEST_CASE("a name's word-at-a-time lower-casing equals byte by byte", "[unit]") {
  std::mt19937 rng(8);
  const std::string common("AZaz@[`{\x00\x80\xC1\xDA\xFF-:", 15);
  for (int round = 0; round < 300000; ++round) {
    std::string raw(rng() % 14, '\0');
    for (char& c : raw) c = rng() % 2 ? static_cast<char>(rng()) : common[rng() % common.size()];
    const internal::Name name(raw);
    INFO("round " << round << " length " << raw.size());
    if (raw.size() > 12) {
      REQUIRE(name.view().empty());
      REQUIRE(name.packed() == 0);
      continue;
    }
    std::string lower = raw;
    for (char& c : lower) c = internal::Lower(c);
    REQUIRE(name.view() == lower);
    const bool packable = lower.size() <= 8 && lower.find('\0') == std::string::npos;
    REQUIRE(name.packed() == (packable ? internal::Name::Pack(lower) : 0));
  }
}
