// Language, description, content hash and mini index of a page's text
// (text_analysis.h).
#include "fetcher/text_analysis.h"

#include "common/hash.h"
#include "fetcher/description.h"
#include "fetcher/language.h"
#include "fetcher/mini_index.h"
#include "common/text/tokenizer.h"

namespace crawl::fetcher {

uint64_t TextHash(std::string_view text) {
  std::string words;
  words.reserve(text.size());
  text::ForEachToken(text, [&](std::string_view t) {
    if (!words.empty()) words.push_back(' ');
    words.append(t);
  });
  return hash::PageTextHash(words);
}

void AnalyzeText(const TextInput& input, const TextOptions& options, text::StemmerCache& stemmers,
                 v1::FetchRecord* record) {
  MiniIndexBuilder index(options.max_index_positions);
  // The hashed text: title and body words, one space apart.
  std::string hashed;
  hashed.reserve(input.title.size() + input.body.size());
  std::string scratch;
  std::string_view token;
  auto add_token = [&](std::string_view t) {
    if (!hashed.empty()) hashed.push_back(' ');
    hashed.append(t);
    index.AddPosition(index.Intern(t));
  };

  std::size_t pos = 0;
  while (text::NextTokenView(input.title, &pos, &scratch, &token)) add_token(token);
  index.EndTitle();

  // Body, sentence by sentence, so sentences know their positions.
  const std::vector<std::string_view> pieces = SplitSentences(input.body);
  std::vector<std::pair<uint32_t, uint32_t>> spans(pieces.size());
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    spans[k].first = index.positions();
    pos = 0;
    while (text::NextTokenView(pieces[k], &pos, &scratch, &token)) add_token(token);
    spans[k].second = index.positions();
  }
  record->set_text_hash(hash::PageTextHash(hashed));

  const LanguageGuess language =
      DetectLanguage(input.declared_language, input.host, index.CountWords(kLanguageSampleTokens));
  record->set_language(language.language);
  record->set_language_source(language.source);

  // Content words: not frequent in the page language, at least 2 bytes.
  std::vector<uint8_t> is_content(index.word_count());
  for (std::size_t w = 0; w < is_content.size(); ++w) {
    const std::string_view word = index.word(static_cast<uint32_t>(w));
    is_content[w] = word.size() >= 2 && !IsFrequentWord(language.language, word, index.word_hash(static_cast<uint32_t>(w)));
  }
  const std::vector<uint32_t>& words = index.position_words();
  std::vector<SentenceWords> sentences(pieces.size());
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    sentences[k].text = pieces[k];
    sentences[k].words = std::span<const uint32_t>(words.data() + spans[k].first, spans[k].second - spans[k].first);
  }
  const std::vector<DescriptionPick> picks = Summarize(sentences, is_content, options.max_description_chars);
  for (const DescriptionPick& pick : picks) {
    v1::DescriptionSentence* d = record->add_description();
    d->set_text(std::string(pieces[pick.sentence]));
    d->set_weight(pick.weight);
    const auto [first, end] = spans[pick.sentence];
    d->set_first_position(first);
    d->set_end_position(end);
    index.MarkDescription(first, end);
  }

  for (std::string_view anchor : input.anchors) {
    pos = 0;
    while (text::NextTokenView(anchor, &pos, &scratch, &token)) index.AddAnchorWord(index.Intern(token));
  }
  index.Finish(&stemmers.For(language.language), record->mutable_mini_index());
}

}  // namespace crawl::fetcher
