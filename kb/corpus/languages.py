"""The language registry: what the knowledge base knows of each language a text may be in.

A language is supported when it has a Snowball stemmer and stop words (search analyses
its texts), the words its readers use for a Law or an article (number queries such as
"legge 27", "artículo 64", "Law 27", and the article headings of a plainly laid-out
Laws text), and a name the interface catalogs translate. A manifest document in any
other language fails the build with a message naming what is missing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class Language:
    code: str          # ISO 639-1, as the manifest writes it
    name: str          # in English: the interface catalogs' msgid ("Italian" → "Italiano")
    law_words: str     # a regular expression for the words naming a Law or an article
    heading_word: str  # the word an article heading of the Laws starts with
    appendix_words: str = ""  # a regular expression for the words naming an appendix
    meaningful: tuple[str, ...] = ()  # stop words the game gives a meaning to: kept
    shared_stop: bool = True  # its stop words are dropped from the all-language unstemmed field
    numbers: tuple[tuple[str, str], ...] = ()  # number words → digits, where the word means only the number
    # ("uno" is also an article, Italian "sei" also "you are"): a situation says "8 cuori" or "otto cuori"
    # A bid as its players say it (kb.search.bids): the denominations, clubs to no trump, as regular
    # expressions (words only: a letter such as "C" is clubs to one player and hearts to another)…
    denominations: tuple[str, ...] = ()
    over: str = ""             # …the words that put a bid after the one they name ("1 cuori sopra 1 picche")…
    over_little: str = ""      # …the little words between such a word and its bid ("sopra l'1 picche")…
    meant: str = ""            # …the words of a call meant otherwise (a card pulled by mistake, Law 25)…
    insufficient_bid: str = ""  # …and the name of a lower bid right after one of its level


REGISTRY = (
    Language("it", "Italian", r"articol[oi]|legge|regola", "ARTICOLO", r"appendice|app\.",
             meaningful=("contro",),  # the double ("contro fuori turno"), not only "against"
             numbers=(("due", "2"), ("tre", "3"), ("quattro", "4"), ("cinque", "5"), ("sette", "7"), ("otto", "8"),
                      ("nove", "9"), ("dieci", "10")),
             denominations=("fiori", "quadri", "cuori", "picche", r"senza(?:\s+atout)?|sa"),
             over=r"sopra|su|sul|sull|sulla|a|al|all|alla|dopo",
             over_little=r"il|l|lo|la|al|all|alla|mio|mia|tuo|suo|nostro|vostro|loro",
             meant=r"volev\w*|intendev\w*|invece", insufficient_bid="licita insufficiente"),
    Language("es", "Spanish", r"art[ií]culos?|ley|regla", "ARTÍCULO", r"ap[eé]ndice|anexo",
             meaningful=("sin",),  # "sin triunfo": no trump
             numbers=(("dos", "2"), ("tres", "3"), ("cuatro", "4"), ("cinco", "5"), ("seis", "6"), ("siete", "7"),
                      ("ocho", "8"), ("nueve", "9"), ("diez", "10")),
             denominations=(r"tr[eé]bol(?:es)?", r"diamantes?", r"coraz[oó]n(?:es)?", r"picas?", r"sin\s+triunfo"),
             over=r"sobre|tras|a|despu[eé]s\s+de", over_little=r"el|la|las|los|mi|tu|su|nuestro|del|al",
             meant=r"quer[ií]\w*|quise|en\s+lugar",
             insufficient_bid="declaración insuficiente"),
    # "art." is every language's: the UI decides. English words of art live inside the Italian
    # and Spanish texts ("line-up", "time out", "convention card"): the unstemmed field keeps
    # English stop words, or "up" and "out" would vanish from them.
    Language("en", "English", r"artt?|law|l", "LAW", r"appendix", shared_stop=False,
             numbers=(("two", "2"), ("three", "3"), ("four", "4"), ("five", "5"), ("six", "6"), ("seven", "7"),
                      ("eight", "8"), ("nine", "9"), ("ten", "10")),
             meaningful=("down", "up", "out", "off", "over", "under", "before", "after", "again", "against"),
             denominations=(r"clubs?", r"diamonds?", r"hearts?", r"spades?", r"no[\s-]*trumps?|nt"),
             over=r"over|to|after", over_little=r"the|my|our|his|her|their|your|partner['’]s",
             meant=r"meant|wanted|intended|instead", insufficient_bid="insufficient bid"),
)
BY_CODE = {lang.code: lang for lang in REGISTRY}
LANGS = tuple(BY_CODE)  # the one list of language codes


def in_order(codes: Iterable[str]) -> tuple[str, ...]:
    """Language codes in the one order every list of languages follows: the registry's, then
    any other (an interface language no text is written in) alphabetically."""
    rank = {code: i for i, code in enumerate(LANGS)}
    return tuple(sorted(set(codes), key=lambda c: (rank.get(c, len(rank)), c)))
