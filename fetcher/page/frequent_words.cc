// Frequent-word lists for the language guess (frequent_words.h).
#include "fetcher/page/frequent_words.h"

#include <array>

namespace crawl::fetcher {
namespace {

constexpr std::string_view kEn[] = {
    "the",  "of",    "and",   "to",   "a",      "in",    "is",    "it",   "you",  "that",  "he",   "was",
    "for",  "on",    "are",   "with", "as",     "i",     "his",   "they", "be",   "at",    "one",  "have",
    "this", "from",  "or",    "had",  "by",     "not",   "word",  "but",  "what", "some",  "we",   "can",
    "out",  "other", "were",  "all",  "there",  "when",  "up",    "use",  "your", "how",   "said", "an",
    "each", "she",   "which", "do",   "their",  "time",  "if",    "will", "way",  "about", "many", "then",
    "them", "would", "write", "like", "so",     "these", "her",   "long", "make", "thing", "see",  "him",
    "two",  "has",   "look",  "more", "day",    "could", "go",    "come", "did",  "no",    "most", "my",
    "over", "know",  "than",  "call", "first",  "who",   "may",   "down", "been", "now",   "find", "any",
    "new",  "only",  "its",   "also", "should", "where", "after", "our",  "into", "must",  "does", "used"};

constexpr std::string_view kDe[] = {
    "der",      "die",    "und",    "in",   "den",    "von",   "zu",    "das",   "mit",    "sich",   "des",
    "auf",      "für",    "ist",    "im",   "dem",    "nicht", "ein",   "eine",  "als",    "auch",   "es",
    "an",       "werden", "aus",    "er",   "hat",    "daß",   "dass",  "sie",   "nach",   "wird",   "bei",
    "einer",    "um",     "am",     "sind", "noch",   "wie",   "einem", "über",  "einen",  "so",     "zum",
    "war",      "haben",  "nur",    "oder", "aber",   "vor",   "zur",   "bis",   "mehr",   "durch",  "man",
    "sein",     "wurde",  "sei",    "wenn", "können", "kann",  "ich",   "unter", "wir",    "was",    "keine",
    "diese",    "dieser", "schon",  "sehr", "zwei",   "ihre",  "ihr",   "seine", "wieder", "dann",   "ab",
    "zwischen", "immer",  "uns",    "hier", "jetzt",  "gegen", "vom",   "alle",  "ob",     "muss",   "soll",
    "ohne",     "weil",   "nun",    "neue", "neuen",  "wo",    "doch",  "damit", "jedoch", "wurden", "werden",
    "seit",     "dies",   "dieses", "habe", "hatte"};

constexpr std::string_view kFr[] = {
    "de",    "la",    "le",    "et",     "les",   "des",    "en",    "un",    "du",     "une",   "que",
    "est",   "pour",  "qui",   "dans",   "a",     "par",    "plus",  "pas",   "au",     "sur",   "ne",
    "se",    "ce",    "il",    "sont",   "l",     "d",      "aux",   "avec",  "ou",     "son",   "été",
    "sa",    "mais",  "nous",  "comme",  "elle",  "ont",    "ses",   "ils",   "leur",   "cette", "on",
    "y",     "fait",  "était", "vous",   "qu",    "s",      "n",     "c",     "j",      "m",     "tout",
    "aussi", "bien",  "peut",  "entre",  "deux",  "sans",   "même",  "ces",   "dont",   "être",  "très",
    "lui",   "sous",  "faire", "après",  "où",    "avait",  "je",    "sous",  "encore", "tous",  "depuis",
    "ainsi", "non",   "avoir", "si",     "leurs", "autres", "elles", "donc",  "notre",  "nos",   "votre",
    "vos",   "alors", "quand", "moins",  "chez",  "contre", "avant", "toute", "fois",   "car",   "cela",
    "ici",   "lors",  "selon", "toutes", "été"};

constexpr std::string_view kEs[] = {
    "de",     "la",      "que",  "el",    "en",    "y",      "a",        "los",   "se",      "del",
    "las",    "un",      "por",  "con",   "no",    "una",    "su",       "para",  "es",      "al",
    "lo",     "como",    "más",  "o",     "pero",  "sus",    "le",       "ha",    "me",      "si",
    "sin",    "sobre",   "este", "ya",    "entre", "cuando", "todo",     "esta",  "ser",     "son",
    "dos",    "también", "fue",  "había", "era",   "muy",    "años",     "hasta", "desde",   "está",
    "mi",     "porque",  "qué",  "sólo",  "solo",  "han",    "yo",       "hay",   "vez",     "puede",
    "todos",  "así",     "nos",  "ni",    "parte", "tiene",  "él",       "uno",   "donde",   "bien",
    "tiempo", "mismo",   "ese",  "ahora", "cada",  "e",      "vida",     "otro",  "después", "te",
    "otros",  "aunque",  "esa",  "eso",   "hace",  "otra",   "gobierno", "tan",   "durante", "siempre",
    "día",    "tanto",   "ella", "tres",  "sí",    "dijo",   "sido",     "gran",  "país",    "según",
    "menos",  "estos",   "están"};

constexpr std::string_view kIt[] = {
    "di",    "e",      "il",     "la",     "che",    "a",      "per",    "in",     "un",    "è",      "non",
    "del",   "una",    "le",     "si",     "della",  "i",      "da",     "con",    "al",    "sono",   "ha",
    "lo",    "dei",    "gli",    "anche",  "come",   "più",    "nel",    "ma",     "alla",  "delle",  "se",
    "l",     "o",      "questo", "nella",  "dal",    "ci",     "mi",     "tra",    "ed",    "essere", "suo",
    "loro",  "stato",  "cui",    "sua",    "dopo",   "fatto",  "quando", "questa", "tutto", "sul",    "molto",
    "degli", "ancora", "hanno",  "prima",  "perché", "era",    "solo",   "dell",   "due",   "c",      "fra",
    "tutti", "così",   "ne",     "uno",    "sempre", "noi",    "io",     "alle",   "nei",   "però",   "fare",
    "può",   "ogni",   "senza",  "quello", "poi",    "dove",   "mentre", "sia",    "aveva", "né",     "nelle",
    "siamo", "lui",    "lei",    "ai",     "agli",   "questi", "quella", "qui",    "oggi",  "ora",    "dire",
    "parte", "cosa"};

constexpr std::string_view kNl[] = {
    "de",     "van",  "een",    "het",   "en",     "in",      "is",     "dat",    "op",     "te",
    "zijn",   "voor", "met",    "die",   "niet",   "aan",     "er",     "om",     "ook",    "als",
    "dan",    "maar", "bij",    "of",    "uit",    "nog",     "worden", "door",   "naar",   "heeft",
    "tot",    "ze",   "wordt",  "over",  "hij",    "wel",     "al",     "werd",   "was",    "kan",
    "deze",   "zal",  "meer",   "hun",   "zo",     "moet",    "wat",    "geen",   "ik",     "je",
    "we",     "na",   "onder",  "tegen", "dit",    "hebben",  "veel",   "omdat",  "nu",     "had",
    "waren",  "twee", "zich",   "wij",   "zou",    "men",     "jaar",   "kunnen", "alle",   "tussen",
    "zoals",  "haar", "eerste", "toen",  "hier",   "andere",  "mijn",   "daar",   "u",      "heb",
    "wie",    "iets", "weer",   "goed",  "alleen", "wanneer", "gaan",   "zelf",   "zijn",   "waar",
    "altijd", "doen", "nieuwe", "hem",   "ons",    "jij",     "mij",    "dus",    "zonder", "want"};

constexpr std::string_view kPt[] = {
    "de",    "a",      "o",     "que",  "e",     "do",    "da",     "em",    "um",     "para",  "é",
    "com",   "não",    "uma",   "os",   "no",    "se",    "na",     "por",   "mais",   "as",    "dos",
    "como",  "mas",    "foi",   "ao",   "ele",   "das",   "tem",    "à",     "seu",    "sua",   "ou",
    "ser",   "quando", "muito", "há",   "nos",   "já",    "está",   "eu",    "também", "só",    "pelo",
    "pela",  "até",    "isso",  "ela",  "entre", "era",   "depois", "sem",   "mesmo",  "aos",   "ter",
    "seus",  "quem",   "nas",   "me",   "esse",  "eles",  "estão",  "você",  "tinha",  "foram", "essa",
    "num",   "nem",    "suas",  "meu",  "às",    "minha", "têm",    "numa",  "pelos",  "elas",  "havia",
    "seja",  "qual",   "será",  "nós",  "tenho", "lhe",   "deles",  "essas", "esses",  "pelas", "este",
    "fosse", "dele",   "tu",    "te",   "vocês", "vos",   "lhes",   "meus",  "minhas", "teu",   "tua",
    "nosso", "nossa",  "são",   "sobre"};

constexpr std::string_view kRu[] = {
    "и",     "в",       "не",     "на",    "я",     "быть",    "он",     "с",        "что",     "а",
    "по",    "это",     "она",    "этот",  "к",     "но",      "они",    "мы",       "как",     "из",
    "у",     "который", "то",     "за",    "свой",  "что",     "весь",   "год",      "от",      "так",
    "о",     "для",     "ты",     "же",    "все",   "тот",     "мочь",   "вы",       "человек", "такой",
    "его",   "сказать", "только", "или",   "ещё",   "бы",      "себя",   "один",     "как",     "уже",
    "до",    "время",   "если",   "сам",   "когда", "другой",  "вот",    "говорить", "наш",     "мой",
    "знать", "стать",   "при",    "чтобы", "дело",  "жизнь",   "кто",    "первый",   "очень",   "два",
    "день",  "её",      "новый",  "рука",  "даже",  "во",      "со",     "раз",      "где",     "там",
    "под",   "можно",   "ну",     "какой", "после", "их",      "работа", "без",      "самый",   "потом",
    "надо",  "хотеть",  "ли",     "слово", "идти",  "большой", "должен", "место",    "был",     "была",
    "было",  "были",    "есть",   "нет",   "этого", "также"};

constexpr FrequentWords kLists[] = {
    {"en", kEn}, {"de", kDe}, {"fr", kFr}, {"es", kEs}, {"it", kIt}, {"nl", kNl}, {"pt", kPt}, {"ru", kRu},
};

}  // namespace

std::span<const FrequentWords> FrequentWordLists() { return kLists; }

}  // namespace crawl::fetcher
