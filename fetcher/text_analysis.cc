// Language, description, content hash and mini index of a page's text
// (text_analysis.h).
#include "fetcher/text_analysis.h"

#include "common/hash.h"
#include "fetcher/description.h"
#include "fetcher/language.h"
#include "fetcher/mini_index.h"
#include "fetcher/tokenizer.h"

namespace crawl::fetcher {

uint64_t TextHash(std::string_view text) {
  std::string words;
  words.reserve(text.size());
  ForEachToken(text, [&](std::string_view t) {
    if (!words.empty()) words.push_back(' ');
    words.append(t);
  });
  return hash::Hash8(words);
}

void AnalyzeText(const TextInput& input, const TextOptions& options, StemmerCache& stemmers,
                 v1::FetchRecord* record) {
  const LanguageGuess language = DetectLanguage(input.declared_language, input.host, input.body);
  record->set_language(language.language);
  record->set_language_source(language.source);

  MiniIndexBuilder index(&stemmers.For(language.language), options.max_index_positions);
  // The hashed text: title and body words, one space apart.
  std::string hashed;
  hashed.reserve(input.title.size() + input.body.size());
  std::string token;
  auto add_to_hash = [&](std::string_view t) {
    if (!hashed.empty()) hashed.push_back(' ');
    hashed.append(t);
  };

  std::size_t pos = 0;
  while (NextToken(input.title, &pos, &token)) {
    add_to_hash(token);
    index.AddPosition(index.Intern(token));
  }
  index.EndTitle();

  // Body, sentence by sentence, so sentences know their positions.
  const std::vector<std::string_view> pieces = SplitSentences(input.body);
  std::vector<SentenceWords> sentences(pieces.size());
  std::vector<uint32_t> first_position(pieces.size());
  // By word id: whether it was looked up, and whether it is a stop word
  // (frequent in the page language, or a single byte).
  std::vector<bool> frequent_cache;
  std::vector<bool> frequent_known;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    SentenceWords& s = sentences[k];
    s.text = pieces[k];
    first_position[k] = index.positions();
    pos = 0;
    while (NextToken(pieces[k], &pos, &token)) {
      add_to_hash(token);
      const uint32_t id = index.Intern(token);
      index.AddPosition(id);
      if (id >= frequent_known.size()) {
        frequent_known.resize(id + 1, false);
        frequent_cache.resize(id + 1, false);
      }
      if (!frequent_known[id]) {
        frequent_known[id] = true;
        frequent_cache[id] = token.size() < 2 || IsFrequentWord(language.language, token);
      }
      s.words.push_back(id);
      s.content.push_back(!frequent_cache[id]);
    }
  }
  record->set_text_hash(hash::Hash8(hashed));

  const std::vector<DescriptionPick> picks = Summarize(sentences, options.max_description_chars);
  for (const DescriptionPick& pick : picks) {
    v1::DescriptionSentence* d = record->add_description();
    d->set_text(std::string(sentences[pick.sentence].text));
    d->set_weight(pick.weight);
    const uint32_t first = first_position[pick.sentence];
    const uint32_t end = first + static_cast<uint32_t>(sentences[pick.sentence].words.size());
    d->set_first_position(first);
    d->set_end_position(end);
    index.MarkDescription(first, end);
  }

  for (std::string_view anchor : input.anchors) {
    pos = 0;
    while (NextToken(anchor, &pos, &token)) index.AddAnchorWord(index.Intern(token));
  }
  index.Finish(record->mutable_mini_index());
}

}  // namespace crawl::fetcher
