"""The documents as data: their kinds, editions, languages and what they cite, from the manifest.

No module outside the manifest, the parsers and the curated tables names a document:
it asks the library for the Laws in force, the other edition of a Law, the norms,
the time references or the other game, by the kind the manifest gives each document
(`laws`, `norms`, `timeref`, `code`). A new edition of the Laws is a manifest entry.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Iterable

LAWS, NORMS, TIMEREF, OTHER_GAME = "laws", "norms", "timeref", "code"  # the manifest's kinds


@dataclass(frozen=True)
class Entry:
    id: str
    lang: str
    kind: str
    edition: str
    cites: str | None = None          # the document it cites by bare number
    cites_edition: str | None = None  # the edition of the Laws its numbers are written in
    short: str = ""                   # a two-letter mark for tight places (graph labels)
    edition_of: str | None = None     # the document this is another edition of, numbered alike (same language)
    names: tuple[str, ...] = ()       # what readers call it before a number ("reglamento 64")
    labels: tuple[tuple[str, str], ...] = ()  # its name for people, per interface language ("Codice 2017")
    concordances: tuple[tuple[str, str], ...] = ()  # (an older edition, the table pairing its clauses with this one's)


@dataclass(frozen=True)
class EditionPair:
    """Two editions of the Laws read side by side: `older`'s clauses mapped to `newer`'s by
    their concordance (`table`, a file of the corpus the newer's manifest entry names) or, for
    editions of one language numbered alike (`edition_of`), by identical clause ids."""

    older: str
    newer: str
    table: str = ""  # the concordance's file; "" for editions numbered alike

    @property
    def by_table(self) -> bool:
        return bool(self.table)


@dataclass(frozen=True)
class Library:
    entries: tuple[Entry, ...]

    @classmethod
    def of(cls, documents: Iterable[Any]) -> "Library":
        """From the export's document dicts or the model's Documents alike."""
        return cls(tuple(_entry(d) for d in documents))

    def get(self, doc: str) -> Entry | None:
        return self._by_id.get(doc)

    def lang(self, doc: str) -> str | None:
        entry = self.get(doc)
        return entry.lang if entry else None

    def kind(self, doc: str) -> str | None:
        entry = self.get(doc)
        return entry.kind if entry else None

    def ids(self, kind: str, lang: str | None = None) -> tuple[str, ...]:
        """The documents of a kind (in one language), the newest edition first."""
        found = [e for e in self.entries if e.kind == kind and (lang is None or e.lang == lang)]
        return tuple(e.id for e in sorted(found, key=_edition_order, reverse=True))

    def first(self, kind: str) -> str | None:
        found = self.ids(kind)
        return found[0] if found else None

    @cached_property
    def laws(self) -> tuple[str, ...]:
        """The editions of the Laws, the one in force (newest) first."""
        return self.ids(LAWS)

    @property
    def laws_in_force(self) -> str | None:
        return self.laws[0] if self.laws else None

    def is_laws(self, doc: str) -> bool:
        return doc in self.laws

    @cached_property
    def pair(self) -> tuple[str, str] | None:
        """(older, newer): the first pair of editions a concordance maps (the manifest's first
        `concordances`): the pair `target_2017` and the release's concordance table are named for."""
        first = next((p for p in self.pairs if p.by_table), None)
        return (first.older, first.newer) if first else None

    @cached_property
    def pairs(self) -> tuple[EditionPair, ...]:
        """Every pair of editions the manifest declares: each concordance (`concordances`, in
        manifest order) first, then each `edition_of`, the older edition of the two first."""
        found = [EditionPair(older, e.id, table) for e in self.entries for older, table in e.concordances
                 if self.get(older)]
        for e in self.entries:
            other = self.get(e.edition_of) if e.edition_of else None
            if other is not None:
                older, newer = sorted((other, e), key=_edition_order)
                found.append(EditionPair(older.id, newer.id))
        return tuple(found)

    def chain(self, doc: str, to: str) -> tuple[EditionPair, ...] | None:
        """The pairs that lead from an edition to another, one after the other (the fewest;
        () from an edition to itself), each read older → newer; None when none leads there."""
        ways: dict[str, tuple[EditionPair, ...]] = {doc: ()}
        todo = [doc]
        while todo and to not in ways:
            here = todo.pop(0)
            for p in self.pairs:
                if p.older == here and p.newer not in ways:
                    ways[p.newer] = (*ways[here], p)
                    todo.append(p.newer)
        return ways.get(to)

    def maps_to(self, doc: str) -> str | None:
        """The edition the first concordance from this one maps its clauses to."""
        return next((p.newer for p in self.pairs if p.older == doc and p.by_table), None)

    def pair_of(self, older: str, newer: str) -> EditionPair | None:
        return next((p for p in self.pairs if (p.older, p.newer) == (older, newer)), None)

    def counterparts(self, doc: str) -> tuple[str, ...]:
        """The editions a Law is read beside, in the order of `pairs`."""
        return tuple(p.newer if doc == p.older else p.older for p in self.pairs if doc in (p.older, p.newer))

    def in_force(self, kind: str, lang: str | None = None) -> tuple[str, ...]:
        """The documents of a kind no newer edition in their own language supersedes."""
        newest: dict[str, str] = {}
        for d in self.ids(kind, lang):  # newest first
            newest.setdefault(self.lang(d) or "", d)
        return tuple(newest.values())

    @property
    def newer(self) -> str | None:
        return self.pair[1] if self.pair else None

    @property
    def older(self) -> str | None:
        return self.pair[0] if self.pair else None

    def laws_in(self, lang: str) -> str | None:
        """The newest edition of the Laws written in a language."""
        found = self.ids(LAWS, lang)
        return found[0] if found else None

    def edition(self, doc: str) -> str | None:
        entry = self.get(doc)
        return entry.edition if entry else None

    def cites(self, doc: str) -> str | None:
        """The Laws a document's bare numbers refer to (the Laws in force when it does not say)."""
        entry = self.get(doc)
        return (entry.cites if entry and entry.cites else None) or self.laws_in_force

    def label(self, doc: str, lang: str | None) -> str:
        """The document's name for a reader of `lang` (the manifest's `label`; its first, else its id)."""
        entry = self.get(doc)
        labels = dict(entry.labels) if entry else {}
        return labels.get(lang or "") or next(iter(labels.values()), doc)

    def short(self, doc: str) -> str:
        entry = self.get(doc)
        return entry.short if entry and entry.short else doc

    @cached_property
    def names(self) -> dict[str, str]:
        """Every document's names (lower case) → its id."""
        return {name.lower(): e.id for e in self.entries for name in e.names}

    @cached_property
    def _by_id(self) -> dict[str, Entry]:
        return {e.id: e for e in self.entries}


def _entry(d: Any) -> Entry:
    field = (lambda k: d.get(k)) if isinstance(d, dict) else (lambda k: getattr(d, k, None) or d.meta.get(k))
    return Entry(field("id"), field("lang"), field("kind"), str(field("edition") or ""), field("cites"),
                 field("cites_edition"), field("short") or "", field("edition_of"),
                 tuple(field("names") or ()), tuple(sorted((field("label") or {}).items())),
                 tuple((field("concordances") or {}).items()))


def _edition_order(e: Entry) -> tuple[int, str]:
    """Editions compare as years ("2007" < "2017" < "2027"), whatever their length."""
    digits = "".join(ch for ch in e.edition if ch.isdigit())
    return (int(digits) if digits else 0, e.edition)
