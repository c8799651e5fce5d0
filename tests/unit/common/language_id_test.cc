// Language identification (common/text/language_id.h) and the stemmer that
// follows it (common/text/stemmer.h).
#include "common/text/language_id.h"

#include <libstemmer.h>

#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "common/text/stemmer.h"

using namespace crawl::text;

TEST_CASE("language codes are normalized to one spelling", "[unit]") {
  CHECK(NormalizeLanguageCode("en-US") == "en");
  CHECK(NormalizeLanguageCode("EN") == "en");
  CHECK(NormalizeLanguageCode("zh-Hant") == "zh");
  CHECK(NormalizeLanguageCode("zh_TW") == "zh");
  CHECK(NormalizeLanguageCode("nb") == "no");
  CHECK(NormalizeLanguageCode("nn") == "nn");
  CHECK(NormalizeLanguageCode("iw") == "he");
  CHECK(NormalizeLanguageCode("ji") == "yi");
  CHECK(NormalizeLanguageCode("in") == "id");
  CHECK(NormalizeLanguageCode("haw") == "haw");
  CHECK(NormalizeLanguageCode("") == "");
  CHECK(NormalizeLanguageCode("english") == "");
  CHECK(NormalizeLanguageCode("e") == "");
  CHECK(NormalizeLanguageCode("x1") == "");
  CHECK(NormalizeLanguageCode("und") == "");
  CHECK(NormalizeLanguageCode("xx-Copt") == "");
}

TEST_CASE("CLD2 identifies scripts and languages from text", "[unit]") {
  const auto id = [](std::string_view text) { return IdentifyLanguage(text).language; };
  CHECK(id("The city council decided on Monday to extend the library in the centre.") == "en");
  CHECK(id("東京都は月曜日、中心部にある図書館を拡張することを決めました。") == "ja");
  CHECK(id("市议会星期一决定扩建市中心的图书馆，并为学生开设新的阅览室。") == "zh");
  CHECK(id("市議會星期一決定擴建市中心的圖書館，並為學生開設新的閱覽室。") == "zh");
  CHECK(id("시의회는 월요일에 시내 중심가에 있는 도서관을 확장하기로 결정했습니다.") == "ko");
  CHECK(id("สภาเมืองตัดสินใจเมื่อวันจันทร์ที่จะขยายห้องสมุดในใจกลางเมือง") == "th");
  CHECK(id("מועצת העיר החליטה ביום שני להרחיב את הספרייה במרכז העיר.") == "he");
  CHECK(id("Το δημοτικό συμβούλιο αποφάσισε τη Δευτέρα να επεκτείνει τη βιβλιοθήκη.") == "el");
  CHECK(id("Городской совет в понедельник решил расширить библиотеку в центре города.") == "ru");
  CHECK(id("Міська рада в понеділок вирішила розширити бібліотеку в центрі міста.") == "uk");
  CHECK(id("Общинският съвет реши в понеделник да разшири библиотеката в центъра на града.") == "bg");
  CHECK(id("مجلس المدينة قرر يوم الاثنين توسيع المكتبة في وسط المدينة.") == "ar");
  // Nothing to identify.
  CHECK(id("") == "");
  CHECK(id("12345 67890 !!!") == "");
  const TextLanguage none = IdentifyLanguage("12345");
  CHECK_FALSE(none.reliable);
}

TEST_CASE("the full tables are linked, not libcld2's small ones", "[unit]") {
  // Maori is only in the full tables: the small ones call this Haitian.
  CHECK(IdentifyLanguage("Kia ora koutou katoa, he mihi nui tenei ki a koutou i tenei ra. Ko te reo Maori te "
                         "reo o te iwi Maori o Aotearoa.")
            .language == "mi");
}

TEST_CASE("shares, hints and invalid UTF-8", "[unit]") {
  const TextLanguage mixed = IdentifyLanguage(
      "The city council decided on Monday to extend the library in the centre and to open new rooms. "
      "Der Stadtrat hat am Montag beschlossen, die Bibliothek im Zentrum zu erweitern und neue Räume zu "
      "öffnen.");
  CHECK(mixed.PercentOf("en") > 20);
  CHECK(mixed.PercentOf("de") > 20);
  CHECK(mixed.PercentOf("fr") == 0);
  CHECK(mixed.text_bytes > 100);
  // Invalid UTF-8 after a valid prefix: the prefix is identified.
  std::string bad = "Городской совет в понедельник решил расширить библиотеку в центре города. ";
  bad += "\xff\xfe";
  bad += "garbage";
  CHECK(IdentifyLanguage(bad).language == "ru");
  CHECK(IdentifyLanguage("\xff\xfe\xfd").language == "");
  // A hint accepts our spelling of withdrawn codes and of TLDs.
  LanguageHints hints;
  hints.content_language = "he";
  hints.tld = "IL";
  CHECK(IdentifyLanguage("מועצת העיר החליטה ביום שני להרחיב את הספרייה.", hints).language == "he");
}

TEST_CASE("scripts of languages", "[unit]") {
  CHECK(ScriptsDiffer("fr", "ja"));
  CHECK(ScriptsDiffer("ru", "en"));
  CHECK(ScriptsDiffer("he", "ar"));
  CHECK_FALSE(ScriptsDiffer("he", "yi"));
  CHECK_FALSE(ScriptsDiffer("sr", "hr"));  // Serbian is also written in Latin
  CHECK_FALSE(ScriptsDiffer("sr", "ru"));
  CHECK_FALSE(ScriptsDiffer("zh", "ja"));
  CHECK_FALSE(ScriptsDiffer("en", "qq"));  // unknown: no claim
}

TEST_CASE("every libstemmer algorithm is reached from an ISO code", "[unit]") {
  std::set<std::string> reached;
  for (const char* code :
       {"ar", "hy", "eu", "ca", "da", "nl", "en", "fi", "fr", "de", "el", "hi", "hu", "id", "ga",
        "it", "lt", "ne", "no", "nn", "pt", "ro", "ru", "sr", "es", "sv", "ta", "tr", "yi"}) {
    INFO(code);
    Stemmer stemmer(code);
    CHECK(stemmer.ok());
    reached.insert(std::string(stemmer.algorithm()));
  }
  for (const char** name = sb_stemmer_list(); *name != nullptr; ++name) {
    INFO(*name);
    // "porter" is the original English algorithm, superseded by "english".
    if (std::string_view(*name) != "porter") CHECK(reached.count(*name) == 1);
  }
}

TEST_CASE("no stemmer runs for languages without one", "[unit]") {
  StemmerCache cache;
  for (const char* code : {"zh", "ja", "ko", "th", "he", "uk", "bg", "", "xx"}) {
    INFO(code);
    Stemmer& s = cache.For(code);
    CHECK_FALSE(s.ok());
    CHECK(s.algorithm().empty());
    CHECK(s.Stem("running") == "running");
  }
  CHECK(cache.For("en").Stem("running") == "run");
  CHECK(cache.For("tr").Stem("kitaplar") == "kitap");
}

TEST_CASE("LanguageOfScript: the script of the first letter names its most written language", "[unit]") {
  using crawl::text::LanguageOfScript;
  CHECK(LanguageOfScript("Сейчас я") == "ru");
  CHECK(LanguageOfScript("123 Η εγκατάσταση") == "el");
  CHECK(LanguageOfScript("  العربية") == "ar");
  CHECK(LanguageOfScript("Debian Сейчас") == "");  // Latin first: too many languages
  CHECK(LanguageOfScript("東京") == "");
  CHECK(LanguageOfScript("") == "");
  CHECK(LanguageOfScript("\xd0") == "");  // a lone lead byte
}
