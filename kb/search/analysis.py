"""Analyzers: the same chains index the texts and read the queries.

Per language: tokens, lower case, stop words, Snowball stemming, then accent
folding — in that order, because the Italian and Spanish stemmers know their
accented endings ("licitò", "declaración") and would stem a folded word worse.
In these chains a stop word is one typed with or without its accents ("cómo" is
"como", "perche" is "perché"), as the query's own words are read folded.
The `plain` chain keeps whole words, accents folded, for fuzzy and prefix
matching and for "did you mean".
"""
from __future__ import annotations

import re
import warnings
from functools import lru_cache

with warnings.catch_warnings():  # Whoosh 2.7.4 has invalid escapes that newer Pythons warn about
    warnings.simplefilter("ignore", SyntaxWarning)
    from whoosh.analysis import Analyzer, CharsetFilter, Filter, LowercaseFilter, RegexTokenizer, StopFilter
    from whoosh.lang import stemmer_for_language, stopwords_for_language
    from whoosh.support.charset import accent_map

from ..languages import LANGS, REGISTRY
from ..text import fold_accents

def _either_way(words) -> frozenset[str]:
    """Words as listed and as typed without accents."""
    return frozenset(words) | {fold_accents(w) for w in words}


# as the lists spell them (the little words that say a query's language), and as typed without accents
LISTED_STOPWORDS = {lang.code: frozenset(stopwords_for_language(lang.code)) - frozenset(lang.meaningful) for lang in REGISTRY}
STOPWORDS = {code: _either_way(words) for code, words in LISTED_STOPWORDS.items()}
SHARED_STOPWORDS = frozenset().union(*(STOPWORDS[lang.code] for lang in REGISTRY if lang.shared_stop))


WORD = re.compile(r"\w+")  # elisions ("l'arbitro", "dell'attacco") split into the article and the word


def _tokens() -> Analyzer:
    return RegexTokenizer(WORD) | LowercaseFilter()


class FoldedStopFilter(StopFilter):
    """Whoosh's stop filter, deciding on the word with its accents folded."""

    def __call__(self, tokens):
        pos = None
        for t in tokens:
            if len(t.text) < self.min or fold_accents(t.text) in self.stops:
                if not t.removestops:  # kept, marked, when the caller asks for stop words too
                    t.stopped = True
                    yield t
                continue
            if self.renumber and t.positions:  # positions count the words kept, as Whoosh's do
                pos = t.pos if pos is None else pos + 1
                t.pos = pos
            t.stopped = False
            yield t


class AccentTolerantStems(Filter):
    """Stem, then fold accents; a word with accents also gives the stem of its folded form.

    The stemmers know accented endings ("declaración" → "declar") but not the same
    word typed without them ("declaracion" → "declaracion"): indexing both stems lets
    a query typed either way meet the text.
    """

    def __init__(self, lang: str):
        self.lang = lang  # only the language: picklable, as the index schema must be

    def __call__(self, tokens):
        for t in tokens:
            word = t.text
            folded = fold_accents(word)
            t.text = fold_accents(stem_word(self.lang, word))
            yield t
            if folded != word:
                other = stem_word(self.lang, folded)
                if other != t.text:
                    t.text = other
                    yield t


_STEMMERS = {lang: stemmer_for_language(lang) for lang in LANGS}


@lru_cache(maxsize=65536)
def stem_word(lang: str, word: str) -> str:
    """The word's Snowball stem, or the word itself where the stemmer fails.

    Whoosh 2.7.4's Spanish stemmer raises IndexError on "ague", "ngue", "águe" …; called
    through Whoosh's own cache, one such failure also corrupts that cache, and once it is
    full every search fails. So the stemmer is called bare, never allowed to raise, and
    cached here (functools' cache is bounded and never stores a failure).
    """
    try:
        return _STEMMERS[lang](word)
    except Exception:  # any failure of the third-party stemmer: the word stands for its stem
        return word


def stemmed(lang: str) -> Analyzer:
    return _tokens() | FoldedStopFilter(stoplist=STOPWORDS[lang], minsize=1) | AccentTolerantStems(lang)


def plain() -> Analyzer:
    return _tokens() | StopFilter(stoplist=SHARED_STOPWORDS, minsize=2) | CharsetFilter(accent_map)


ANALYZERS = {lang: stemmed(lang) for lang in LANGS}
PLAIN = plain()


SHORT_TEXT = 80  # queries, words and glossary terms: analysed once, then remembered


_BY_NAME = {"plain": PLAIN, **ANALYZERS}
_NAME_OF = {id(a): name for name, a in _BY_NAME.items()}  # analyzers are unhashable: known by name


def terms(analyzer: Analyzer, text: str) -> list[str]:
    """The terms one of our analyzers makes of a text. Each chain reads every word on its
    own (no filter looks at a word's neighbours), so a longer text is read word by word,
    each word's terms remembered."""
    name = _NAME_OF.get(id(analyzer))
    if name is None:
        return [t.text for t in analyzer(text)]
    if len(text) <= SHORT_TEXT:
        return list(_short_terms(name, text))
    return [t for word in WORD.findall(text) for t in _short_terms(name, word)]


@lru_cache(maxsize=32768)
def _short_terms(name: str, text: str) -> tuple[str, ...]:
    return tuple(t.text for t in _BY_NAME[name](text))
