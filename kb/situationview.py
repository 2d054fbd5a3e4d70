"""The situation index as a reader sees it: each situation named in the reader's language,
with the other ways of saying it and links to the clauses that rule it in every edition;
A–Z and by period of the board. One `IndexView` feeds /situations and /api/situations."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .clauseid import readable
from .library import Library
from .situations import Situation
from .store import Store
from .text import fold_accents
from .urls import url_for


@dataclass(frozen=True)
class Rule:
    """A clause that rules a situation, as a link: its document, edition and label."""
    doc: str
    unit: str
    clause: str | None
    label: str
    title: str
    edition: str

    @property
    def url(self) -> str:
        return url_for(self.doc, self.unit, self.clause)

    def to_dict(self) -> dict[str, Any]:
        return {"doc": self.doc, "unit": self.unit, "clause": self.clause, "label": self.label,
                "title": self.title, "edition": self.edition, "url": self.url}


@dataclass(frozen=True)
class Entry:
    id: str
    name: str
    also: tuple[str, ...]      # other ways of saying it, in the same language
    period: str
    rules: tuple[Rule, ...]
    note: str

    def by_document(self) -> list[tuple[str, str, list[Rule]]]:
        """(document, edition, its rules), in the order the index gives them."""
        out: dict[str, list[Rule]] = {}
        for r in self.rules:
            out.setdefault(r.doc, []).append(r)
        return [(doc, rules[0].edition, rules) for doc, rules in out.items()]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "also": list(self.also), "period": self.period,
                "rules": [r.to_dict() for r in self.rules], "note": self.note}


@dataclass(frozen=True)
class IndexView:
    lang: str
    entries: tuple[Entry, ...]           # A–Z in the reader's language
    periods: tuple[tuple[str, tuple[Entry, ...]], ...]  # the board's order

    @property
    def letters(self) -> list[tuple[str, list[Entry]]]:
        """The entries A–Z, grouped by their first letter."""
        out: dict[str, list[Entry]] = {}
        for e in self.entries:
            out.setdefault(initial(e.name), []).append(e)
        return list(out.items())

    def to_dict(self) -> dict[str, Any]:
        return {"lang": self.lang, "situations": [e.to_dict() for e in self.entries],
                "periods": [{"period": p, "situations": [e.id for e in es]} for p, es in self.periods]}


def index_view(situations: tuple[Situation, ...], periods: list[str], lang: str, store: Store,
               library: Library) -> IndexView:
    """The index in `lang` (each entry's first phrase in it), sorted as that language sorts
    letters without their accents; `periods` in the board's order."""
    entries = sorted((_entry(s, lang, store, library) for s in situations), key=lambda e: (_key(e.name), e.id))
    by_period = tuple((p, tuple(e for e in entries if e.period == p)) for p in periods)
    return IndexView(lang, tuple(entries), by_period)


def ruled_here(situations: tuple[Situation, ...], doc: str, unit: str) -> tuple[Situation, ...]:
    """The situations one of whose ruling clauses is in this unit."""
    return tuple(s for s in situations if any((d, u) == (doc, unit) for d, u, _ in s.targets))


def _entry(s: Situation, lang: str, store: Store, library: Library) -> Entry:
    phrases = dict(s.says).get(lang) or s.says[0][1]
    rules = tuple(Rule(d, u, c, _label(store, library, d, u, c), store.title(d, u), library.edition(d) or "")
                  for d, u, c in s.targets)
    return Entry(s.id, phrases[0], tuple(phrases[1:]), s.period, rules, s.note)


def _label(store: Store, library: Library, doc: str, unit: str, clause: str | None) -> str:
    """`27B1(b)` for a Law clause; a norm's unit and its clause's own label (`8 3a1`); a topic's title."""
    if library.is_laws(doc):
        return readable(clause or unit)
    own = next((c.get("label") for c in store.unit(doc, unit)["clauses"] if c["id"] == clause), "") if clause else ""
    return f"{unit} {own.rstrip('.')}".strip() if unit[:1].isdigit() else store.title(doc, unit)


def initial(name: str) -> str:
    return _key(name)[:1].upper() or "#"


def _key(name: str) -> str:
    return fold_accents(name.lower()).lstrip("'\"«(¿¡ ")
