"""Analysis: the same chains read the texts when the model is compiled and the queries at search time.

Per language: words, lower case, stop words, Snowball stemming, then accent folding — in that
order, because the Italian and Spanish stemmers know their accented endings ("licitò",
"declaración") and would stem a folded word worse; a word typed with accents also gives the stem
of its folded form, so a query typed either way meets the text. A stop word is one typed with
or without its accents ("cómo" is "como", "perche" is "perché"). The `plain` chain keeps whole
words, accents folded by whoosh's accent map, for fuzzy and prefix matching and "did you mean".

These are whoosh's analyzer chains (RegexTokenizer, LowercaseFilter, StopFilter, CharsetFilter,
Snowball), written as plain functions over one word at a time: no filter looks at a word's
neighbours, so a word's terms are worked out once and remembered (tests/corpus/test_analysis.py holds
them to whoosh's own chains over every text of the corpus). The browser's engine
(web/static/search.js, `analysis`) follows these functions one to one, with whoosh's Snowball
stemmers ported to web/static/stemmers.js.
"""
from __future__ import annotations

import re
import unicodedata
import warnings
from functools import lru_cache

import numpy as np

with warnings.catch_warnings():  # Whoosh 2.7.4 has invalid escapes that newer Pythons warn about
    warnings.simplefilter("ignore", SyntaxWarning)
    from whoosh.lang import stemmer_for_language, stopwords_for_language
    from whoosh.support.charset import accent_map

from ..corpus.languages import LANGS, REGISTRY
from ..common.text import fold_accents


def _either_way(words) -> frozenset[str]:
    """Words as listed and as typed without accents."""
    return frozenset(words) | {fold_accents(w) for w in words}


# as the lists spell them (the little words that say a query's language), and as typed without accents
LISTED_STOPWORDS = {lang.code: frozenset(stopwords_for_language(lang.code)) - frozenset(lang.meaningful) for lang in REGISTRY}
STOPWORDS = {code: _either_way(words) for code, words in LISTED_STOPWORDS.items()}
SHARED_STOPWORDS = frozenset().union(*(STOPWORDS[lang.code] for lang in REGISTRY if lang.shared_stop))
ANY_STOPWORD = frozenset().union(*STOPWORDS.values())
ACCENT_MAP = dict(accent_map)  # whoosh's: code point → its letter without accents (every key in the BMP)
PLAIN = "plain"                # the chain of whole words; the others are named by their language
CHAINS = (PLAIN, *LANGS)
PLAIN_MIN = 2                  # the plain chain drops shorter words

WORD = re.compile(r"\w+")  # elisions ("l'arbitro", "dell'attacco") split into the article and the word
_STEMMERS = {lang: stemmer_for_language(lang) for lang in LANGS}
# Distinct words whose terms each chain remembers: the corpus's whole vocabulary (about 8 800
# words) and a tournament's queries fit, and a stream of words never seen before (typos, random
# strings) cannot grow a server's memory past about 5 MB a chain: at 65 536 the chains held
# 100 MB after a ten-minute soak, and were still growing.
WORDS_KEPT = 16384


def terms(chain: str, text: str) -> list[str]:
    """The terms one chain makes of a text, in order."""
    word = _plain_word if chain == PLAIN else _stems_of[chain]
    return [t for w in WORD.findall(text) for t in word(w)]


def first_term(chain: str, text: str) -> str | None:
    found = terms(chain, text)
    return found[0] if found else None


@lru_cache(maxsize=WORDS_KEPT)
def _plain_word(word: str) -> tuple[str, ...]:
    w = word.lower()
    if len(w) < PLAIN_MIN or w in SHARED_STOPWORDS:
        return ()
    return (w.translate(ACCENT_MAP),)


def _stemming(lang: str):
    stops = STOPWORDS[lang]

    @lru_cache(maxsize=WORDS_KEPT)
    def stems(word: str) -> tuple[str, ...]:
        """A word's stem, accents folded; and the stem of the word typed without its accents
        where that differs (the stemmers know "declaración", not "declaracion")."""
        w = word.lower()
        folded = fold_accents(w)
        if folded in stops:
            return ()
        first = fold_accents(stem_word(lang, w))
        if folded != w:
            other = stem_word(lang, folded)
            if other != first:
                return first, other
        return (first,)
    return stems


_stems_of = {lang: _stemming(lang) for lang in LANGS}


@lru_cache(maxsize=WORDS_KEPT)
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


NUMBERS = {lang.code: dict(lang.numbers) for lang in REGISTRY}  # number words → digits, per language


def stems_said(lang: str, text: str) -> tuple[str, ...]:
    """The stems a phrase or a query says in `lang`, each once, sorted (a number in words as
    its digits: "otto cuori" is "8 cuori"). Sorted, so that their weights add up in one order:
    a set's order changes with each process's string hashing, and so would the last bit of a
    sum, and with it which of two equal phrases ranks first."""
    digits = NUMBERS.get(lang, {})
    return tuple(sorted(set(terms(lang, WORD.sub(lambda m: digits.get(m[0].lower(), m[0]), text)))))


def positions(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, word as written, plain term) of each word of a text the plain chain keeps."""
    out = []
    for m in WORD.finditer(text):
        found = _plain_word(m.group())
        if found:
            out.append((m.start(), m.end(), m.group(), found[0]))
    return out


def light(text: str) -> tuple[str, ...]:
    """Words folded and lightly stemmed: plural and final vowel off ("bazas" → "baz", "carte
    esposte" → "cart espost"). Lighter than Snowball, which makes "declarante" and
    "declaración" one stem and so would confuse declarer with bid."""
    out = []
    for w in terms(PLAIN, text):
        if len(w) > 4 and w.endswith("s"):
            w = w[:-1]
        if len(w) > 4 and w[-1] in "aeiou":
            w = w[:-1]
        out.append(w)
    return tuple(out)


@lru_cache(maxsize=4096)
def _folded_letter(ch: str) -> str:
    return fold_accents(ch)[:1] or ch


def fold(text: str) -> str:
    """Lower case without accents, letter for letter (positions in it are positions in `text`)."""
    return "".join(_folded_letter(ch) for ch in text.lower())


@lru_cache(maxsize=1)
def _every_character() -> str:
    return "".join(map(chr, range(0x110000)))


@lru_cache(maxsize=1)
def word_ranges() -> list[list[int]]:
    """The code points `WORD` matches, as [first, last] ranges: the browser splits words by the
    same table, whatever its own Unicode version."""
    return [[m.start(), m.end() - 1] for m in WORD.finditer(_every_character())]  # runs of the pattern itself


@lru_cache(maxsize=1)
def combining_ranges() -> list[list[int]]:
    """The code points `fold_accents` drops (a nonzero combining class), as [first, last] ranges:
    the browser folds by the same table."""
    return _ranges(lambda chars: [c != 0 for c in map(unicodedata.combining, chars)])


def is_control(ch: str) -> bool:
    """A character a query loses to a space: controls, formats, surrogates, private use, unassigned."""
    return unicodedata.category(ch)[0] == "C"


@lru_cache(maxsize=1)
def control_ranges() -> list[list[int]]:
    """The code points a query loses to a space (a general category "C…": controls, formats,
    surrogates, private use and, in this Python's Unicode, the unassigned): the browser's own
    Unicode may be newer."""
    return _ranges(lambda chars: list(map(is_control, chars)))


@lru_cache(maxsize=1)
def digit_ranges() -> list[list[int]]:
    """The code points `str.isdigit` takes for digits."""
    return _ranges(lambda chars: list(map(str.isdigit, chars)))


# Planes 4 to 13 hold no character yet, 15 and 16 only private use: each is one run, read once.
_READ, _ALIKE = ((0, 0x40000), (0xE0000, 0xF0000)), ((0x40000, 0xE0000), (0xF0000, 0x110000))


def _ranges(inside) -> list[list[int]]:
    """The runs of code points `inside` says yes of, as [first, last] (`inside` maps a string of
    characters to one truth each; each plane of `_ALIKE` is as its first code point is:
    tests/corpus/test_analysis.py checks that against every code point)."""
    every = _every_character()
    flags = np.zeros(0x110000, dtype=bool)
    for a, b in _READ:
        flags[a:b] = inside(every[a:b])
    for a, b in _ALIKE:
        flags[a:b] = inside(every[a])[0]
    edges = np.flatnonzero(np.diff(np.concatenate([[False], flags, [False]]).astype(np.int8)))
    return [[int(first), int(last) - 1] for first, last in zip(edges[::2], edges[1::2])]
