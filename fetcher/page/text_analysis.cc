// Language, description, content hash and mini index of a page's text
// (text_analysis.h).
#include "fetcher/page/text_analysis.h"

#include <cstdint>
#include <utility>

#include "common/base/hash.h"
#include "common/text/tokenizer.h"
#include "fetcher/page/description.h"
#include "fetcher/page/language.h"
#include "fetcher/page/mini_index.h"
#include "fetcher/page/simhash.h"

namespace crawl::fetcher {

namespace {

// The hashed text: title and body words, one space apart. Most words are
// views into their piece of text, one space after the word before: such a
// run is appended whole when it ends, not word by word (an append per word
// is costly on text-heavy pages).
class HashedWords {
 public:
  explicit HashedWords(std::size_t capacity) { words_.reserve(capacity); }

  // One word; `piece` is the text ForEachToken read it from.
  __attribute__((always_inline)) void Add(std::string_view word, std::string_view piece) {
    const auto at = reinterpret_cast<std::uintptr_t>(word.data());
    const auto begin = reinterpret_cast<std::uintptr_t>(piece.data());
    const bool in_piece = at >= begin && at + word.size() <= begin + piece.size();
    // The run and `word` are in one piece, so the byte after the run is too.
    if (in_piece && run_size_ > 0 && word.data() == run_ + run_size_ + 1 && run_[run_size_] == ' ') {
      run_size_ += 1 + word.size();
      return;
    }
    EndPiece();
    if (in_piece) {
      run_ = word.data();
      run_size_ = word.size();
    } else {  // lower-cased into scratch space
      Append(word);
    }
  }
  // Ends the run: the next word comes from another piece of text.
  void EndPiece() {
    if (run_size_ > 0) Append(std::string_view(run_, run_size_));
    run_size_ = 0;
  }
  // The words so far (after EndPiece).
  [[nodiscard]] std::string_view Words() const { return words_; }

 private:
  void Append(std::string_view w) {
    if (!words_.empty()) words_.push_back(' ');
    words_.append(w);
  }

  std::string words_;
  const char* run_ = nullptr;
  std::size_t run_size_ = 0;
};

// Every token of the page (title, body, anchors) comes through here, so the
// page's language reaches the tokenizer in one place: its case folding
// (Turkish and Azerbaijani dotted and dotless i) follows the language.
template <typename F>
__attribute__((always_inline)) inline void ForEachPageToken(std::string_view text, std::string* scratch,
                                                            std::string_view language, F&& f) {
  text::ForEachToken(text, scratch, text::CaseFoldingFor(language), std::forward<F>(f));
}

}  // namespace

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
  // The language first, from the decoded text, so that tokenizing follows it.
  const LanguageGuess language = DetectLanguage(input.declared_language, input.host, input.title, input.body);
  record->set_language(language.language);
  record->set_language_source(language.source);

  MiniIndexBuilder index(options.max_index_positions);
  HashedWords hashed(input.title.size() + input.body.size());
  std::string scratch;

  ForEachPageToken(input.title, &scratch, language.language, [&](std::string_view token) {
    hashed.Add(token, input.title);
    index.AddPosition(index.Intern(token));
  });
  hashed.EndPiece();
  index.EndTitle();
  const std::size_t body_from = hashed.Words().size();  // the body's words follow (after a space)

  // Body, sentence by sentence, so sentences know their positions.
  const std::vector<std::string_view> pieces = SplitSentences(input.body);
  std::vector<std::pair<uint32_t, uint32_t>> spans(pieces.size());
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    spans[k].first = index.positions();
    // Inlined (as the loop it replaced was): a call per word costs ~15 instructions.
    ForEachPageToken(
        pieces[k], &scratch, language.language, [&](std::string_view token) __attribute__((always_inline)) {
          hashed.Add(token, pieces[k]);
          index.AddPosition(index.Intern(token));
        });
    hashed.EndPiece();
    spans[k].second = index.positions();
  }
  record->set_text_hash(hash::PageTextHash(hashed.Words()));
  const std::string_view body_words = hashed.Words().substr(body_from);
  record->set_simhash(SimhashOfWords(body_words.starts_with(' ') ? body_words.substr(1) : body_words));

  // Content words: not frequent in the page language, at least 2 bytes.
  std::vector<uint8_t> is_content(index.word_count());
  for (std::size_t w = 0; w < is_content.size(); ++w) {
    const std::string_view word = index.word(static_cast<uint32_t>(w));
    is_content[w] = word.size() >= 2 &&
                    !IsFrequentWord(language.language, word, index.word_hash(static_cast<uint32_t>(w)));
  }
  const std::vector<uint32_t>& words = index.position_words();
  std::vector<SentenceWords> sentences(pieces.size());
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    sentences[k].text = pieces[k];
    sentences[k].words =
        std::span<const uint32_t>(words.data() + spans[k].first, spans[k].second - spans[k].first);
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
    ForEachPageToken(anchor, &scratch, language.language,
                     [&](std::string_view token) { index.AddAnchorWord(index.Intern(token)); });
  }
  index.Finish(&stemmers.For(language.language), record->mutable_mini_index());
}

}  // namespace crawl::fetcher
