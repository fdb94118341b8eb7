"""A Korean search language for Sphinx: a word is found whatever particle follows it.

Sphinx has no Korean search language, so the Korean build indexed 소프트맥스로 and 소프트맥스는 as words of
their own, and a search for 소프트맥스 missed the pages that had only those. Korean attaches particles
(조사) and the copula (이다, 입니다) to the end of a word; this language strips them, the same way when it
builds the index (Python, ``stem``) and when it reads a query (JavaScript, ``Stemmer`` in language_data.js).
Words without Hangul get the English porter stemmer, as in the English build, so English terms on Korean
pages are found as before.

The rule is kept small and predictable: at most two endings come off a word (소프트맥스로는 -> 소프트맥스);
a one-syllable particle comes off only when at least two syllables remain (평가, 결과, 길이 and 정도 stay
whole; 키가 does too, the price of that rule); a longer ending (에서, 으로, 입니다 ...) whenever a syllable
remains. The words Korean readers bring from other books (멀티 헤드 어텐션, 코잘 마스크, 점곱: the glossary's
``elsewhere``, which tools/site.py passes as the setting ``book_search_synonyms``) are search synonyms: the
query is rewritten to the book's term before it is split into words, so 점곱 finds the pages on 내적. Why not a
static engine such as Pagefind: it would replace the theme's search page and field, add
a WebAssembly runtime and a binary to the build, for the same result; this costs about 1 KB of script.
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


def strip_korean(word: str) -> str:
    for _ in range(2):
        for ending in LONG_ENDINGS:
            if word.endswith(ending) and len(word) > len(ending):
                word = word[: -len(ending)]
                break
        else:
            if len(word) >= 3 and word[-1] in SHORT_ENDINGS and HANGUL.match(word[-2]):
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
  const hangul = /[\\uac00-\\ud7a3]/;
  const korean = word => {
    for (let i = 0; i < 2; i++) {
      const long = longEndings.find(e => word.endsWith(e) && word.length > e.length);
      if (long) { word = word.slice(0, -long.length); continue; }
      const chars = [...word];
      if (chars.length >= 3 && shortEndings.has(chars[chars.length - 1]) && hangul.test(chars[chars.length - 2])) {
        word = chars.slice(0, -1).join(''); continue;
      }
      break;
    }
    return word;
  };
  this.stemWord = word => hangul.test(word) ? korean(word) : porter.stemWord(word);
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


class SearchKorean(SearchEnglish):
    lang = "ko"
    language_name = "Korean"
    js_stemmer_code = SearchEnglish.js_stemmer_code + JS_KOREAN

    def stem(self, word: str) -> str:
        return strip_korean(word) if HANGUL.search(word) else super().stem(word)


def _add_synonyms(app, config):
    SearchKorean.js_stemmer_code = SearchEnglish.js_stemmer_code + JS_KOREAN + js_synonyms(config.book_search_synonyms)


def setup(app):
    app.add_search_language(SearchKorean)
    app.add_config_value("book_search_synonyms", {}, "html", dict)
    app.connect("config-inited", _add_synonyms)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
