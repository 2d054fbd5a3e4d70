"""What a unit shows besides its text, as frozen records: the references to and from it,
its parallels in the other editions, its neighbours, the defined terms it uses and the
compare pages it has. One `UnitView` feeds the unit page and `/api/units/{doc}/{unit}`."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable

from ..records.built import BuiltDocument, BuiltUnit
from ..records.citation import EXTERNAL, Citation, Target
from ..records.clauseid import article_of, readable
from ..editions.pairs import Parallel
from ..pipeline.graph import clause_node
from ..corpus.languages import BY_CODE
from ..corpus.library import NORMS, TIMEREF, Library
from ..records.store import Store
from ..corpus.urls import compare_url, url_for

Record = dict[str, Any]


@dataclass(frozen=True)
class Ref:
    """A reference to or from a clause: where it points (a unit and clause, with its title and
    URL, or an external text's name), the words that make it, its kind, and the clause of this
    unit it belongs to (`at`). A time reference also keeps its number as written and the
    edition that numbers it."""
    doc: str
    raw: str
    kind: str
    at: str | None
    unit: str | None = None
    clause: str | None = None
    title: str = ""
    name: str | None = None
    ref: str | None = None
    edition: str | None = None

    @property
    def url(self) -> str:
        return url_for(self.doc, self.unit or "", self.clause) if self.doc != EXTERNAL else ""

    @property
    def label(self) -> str:
        return readable(self.clause or self.unit or "")

    def to_dict(self) -> Record:
        if self.doc == EXTERNAL:
            return {"doc": EXTERNAL, "name": self.name, "raw": self.raw, "kind": self.kind, "at": self.at}
        d = {"doc": self.doc, "unit": self.unit, "clause": self.clause, "title": self.title, "url": self.url,
             "raw": self.raw, "kind": self.kind, "at": self.at}
        return d | ({"ref": self.ref, "edition": self.edition} if self.ref is not None else {})


@dataclass(frozen=True)
class ParallelLink:
    """A clause of this unit beside its counterpart in another edition of the Laws."""
    clause: str
    doc: str
    target: str
    relation: str
    note: str

    @property
    def unit(self) -> str:
        return article_of(self.target)

    @property
    def label(self) -> str:
        return readable(self.target)

    @property
    def url(self) -> str:
        return url_for(self.doc, self.unit, self.target)

    @property
    def at(self) -> str:
        return self.clause

    def to_dict(self) -> Record:
        return {"clause": self.clause, "doc": self.doc, "unit": self.unit, "target": self.target,
                "label": self.label, "relation": self.relation, "note": self.note, "url": self.url}


@dataclass(frozen=True)
class UnitLinks:
    cites: tuple[Ref, ...]
    cited_by: tuple[Ref, ...]
    norms: tuple[Ref, ...]
    timerefs: tuple[Ref, ...]
    parallel: tuple[ParallelLink, ...]

    def to_dict(self) -> Record:
        return {kind: [r.to_dict() for r in getattr(self, kind)]
                for kind in ("cites", "cited_by", "norms", "timerefs", "parallel")}

    def attached(self, unit: str) -> dict[str, dict[str, list[Ref | ParallelLink]]]:
        """Per clause of the unit, the norms, time references and parallels shown beside it."""
        out: dict[str, dict[str, list[Ref | ParallelLink]]] = {}
        for kind in ("norms", "timerefs", "parallel"):
            for link in getattr(self, kind):
                out.setdefault(link.at or unit, {}).setdefault(kind, []).append(link)
        return out


@dataclass(frozen=True)
class Neighbour:
    doc: str
    unit: str
    title: str

    @property
    def url(self) -> str:
        return url_for(self.doc, self.unit)

    def to_dict(self) -> Record:
        return {"unit": self.unit, "title": self.title, "url": self.url}


@dataclass(frozen=True)
class Term:
    """A defined term a unit's text uses, linking to its definition (in `doc`)."""
    title: str
    url: str
    doc: str

    def to_dict(self) -> Record:
        return {"title": self.title, "url": self.url}


@dataclass(frozen=True)
class CompareLink:
    """Law n beside another edition: that edition's language (a catalogs msgid) and year."""
    url: str
    language: str
    edition: str

    def to_dict(self) -> Record:
        return {"url": self.url, "language": self.language, "edition": self.edition}


@dataclass(frozen=True)
class UnitView:
    doc: BuiltDocument
    unit: BuiltUnit
    links: UnitLinks
    prev: Neighbour | None
    next: Neighbour | None
    terms: tuple[Term, ...]
    compare: tuple[CompareLink, ...]

    @property
    def label(self) -> str:
        return self.unit.label

    def to_dict(self) -> Record:
        """The unit as exported, with its links, neighbours, terms and compare pages."""
        return self.unit.to_dict() | self.links.to_dict() | {
            "prev": self.prev.to_dict() if self.prev else None,
            "next": self.next.to_dict() if self.next else None,
            "terms": [t.to_dict() for t in self.terms], "compare": [c.to_dict() for c in self.compare]}


def parallel_links(parallels: Iterable[Parallel]) -> tuple[ParallelLink, ...]:
    return tuple(ParallelLink(p.clause, p.other, p.target, p.relation, p.note) for p in parallels)


def links_of(store: Store, library: Library, parallel: tuple[ParallelLink, ...], doc: str, unit: str) -> UnitLinks:
    """cites, cited_by, norms, timerefs, parallel: a unit's references, sorted by what they are."""
    cites = tuple(_ref(store, c.target, c, c.source[2]) for c in store.outgoing(doc, unit))
    cited_by: list[Ref] = []
    norms: list[Ref] = keyed_norms(store, library, doc, unit)
    timerefs: list[Ref] = []
    for c in store.incoming(doc, unit):
        ref = _ref(store, Target(*c.source), c, _reached_clause(c, doc, unit))
        source = library.get(c.source[0])
        if source and source.kind == NORMS and c.kind == "integrates":
            norms.append(ref)
        elif source and source.kind == TIMEREF:
            edition = source.cites_edition or library.edition(library.cites(source.id) or "")
            timerefs.append(replace(ref, ref=c.raw, edition=edition))
        else:
            cited_by.append(ref)
    return UnitLinks(cites, tuple(cited_by), tuple(norms), tuple(timerefs), parallel)


def keyed_norms(store: Store, library: Library, doc: str, unit: str) -> list[Ref]:
    """The norms keyed to this Law by their heading's number (`ARTICOLO 8 – …`; `ARTICOLO 92 –
    ARTICOLO 93` keys one norm to two), read from the norm's `law` as the graph reads it: each
    integrates the whole Law, so it stands at the top (`at` None), its heading's title as the
    words that make it. A heading is no citation (the norms' text cites no Law 8), hence this."""
    out = []
    for norms in library.ids(NORMS):
        if library.cites(norms) == doc:
            out += [Ref(norms, n.title or n.id, "integrates", None, n.id, None, n.title or "")
                    for n in store.units_of(norms).values() if unit in n.law]
    return out


def _reached_clause(c: Citation, doc: str, unit: str) -> str | None:
    return next((t.clause for t in c.reached() if (t.doc, t.unit) == (doc, unit)), None)


def _ref(store: Store, t: Target, c: Citation, at: str | None) -> Ref:
    if t.doc == EXTERNAL:
        return Ref(EXTERNAL, c.raw, c.kind, at, name=t.name)
    return Ref(t.doc, c.raw, c.kind, at, t.unit, t.clause, store.title(t.doc, t.unit or ""))


def neighbours(store: Store, doc: str, unit: str) -> tuple[Neighbour | None, Neighbour | None]:
    """The units before and after this one in its document."""
    ids = list(store.units_of(doc))
    i = ids.index(unit)
    near = [ids[i - 1] if i > 0 else None, ids[i + 1] if i + 1 < len(ids) else None]
    prev, nxt = (Neighbour(doc, u, store.title(doc, u)) if u else None for u in near)
    return prev, nxt


def defined_terms(graph: Any, doc: str, unit: BuiltUnit) -> tuple[Term, ...]:
    """The defined terms this unit's text uses, each linking to its definition."""
    found: dict[str, Term] = {}
    for c in unit.clauses:
        node = clause_node(doc, unit.id, c.id)
        for src, _, data in (graph.in_edges(node, data=True) if node in graph else ()):
            if data["type"] == "defines" and src not in found:
                meta = graph.nodes[src]
                found[src] = Term(meta.get("title") or meta.get("clause", ""),
                                  url_for(meta["doc"], meta["unit"], meta.get("clause")), meta["doc"])
    return tuple(sorted(found.values(), key=lambda t: t.title.lower()))


def compare_links(library: Library, doc: str, unit: BuiltUnit) -> tuple[CompareLink, ...]:
    """The compare pages of a Law article: one per pair of editions it belongs to."""
    if unit.kind != "article":
        return ()
    out = []
    for pair in library.pairs:
        if doc in (pair.older, pair.newer):
            other = pair.newer if doc == pair.older else pair.older
            out.append(CompareLink(compare_url(library, pair, unit.id), BY_CODE[library.lang(other)].name,
                                   library.edition(other) or ""))
    return tuple(out)
