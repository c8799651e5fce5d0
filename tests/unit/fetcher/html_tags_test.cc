// Tag classes of fetcher/html_tags.h against their lists (the HTML standard's
// phrasing elements that do not separate words; raw and escapable text).
#include "fetcher/html_tags.h"

#include <catch2/catch.hpp>

#include <set>
#include <string>

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
  for (const char* block : {"div", "p", "h1", "table", "li", "section", "br", "spans", "abbrev", "strongest", ""}) {
    INFO(block);
    CHECK_FALSE(internal::IsInlineTag(internal::Name(block)));
  }
}
