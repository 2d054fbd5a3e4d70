"""The situation index (corpus/situations.tsv): what directors meet at the table, as people say
it in each language, with the clauses that rule it in each edition of the Laws and the period of
the board it belongs to. Read by the /situations page, the unit pages and the search. The other
game's situations (corpus/burraco-situations.tsv, `load_game`) feed the search alone.

A situation is named, for a reader, in the reader's interface language: by that language's
column when the table has one (the texts' languages, which search reads too), else by the name
that language's readers' table gives it (`notes/<lang>/situations.tsv`: id, name; kb.corpus.tables),
else in English, else in its first language."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path

from ..records.clauseid import article_of
from .tables import NOTES_LANG, notes, read_tsv
from .manifest import CorpusError, read_text
from .languages import BY_CODE
from .library import LAWS, OTHER_GAME, Library

FIXED = ("id", "period", "actors", "acts")  # first columns; then one per language, one per edition, then:
KEY = FIXED[:1]  # a situation's id names its row (its names in other interface languages, kb.corpus.tables, by it)
TRAILING = ("also", "lead", "note")
EDITION_COLUMN = re.compile(r"laws_(\w+)")
ACTORS = frozenset({"declarer", "dummy", "defender", "partner", "opponent", "director", "team"})

Key = tuple[str, str, "str | None"]  # (doc, unit, clause); no clause: the whole unit


@dataclass(frozen=True)
class Situation:
    id: str
    period: str
    says: tuple[tuple[str, tuple[str, ...]], ...]  # (language, its phrases; the first names the entry)
    laws: tuple[Key, ...]   # the ruling Law clauses, edition by edition, most important first
    also: tuple[Key, ...]   # norms and time references that rule or time it
    note: str
    lead: Key | None = None  # the norm that fixes the ruling in Italy; None: the Law itself
    actors: tuple[str, ...] = ()  # who does the act that defines it (none: any player)
    acts: tuple[str, ...] = ()    # the acts and facts that define it
    names: tuple[tuple[str, str], ...] = ()  # (interface language, its name) where no column says it

    def name(self, lang: str) -> str:
        return self.phrases_in(lang)[0]

    def phrases_in(self, lang: str) -> tuple[str, ...]:
        """Its phrases for a reader of `lang`, its name first: that language's column, else the
        name its readers' table gives it, else the English ones, else its first language's."""
        said, named = dict(self.says), dict(self.names)
        return said.get(lang) or ((named[lang],) if lang in named else ()) or said.get(NOTES_LANG) or self.says[0][1]

    def phrases(self) -> list[tuple[str, str]]:
        """(language, phrase) for every way of saying it."""
        return [(lang, p) for lang, phrases in self.says for p in phrases]

    @property
    def targets(self) -> tuple[Key, ...]:
        return self.laws + self.also


def load(path: Path, library: Library) -> tuple[Situation, ...]:
    """The index, or none when the corpus has no such table; a malformed one is a `CorpusError`."""
    if not path.exists():
        return ()
    header = _header(path)
    langs, editions = _columns(path, header, library)
    rows = read_tsv(path, tuple(header))  # its checks: every row has every column
    named = notes(path, rows, KEY, "name")
    out = []
    for row in rows:
        says = _says(row, langs)
        laws = tuple((doc, article_of(cid), cid) for col, doc in editions for cid in row[col].split())
        also = tuple(_also(row["also"]))
        lead = _also(row["lead"])
        if not ACTORS.issuperset(row["actors"].split()):
            raise CorpusError(f"{path}: {row['id']}: actors are {' '.join(sorted(ACTORS))}, not {row['actors']!r}")
        if lead and lead[0] not in also:
            raise CorpusError(f"{path}: {row['id']}: its lead {row['lead']} is not one of its `also` targets")
        if lead:  # the norm that rules first comes first of its document's targets
            also = tuple(sorted(also, key=lambda t: t != lead[0]))
        out.append(Situation(row["id"], row["period"], says, laws, also, row["note"], lead[0] if lead else None,
                             tuple(row["actors"].split()), tuple(row["acts"].split()), named.get((row["id"],), ())))
    return tuple(out)


PAGE_SITUATIONS = 60  # about as many situations as a page a phone holds (each some 0.6 KB of HTML)


@dataclass(frozen=True)
class Page:
    """A page of the index: a period of the board, its situations by the Law that rules each
    first; a period with more than a page holds is cut in runs of Laws (`auction`, `auction-2`…)."""
    id: str
    period: str
    parts: int                         # how many pages its period takes
    situations: tuple[Situation, ...]  # by ruling Law, in the index's order within a Law

    @property
    def laws(self) -> tuple[str, str]:
        """The first and the last Law that rules first a situation of this page."""
        return str(ruling_law(self.situations[0])), str(ruling_law(self.situations[-1]))


def ruling_law(s: Situation) -> int:
    """The number of the Law that rules a situation first: its first clause's (every situation
    has one in the Laws in force, tests/corpus/test_situations.py checks)."""
    return int(s.laws[0][1])


def pages(situations: tuple[Situation, ...], periods: list[str]) -> tuple[Page, ...]:
    """The index's pages, period by period in the board's order (`periods`; a period it does not
    name comes after): the same pages, and so the same addresses, in every language."""
    order = {p: i for i, p in enumerate(periods)}
    by_period: dict[str, list[Situation]] = {}
    for s in sorted(situations, key=lambda s: order.get(s.period, len(order))):
        by_period.setdefault(s.period, []).append(s)
    return tuple(page for period, ss in by_period.items() for page in _period_pages(period, ss))


def _period_pages(period: str, situations: list[Situation]) -> list[Page]:
    runs = _by_law(situations)
    parts = _cut(runs, math.ceil(len(situations) / PAGE_SITUATIONS))
    return [Page(period if i == 1 else f"{period}-{i}", period, len(parts), tuple(part))
            for i, part in enumerate(parts, 1)]


def _by_law(situations: list[Situation]) -> list[list[Situation]]:
    """The situations in runs, one per ruling Law, by its number."""
    runs: dict[int, list[Situation]] = {}
    for s in sorted(situations, key=ruling_law):
        runs.setdefault(ruling_law(s), []).append(s)
    return list(runs.values())


def _cut(runs: list[list[Situation]], n: int) -> list[list[Situation]]:
    """The runs in (at most) n pages, each cut between two Laws where an even share ends."""
    ends = list(accumulate(len(r) for r in runs))
    cuts = sorted({min(range(1, len(runs)), key=lambda j: abs(ends[j - 1] - ends[-1] * i / n))
                   for i in range(1, n)} if len(runs) > 1 else set())
    return [[s for run in runs[a:b] for s in run] for a, b in zip([0, *cuts], [*cuts, len(runs)])]


def page_of(index: tuple[Page, ...]) -> dict[str, str]:
    """Each situation's page."""
    return {s.id: page.id for page in index for s in page.situations}


GAME_FIXED, GAME_TRAILING = ("id",), ("targets", "note")  # a game's own table: no periods, no editions


def load_game(path: Path, library: Library) -> tuple[Situation, ...]:
    """The situations of the other game (the manifest's kind `code`: Burraco), which has one
    code and no editions: an id, a column per language, the ruling clauses in that code
    (`it-burraco:37#37-p2`, most important first) and a note; none when the corpus has no
    such table. A malformed one is a `CorpusError`: a bad header, an empty or repeated id, a
    row that says nothing, a target outside the other game's code."""
    if not path.exists():
        return ()
    header = _header(path)
    langs = header[len(GAME_FIXED):-len(GAME_TRAILING)]
    if (tuple(header[:len(GAME_FIXED)]) != GAME_FIXED or tuple(header[-len(GAME_TRAILING):]) != GAME_TRAILING
            or not langs or len(set(langs)) < len(langs) or any(c not in BY_CODE for c in langs)):
        raise CorpusError(f"{path}: header must be {' '.join(GAME_FIXED)} <languages> {' '.join(GAME_TRAILING)}")
    codes, out, seen = library.ids(OTHER_GAME), [], set()
    for row in read_tsv(path, tuple(header)):
        targets, says = tuple(_also(row["targets"])), _says(row, langs)
        why = _game_row_problem(row, targets, says, codes, seen)
        if why:
            raise CorpusError(f"{path}: row {row['id'] or '(no id)'}: {why}")
        seen.add(row["id"])
        out.append(Situation(row["id"], "", says, (), targets, row["note"]))
    return tuple(out)


def _game_row_problem(row: dict[str, str], targets: tuple[Key, ...], says: tuple, codes: tuple[str, ...],
                      seen: set[str]) -> str | None:
    """What is wrong with a row of the other game's table, if anything."""
    wrong = [ref for ref, (doc, unit, _) in zip(row["targets"].split(), targets) if doc not in codes or not unit]
    if wrong:
        return f"targets {' '.join(wrong)} are not in the other game's code ({', '.join(codes)})"
    if not row["id"] or row["id"] in seen or not targets or not any(phrases for _, phrases in says):
        return "needs an id of its own, targets and phrases"
    return None


def _says(row: dict[str, str], langs: list[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Per language column, its phrases (separated by `|`), the entry's name first."""
    return tuple((lang, tuple(p.strip() for p in row[lang].split("|") if p.strip())) for lang in langs)


def _header(path: Path) -> list[str]:
    """The table's header: its first line that is no comment."""
    first = next((ln for ln in read_text(path).splitlines() if ln and not ln.startswith("#")), "")
    return first.split("\t")


def _columns(path: Path, header: list[str], library: Library) -> tuple[list[str], list[tuple[str, str]]]:
    """The language columns (registry codes) and the edition columns (`laws_2017` → that Laws document)."""
    middle = header[len(FIXED):-len(TRAILING)]
    if tuple(header[:len(FIXED)]) != FIXED or tuple(header[-len(TRAILING):]) != TRAILING:
        raise CorpusError(f"{path}: header must be {' '.join(FIXED)} <languages> <laws_EDITION…> {' '.join(TRAILING)}")
    langs = [c for c in middle if c in BY_CODE]
    return langs, [(c, edition_column(path, c, library)) for c in middle[len(langs):]]


def edition_column(path: Path, column: str, library: Library) -> str:
    """The Laws document a `laws_EDITION` column's clause ids are numbered in."""
    m = EDITION_COLUMN.fullmatch(column)
    doc = next((e.id for e in library.entries if e.kind == LAWS and m and e.edition == m[1]), None)
    if doc is None:
        raise CorpusError(f"{path}: column {column!r} names no edition of the Laws in the manifest")
    return doc


def _also(cell: str) -> list[Key]:
    """`it-norms:8#8-3` → (it-norms, 8, 8-3); `it-timeref:appello` → (it-timeref, appello, None)."""
    out = []
    for ref in cell.split():
        doc, _, rest = ref.partition(":")
        unit, _, clause = rest.partition("#")
        out.append((doc, unit, clause or None))
    return out
