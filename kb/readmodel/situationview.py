"""The situation index as a reader sees it: each situation named in the reader's language,
with the other ways of saying it and links to the clauses that rule it in every edition;
A–Z, and by period of the board on pages a phone holds (`kb.corpus.situations.pages`), each period's
situations under the Law that rules each first. One `IndexView` feeds /situations, its pages
and /api/situations."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..records.clauseid import readable
from ..corpus.library import Library
from ..corpus.situations import Page, Situation, ruling_law
from ..records.store import NotFound, Store
from ..common.text import fold_accents
from ..corpus.urls import situation_url, situations_page_url, url_for


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
    page: str = ""             # the index's page that holds it

    @property
    def url(self) -> str:
        return situation_url(self.id, self.page)

    def by_document(self) -> list[tuple[str, str, list[Rule]]]:
        """(document, edition, its rules), in the order the index gives them."""
        out: dict[str, list[Rule]] = {}
        for r in self.rules:
            out.setdefault(r.doc, []).append(r)
        return [(doc, rules[0].edition, rules) for doc, rules in out.items()]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "also": list(self.also), "period": self.period,
                "rules": [r.to_dict() for r in self.rules], "note": self.note, "url": self.url}


@dataclass(frozen=True)
class LawRun:
    """The situations of a page that one Law rules first, A–Z."""
    doc: str                   # the Laws (the edition) its situations name first
    law: str
    title: str                 # the Law's, in its text's language
    entries: tuple[Entry, ...]

    @property
    def url(self) -> str:
        return url_for(self.doc, self.law)


@dataclass(frozen=True)
class PageView:
    id: str
    period: str
    parts: int                 # how many pages its period takes (cut in runs of Laws)
    laws: tuple[str, str]      # its first and last ruling Law
    runs: tuple[LawRun, ...]

    @property
    def url(self) -> str:
        return situations_page_url(self.id)

    @property
    def entries(self) -> list[Entry]:
        return [e for run in self.runs for e in run.entries]


@dataclass(frozen=True)
class IndexView:
    lang: str
    entries: tuple[Entry, ...]           # A–Z in the reader's language
    pages: tuple[PageView, ...]          # the board's order

    @property
    def periods(self) -> list[tuple[str, list[Entry]]]:
        """Each period's situations, A–Z, in the board's order."""
        out: dict[str, list[Entry]] = {p.period: [] for p in self.pages}
        for e in self.entries:
            out[e.period].append(e)
        return list(out.items())

    def page(self, page: str) -> PageView:
        """One of its pages; `NotFound` names them."""
        found = next((p for p in self.pages if p.id == page), None)
        if found is None:
            raise NotFound(f"no page {page!r} of the situation index; pages: {', '.join(p.id for p in self.pages)}")
        return found

    def of_period(self, period: str) -> list[PageView]:
        """The pages of one period (more than one when it holds more than a page)."""
        return [p for p in self.pages if p.period == period]

    @property
    def letters(self) -> list[tuple[str, list[Entry]]]:
        """The entries A–Z, grouped by their first letter."""
        out: dict[str, list[Entry]] = {}
        for e in self.entries:
            out.setdefault(initial(e.name), []).append(e)
        return list(out.items())

    def to_dict(self) -> dict[str, Any]:
        return {"lang": self.lang, "situations": [e.to_dict() for e in self.entries],
                "periods": [{"period": p, "situations": [e.id for e in es]} for p, es in self.periods],
                "pages": [{"id": p.id, "period": p.period, "url": p.url, "laws": list(p.laws),
                           "situations": [e.id for e in p.entries]} for p in self.pages]}


def index_view(pages: tuple[Page, ...], lang: str, store: Store, library: Library) -> IndexView:
    """The index in `lang` (each entry's first phrase in it), sorted as that language sorts
    letters without their accents; its `pages` (`kb.corpus.situations.pages`) in the board's order."""
    entries = {s.id: _entry(s, lang, store, library, page.id) for page in pages for s in page.situations}
    views = tuple(_page_view(page, entries, store) for page in pages)
    return IndexView(lang, tuple(sorted(entries.values(), key=_order)), views)


def _page_view(page: Page, entries: dict[str, Entry], store: Store) -> PageView:
    runs: dict[int, list[Situation]] = {}
    for s in page.situations:
        runs.setdefault(ruling_law(s), []).append(s)
    return PageView(page.id, page.period, page.parts, page.laws,
                    tuple(_law_run(ss, entries, store) for ss in runs.values()))


def _law_run(situations: list[Situation], entries: dict[str, Entry], store: Store) -> LawRun:
    doc, law, _ = situations[0].laws[0]
    return LawRun(doc, law, store.title(doc, law), tuple(sorted((entries[s.id] for s in situations), key=_order)))


def _order(e: Entry) -> tuple[str, str]:
    return _key(e.name), e.id


def ruled_here(situations: tuple[Situation, ...], doc: str, unit: str) -> tuple[Situation, ...]:
    """The situations one of whose ruling clauses is in this unit."""
    return tuple(s for s in situations if any((d, u) == (doc, unit) for d, u, _ in s.targets))


def _entry(s: Situation, lang: str, store: Store, library: Library, page: str) -> Entry:
    phrases = s.phrases_in(lang)
    rules = tuple(Rule(d, u, c, _label(store, library, d, u, c), store.title(d, u), library.edition(d) or "")
                  for d, u, c in s.targets)
    return Entry(s.id, phrases[0], tuple(phrases[1:]), s.period, rules, s.note, page)


def _label(store: Store, library: Library, doc: str, unit: str, clause: str | None) -> str:
    """`27B1(b)` for a Law clause; a norm's unit and its clause's own label (`8 3a1`); a topic's title."""
    if library.is_laws(doc):
        return readable(clause or unit)
    u = store.unit(doc, unit)
    found = u.clause(clause) if clause else None
    own = u.number(found) if found else ""
    return f"{unit} {own.rstrip('.')}".strip() if unit[:1].isdigit() else store.title(doc, unit)


def initial(name: str) -> str:
    return _key(name)[:1].upper() or "#"


def _key(name: str) -> str:
    return fold_accents(name.lower()).lstrip("'\"«(¿¡ ")
