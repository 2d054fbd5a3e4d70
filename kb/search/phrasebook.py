"""The phrasebook: what people say → the clauses that rule it.

Its entries are the situation index's situations (`kb.situations`), the other game's own
situations (Burraco's), any other table of names with targets (the Laws' English titles and
terms of art) and the texts' own headings (a Law's, a norm's, a definition's, a Burraco
article's). Each game has its own book per language: a query is matched against the phrases
of its game only, each phrase in the phrase's own language (its analyzer: stop words out,
stems), and a word weighs what it weighs among its book's phrases ("burraco" is everywhere in
Burraco's book, rare in bridge's). A match is scored as the idf-weighted cosine of the
two sets of stems: "dummy pointed at a card" meets "dummy suggests a play | dummy points at a
card" whatever the words around it; a number in words is its digits ("otto cuori" is "8
cuori"). A longer query (a story) is also matched against all that an entry's phrasings say
together: a phrase's strength is then lifted towards the share of the query's words that some
phrasing of its entry uses, so a story told in words spread over several phrasings of one
situation still finds it.

A sentence encoder (USE multilingual v3, pure numpy) was measured as a further signal: +0.014
MRR on the held-out set but HTTP search p95 32 ms at 8 clients against a 25 ms budget, so it
is not used (it is in commit 7fbd119; the note of issue 13 has the numbers).
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np

from ..concordance import read_tsv
from ..languages import REGISTRY
from ..library import OTHER_GAME, Library
from ..situations import edition_column, load as load_situations, load_game
from ..text import fold_accents
from .analysis import ANALYZERS, STOPWORDS, WORD, terms
from .glossary import Pair
from .scoring import nonzero

Key = tuple[str, str, "str | None"]  # (doc, unit, clause); no clause: the whole unit
MIN_MATCH = 0.45   # below this a phrase shares too little with the query to be evidence
VERBATIM = 0.99    # a phrase said word for word
CANDIDATES = 200   # only the strongest phrases can hold the strongest entries
STORY_SIZE = 5     # a query of this many words (stop words aside) is also matched against whole entries…
PHRASE_SHARE = 0.5  # …and a phrase's strength is at least this share of its own plus the rest of its entry's
UNTITLED_KINDS = frozenset({"front"})  # units whose headings name no situation (a preface, a foreword)
NUMBERS = {lang.code: dict(lang.numbers) for lang in REGISTRY}


def story_size(lang: str, text: str) -> int:
    """How many different words a text says in `lang`, its stop words aside (counted before
    stemming, as the browser counts them)."""
    return len({w for w in WORD.findall(text.lower()) if fold_accents(w) not in STOPWORDS[lang]})


def stems_said(lang: str, text: str) -> tuple[str, ...]:
    """The stems a phrase or a query says in `lang`, each once, sorted (a number in words as
    its digits: "otto cuori" is "8 cuori"). Sorted, so that their weights add up in one order:
    a set's order changes with each process's string hashing, and so would the last bit of a
    sum, and with it which of two equal phrases ranks first."""
    digits = NUMBERS.get(lang, {})
    return tuple(sorted(set(terms(ANALYZERS[lang], WORD.sub(lambda m: digits.get(m[0].lower(), m[0]), text)))))


@dataclass(frozen=True)
class Entry:
    id: str
    targets: tuple[Key, ...]   # most important first
    laws: int                  # how many of the targets are Law clauses (they come first)
    title: bool = False        # a Law's own title: said in full, it names that Law
    names: tuple[tuple[str, str], ...] = ()  # a situation's name per language (the index's entries)
    lead: Key | None = None    # the clause that rules it first (a norm's, Burraco's); None: its Laws do
    other_game: bool = False   # a situation of the other game (Burraco): said only of a query about it

    def leads(self, i: int) -> bool:
        """Does target i rule first: a clause of the lead norm's unit (not of another norm of its
        document), else of the Laws?"""
        return self.targets[i][:2] == self.lead[:2] if self.lead else i < self.laws

    def name(self, lang: str | None) -> str:
        return dict(self.names).get(lang or "", self.names[0][1] if self.names else self.id)


@dataclass(frozen=True)
class Match:
    entry: Entry
    strength: float            # 0..1
    phrase: str


Book = tuple[str, bool]  # (language, of the other game?): each weighs its words among its own phrases


class Phrasebook:
    def __init__(self, entries: list[Entry], phrases: list[tuple[int, str, str]]):
        """`phrases`: (entry's position, language, phrase)."""
        self.entries = entries
        self.id_rank = np.unique([e.id for e in entries], return_inverse=True)[1]  # entries in id order, for ties
        in_books = sorted(phrases, key=lambda p: (entries[p[0]].other_game, p[1]))  # stable: a book's side by side
        self.phrases = [(i, lang, text, stems_said(lang, text)) for i, lang, text in in_books]
        books: list[Book] = [(lang, entries[i].other_game) for i, lang, _, _ in self.phrases]
        self.span = {b: (books.index(b), len(books) - books[::-1].index(b)) for b in dict.fromkeys(books)}
        counts = Counter(books)
        df = Counter((b, s) for b, (_, _, _, stems) in zip(books, self.phrases) for s in stems)
        self.idf = {key: math.log(1 + counts[key[0]] / n) for key, n in df.items()}
        self.unknown_idf = {b: max((v for (k, _), v in self.idf.items() if k == b), default=1.0) for b in self.span}
        self.weights = np.array([sum(self.idf[(b, s)] for s in p[3]) for b, p in zip(books, self.phrases)])
        self.entry_of = np.array([i for i, _, _, _ in self.phrases], dtype=np.intp)
        postings: dict[tuple[Book, str], list[int]] = {}
        uses: dict[tuple[Book, str], set[int]] = {}  # the entries some phrasing of which uses a stem
        for n, (b, (i, _, _, stems)) in enumerate(zip(books, self.phrases)):
            for s in stems:
                postings.setdefault((b, s), []).append(n - self.span[b][0])  # within its book
                uses.setdefault((b, s), set()).add(i)
        self.by_stem = {key: np.array(ns, dtype=np.intp) for key, ns in postings.items()}
        self.entries_using = {key: np.array(sorted(ns), dtype=np.intp) for key, ns in uses.items()}

    def __len__(self) -> int:
        return len(self.entries)

    def words(self, other_game: bool | None = None) -> set[tuple[str, str]]:
        """(language, stem) of every phrase (of one game's, when asked): words the search knows
        even where no text has them."""
        return {(lang, s) for (lang, game), s in self.idf if other_game in (None, game)}

    def match(self, text: str, limit: int = 5, other_game: bool = False) -> list[Match]:
        """The entries of the query's game whose phrases it says, strongest first (one match
        per entry)."""
        found, strengths = [], []
        for book, (start, end) in self.span.items():
            if book[1] != other_game:
                continue
            story = story_size(book[0], text) >= STORY_SIZE
            said, strength = self._said_in(book, stems_said(book[0], text), story)
            strong = strength >= MIN_MATCH
            found.append(said[strong] + start)
            strengths.append(strength[strong])
        if not found:  # no phrases (of this game)
            return []
        return self._best(np.concatenate(found), np.concatenate(strengths), limit)

    def _said_in(self, book: Book, query: tuple[str, ...], story: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """The phrases of a book (positions in its span) that share a stem with the query, and
        for each the idf-weighted cosine of its stems and the query's; for a `story`, at least
        its share of what its whole entry says."""
        start, end = self.span[book]
        if not query:
            return np.zeros(0, dtype=np.intp), np.zeros(0)
        shared = self._idf_of(query, book, self.by_stem, end - start)
        said = nonzero(shared)  # the rest share nothing: a cosine of 0
        q_weight = sum(self.idf.get((book, s), self.unknown_idf[book]) for s in query)
        cosine = shared[said] / np.sqrt(q_weight * self.weights[start + said])
        if not story:
            return said, cosine
        # per entry: the share of the query some phrasing of it says
        covered = self._idf_of(query, book, self.entries_using, len(self.entries)) / q_weight
        told = PHRASE_SHARE * cosine + (1 - PHRASE_SHARE) * covered[self.entry_of[start + said]]
        return said, np.maximum(cosine, told)

    def _idf_of(self, query: tuple[str, ...], book: Book, postings: dict[tuple[Book, str], np.ndarray],
                size: int) -> np.ndarray:
        """Per row of `postings` (phrases, or entries), the idf of the query's stems it has."""
        out = np.zeros(size)
        for s in query:
            found = postings.get((book, s))
            if found is not None:
                out[found] += self.idf[(book, s)]
        return out

    def _best(self, found: np.ndarray, strength: np.ndarray, limit: int) -> list[Match]:
        """The strongest phrase of each entry, the strongest entries first, ties to the entry
        whose id sorts first (`found`: phrase numbers in ascending order, `strength` theirs)."""
        if len(found) > CANDIDATES:
            strongest = np.argpartition(-strength, CANDIDATES)[:CANDIDATES]
            found, strength = found[strongest], strength[strongest]
        order = np.lexsort((found, -strength))
        found, strength = found[order], strength[order]
        entries = self.entry_of[found]
        first = np.unique(entries, return_index=True)[1]  # each entry's strongest phrase
        top = first[np.lexsort((found[first], self.id_rank[entries[first]], -strength[first]))][:limit]
        return [Match(self.entries[i], value, self.phrases[n][2])
                for i, value, n in zip(entries[top].tolist(), strength[top].tolist(), found[top].tolist())]


# ---------------------------------------------------------------- the tables it is made of

def load(tables: Path, library: Library, documents: Iterable[dict] = ()) -> Phrasebook:
    """The situation index, the other game's situations, the Laws' English titles and the
    English terms of art of a build's tables (each optional), with targets in the documents
    of `library`, and the headings of the export's `documents`."""
    entries: list[Entry] = []
    phrases: list[tuple[int, str, str]] = []

    def add(entry: Entry, ways: Iterable[tuple[str, str]]) -> None:
        phrases.extend((len(entries), lang, text) for lang, text in ways if lang in ANALYZERS)
        entries.append(entry)

    for s in load_situations(tables / "situations.tsv", library):
        add(Entry(s.id, s.targets, len(s.laws), names=tuple((lang, s.name(lang)) for lang, _ in s.says), lead=s.lead),
            s.phrases())
    for s in load_game(tables / GAME_TABLE, library):  # the other game's: its own code rules it
        add(Entry(s.id, s.targets, 0, lead=s.targets[0], other_game=True), s.phrases())
    for law, titles in _titles(tables / "law-titles.tsv"):
        targets = tuple((doc, law, law) for doc in library.laws)
        add(Entry(f"law-{law}", targets, len(targets), title=True), [(TITLES_LANG, t) for t in titles])
    for names, targets in _terms(tables / "terms-en.tsv", library):
        add(Entry(f"term-{names[0]}", targets, sum(1 for d, _, _ in targets if library.is_laws(d))),
            [(TITLES_LANG, n) for n in names])
    for targets, headings in _headings(documents, library).items():
        laws = sum(1 for d, _, _ in targets if library.is_laws(d))
        add(Entry(f"heading-{targets[0][0]}-{targets[0][1]}", targets, laws, lead=None if laws else targets[0],
                  other_game=targets[0][0] in library.ids(OTHER_GAME)), headings)  # a norm's heading: the norm first
    return Phrasebook(entries, phrases)


def _headings(documents: Iterable[dict], library: Library) -> dict[tuple[Key, ...], list[tuple[str, str]]]:
    """Each unit's heading in its text's language → the unit (a Law's: that Law in every
    edition, as its English title leads to): "attacco fuori turno dichiarante" says Law 55's
    "Attacco fuori turno del dichiarante"."""
    present = {(d["id"], u["id"]) for d in documents for u in d["units"]}
    out: dict[tuple[Key, ...], list[tuple[str, str]]] = {}
    for d in documents:
        for u in (u for u in d["units"] if u.get("title") and u["kind"] not in UNTITLED_KINDS):
            law = library.is_laws(d["id"]) and u["kind"] == "article"
            docs = [e for e in library.laws if (e, u["id"]) in present] if law else [d["id"]]
            out.setdefault(tuple((e, u["id"], u["id"]) for e in docs), []).append((d["lang"], u["title"]))
    return out


GAME_TABLE = "burraco-situations.tsv"  # the other game's situations, as its players say them
TITLE_COLUMNS = ("law", "en", "en_2007", "note")      # law-titles.tsv's header: the WBF's English titles
TERM_COLUMNS = ("en", "it", "es", "laws_2017", "note")  # terms-en.tsv's header: its names are the first column's
TITLES_LANG = TITLE_COLUMNS[1]


def _titles(path: Path) -> list[tuple[str, list[str]]]:
    if not path.exists():
        return []
    law, title, older, _ = TITLE_COLUMNS
    return [(r[law], [t for t in (r[title], r[older]) if t]) for r in read_tsv(path, TITLE_COLUMNS)]


def term_pairs(tables: Path) -> list[Pair]:
    """The English terms of art as glossary pairs: an English name in a query also searches
    the first Italian and Spanish words the texts print for it ("penalty card" → "carta
    penalizzata", "carta penalizada")."""
    path = tables / "terms-en.tsv"
    if not path.exists():
        return []
    en, it, es = TERM_COLUMNS[:3]
    return [Pair(_first(r[it]), _first(r[es]), tuple(n.strip() for n in r[en].split(",") if n.strip()), "")
            for r in read_tsv(path, TERM_COLUMNS) if r[it]]


def _first(names: str) -> str:
    return names.split(",")[0].strip()


def _terms(path: Path, library: Library) -> list[tuple[list[str], tuple[Key, ...]]]:
    """(English names, targets): the Laws (2017 numbering) and the definition units a term names."""
    if not path.exists():
        return []
    rows = read_tsv(path, TERM_COLUMNS)
    laws = edition_column(path, TERM_COLUMNS[3], library)
    return [([n.strip() for n in r[TITLES_LANG].split(",") if n.strip()],
             tuple((laws, u, u) for u in r[TERM_COLUMNS[3]].split())) for r in rows]

