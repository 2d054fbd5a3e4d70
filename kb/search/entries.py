"""The phrasebook's entries, read from a build's tables: what people say → the clauses that rule it.

Its entries are the situation index's situations (`kb.corpus.situations`: domain tables, reviewed as
law), said in their names and in the phrasings search is tuned with (tuning/phrasings.tsv), the
other game's own situations (Burraco's), the Laws' English titles (law-titles.tsv) and the
English terms of art (tuning/terms-en.tsv), and the texts' own headings (a Law's, a norm's, a
definition's, a Burraco article's). The compiler (`kb.search.compiler`) makes each game's book
per language of them.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from ..corpus.tables import read_tsv
from ..corpus.manifest import CorpusError
from ..corpus.library import OTHER_GAME, Library
from ..corpus.situations import edition_column, load as load_situations, load_game, page_of, pages
from ..corpus.languages import LANGS
from ..records.built import BuiltDocument
from .glossary import Pair

Key = tuple[str, str, "str | None"]  # (doc, unit, clause); no clause: the whole unit
UNTITLED_KINDS = frozenset({"front"})  # units whose headings name no situation (a preface, a foreword)
GAME_TABLE = "burraco-situations.tsv"  # the other game's situations
PHRASINGS = "tuning/phrasings.tsv"     # the ways of saying a situation besides its names: tuning
TERMS_TABLE = "tuning/terms-en.tsv"    # English terms of art: tuning
PHRASING_COLUMNS = ("situation", "lang", "phrase")
TITLE_COLUMNS = ("law", "en", "en_2007", "note")      # law-titles.tsv's header: the WBF's English titles
TERM_COLUMNS = ("en", "it", "es", "laws_2017", "note")  # terms-en.tsv's header: its names are the first column's
TITLES_LANG = TITLE_COLUMNS[1]


@dataclass(frozen=True)
class Entry:
    id: str
    targets: tuple[Key, ...]   # most important first
    laws: int                  # how many of the targets are Law clauses (they come first)
    title: bool = False        # a Law's own title: said in full, it names that Law
    names: tuple[tuple[str, str], ...] = ()  # a situation's name per language (the index's entries)
    lead: Key | None = None    # the clause that rules it first (a norm's, Burraco's); None: its Laws do
    other_game: bool = False   # a situation of the other game (Burraco): said only of a query about it
    period: str = ""           # a situation's structure (kb.situations): when it happens…
    actors: tuple[str, ...] = ()  # …who acts…
    acts: tuple[str, ...] = ()    # …and what is done
    page: str = ""             # the situation index's page that holds it (`kb.corpus.situations.page_of`)

    def leads(self, i: int) -> bool:
        """Does target i rule first: a clause of the lead norm's unit (not of another norm of its
        document), else of the Laws?"""
        return self.targets[i][:2] == self.lead[:2] if self.lead else i < self.laws


Phrase = tuple[int, str, str]  # (entry's position, language, phrase)


def load(tables: Path, library: Library, documents: Iterable[BuiltDocument] = ()) -> tuple[list[Entry], list[Phrase]]:
    """The situation index, the other game's situations, the Laws' English titles and the
    English terms of art of a build's tables (each optional), with targets in the documents
    of `library`, and the headings of the export's `documents`."""
    entries: list[Entry] = []
    phrases: list[Phrase] = []

    def add(entry: Entry, ways: Iterable[tuple[str, str]]) -> None:
        phrases.extend((len(entries), lang, text) for lang, text in ways if lang in LANGS)
        entries.append(entry)

    situations = load_situations(tables / "situations.tsv", library)
    games = load_game(tables / GAME_TABLE, library)
    tuned = phrasings(tables, {s.id for s in (*situations, *games)})
    on_page = page_of(pages(situations, []))  # a page's id does not hang on the order of the periods
    for s in situations:
        add(Entry(s.id, s.targets, len(s.laws), names=tuple((lang, s.name(lang)) for lang, _ in s.says), lead=s.lead,
                  period=s.period, actors=s.actors, acts=s.acts, page=on_page[s.id]),
            [*s.phrases(), *tuned.get(s.id, ())])
    for s in games:  # the other game's: its own code rules it
        add(Entry(s.id, s.targets, 0, lead=s.targets[0], other_game=True), [*s.phrases(), *tuned.get(s.id, ())])
    for law, titles in _titles(tables / "law-titles.tsv"):
        targets = tuple((doc, law, law) for doc in library.laws)
        add(Entry(f"law-{law}", targets, len(targets), title=True), [(TITLES_LANG, t) for t in titles])
    for names, targets in _terms(tables / TERMS_TABLE, library):
        add(Entry(f"term-{names[0]}", targets, sum(1 for d, _, _ in targets if library.is_laws(d))),
            [(TITLES_LANG, n) for n in names])
    for targets, headings in _headings(documents, library).items():
        laws = sum(1 for d, _, _ in targets if library.is_laws(d))
        add(Entry(f"heading-{targets[0][0]}-{targets[0][1]}", targets, laws, lead=None if laws else targets[0],
                  other_game=targets[0][0] in library.ids(OTHER_GAME)), headings)  # a norm's heading: the norm first
    return entries, phrases


def phrasings(tables: Path, situations: set[str]) -> dict[str, list[tuple[str, str]]]:
    """tuning/phrasings.tsv: per situation, its (language, phrase) in the table's order; none when
    the corpus has no such table. A phrasing of a situation no table has, or in a language the
    knowledge base cannot read, is a `CorpusError`."""
    path = tables / PHRASINGS
    if not path.exists():
        return {}
    out: dict[str, list[tuple[str, str]]] = {}
    for r in read_tsv(path, PHRASING_COLUMNS):
        if r["situation"] not in situations or r["lang"] not in LANGS or not r["phrase"].strip():
            raise CorpusError(f"{path}: {r['situation']} {r['lang']} {r['phrase']!r}: no such situation, "
                              f"language or phrase (situations are the ids of the situation tables; "
                              f"languages: {', '.join(LANGS)})")
        out.setdefault(r["situation"], []).append((r["lang"], r["phrase"].strip()))
    return out


def _headings(documents: Iterable[BuiltDocument], library: Library) -> dict[tuple[Key, ...], list[tuple[str, str]]]:
    """Each unit's heading in its text's language → the unit (a Law's: that Law in every
    edition, as its English title leads to): "attacco fuori turno dichiarante" says Law 55's
    "Attacco fuori turno del dichiarante"."""
    documents = list(documents)
    present = {(d.id, u.id) for d in documents for u in d.units}
    out: dict[tuple[Key, ...], list[tuple[str, str]]] = {}
    for d in documents:
        for u in (u for u in d.units if u.title and u.kind not in UNTITLED_KINDS):
            docs = [e for e in library.laws if (e, u.id) in present] if u.numbered else [d.id]
            out.setdefault(tuple((e, u.id, u.id) for e in docs), []).append((d.lang, u.title))
    return out


def _titles(path: Path) -> list[tuple[str, list[str]]]:
    if not path.exists():
        return []
    law, title, older, _ = TITLE_COLUMNS
    return [(r[law], [t for t in (r[title], r[older]) if t]) for r in read_tsv(path, TITLE_COLUMNS)]


def term_pairs(tables: Path) -> list[Pair]:
    """The English terms of art as glossary pairs: an English name in a query also searches
    the first Italian and Spanish words the texts print for it ("penalty card" → "carta
    penalizzata", "carta penalizada")."""
    path = tables / TERMS_TABLE
    if not path.exists():
        return []
    en, it, es = TERM_COLUMNS[:3]
    return [Pair(_first(r[it]), _first(r[es]), tuple(n.strip() for n in r[en].split(",") if n.strip()))
            for r in read_tsv(path, TERM_COLUMNS) if r[it]]


def _first(names: str) -> str:
    return names.split(",")[0].strip()


def _terms(path: Path, library: Library) -> list[tuple[list[str], tuple[Key, ...]]]:
    """(English names, targets): the Laws (2017 numbering) and the definition units a term names."""
    if not path.exists():
        return []
    rows = read_tsv(path, TERM_COLUMNS)
    laws = edition_column(path, TERM_COLUMNS[3], library)
    out = []
    for r in rows:
        names = [n.strip() for n in r[TITLES_LANG].split(",") if n.strip()]
        if not names:
            raise CorpusError(f"{path}: a row with no English name (its it column: {r[TERM_COLUMNS[1]]!r})")
        out.append((names, tuple((laws, u, u) for u in r[TERM_COLUMNS[3]].split())))
    return out
