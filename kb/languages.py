"""The language registry: what the knowledge base knows of each language a text may be in.

A language is supported when it has a Snowball stemmer and stop words (search analyses
its texts), the words its readers use for a Law or an article (number queries such as
"legge 27", "artículo 64", "Law 27", and the article headings of a plainly laid-out
Laws text), and a name the interface catalogs translate. A manifest document in any
other language fails the build with a message naming what is missing.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    code: str          # ISO 639-1, as the manifest writes it
    name: str          # in English: the interface catalogs' msgid ("Italian" → "Italiano")
    law_words: str     # a regular expression for the words naming a Law or an article
    heading_word: str  # the word an article heading of the Laws starts with
    appendix_words: str = ""  # a regular expression for the words naming an appendix
    meaningful: tuple[str, ...] = ()  # stop words the game gives a meaning to: kept
    shared_stop: bool = True  # its stop words are dropped from the all-language unstemmed field
    negation: str = ""  # a regular expression for the words that say "not" (stop words, but they turn a situation round)
    numbers: str = ""   # the words for two to ten ("one" is also an article): a situation says "8 cuori" or "otto cuori"


REGISTRY = (
    Language("it", "Italian", r"articol[oi]|legge|regola", "ARTICOLO", r"appendice|app\.", negation=r"\bnon\b",
             numbers="due tre quattro cinque sei sette otto nove dieci"),
    Language("es", "Spanish", r"art[ií]culos?|ley|regla", "ARTÍCULO", r"ap[eé]ndice|anexo", negation=r"\b(?:no|nunca)\b",
             numbers="dos tres cuatro cinco seis siete ocho nueve diez"),
    # "art." is every language's: the UI decides. English words of art live inside the Italian
    # and Spanish texts ("line-up", "time out", "convention card"): the unstemmed field keeps
    # English stop words, or "up" and "out" would vanish from them.
    Language("en", "English", r"artt?|law|l", "LAW", r"appendix", shared_stop=False,
             negation=r"\b(?:not|cannot|never)\b|n['’]t\b", numbers="two three four five six seven eight nine ten",
             meaningful=("down", "up", "out", "off", "over", "under", "before", "after", "again", "against")),
)
BY_CODE = {lang.code: lang for lang in REGISTRY}
LANGS = tuple(BY_CODE)  # the one list of language codes


def missing(code: str) -> str | None:
    """Why a language cannot be read, or None when it can."""
    from .citegrammar import LANGUAGES as CITATION_GRAMMARS  # the citation vocabulary, per language
    if code in BY_CODE and code in CITATION_GRAMMARS:
        return None
    return (f"language {code!r} is not supported: kb/languages.py lists {', '.join(LANGS)}; a language needs "
            f"a Snowball stemmer and stop words, its words for a Law, a name in the catalogs, and its "
            f"citation vocabulary in kb/citegrammar.py")
