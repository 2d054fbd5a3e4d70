"""The phrasebook: what people say → the clauses that rule it.

Its entries are the situation index's situations (`kb.situations`) and any other table of
names with targets (the Laws' English titles and terms of art). A query is matched against
every phrase in the phrase's own language (its analyzer: stop words out, stems), scored as
the idf-weighted cosine of the two sets of stems: "dummy pointed at a card" meets "dummy
suggests a play | dummy points at a card" whatever the words around it.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np

from ..concordance import read_tsv
from ..library import Library
from ..situations import edition_column, load as load_situations
from .analysis import ANALYZERS, terms
from .meaning import Meaning

Key = tuple[str, str, "str | None"]  # (doc, unit, clause); no clause: the whole unit
MIN_MATCH = 0.45   # below this a phrase shares too little with the query to be evidence
VERBATIM = 0.99    # a phrase said word for word


@dataclass(frozen=True)
class Entry:
    id: str
    targets: tuple[Key, ...]   # most important first
    laws: int                  # how many of the targets are Law clauses (they come first)
    title: bool = False        # a Law's own title: said in full, it names that Law


@dataclass(frozen=True)
class Match:
    entry: Entry
    strength: float            # 0..1
    phrase: str


class Phrasebook:
    def __init__(self, entries: list[Entry], phrases: list[tuple[int, str, str]], meaning: "Meaning | None" = None):
        """`phrases`: (entry's position, language, phrase); `meaning`: their sentence vectors."""
        self.entries = entries
        self.meaning = meaning
        self.phrases = [(i, lang, text, frozenset(terms(ANALYZERS[lang], text))) for i, lang, text in phrases]
        self.langs = sorted({lang for _, lang, _, _ in self.phrases})
        counts = Counter(lang for _, lang, _, _ in self.phrases)
        df = Counter((lang, s) for _, lang, _, stems in self.phrases for s in stems)
        self.idf = {key: math.log(1 + counts[key[0]] / n) for key, n in df.items()}
        self.unknown_idf = {lang: max((v for (lg, _), v in self.idf.items() if lg == lang), default=1.0)
                            for lang in self.langs}
        self.weights = [sum(self.idf[(lang, s)] for s in stems) for _, lang, _, stems in self.phrases]
        self.by_stem: dict[tuple[str, str], list[int]] = {}
        for n, (_, lang, _, stems) in enumerate(self.phrases):
            for s in stems:
                self.by_stem.setdefault((lang, s), []).append(n)

    def __len__(self) -> int:
        return len(self.entries)

    def warm(self) -> None:
        if self.meaning is not None:
            self.meaning.similarities("warm")

    def texts(self) -> list[str]:
        """The phrases in order (the rows of its sentence vectors)."""
        return [text for _, _, text, _ in self.phrases]

    def words(self) -> set[tuple[str, str]]:
        """(language, stem) of every phrase: words the search knows even where no text has them."""
        return set(self.idf)

    def match(self, text: str, limit: int = 5) -> list[Match]:
        """The entries whose phrases the query says, strongest first (one match per entry)."""
        best: dict[int, Match] = {}
        for lang in self.langs:
            query = frozenset(terms(ANALYZERS[lang], text))
            if not query:
                continue
            q_weight = sum(self.idf.get((lang, s), self.unknown_idf[lang]) for s in query)
            common: Counter[int] = Counter()
            for s in query:
                for n in self.by_stem.get((lang, s), ()):
                    common[n] += self.idf[(lang, s)]
            for n, shared in common.items():
                strength = shared / math.sqrt(q_weight * self.weights[n])
                i = self.phrases[n][0]
                if strength >= MIN_MATCH and (i not in best or strength > best[i].strength):
                    best[i] = Match(self.entries[i], strength, self.phrases[n][2])
        if self.meaning is not None and _sentence_like(text) and max((m.strength for m in best.values()), default=0) < SURE:
            self._meant(text, best)  # words said it plainly enough: no need to read the meaning
        return sorted(best.values(), key=lambda m: (-m.strength, m.entry.id))[:limit]

    def _meant(self, text: str, best: dict[int, Match]) -> None:
        """Entries whose phrases mean what a sentence says in other words."""
        sims = self.meaning.similarities(text)
        for n in np.flatnonzero(sims >= SEMANTIC_MIN):
            i, _, phrase, _ = self.phrases[n]
            strength = SEMANTIC_WEIGHT * (float(sims[n]) - SEMANTIC_MIN) / (1 - SEMANTIC_MIN)
            if i not in best or strength > best[i].strength:
                best[i] = Match(self.entries[i], strength, phrase)


SURE = 1.01             # a word match this strong makes the meaning needless
SEMANTIC_MIN = 0.5      # cosine below which two sentences are not taken to say the same
SEMANTIC_WEIGHT = 1.0
SENTENCE_WORDS = 4      # shorter queries are names and terms: words decide


def _sentence_like(text: str) -> bool:
    return len(text.split()) >= SENTENCE_WORDS


# ---------------------------------------------------------------- the tables it is made of

def load(tables: Path, library: Library, vectors: Path | None = None) -> Phrasebook:
    """The situation index, the Laws' English titles and the English terms of art of a
    build's tables (each optional), with targets in the documents of `library`; with the
    phrases' sentence vectors when `vectors` holds them and the encoder is installed."""
    entries: list[Entry] = []
    phrases: list[tuple[int, str, str]] = []

    def add(entry: Entry, said: Iterable[tuple[str, str]]) -> None:
        phrases.extend((len(entries), lang, text) for lang, text in said if lang in ANALYZERS)
        entries.append(entry)

    for s in load_situations(tables / "situations.tsv", library):
        add(Entry(s.id, s.targets, len(s.laws)), s.phrases())
    for law, titles in _titles(tables / "law-titles.tsv"):
        targets = tuple((doc, law, law) for doc in library.laws)
        add(Entry(f"law-{law}", targets, len(targets), title=True), [(TITLES_LANG, t) for t in titles])
    for names, targets in _terms(tables / "terms-en.tsv", library):
        add(Entry(f"term-{names[0]}", targets, sum(1 for d, _, _ in targets if library.is_laws(d))),
            [(TITLES_LANG, n) for n in names])
    book = Phrasebook(entries, phrases)
    book.meaning = Meaning.open(vectors, len(phrases)) if vectors else None
    return book


TITLES_LANG = "en"  # the language of law-titles.tsv and terms-en.tsv (their wording is the WBF's)


def _titles(path: Path) -> list[tuple[str, list[str]]]:
    if not path.exists():
        return []
    return [(r["law"], [t for t in (r["en"], r["en_2007"]) if t])
            for r in read_tsv(path, ("law", "en", "en_2007", "note"))]


def _terms(path: Path, library: Library) -> list[tuple[list[str], tuple[Key, ...]]]:
    """(English names, targets): the Laws (2017 numbering) and the definition units a term names."""
    if not path.exists():
        return []
    rows = read_tsv(path, TERM_COLUMNS)
    laws = edition_column(path, TERM_COLUMNS[3], library)
    return [([n.strip() for n in r["en"].split(",") if n.strip()], tuple((laws, u, u) for u in r[TERM_COLUMNS[3]].split()))
            for r in rows]


TERM_COLUMNS = ("en", "it", "es", "laws_2017", "note")  # terms-en.tsv's header
