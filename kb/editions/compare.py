"""The compare view of Law n (DESIGN §6): two editions side by side, paired by their concordance alone.

Written here in the words of the first concordance's pair, Italian 2017 (its `newer` column)
beside Spanish 2007 (`older`); any pair with a concordance of its own is paired by it the same
way, a clause its table names no row for standing alone (never paired by an identical id).
Editions of one language numbered alike (a later Italian edition) are paired by an empty table
and identical ids (`by_ids`): a pair whose contents differ is `changed`.

The concordance says where each 2007 (Spanish) clause stands in 2017: the most
specific row whose `es` is an ancestor-or-self of it applies, and `same`/`changed`
rows carry sub-clauses across by identical sub-ids when that 2017 clause exists
(`kb.editions.concordance`). The compare rows of Law n invert that mapping for the article:

- every Spanish clause of Law n is shown once: beside the first clause of Law n
  it maps to, or in a row of its own (empty Italian cell) when the concordance
  sends it to another article or drops it;
- every Italian clause of Law n is shown once; several Spanish clauses mapped to
  it follow in consecutive rows, the Italian cell shown on the first;
- an Italian clause with no Spanish clause beside it points to the Spanish clause
  that maps to it from elsewhere (a split's other half, another article), or to the
  Spanish clause whose text holds it (`Pairing.holder`: IT 45D1 is inside ES 45D,
  which has no 45D1); failing both it is new in 2017;
- the relation and note of a row are those of the concordance row that governs it,
  except that a `changed` row speaks for the pair it names only: a sub-clause it
  carries across by identical sub-ids (or a 2017 clause its 2007 clause holds) is
  `same`, without the section's note, unless a row of its own says otherwise (2017
  adds 64B8: 64B1-B7 are the same).

Rows follow the Italian order; a Spanish-only row comes right after the row of
the Spanish clause before it. Rows with no content in either edition (an article
with no preamble, an implied number) are left out.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable

from ..records.built import BuiltClause
from ..records.clauseid import article_of
from .concordance import CARRY_SUB_IDS, Concordance, Row, ancestors, carry



@dataclass(frozen=True)
class CompareRow:
    """One row of the compare view. `new`/`old` is the pair of clauses the row stands for (the
    newer edition's, the older's); a cell whose `show_*` is False holds a clause shown in
    another row of the page."""

    new: str | None
    old: str | None
    relation: str
    row: Row | None = None
    show_new: bool = True
    show_old: bool = True
    elsewhere: tuple[str, ...] = ()  # the other edition's clauses named in the note

    @property
    def note(self) -> str:
        return self.row.note if self.row else ""

    @property
    def notes(self) -> tuple[tuple[str, str], ...]:
        """The note in each language it is written in."""
        return self.row.notes if self.row else ()

    def marks(self, newer: bool) -> tuple[str, ...]:
        """The words of the newer (or older) clause's text that carry the change."""
        return self.row.marks[1 if newer else 0] if self.row else ()


def has_content(c: BuiltClause) -> bool:
    """Whether a clause has anything to read: text, a title, a table or a note."""
    return bool(c.text.strip() or c.title or c.tables or c.notes)


class Pairing:
    """The concordance applied to the clauses of both editions."""

    def __init__(self, concordance: Concordance, it_ids: Iterable[str], es_ids: Iterable[str],
                 differs: Callable[[str, str], bool] | None = None):
        """`it_ids`/`es_ids`: the newer and the older edition's clauses (the concordance's
        columns); `differs` (editions numbered alike, paired by identical ids, no table):
        whether a pair's contents differ."""
        self.concordance = concordance
        self.it_ids = frozenset(it_ids)
        self.es_ids = frozenset(es_ids)
        self.differs = differs
        self.added, self.dropped = concordance.added, concordance.dropped  # a clause only one of them has
        self.targets = {es: self.place(es) for es in sorted(self.es_ids)}
        self.sources: dict[str, list[tuple[str, Row | None]]] = {}
        for es, found in self.targets.items():
            for it, row in found:
                self.sources.setdefault(it, []).append((es, row))

    def place(self, es: str) -> list[tuple[str, Row | None]]:
        """The 2017 clauses a 2007 clause maps to, in table order, each with its row
        (none: dropped in 2017; several: split). With no row, an identical id for editions
        numbered alike; none across a concordance (a clause its table forgets stands alone)."""
        found = self.concordance.rows_for(es)
        if found is None:
            return [(es, None)] if self.differs and es in self.it_ids else []
        rows, below = found
        out: dict[str, Row] = {}
        for r in rows:
            if r.newer:
                out.setdefault(carry(r, below, self.it_ids.__contains__), r)
        return list(out.items())

    def holder(self, it: str) -> tuple[str | None, Row | None]:
        """For a 2017 clause no 2007 clause maps to: the 2007 clause whose text holds
        it, with the row that says so — a `same`/`changed` row of its nearest named
        ancestor, read backwards by identical sub-ids, stopping at the first 2007 clause
        that exists (IT 20F5b(i) is inside ES 20F5b). Else (None, the `new-in-2017` row
        naming it or an ancestor, if any)."""
        for anc in ancestors(it):
            rows = self.concordance.by_newer.get(anc, [])
            new = next((r for r in rows if r.relation == self.added), None)
            if new is not None:
                return None, new
            if anc == it or not rows:
                continue
            for r in rows:
                if r.older and r.relation in CARRY_SUB_IDS and (es := self._holding(r, it[len(anc):])):
                    return es, r
            return None, None
        return None, None

    def _holding(self, row: Row, below: str) -> str | None:
        """The nearest existing 2007 clause at or above `row.older + below`, if `row` governs it."""
        for es in ancestors(row.older + below):
            if es in self.es_ids:
                governing = self.concordance.rows_for(es)
                return es if governing and row in governing[0] else None
            if es == row.older:
                break
        return None

    def law_rows(self, n: str, it_clauses: list[BuiltClause], es_clauses: list[BuiltClause]) -> list[CompareRow]:
        """The compare rows of Law n, from its clauses in each edition (export order)."""
        shown = {("it", c.id) for c in it_clauses if has_content(c)}
        shown |= {("es", c.id) for c in es_clauses if has_content(c)}
        es_order = [c.id for c in es_clauses]
        beside, alone = self._beside(n, es_order)
        rows: list[CompareRow] = []
        for c in it_clauses:
            rows += self._italian_rows(n, c.id, beside.get(c.id, []), shown)
        for es in alone:
            if ("es", es) in shown:
                rows.insert(_after_previous(rows, es, es_order), self._spanish_row(n, es))
        return [self._compared(r) for r in rows]

    def _compared(self, r: CompareRow) -> CompareRow:
        """Editions paired by ids: a pair whose contents differ is `changed`."""
        if self.differs and r.relation == "same" and r.new and r.old and self.differs(r.new, r.old):
            return replace(r, relation="changed")
        return r

    def _beside(self, n: str, es_order: list[str]) -> tuple[dict[str, list[tuple[str, Row | None]]], list[str]]:
        """Each Spanish clause of Law n placed beside the first of its 2017 clauses in
        Law n (by Italian clause), and those that map to none there."""
        beside: dict[str, list[tuple[str, Row | None]]] = {}
        alone = []
        for es in es_order:
            here = [(it, row) for it, row in self.targets.get(es, []) if article_of(it) == n]
            if here:
                beside.setdefault(here[0][0], []).append((es, here[0][1]))
            else:
                alone.append(es)
        return beside, alone

    def _italian_rows(self, n: str, it: str, group: list[tuple[str, Row | None]],
                      shown: set[tuple[str, str]]) -> list[CompareRow]:
        """The rows of one Italian clause: its Spanish clauses, or one row pointing to
        where its 2007 text is, or saying it is new in 2017."""
        mine = {es for es, _ in group}
        elsewhere = tuple(es for es, _ in self.sources.get(it, []) if es not in mine)
        kept = [(es, row) for es, row in group if ("es", es) in shown]
        if group and not kept and ("it", it) in shown:
            kept = group[:1]
        if kept:
            return [_governed(it, es, row, show_new=i == 0, elsewhere=elsewhere if i == 0 else ())
                    for i, (es, row) in enumerate(kept)]
        if ("it", it) not in shown:
            return []
        return [self._unpaired(n, it, elsewhere)]

    def _unpaired(self, n: str, it: str, elsewhere: tuple[str, ...]) -> CompareRow:
        """An Italian clause with no Spanish clause beside it."""
        sources = self.sources.get(it, [])
        here = [(es, row) for es, row in sources if article_of(es) == n]
        if here:
            es, row = here[0]
            return _governed(it, es, row, show_old=False, elsewhere=tuple(e for e in elsewhere if e != es))
        if sources:
            es, row = sources[0]
            return replace(_governed(it, es, row), old=None, elsewhere=elsewhere)
        es, row = self.holder(it)
        if es is None:
            return CompareRow(it, None, self.added, row)
        if article_of(es) == n:
            return _governed(it, es, row, show_old=False)
        return replace(_governed(it, es, row), old=None, elsewhere=(es,))

    def _spanish_row(self, n: str, es: str) -> CompareRow:
        """A Spanish clause that maps to nothing in Law n: where it went, or dropped."""
        targets = self.targets.get(es, [])
        if targets:
            it, row = targets[0]
            return replace(_governed(it, es, row), new=None, elsewhere=tuple(it for it, _ in targets))
        found = self.concordance.rows_for(es)
        return CompareRow(None, es, self.dropped, found[0][0] if found else None)


def _relation(row: Row | None) -> str:
    return row.relation if row else "same"


def _governed(it: str, es: str, row: Row | None, **shown: Any) -> CompareRow:
    """The row of a pair of clauses under the concordance row that governs it: a `changed`
    row badges and notes the pair it names, not the sub-clauses it carries or holds."""
    if row is not None and row.relation == "changed" and (row.older, row.newer) != (es, it):
        return CompareRow(it, es, "same", None, **shown)
    return CompareRow(it, es, _relation(row), row, **shown)


def _after_previous(rows: list[CompareRow], es: str, es_order: list[str]) -> int:
    """Where a Spanish-only row goes: after the row showing the Spanish clause before
    it, and after the rows that continue that one (its Italian clause's further
    Spanish clauses, or Italian clauses its text holds); first if none is shown."""
    shown_at = {r.old: i for i, r in enumerate(rows) if r.old and r.show_old}
    for prev in reversed(es_order[:es_order.index(es)]):
        if prev in shown_at:
            i = shown_at[prev] + 1
            while i < len(rows) and _continues(rows[i], prev):
                i += 1
            return i
    return 0


def _continues(row: CompareRow, es: str) -> bool:
    return (row.new is not None and not row.show_new) or (row.old == es and not row.show_old)
