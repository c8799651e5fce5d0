// Word lists for the synthetic web; see vocabulary.h.
#include "tests/testweb/vocabulary.h"

namespace crawl::testweb {
namespace {

// Roughly by frequency, so Zipf ranks look like real text.
constexpr std::string_view kCommon[] = {
    "the",       "of",       "and",      "to",          "a",        "in",       "is",         "that",
    "for",       "it",       "as",       "was",         "with",     "be",       "by",         "on",
    "not",       "he",       "this",     "are",         "or",       "his",      "from",       "at",
    "which",     "but",      "have",     "an",          "had",      "they",     "you",        "were",
    "their",     "one",      "all",      "we",          "can",      "her",      "has",        "there",
    "been",      "if",       "more",     "when",        "will",     "would",    "who",        "so",
    "no",        "she",      "other",    "its",         "may",      "these",    "what",       "them",
    "than",      "some",     "him",      "time",        "into",     "only",     "do",         "could",
    "new",       "about",    "two",      "first",       "then",     "also",     "any",        "like",
    "our",       "such",     "should",   "made",        "over",     "most",     "after",      "well",
    "many",      "work",     "where",    "between",     "before",   "very",     "through",    "must",
    "people",    "years",    "way",      "even",        "used",     "being",    "because",    "world",
    "same",      "each",     "how",      "great",       "those",    "both",     "system",     "might",
    "good",      "state",    "under",    "while",       "last",     "own",      "day",        "form",
    "part",      "never",    "during",   "life",        "place",    "case",     "number",     "water",
    "high",      "small",    "large",    "found",       "without",  "since",    "general",    "point",
    "group",     "long",     "power",    "public",      "given",    "end",      "often",      "order",
    "course",    "early",    "change",   "still",       "within",   "example",  "early",      "house",
    "important", "second",   "local",    "development", "process",  "light",    "government", "little",
    "city",      "country",  "data",     "family",      "history",  "market",   "field",      "level",
    "service",   "line",     "result",   "rate",        "area",     "problem",  "energy",     "method",
    "model",     "value",    "table",    "study",       "theory",   "policy",   "school",     "report",
    "program",   "story",    "music",    "book",        "science",  "research", "design",     "network",
    "language",  "building", "question", "paper",       "season",   "garden",   "river",      "mountain",
    "island",    "bridge",   "village",  "museum",      "library",  "station",  "harbour",    "market",
    "summer",    "winter",   "spring",   "autumn",      "morning",  "evening",  "simple",     "common",
    "special",   "modern",   "ancient",  "central",     "northern", "southern", "western",    "eastern",
    "open",      "free",     "full",     "clear",       "short",    "strong",   "quiet",      "bright",
    "dark",      "green",    "blue",     "red",         "white",    "black",    "golden",     "silver",
    "wooden",    "stone",    "build",    "write",       "read",     "run",      "grow",       "keep",
    "bring",     "carry",    "follow",   "return",      "measure",  "collect",  "compare",    "describe",
    "explain",   "produce",  "provide",  "publish",     "record",   "repair",   "travel",     "visit",
    "watch",     "learn",    "teach",    "share",       "count",    "sort",     "search",     "index",
    "page",      "link",     "site",     "web",         "server",   "client",   "crawler",    "archive",
    "window",    "engine",   "signal",   "pattern",     "surface",  "weather",  "journey",    "animal",
    "forest",    "ocean",    "planet",   "machine",     "signal",   "kitchen",  "recipe",     "letter",
    "picture",   "memory",
};

constexpr std::string_view kTopics[] = {
    "astronomy",   "gardening",    "carpentry",    "sailing",      "chess",        "beekeeping",
    "pottery",     "cycling",      "photography",  "birdwatching", "baking",       "brewing",
    "climbing",    "origami",      "knitting",     "geology",      "botany",       "robotics",
    "typography",  "cartography",  "linguistics",  "volcanoes",    "glaciers",     "lighthouses",
    "railways",    "canals",       "windmills",    "orchids",      "mushrooms",    "fossils",
    "meteorites",  "telescopes",   "violins",      "harpsichords", "calligraphy",  "falconry",
    "archery",     "fencing",      "rowing",       "kayaking",     "skiing",       "surfing",
    "marathons",   "cheesemaking", "winemaking",   "coffee",       "tea",          "chocolate",
    "spices",      "bonsai",       "aquariums",    "reptiles",     "butterflies",  "dragonflies",
    "whales",      "penguins",     "owls",         "wolves",       "glassblowing", "blacksmithing",
    "bookbinding", "printmaking",  "lithography",  "mosaics",      "tapestry",     "quilting",
    "embroidery",  "jewellery",    "clocks",       "compasses",    "sextants",     "barometers",
    "radios",      "satellites",   "rockets",      "submarines",   "airships",     "gliders",
    "tractors",    "bicycles",     "motorcycles",  "tramways",     "ferries",      "bridges",
    "tunnels",     "castles",      "cathedrals",   "monasteries",  "pyramids",     "aqueducts",
    "mathematics", "topology",     "cryptography", "compilers",    "databases",    "algorithms",
    "genetics",    "ecology",      "meteorology",  "oceanography", "seismology",   "acoustics",
    "optics",      "magnetism",    "chemistry",    "metallurgy",   "ceramics",     "textiles",
    "folklore",    "mythology",    "poetry",       "theatre",      "opera",        "jazz",
    "flamenco",    "tango",        "puppetry",     "magic",        "juggling",     "kites",
};

// Made-up but pronounceable words, fixed for every seed.
std::string MadeUpWord(uint32_t i) {
  static constexpr std::string_view kOnset[] = {"b", "c", "d", "f", "g", "k",  "l",  "m",  "n",  "p",
                                                "r", "s", "t", "v", "z", "br", "st", "tr", "gl", "sh"};
  static constexpr std::string_view kNucleus[] = {"a", "e", "i", "o", "u", "ai", "ou", "ea"};
  static constexpr std::string_view kCoda[] = {"", "n", "r", "l", "s", "th", "m", "x"};
  Rng rng(Hash(0x766F6361ULL, i));
  std::string w;
  const uint64_t syllables = rng.Between(2, 3);
  for (uint64_t s = 0; s < syllables; ++s) {
    w += kOnset[rng.Below(std::size(kOnset))];
    w += kNucleus[rng.Below(std::size(kNucleus))];
    if (s + 1 == syllables) w += kCoda[rng.Below(std::size(kCoda))];
  }
  return w;
}

}  // namespace

Vocabulary::Vocabulary(uint32_t size, double exponent) : sampler_(size == 0 ? 1 : size, exponent) {
  const uint32_t n = size == 0 ? 1 : size;
  words_.reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    words_.push_back(i < std::size(kCommon) ? std::string(kCommon[i]) : MadeUpWord(i));
  }
}

uint32_t Vocabulary::TopicCount() { return static_cast<uint32_t>(std::size(kTopics)); }

std::string_view Vocabulary::Topic(uint32_t i) { return kTopics[i % std::size(kTopics)]; }

}  // namespace crawl::testweb
