"""A Korean search language for Sphinx: a word is found whatever particle follows it.

Sphinx has no Korean search language, so the Korean build indexed 소프트맥스로 and 소프트맥스는 as words of
their own, and a search for 소프트맥스 missed the pages that had only those. Korean attaches particles
(조사) and the copula (이다, 입니다) to the end of a word; this language strips them, the same way when it
builds the index (Python, ``stem``) and when it reads a query (JavaScript, ``Stemmer`` in language_data.js).
Words without Hangul get the English porter stemmer, as in the English build, so English terms on Korean
pages are found as before.

The rule is kept small and predictable: at most two endings come off a word (소프트맥스로는 -> 소프트맥스);
a one-syllable particle comes off only when at least two syllables remain (평가, 결과, 길이 and 정도 stay
whole; 키가 does too, the price of that rule), or after a Latin letter or a digit (RoPE를, view와, GPT-2의: the
syllable glued to a code name is its particle), the rest then stemmed as English; a longer ending (에서, 으로, 입니다
...) whenever a syllable remains. The words Korean readers bring from other books (멀티 헤드 어텐션, 코잘 마스크, 점곱: the glossary's
``elsewhere``, which tools/site.py passes as the setting ``book_search_synonyms``) are search synonyms: the
query is rewritten to the book's term before it is split into words, so 점곱 finds the pages on 내적. Why not a
static engine such as Pagefind: it would replace the theme's search page and field, add
a WebAssembly runtime and a binary to the build, for the same result; this costs about 1 KB of script.

Ranking (both languages, JS_RANKING): Sphinx scores a page by the best place any one word of the query was found
(15 for a title, page or section, 5 for the text) and breaks ties by title, so nearly every chapter scored 15 for
"multi head attention" and chapter 10, whose title has "attention" and one heading "Multi-head latent attention",
came first, chapter 6 fourth. The book scores a page by every word of the query, each where it is found best: in
the page's title (10), in a heading (4, one more for each further heading with it, up to 6), in the text (1), half
as much inside a longer word; each weighed by how rare the word is (BM25's inverse document frequency: "attention",
on every page, weighs almost nothing); plus the words as one phrase (stemmed, spaces, hyphens and stop words aside:
"multi head", "multi-head" and "multihead" alike) in the page's title (10 times the words' weights) or a heading
(5 times); at equal scores the numbered chapters come first, in order. A word of the query the index does not
know is read as two words it knows, when it is two glued together (multihead -> multi head). tests/test_site.py
holds a table of readers' queries in both languages, each with the chapter it must rank first, run through the
built site's own scripts.
"""
from __future__ import annotations

import json
import re

from sphinx.search.en import SearchEnglish

# longest first, so that 에서는 is tried before 는
LONG_ENDINGS = sorted({
    "입니다", "이라는", "이라고", "에서는", "에서도", "에서의", "으로는", "으로도", "으로서", "으로써", "에게는",
    "까지는", "부터는", "이었다", "이므로", "이지만",
    "에서", "으로", "에게", "까지", "부터", "처럼", "보다", "마다", "이다", "이고", "이며", "이면", "이나", "이라",
    "이란", "에는", "에도", "와는", "과는", "로는", "로도", "로서", "로써", "만큼", "밖에", "하고", "이랑", "라는",
    "라고", "인데", "이든",
}, key=len, reverse=True)
SHORT_ENDINGS = ["은", "는", "이", "가", "을", "를", "의", "에", "로", "와", "과", "도", "만", "인", "란"]
HANGUL = re.compile("[\uac00-\ud7a3]")
LATIN = re.compile("[A-Za-z0-9]")  # a syllable glued to a Latin word or a number is its particle: RoPE를, view와


def strip_korean(word: str) -> str:
    for _ in range(2):
        for ending in LONG_ENDINGS:
            if word.endswith(ending) and len(word) > len(ending):
                word = word[: -len(ending)]
                break
        else:
            if word[-1:] in SHORT_ENDINGS and (len(word) >= 3 and HANGUL.match(word[-2])
                                               or len(word) >= 2 and LATIN.match(word[-2])):
                word = word[:-1]
                continue
            break
    return word


JS_KOREAN = """
var PorterStemmer = Stemmer;
var Stemmer = function() {
  const porter = new PorterStemmer();
  const longEndings = LONG_ENDINGS;
  const shortEndings = new Set(SHORT_ENDINGS);
  const hangul = /[\\uac00-\\ud7a3]/, latin = /[A-Za-z0-9]/;
  const korean = word => {
    for (let i = 0; i < 2; i++) {
      const long = longEndings.find(e => word.endsWith(e) && word.length > e.length);
      if (long) { word = word.slice(0, -long.length); continue; }
      const chars = [...word];
      if (shortEndings.has(chars[chars.length - 1]) && (chars.length >= 3 && hangul.test(chars[chars.length - 2])
          || chars.length >= 2 && latin.test(chars[chars.length - 2]))) {
        word = chars.slice(0, -1).join(''); continue;
      }
      break;
    }
    return word;
  };
  // a Latin word its particle came off is stemmed as the English words are (transpose는 -> transpos)
  this.stemWord = word => {
    if (!hangul.test(word)) return porter.stemWord(word);
    const stripped = korean(word);
    return hangul.test(stripped) ? stripped : porter.stemWord(stripped);
  };
};
""".replace("LONG_ENDINGS", json.dumps(LONG_ENDINGS, ensure_ascii=False)).replace(
    "SHORT_ENDINGS", json.dumps(SHORT_ENDINGS, ensure_ascii=False))


JS_SYNONYMS = """
var bookRewriteQuery = (function () {
  const synonyms = SYNONYMS.map(([from, to]) => [new RegExp(from, "gu"), to]);
  return query => synonyms.reduce((q, [from, to]) => q.replace(from, to), query);
})();
var splitQuery = (function (split) {
  return query => split(bookRewriteQuery(query));
})(typeof splitQuery === "function" ? splitQuery : query => query
    .split(/[^\\p{Letter}\\p{Number}_\\p{Emoji_Presentation}]+/gu).filter(term => term));
// The whole query too, not only its words: Sphinx also matches the query as typed against page and section
// titles (Search._performSearch), so the rewritten query must be the one it is given.
(function patch() {
  if (typeof Search === "undefined") { document.addEventListener("DOMContentLoaded", patch); return; }
  if (Search.bookRewritten) return;
  const parse = Search._parseQuery;
  Search._parseQuery = query => parse(bookRewriteQuery(query));
  Search.bookRewritten = true;
})();
"""


JS_RANKING = """
var bookRanking = (function () {
  const TITLE = 10, HEADING = 4, MORE_HEADINGS = 2, TEXT = 1, PARTIAL = 0.5;  // where a word of the query is
  const PHRASE_TITLE = 10, PHRASE_HEADING = 5;  // the whole query as a phrase, in the title or a heading
  const words = text => text.toLowerCase().replace(/['’]s\\b/gu, "").split(/[^\\p{Letter}\\p{Number}_]+/u).filter(w => w);
  const has = (files, file) => files !== undefined && (files === file || Array.isArray(files) && files.includes(file));
  let stemmer = null, pages = null;
  // a text as a phrase: its words stemmed, then joined without spaces, a possessive's 's and the stop words
  // (and, the, of ...) left out, so that "multi head", "multi-head" and "multihead" are one phrase, "GPT-2
  // attention" is in "GPT-2’s attention block", "Q K V" in "Making Q, K and V" (and "멀티헤드 어텐션" in
  // "멀티헤드 어텐션의 ...")
  const stop = new Set(typeof stopwords === "undefined" ? [] : stopwords);
  const phrase = text => words(text).filter(w => !stop.has(w)).map(w => stemmer.stemWord(w)).join("");
  const read = () => {  // per page: the stems of its title and of each heading, each also as a phrase
    if (pages) return pages;
    stemmer = new Stemmer();
    const index = Search._index, stems = text => new Set(words(text).map(w => stemmer.stemWord(w)));
    pages = index.docnames.map((_, file) => ({title: stems(index.titles[file]), titlePhrase: phrase(index.titles[file]),
                                              headings: [], headingPhrases: []}));
    for (const [title, found] of Object.entries(index.alltitles)) {
      for (const [file, id] of found) {
        if (id === null || !title) continue;  // the page's own title (id null) is read from titles
        pages[file].headings.push(stems(title));
        pages[file].headingPhrases.push(phrase(title));
      }
    }
    return pages;
  };
  const inside = (word, stems) => word.length > 2 && [...stems].some(w => w !== word && w.includes(word));
  const place = (word, file, page) => {
    const headings = page.headings.filter(h => h.has(word)).length;
    if (page.title.has(word)) return TITLE;
    if (headings) return HEADING + Math.min(headings - 1, MORE_HEADINGS);
    if (has(Search._index.terms[word], file)) return TEXT;
    if (inside(word, page.title)) return TITLE * PARTIAL;
    if (page.headings.some(h => inside(word, h))) return HEADING * PARTIAL;
    const terms = Search._index.terms;
    return word.length > 2 && Object.keys(terms).some(t => t.includes(word) && has(terms[t], file)) ? TEXT * PARTIAL : 0;
  };
  // a word on few pages tells more than one on all of them ("attention" is on every page, and in five
  // chapters' titles): each word's place is weighed by its rarity, BM25's inverse document frequency
  // ln(1 + (pages - pages with it + 0.5) / (pages with it + 0.5)), the word or a longer one holding it
  const files = list => list === undefined ? [] : Array.isArray(list) ? list : [list];
  const rarity = word => {
    const index = Search._index, found = new Set([...files(index.terms[word]), ...files(index.titleterms[word])]);
    if (!found.size && word.length > 2) {
      for (const terms of [index.terms, index.titleterms]) {
        for (const t in terms) if (t.includes(word)) files(terms[t]).forEach(f => found.add(f));
      }
    }
    const n = index.docnames.length, df = Math.max(found.size, 1);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };
  const score = (query, words, result) => {
    const file = Search._index.docnames.indexOf(result[0]);
    if (file < 0) return result[4];
    const page = read()[file];
    const weights = words.map(rarity);
    let total = words.reduce((sum, word, i) => sum + place(word, file, page) * weights[i], 0);
    // the words together, as the query has them: as much again as each word found in the title (or a heading)
    const asked = phrase(query), together = weights.reduce((a, b) => a + b, 0);
    if (words.length > 1 && asked) {
      if (page.titlePhrase.includes(asked)) total += PHRASE_TITLE * together;
      else if (page.headingPhrases.some(h => h.includes(asked))) total += PHRASE_HEADING * together;
    }
    // a heading found by the whole query sits just above its page; at equal scores, the numbered chapters
    // first and in order (docnames are sorted: 01_... to 10_..., then errors, glossary, index, ...)
    return total + (result[2] ? 0.5 : 0) - file / 1000;
  };
  // a word the index does not know, read as two words it knows glued together (multihead -> multi head)
  const unglue = query => {
    const index = Search._index;
    if (!index) return query;
    const stemmer = new Stemmer();
    const known = w => w.length > 2 && (stemmer.stemWord(w) in index.terms || stemmer.stemWord(w) in index.titleterms);
    return query.replace(/[\\p{Letter}\\p{Number}]{6,}/gu, word => {
      if (known(word.toLowerCase())) return word;
      for (let i = 3; i <= word.length - 3; i++) {
        if (known(word.slice(0, i).toLowerCase()) && known(word.slice(i).toLowerCase())) return word.slice(0, i) + " " + word.slice(i);
      }
      return word;
    });
  };
  return {score, unglue};
})();
(function patch() {
  if (typeof Search === "undefined" || typeof Scorer === "undefined") {
    document.addEventListener("DOMContentLoaded", patch); return;
  }
  if (Search.bookRanked) return;
  const parse = Search._parseQuery, perform = Search._performSearch;
  let asked = null;
  Search._parseQuery = query => parse(bookRanking.unglue(query));
  Search._performSearch = (query, searchTerms, ...rest) => {
    asked = [query, [...searchTerms]];
    try { return perform(query, searchTerms, ...rest); } finally { asked = null; }
  };
  Scorer.score = result => asked ? bookRanking.score(asked[0], asked[1], result) : result[4];
  Search.bookRanked = true;
})();
"""


def synonym_patterns(synonyms: dict[str, str]) -> list[tuple[str, str]]:
    """(pattern, term) for each other book's word: its words may be written apart or together, with any
    spacing (멀티 헤드 어텐션, 멀티헤드  어텐션 ...); longest first, so that a longer word wins."""
    return [(r"\s*".join(re.sub(r"([.*+?^${}()|\[\]\\/])", r"\\\1", w) for w in word.split()), term)
            for word, term in sorted(synonyms.items(), key=lambda kv: -len(kv[0]))]


def rewrite_query(query: str, synonyms: dict[str, str]) -> str:
    """What the search page's splitQuery does before splitting (the JavaScript of JS_SYNONYMS)."""
    for pattern, term in synonym_patterns(synonyms):
        query = re.sub(pattern, term, query)
    return query


def js_synonyms(synonyms: dict[str, str]) -> str:
    return JS_SYNONYMS.replace("SYNONYMS", json.dumps(synonym_patterns(synonyms), ensure_ascii=False))


class SearchEnglishBook(SearchEnglish):
    """English as Sphinx has it, ranked as the book ranks (JS_RANKING)."""
    js_stemmer_code = SearchEnglish.js_stemmer_code + JS_RANKING


class SearchKorean(SearchEnglish):
    lang = "ko"
    language_name = "Korean"
    js_stemmer_code = SearchEnglish.js_stemmer_code + JS_KOREAN + JS_RANKING

    def stem(self, word: str) -> str:
        if not HANGUL.search(word):
            return super().stem(word)
        stripped = strip_korean(word)  # a Latin word its particle came off: stemmed as English (transpose는)
        return stripped if HANGUL.search(stripped) else super().stem(stripped)


def _add_synonyms(app, config):
    SearchKorean.js_stemmer_code = (SearchEnglish.js_stemmer_code + JS_KOREAN + JS_RANKING
                                    + js_synonyms(config.book_search_synonyms))


def setup(app):
    app.add_search_language(SearchEnglishBook)
    app.add_search_language(SearchKorean)
    app.add_config_value("book_search_synonyms", {}, "html", dict)
    app.connect("config-inited", _add_synonyms)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
