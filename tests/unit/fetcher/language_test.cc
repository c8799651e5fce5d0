// Page language (fetcher/page/language.h; docs/DESIGN.md §6 order).
#include "fetcher/page/language.h"

#include <catch2/catch.hpp>
#include <string>

#include "fetcher/page/frequent_words.h"

using namespace crawl::fetcher;

namespace {

const std::string kGerman =
    "Der Hund und die Katze sind nicht in dem Haus, aber sie haben es gesehen. Die Stadtverwaltung hat am "
    "Montag beschlossen, die Bibliothek im Zentrum zu erweitern und neue Lesesäle für Schüler einzurichten. "
    "Nach Angaben der Bürgermeisterin sollen die Arbeiten im kommenden Frühjahr beginnen und etwa zwei Jahre "
    "dauern. Während dieser Zeit bleibt die Bibliothek geöffnet, nur einzelne Räume werden geschlossen.";
const std::string kEnglish =
    "The city council decided on Monday to extend the library in the centre and to open new reading rooms "
    "for pupils. According to the mayor, the work should start next spring and take about two years. During "
    "that time the library stays open; only some rooms will be closed to the public.";
const std::string kJapanese =
    "東京都は月曜日、中心部にある図書館を拡張し、生徒のための新しい閲覧室を設けることを決めました。"
    "市長によると、工事は来年の春に始まり、およそ二年かかる見込みです。その間も図書館は開館しています。";
const std::string kDanish =
    "Byrådet besluttede mandag at udvide biblioteket i centrum og åbne nye læsesale for eleverne. Ifølge "
    "borgmesteren skal arbejdet begynde til foråret og vare omkring to år. I den tid holder biblioteket "
    "åbent.";

}  // namespace

TEST_CASE("a plausible declaration wins over the text and the TLD", "[unit]") {
  const auto g = DetectLanguage("de", "www.example.fr", "Stadtbibliothek", kGerman);
  CHECK(g.language == "de");
  CHECK(g.source == "html");
  // Region subtags and case are normalized; Bokmål is "no".
  CHECK(DetectLanguage("DE-at", "", "", kGerman).language == "de");
  CHECK(DetectLanguage("nb", "", "", "Hei").language == "no");
  // Too little text to judge: the declaration stands.
  CHECK(DetectLanguage("en", "", "", "Die Katze").language == "en");
  CHECK(DetectLanguage("fr", "", "", "").source == "html");
}

TEST_CASE("a declaration in another script than the text is overruled", "[unit]") {
  const auto g = DetectLanguage("fr", "www.example.com", "", kJapanese);
  CHECK(g.language == "ja");
  CHECK(g.source == "text");
  const auto ru = DetectLanguage("en", "", "",
                                 "Городской совет в понедельник решил расширить библиотеку в центре города и "
                                 "открыть новые читальные залы для школьников.");
  CHECK(ru.language == "ru");
  CHECK(ru.source == "text");
}

TEST_CASE("a declaration is overruled in the same script only by clearly other text", "[unit]") {
  // An English template's lang="en" on a German article.
  const auto g = DetectLanguage("en", "", "Stadtbibliothek", kGerman);
  CHECK(g.language == "de");
  CHECK(g.source == "text");
  // Half English, half German: the declaration stands.
  CHECK(DetectLanguage("en", "", "", kEnglish + " " + kGerman).source == "html");
  // Danish text declared Norwegian: a pair CLD2 confuses, the declaration stands.
  CHECK(DetectLanguage("no", "", "", kDanish).language == "no");
  // Short German text (under kOverruleMinTextBytes letters) declared English.
  CHECK(DetectLanguage("en", "", "", "Die Katze schläft im Garten.").language == "en");
}

TEST_CASE("without a declaration the text decides, then the TLD", "[unit]") {
  const auto en = DetectLanguage("", "www.example.de", "", kEnglish);
  CHECK(en.language == "en");
  CHECK(en.source == "text");
  const auto de = DetectLanguage("", "www.example.com", "", kGerman);
  CHECK(de.language == "de");
  CHECK(de.source == "text");
  const auto tld = DetectLanguage("", "www.example.de", "", "12345 67890");
  CHECK(tld.language == "de");
  CHECK(tld.source == "tld");
  const auto none = DetectLanguage("", "www.example.com", "", "12345 67890");
  CHECK(none.language == "");
  CHECK(none.source == "");
  // Only the first kLanguageRetryBytes of the body are read.
  std::string late_german(kLanguageRetryBytes, ' ');
  late_german += kGerman + kGerman;
  CHECK(DetectLanguage("", "host.test", "", late_german).language == "");
}

TEST_CASE("the title counts, and a body too short at first is read further", "[unit]") {
  CHECK(DetectLanguage("", "", "Городской совет решил расширить библиотеку в центре", "").language == "ru");
  std::string padded(kLanguageSampleBytes - 10, '.');
  padded += " " + kGerman;
  CHECK(DetectLanguage("", "", "", padded).language == "de");
}

TEST_CASE("a declaration its own frequent words confirm needs no CLD2", "[unit]") {
  const std::string english = kEnglish + " " + kEnglish;  // 30 tokens or more
  CHECK(ConfirmedByFrequentWords("en", "", english));
  CHECK_FALSE(ConfirmedByFrequentWords("en", "", kGerman));
  CHECK(ConfirmedByFrequentWords("de", "", kGerman));
  CHECK_FALSE(ConfirmedByFrequentWords("en", "", "The library."));  // too few tokens
  // No list (Danish), or one of another script (Russian): CLD2 decides.
  CHECK_FALSE(ConfirmedByFrequentWords("da", "", kDanish));
  CHECK_FALSE(ConfirmedByFrequentWords("ru", "", english));
  // English words among more Japanese letters: the script test refuses.
  CHECK_FALSE(ConfirmedByFrequentWords("en", "", english + kJapanese + kJapanese));
  // And a confirmed declaration is the answer.
  const auto g = DetectLanguage("en", "www.example.de", "", english);
  CHECK(g.language == "en");
  CHECK(g.source == "html");
}

TEST_CASE("the overrule rule", "[unit]") {
  crawl::text::TextLanguage found;
  found.language = "de";
  found.reliable = true;
  found.text_bytes = 1000;
  found.top = {"de", "en", ""};
  found.percent = {90, 8, 0};
  CHECK(DeclarationOverruled("en", found));
  CHECK_FALSE(DeclarationOverruled("de", found));
  found.percent = {79, 19, 0};
  CHECK_FALSE(DeclarationOverruled("en", found));  // under kOverruleMinPercent
  found.percent = {90, 8, 0};
  found.text_bytes = kOverruleMinTextBytes - 1;
  CHECK_FALSE(DeclarationOverruled("en", found));  // too little text
  found.text_bytes = 1000;
  found.reliable = false;
  CHECK_FALSE(DeclarationOverruled("en", found));
  // Another script needs only half of the letters, whatever the length.
  found = {};
  found.language = "ja";
  found.reliable = true;
  found.text_bytes = 60;
  found.top = {"ja", "en", ""};
  found.percent = {55, 45, 0};
  CHECK(DeclarationOverruled("fr", found));
  found.percent = {45, 55, 0};
  CHECK_FALSE(DeclarationOverruled("fr", found));
  // Close pairs stand.
  found = {};
  found.language = "hr";
  found.reliable = true;
  found.text_bytes = 1000;
  found.top = {"hr", "", ""};
  found.percent = {99, 0, 0};
  CHECK_FALSE(DeclarationOverruled("sr", found));
  CHECK(DeclarationOverruled("en", found));
}

TEST_CASE("country TLDs map to one language; generic and multilingual ones do not", "[unit]") {
  CHECK(LanguageFromHost("a.b.co.uk") == "en");
  CHECK(LanguageFromHost("shop.BR") == "pt");
  CHECK(LanguageFromHost("www.example.il") == "he");
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
  CHECK_FALSE(IsFrequentWord("ja", "the"));
}
