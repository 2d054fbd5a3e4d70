"""The story reader: who acted, when, and what was done, as a query tells it.

Directors get stories, not only questions ("the lady on my left thought for ages, then her
partner doubled"). A story is read for the roles it names (declarer, dummy, a defender,
partner, the opponents, the director, a team), the periods of the board it tells (the clock's:
the auction, after the final pass, the play, after the last trick, the next round, the
correction period) and the acts it tells (a call, a lead, a card exposed, a claim said as
"the rest are mine", a remark, a hesitation, a revoke told as "she had a heart after all"),
from the vocabulary of corpus/story-words.tsv (its phrases' words matched in order, accents and
case aside, a word ending in * standing for its inflections). The
situation index says the same of each situation (`period`, `actors`, `acts`), so a story is
matched to situations on who/when/what as well as on words (`fit`).

Card holdings, scores and table or board numbers are set aside before a long query is
searched (`set_aside`): "♠AQ10x ♥Kx" and "+620" say nothing of the Law. Bids are kept: they are
read by `kb.search.bids`.

`vocabulary` and `compiled` are the build's (the compiler saves the result in the search
model); `Reader` is the runtime's. The browser's engine follows this module one to one
(web/static/search.js, `story`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from ..corpus.tables import read_tsv
from ..corpus.manifest import CorpusError
from ..corpus.languages import LANGS
from .analysis import WORD, fold
from .tuning import Tuning

VOCABULARY = "story-words.tsv"
COLUMNS = ("tag", "lang", "phrases", "note")
DIMENSIONS = ("role", "period", "act")
SEATS = frozenset({"declarer", "dummy", "defender"})  # roles that exclude each other as the actor
DEFINE = "define"  # the act of asking what a term means: a definition's situation fits no other story
GAP = 2  # words a story may put between two words of a phrase

# A holding: a suit symbol and its cards, honours in English, Italian
# (R D F) or Spanish (R D V), "10", x for a small card, or a void's dash. A bid ("1♥", "2♠") is a
# level before the symbol and no cards after it: kept.
HOLDING = re.compile(r"(?<![1-7])(?<![1-7]\s)[♠♥♦♣]\s?(?:10|[AKQJTRDFVxX2-9]|[-–—])+(?!\w)")
SCORE = re.compile(r"(?<!\w)(?<![.,])[+\-−]?[0-9]{3,4}(?!\w)(?![.,%])")  # a score: 3 or 4 digits, a sign or not
SEAT_NUMBER = re.compile(r"\b(?:board|tavolo|mesa|table|estuche|smazzata|mano|tav|bd|bd\.)\s*(?:n\.?\s*|no\.?\s*|#\s*)?[0-9]{1,3}\b", re.I)
ASIDE = (HOLDING, SCORE, SEAT_NUMBER)


@dataclass(frozen=True)
class Story:
    roles: frozenset[str] = frozenset()
    periods: frozenset[str] = frozenset()
    acts: frozenset[str] = frozenset()

    def to_dict(self) -> dict[str, list[str]]:
        return {"roles": sorted(self.roles), "periods": sorted(self.periods), "acts": sorted(self.acts)}


NOTHING = Story()


# ---------------------------------------------------------------- the build's

def vocabulary(tables: Path) -> list[tuple[str, str, str]]:
    """(tag, language, phrase) of corpus/story-words.tsv, in its order; none when the corpus has
    no such table. A tag of no dimension, a language the knowledge base cannot read or a phrase
    of stop words alone is a `CorpusError`."""
    path = tables / VOCABULARY
    if not path.exists():
        return []
    out = []
    for r in read_tsv(path, COLUMNS):
        dimension, _, value = r["tag"].partition(":")
        if dimension not in DIMENSIONS or not value or r["lang"] not in LANGS:
            raise CorpusError(f"{path}: {r['tag']} {r['lang']}: tags are {'/'.join(DIMENSIONS)}:<name>, "
                              f"languages {', '.join(LANGS)}")
        for phrase in (p.strip() for p in r["phrases"].split("|")):
            if not _tokens(phrase):
                raise CorpusError(f"{path}: {r['tag']} {r['lang']}: {phrase!r} has no word the reader can match")
            out.append((r["tag"], r["lang"], phrase))
    return out


def compiled(rows: Iterable[tuple[str, str, str]]) -> dict[str, Any]:
    """The vocabulary as the search model saves it: the tags, and each phrase as its tag's
    number and its words (folded; a word ending in * stands for any word it begins). The
    languages' phrases are read alike: a story is read in all of them."""
    rows = list(rows)
    tags = sorted({tag for tag, _, _ in rows})
    number = {tag: i for i, tag in enumerate(tags)}
    return {"tags": tags, "phrases": [[number[tag], _tokens(phrase)] for tag, _, phrase in rows]}


PHRASE_WORD = re.compile(r"\w+\*?")


def _tokens(phrase: str) -> list[str]:
    return PHRASE_WORD.findall(fold(phrase))


class Reader:
    def __init__(self, saved: dict[str, Any] | None):
        saved = saved or {"tags": [], "phrases": []}
        self.tags = [tuple(t.split(":", 1)) for t in saved["tags"]]
        self.exact: dict[str, list[tuple[int, list[str]]]] = {}   # a phrase by its first word…
        self.prefix: dict[str, list[tuple[int, list[str]]]] = {}  # …or its first word's beginning
        for tag, words in saved["phrases"]:
            first = words[0]
            table = self.prefix if first.endswith("*") else self.exact
            table.setdefault(first.rstrip("*"), []).append((tag, words))
        self.shortest = min((len(k) for k in self.prefix), default=1)

    def read(self, text: str) -> Story:
        """The roles, periods and acts a text tells (in any language the vocabulary has)."""
        words = WORD.findall(fold(text))
        told: set[int] = set()
        for i, word in enumerate(words):
            for tag, phrase in self._starting(word):
                if tag not in told and _follows(words, i, phrase):
                    told.add(tag)
        found: dict[str, set[str]] = {d: set() for d in DIMENSIONS}
        for tag in told:
            dimension, value = self.tags[tag]
            found[dimension].add(value)
        return Story(frozenset(found["role"]), frozenset(found["period"]), frozenset(found["act"]))

    def _starting(self, word: str) -> list[tuple[int, list[str]]]:
        """The phrases whose first word a story's word is, in the vocabulary's order."""
        out = list(self.exact.get(word, ()))
        for n in range(self.shortest, len(word) + 1):
            out.extend(self.prefix.get(word[:n], ()))
        return out


def _said(word: str, token: str) -> bool:
    return word.startswith(token[:-1]) if token.endswith("*") else word == token


def _follows(words: list[str], start: int, phrase: list[str]) -> bool:
    """Do a phrase's later words follow its first (at `start`), in order, each at most GAP
    words after the one before?"""
    at = start
    for token in phrase[1:]:
        nxt = next((j for j in range(at + 1, min(at + 2 + GAP, len(words))) if _said(words[j], token)), None)
        if nxt is None:
            return False
        at = nxt
    return True


def fit(period: str, actors: tuple[str, ...], acts: tuple[str, ...], story: Story, tuning: Tuning) -> float:
    """How well a situation's structure fits a story's, as a factor of its phrase strength: 1
    when the story tells no act or the situation defines none; else by how many of the
    situation's acts the story tells (a definition's only if the story asks what a term means),
    more when the story names its actor or its period, less when it names another seat or
    another period."""
    t = tuning
    if not story.acts or not acts:
        return 1.0
    shared = sum(1 for a in acts if a in story.acts)
    if not shared or (DEFINE in acts and DEFINE not in story.acts):
        factor = t.fit_floor
    else:
        factor = t.fit_some + (1 - t.fit_some) * shared / len(acts)
    if actors:
        if story.roles.intersection(actors):
            factor *= t.fit_actor
        elif SEATS.issuperset(actors) and story.roles & SEATS:
            factor *= t.fit_other_actor
    if period and story.periods:
        factor *= t.fit_period if period in story.periods else t.fit_other_period
    return factor


def set_aside(text: str) -> str:
    """The text without its card holdings, scores and board or table numbers."""
    for pattern in ASIDE:
        text = pattern.sub(" ", text)
    return text
