"""Analyzers: the same chains index the texts and read the queries.

Per language: tokens, lower case, stop words, Snowball stemming, then accent
folding — in that order, because the Italian and Spanish stemmers know their
accented endings ("licitò", "declaración") and would stem a folded word worse.
The `plain` chain keeps whole words, accents folded, for fuzzy and prefix
matching and for "did you mean".
"""
from __future__ import annotations

import warnings

with warnings.catch_warnings():  # Whoosh 2.7.4 has invalid escapes that newer Pythons warn about
    warnings.simplefilter("ignore", SyntaxWarning)
    from whoosh.analysis import (Analyzer, CharsetFilter, LowercaseFilter, RegexTokenizer, StemFilter,
                                 StopFilter)
    from whoosh.lang import stopwords_for_language
    from whoosh.support.charset import accent_map

LANGS = ("it", "es")
TOKEN = r"\w+(?:['’]\w+)?"  # keeps "l'art" together only to drop the article below

STOPWORDS = {lang: frozenset(stopwords_for_language(lang)) for lang in LANGS}
ALL_STOPWORDS = STOPWORDS["it"] | STOPWORDS["es"]


def _tokens() -> Analyzer:
    # elisions ("l'arbitro", "dell'attacco") split into the article and the word
    return RegexTokenizer(r"\w+") | LowercaseFilter()


def stemmed(lang: str) -> Analyzer:
    return _tokens() | StopFilter(stoplist=STOPWORDS[lang], minsize=1) | StemFilter(lang=lang) | CharsetFilter(accent_map)


def plain() -> Analyzer:
    return _tokens() | StopFilter(stoplist=ALL_STOPWORDS, minsize=2) | CharsetFilter(accent_map)


ANALYZERS = {lang: stemmed(lang) for lang in LANGS}
PLAIN = plain()


def terms(analyzer: Analyzer, text: str) -> list[str]:
    return [t.text for t in analyzer(text)]
