"""Editions of the Laws read side by side: each pair the manifest declares, its compare
pairing and its parallel links — the one place unit pages, search hits, the graph and the
compare view learn which clause of one edition stands beside which of another.

A pair with a concordance (the newer edition's `concordances`) is linked, compared and
told apart by that table's rows alone. Editions of one language numbered alike (`edition_of`)
are linked by identical clause ids: each article once, and each clause whose contents differ
(text, title, tables, notes) as `changed`; the compare view shows every clause of both, and
their changes are the clauses that differ or that one edition alone has.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Iterable, Iterator

from .chapters import Chapter
from ..records.built import BuiltClause, BuiltDocument
from ..records.clauseid import article_of
from .compare import CompareRow, Pairing
from .concordance import Concordance, Concordances, Row, ancestors, relation_rank
from ..corpus.tables import Notes, note_in
from ..corpus.library import EditionPair, Library
from ..records.store import NotFound



@dataclass(frozen=True)
class Parallel:
    """A clause of one edition and the clause of another that stands beside it."""

    doc: str
    clause: str
    other: str
    target: str
    relation: str
    note: str = ""


@dataclass(frozen=True)
class CompareView:
    """Law n in two paired editions: the rows of `kb.editions.compare`, newer edition first."""

    pair: EditionPair
    law: str
    last: int  # the highest Law number of the newer edition
    rows: tuple[CompareRow, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"law": int(self.law), "older": self.pair.older, "newer": self.pair.newer,
                "summary": self.summary,
                "rows": [{"newer": r.new, "older": r.old, "relation": r.relation, "note": r.note,
                          "notes": dict(r.notes), "elsewhere": list(r.elsewhere)} for r in self.rows]}

    @property
    def summary(self) -> dict[str, int]:
        """How many rows of each relation, in the concordance's order of relations."""
        return relation_counts(r.relation for r in self.rows)


@dataclass(frozen=True)
class Change:
    """A concordance row that is not `same`: a clause changed, moved, split, merged, new or removed."""

    law: str       # the Law it belongs to: the newer edition's number (the older's, for what was removed)
    relation: str
    older: str     # the older edition's clause ("" for what is new)
    newer: str     # the newer edition's clause ("" for what was removed)
    notes: Notes

    def to_dict(self) -> dict[str, Any]:
        return {"law": int(self.law), "relation": self.relation, "older": self.older or None,
                "newer": self.newer or None, "note": note_in(self.notes, None)[1], "notes": dict(self.notes)}


@dataclass(frozen=True)
class ChangesView:
    """What changed from one edition of the Laws to the next, Law by Law (the concordance)."""

    pair: EditionPair
    changes: tuple[Change, ...]

    @property
    def summary(self) -> dict[str, int]:
        return relation_counts(c.relation for c in self.changes)

    def of_kind(self, relation: str | None) -> "ChangesView":
        return self if not relation else ChangesView(self.pair, tuple(c for c in self.changes if c.relation == relation))

    def to_dict(self) -> dict[str, Any]:
        return {"older": self.pair.older, "newer": self.pair.newer, "summary": self.summary,
                "changes": [c.to_dict() for c in self.changes]}


CHANGES_PER_PAGE = 100  # about as many changes, each with its note, as a page a phone holds (some 0.3 KB each)


@dataclass(frozen=True)
class ChangesPage:
    """The changes of a run of whole chapters of the Laws: as many chapters as a page holds."""

    chapters: tuple[Chapter, ...]
    changes: tuple[Change, ...]

    @property
    def laws(self) -> tuple[str, str]:
        """The first and the last Law of its chapters."""
        return self.chapters[0].laws[0], self.chapters[-1].laws[-1]

    @property
    def id(self) -> str:
        return "laws-{}-{}".format(*self.laws)


def changes_pages(view: ChangesView, chapters: list[Chapter],
                  per_page: int = CHANGES_PER_PAGE) -> tuple[ChangesPage, ...]:
    """The changes on pages of whole chapters (the newer edition's, `kb.editions.chapters`), a page closed
    when the next chapter would take it past `per_page` changes; a Law no chapter holds (one the
    newer edition removed) comes in a chapter of its own at the end."""
    held = {n for c in chapters for n in c.laws}
    loose = tuple(dict.fromkeys(c.law for c in view.changes if c.law not in held))
    by_law: dict[str, list[Change]] = {}
    for c in view.changes:
        by_law.setdefault(c.law, []).append(c)
    pages: list[list[tuple[Chapter, list[Change]]]] = []
    for chapter in [*chapters, *([Chapter("", "", "", "", loose)] if loose else [])]:
        mine = [c for n in chapter.laws for c in by_law.get(n, [])]
        if not pages or sum(len(ch) for _, ch in pages[-1]) + len(mine) > per_page:
            pages.append([])
        pages[-1].append((chapter, mine))
    return tuple(ChangesPage(tuple(ch for ch, _ in page), tuple(c for _, cs in page for c in cs)) for page in pages)


def relation_counts(relations: Iterable[str]) -> dict[str, int]:
    """How many of each relation, in the concordance's order of relations."""
    counts = Counter(relations)
    return {rel: counts[rel] for rel in sorted(counts, key=lambda r: (relation_rank(r), r))}


class Editions:
    def __init__(self, library: Library, concordances: Concordances, documents: Iterable[BuiltDocument]):
        """`concordances`: the table of each pair the manifest pairs by one (`load_concordances`)."""
        self.library = library
        self.concordances = concordances
        self.clauses: dict[str, dict[str, BuiltClause]] = {
            d.id: {c.id: c for u in d.units if u.kind == "article" for c in u.clauses}
            for d in documents if library.is_laws(d.id)}

    def pair(self, older: str | None = None, newer: str | None = None, law: str = "") -> EditionPair:
        """The pair of editions `older` and `newer` name (the first the manifest declares when
        neither is given); `NotFound`, naming the pairs, for two editions it does not pair."""
        pair = self.library.pair_of(older or "", newer or "") if older or newer else next(iter(self.library.pairs), None)
        if pair is None:
            named = "; ".join(f"older={p.older}&newer={p.newer}" for p in self.library.pairs) or "none"
            raise NotFound(f"No pair of editions {older or '?'} and {newer or '?'}; the pairs are: {named}.",
                           law=law, pairs=tuple((p.older, p.newer) for p in self.library.pairs))
        return pair

    def concordance(self, pair: EditionPair) -> Concordance:
        """The table pairing two editions' clauses (an empty one for editions numbered alike)."""
        found = self.concordances.get((pair.older, pair.newer))
        return found or Concordance([], self.library.edition(pair.newer) or "")

    def compare(self, n: str, older: str | None = None, newer: str | None = None) -> CompareView:
        """Law n in a pair of editions (the first pair the manifest declares unless `older` and
        `newer` name another); `NotFound`, naming what exists, for any other pair or number."""
        pair = self.pair(older, newer, n)
        last = max((int(a) for a in map(article_of, self.clauses.get(pair.newer, {})) if a.isdigit()), default=0)
        if not (n.isascii() and n.isdigit()) or n != str(int(n)) or not 1 <= int(n) <= last:
            raise NotFound(f"No Law {n}: the Laws are numbered 1 to {last}.", law=n, last=last)
        new, old = (self._law(doc, n) for doc in (pair.newer, pair.older))
        return CompareView(pair, n, last, tuple(self._pairings[(pair.older, pair.newer)].law_rows(n, new, old)))

    def changes(self, older: str | None = None, newer: str | None = None) -> ChangesView:
        """What changed from one edition to the other (the first pair the manifest declares unless
        `older` and `newer` name another), by Law (the newer edition's numbers): every row of
        their concordance that is not `same`, in table order within a Law; for editions numbered
        alike, each clause that differs or that one of them alone has. Empty when the manifest
        pairs no editions; `NotFound` for two it does not pair."""
        if not self.library.pairs and not (older or newer):
            return ChangesView(EditionPair("", ""), ())
        pair = self.pair(older, newer)
        rows = self.concordance(pair).rows if pair.by_table else self._id_changes(pair)
        found = [Change(article_of(r.newer or r.older), r.relation, r.older, r.newer, r.notes)
                 for r in rows if r.relation != "same"]
        return ChangesView(pair, tuple(sorted(found, key=lambda c: int(c.law) if c.law.isdigit() else 0)))

    def _id_changes(self, pair: EditionPair) -> list[Row]:
        """Editions numbered alike: each clause whose contents differ, then each clause only one has."""
        new, old = self.clauses.get(pair.newer, {}), self.clauses.get(pair.older, {})
        table = self.concordance(pair)  # empty: it names the relations of the newer edition
        return [*(Row(cid, cid, "changed") for cid in self._changed(pair)),
                *(Row("", cid, table.added) for cid in new if cid not in old),
                *(Row(cid, "", table.dropped) for cid in old if cid not in new)]

    def _changed(self, pair: EditionPair) -> list[str]:
        """Editions numbered alike: the clauses both have whose contents differ."""
        new, old = self.clauses.get(pair.newer, {}), self.clauses.get(pair.older, {})
        return [cid for cid in new if cid in old and _content(new[cid]) != _content(old[cid])]

    def _law(self, doc: str, n: str) -> list[BuiltClause]:
        return [c for cid, c in self.clauses.get(doc, {}).items() if article_of(cid) == n]

    def pairing(self, older: str, newer: str) -> Pairing | None:
        """The compare pairing of two editions the manifest pairs (None for any other two)."""
        return self._pairings.get((older, newer))

    def of_unit(self, doc: str, unit: str) -> list[Parallel]:
        """The links of an article's clauses to the other editions, in table order."""
        return self._by_unit.get((doc, unit), [])

    def of_clause(self, doc: str, clause: str) -> list[Parallel]:
        """The links of a clause or, failing that, of its nearest ancestor any link or
        table row names."""
        for anc in ancestors(clause):
            if (doc, anc) in self._named:
                return self._by_clause.get((doc, anc), [])
        return []

    @cached_property
    def links(self) -> tuple[Parallel, ...]:
        """Every link, each pair of clauses once in each direction (newer → older first)."""
        out = []
        for pair in self.library.pairs:
            for new, old, relation, note in self._pairs_of(pair):
                out += [Parallel(pair.newer, new, pair.older, old, relation, note),
                        Parallel(pair.older, old, pair.newer, new, relation, note)]
        return tuple(out)

    def _pairs_of(self, pair: EditionPair) -> Iterator[tuple[str, str, str, str]]:
        if pair.by_table:
            rows = self.concordance(pair).rows
            yield from ((r.newer, r.older, r.relation, r.note) for r in rows if r.newer and r.older)
        else:
            yield from self._differences(pair)

    def _differences(self, pair: EditionPair) -> Iterator[tuple[str, str, str, str]]:
        """Editions numbered alike: each article, `changed` if any of its clauses is, and each
        changed clause."""
        new, old = self.clauses.get(pair.newer, {}), self.clauses.get(pair.older, {})
        changed = self._changed(pair)
        articles = dict.fromkeys(article_of(cid) for cid in new if article_of(cid) in old)
        touched = {article_of(cid) for cid in changed}
        for art in articles:
            yield art, art, "changed" if art in touched else "same", ""
            yield from ((cid, cid, "changed", "") for cid in changed if article_of(cid) == art and cid != art)

    @cached_property
    def _pairings(self) -> dict[tuple[str, str], Pairing]:
        return {(p.older, p.newer): self._pairing(p) for p in self.library.pairs}

    def _pairing(self, pair: EditionPair) -> Pairing:
        new, old = self.clauses.get(pair.newer, {}), self.clauses.get(pair.older, {})
        differs = None if pair.by_table else (lambda a, b: _content(new[a]) != _content(old[b]))
        return Pairing(self.concordance(pair), new, old, differs)

    @cached_property
    def _by_unit(self) -> dict[tuple[str, str], list[Parallel]]:
        out: dict[tuple[str, str], list[Parallel]] = {}
        for p in self.links:
            out.setdefault((p.doc, article_of(p.clause)), []).append(p)
        return out

    @cached_property
    def _by_clause(self) -> dict[tuple[str, str], list[Parallel]]:
        out: dict[tuple[str, str], list[Parallel]] = {}
        for p in self.links:
            out.setdefault((p.doc, p.clause), []).append(p)
        return out

    @cached_property
    def _named(self) -> set[tuple[str, str]]:
        """The clauses links or table rows name (a `new-in-2017` row names one clause only)."""
        named = set(self._by_clause)
        for pair in self.library.pairs:
            if pair.by_table:
                named |= {(pair.newer, r.newer) for r in self.concordance(pair).rows if r.newer}
                named |= {(pair.older, r.older) for r in self.concordance(pair).rows if r.older}
        return named


def _content(c: BuiltClause) -> tuple[Any, ...]:
    return c.text, c.title or "", c.tables, c.notes
