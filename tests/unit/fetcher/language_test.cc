// Page language (fetcher/page/language.h; docs/DESIGN.md §6 order).
#include "fetcher/page/language.h"

#include <catch2/catch.hpp>

#include "fetcher/page/frequent_words.h"

using namespace crawl::fetcher;

TEST_CASE("the declaration wins, then the country TLD, then frequent words", "[unit]") {
  const std::string german = "Der Hund und die Katze sind nicht in dem Haus, aber sie haben es gesehen.";
  CHECK(DetectLanguage("fr", "www.example.de", german).language == "fr");
  CHECK(DetectLanguage("fr", "www.example.de", german).source == "html");
  CHECK(DetectLanguage("", "www.example.de", "The cat is on the mat").language == "de");
  CHECK(DetectLanguage("", "www.example.de", "x").source == "tld");
  const auto guess = DetectLanguage("", "www.example.com", german);
  CHECK(guess.language == "de");
  CHECK(guess.source == "words");
}

TEST_CASE("frequent words tell the eight listed languages apart", "[unit]") {
  CHECK(LanguageFromWords("The quick brown fox jumps over the lazy dog and it was not the first time.") ==
        "en");
  CHECK(LanguageFromWords("Le chat est sur la table et il ne veut pas descendre pour le dîner.") == "fr");
  CHECK(LanguageFromWords("El perro de mi vecino es muy grande y no le gusta que los niños jueguen.") ==
        "es");
  CHECK(LanguageFromWords("Il gatto della nonna è sempre sul divano e non vuole mai uscire con noi.") ==
        "it");
  CHECK(LanguageFromWords("De kat van de buren is niet op het dak maar in de tuin met een vogel.") == "nl");
  CHECK(LanguageFromWords("O gato da minha avó não gosta de sair de casa quando está a chover.") == "pt");
  CHECK(LanguageFromWords("Я не знаю, что он сказал, но это было очень интересно для нас.") == "ru");
}

TEST_CASE("text without frequent words has no guessed language", "[unit]") {
  CHECK(LanguageFromWords("12345 67890 xyzzy plugh qwerty") == "");
  CHECK(LanguageFromWords("") == "");
}

TEST_CASE("country TLDs map to one language; generic and multilingual ones do not", "[unit]") {
  CHECK(LanguageFromHost("a.b.co.uk") == "en");
  CHECK(LanguageFromHost("shop.BR") == "pt");
  CHECK(LanguageFromHost("example.com") == "");
  CHECK(LanguageFromHost("site.ch") == "");
  CHECK(LanguageFromHost("host1.test") == "");
  CHECK(LanguageFromHost("localhost") == "");
}

TEST_CASE("every frequent-word list has about 100 words", "[unit]") {
  for (const auto& list : FrequentWordLists()) {
    INFO(list.language);
    CHECK(list.words.size() >= 95);
  }
  CHECK(IsFrequentWord("en", "the"));
  CHECK_FALSE(IsFrequentWord("de", "the"));
}
