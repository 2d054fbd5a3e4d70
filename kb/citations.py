"""Citations: find → resolve → annotate over the whole corpus (DESIGN §5).

`extract(documents, concordance)` walks every clause (text, title, notes),
every footnote and every time-reference entry, finds mentions with
`kb.citegrammar`, and resolves each to a `Citation`: a source
(doc, unit, clause), the raw text and its span, a target (doc, unit, clause)
or an external name, a kind (internal, relative, cross, external,
integrates) and whether the target exists in the edition it is resolved
against. Time-reference entries cite the 2007 numbering: they resolve in
`es-laws` and reach `it-laws` through the concordance (`target_2017`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator

from .citegrammar import PRECEDING, Mention, find
from .clauseid import ClauseId
from .concordance import Concordance, Correction, carry
from .library import LAWS, NORMS, OTHER_GAME, Library
from .model import Document, Unit
from .points import PointRef, point_target, preceding_points
from .text import slugify



@dataclass(frozen=True)
class Target:
    doc: str
    unit: str | None = None
    clause: str | None = None
    name: str | None = None  # external texts only

    def to_dict(self) -> dict[str, Any]:
        if self.doc == "external":
            return {"doc": "external", "name": self.name}
        return {"doc": self.doc, "unit": self.unit, "clause": self.clause}


@dataclass
class Citation:
    source: tuple[str, str, str]
    raw: str
    target: Target
    kind: str
    resolved: bool
    where: str = "text"  # text | title | note | footnote | ref | label
    span: tuple[int, int] | None = None
    target_2017: Target | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        doc, unit, clause = self.source
        d: dict[str, Any] = {
            "source": {"doc": doc, "unit": unit, "clause": clause},
            "raw": self.raw,
            "target": self.target.to_dict(),
            "kind": self.kind,
            "resolved": self.resolved,
            "where": self.where,
        }
        if self.span is not None:
            d["span"] = list(self.span)
        if self.target_2017 is not None:
            d["target_2017"] = self.target_2017.to_dict()
        d.update(self.extra)
        return d


class Corpus:
    """Id lookups across documents, for resolution."""

    def __init__(self, documents: list[Document]):
        self.docs = {d.id: d for d in documents}
        self.library = Library.of(documents)
        self.laws_in_force = self.library.laws_in_force or ""
        self.laws_before = self.library.older or ""  # the concordance maps its clauses…
        self.laws_after = self.library.newer or ""   # …to these (`target_2017`)
        self.norms = self.library.first(NORMS) or ""
        self.clauses = {d.id: {u.id: {c.id for c in u.clauses} for u in d.units} for d in documents}
        self.appendix_by_number = {
            str(u.extra["appendix"]): u.id for u in self.docs[self.norms].units if "appendix" in u.extra
        } if self.norms in self.docs else {}

    def law_target(self, doc: str, cid: str) -> tuple[Target, bool]:
        parsed = ClauseId.parse(cid)
        unit = parsed.art if parsed else cid
        units = self.clauses.get(doc, {})
        return Target(doc, unit, cid), unit in units and cid in units[unit]

    def has_unit(self, doc: str, unit: str) -> bool:
        return unit in self.clauses.get(doc, {})


# ---------------------------------------------------------------- walking the corpus

def extract(documents: list[Document], concordance: Concordance | None = None,
            corrections: dict[tuple[str, str], Correction] | None = None) -> list[Citation]:
    corpus = Corpus(documents)
    out: list[Citation] = []
    for doc in documents:
        for unit in doc.units:
            out += list(unit_citations(doc, unit, corpus, concordance, corrections or {}))
    return out


def unit_citations(doc: Document, unit: Unit, corpus: Corpus, concordance: Concordance | None,
                   corrections: dict[tuple[str, str], Correction]) -> Iterator[Citation]:
    if unit.kind == "definition" and unit.title:  # "Penalità (vedi anche "Rettifica")"
        yield from text_citations(doc, unit, unit.id, unit.title, "unit-title", corpus, concordance)
    for clause in unit.clauses:
        for where, text in (("title", clause.title), ("text", clause.text)):
            if text:
                yield from text_citations(doc, unit, clause.id, text, where, corpus, concordance)
        for note in clause.notes:
            yield from text_citations(doc, unit, clause.id, note.text, "note", corpus, concordance)
        if "law_clause" in clause.extra:
            target, ok = corpus.law_target(cited_laws(doc, corpus), clause.extra["law_clause"])
            raw = clause.label or clause.extra["law_clause"]  # a heading "Procedura incorretta (20G3)"
            yield Citation((doc.id, unit.id, clause.id), raw, target, "integrates", ok, "label")
        if clause.extra.get("ref"):
            correction = corrections.get((doc.id, clause.extra["ref"]))
            yield entry_citation(doc, unit, clause.id, clause.extra["ref"], corpus, concordance, correction)
    for fn in unit.footnotes:
        yield from text_citations(doc, unit, fn.clause or unit.id, fn.text, "footnote", corpus, concordance)


def text_citations(doc: Document, unit: Unit, clause: str, text: str, where: str,
                   corpus: Corpus, concordance: Concordance | None) -> Iterator[Citation]:
    labels, titles = unit_names(doc, unit)
    own_label = (unit.clause(clause).extra.get("law_clause") if unit.clause(clause) else None)
    last_law: Citation | None = None
    for m in find(text, doc.lang, labels, titles):
        if where == "title" and m.kind == "law" and m.ref == own_label:
            continue  # "Procedura incorretta (20G3)": the heading's own label, an `integrates` link
        if m.kind == "point" and m.ref == PRECEDING:
            for cid in preceding_points(unit, clause):
                yield Citation((doc.id, unit.id, clause), m.raw, Target(doc.id, unit.id, cid), "relative", True,
                               where, (m.start, m.end))
            continue
        c = resolve(m, doc, unit, clause, corpus)
        if c is None:
            continue
        if c.kind == "law-item":  # "… l'Articolo 16D2 … al punto d)": an item of the Law clause just cited
            if last_law is None or not last_law.target.clause:
                continue
            c = _law_item(c, last_law, corpus)
        if c.kind in ("internal", "cross") and corpus.library.is_laws(c.target.doc):
            last_law = c
        c.where, c.span = where, (m.start, m.end)
        if c.target.doc == corpus.laws_before and doc.id != corpus.laws_before and concordance is not None:
            c.target_2017 = to_2017(concordance, c.target.clause or "", corpus)
        yield c


# ---------------------------------------------------------------- resolution

def resolve(m: Mention, doc: Document, unit: Unit, clause: str, corpus: Corpus) -> Citation | None:
    """A mention in (doc, unit, clause) → a Citation, or None when it names nothing here."""
    source = (doc.id, unit.id, clause)
    if m.kind == "external":
        return Citation(source, m.raw, Target("external", name=m.ref), "external", True)
    if m.kind == "norm":
        ok = corpus.has_unit(corpus.norms, m.ref)
        kind = "internal" if doc.id == corpus.norms else "cross"
        return Citation(source, m.raw, _pointed(Target(corpus.norms, m.ref, None), m.point, corpus), kind, ok)
    if m.kind == "appendix":
        uid = corpus.appendix_by_number.get(m.ref, m.ref)
        if doc.id == corpus.norms and uid == unit.id:
            return None  # "una normativa di alert" inside the alert appendix: itself, not a reference
        kind = "internal" if doc.id == corpus.norms else "cross"
        target = _pointed(Target(corpus.norms, uid, None), m.point, corpus)
        return Citation(source, m.raw, target, kind, corpus.has_unit(corpus.norms, uid))
    if m.kind == "definition":
        return _definition(m, doc, source, corpus)
    if m.kind == "law":
        law_doc = cited_laws(doc, corpus)
        target, ok = corpus.law_target(law_doc, m.ref)
        if doc.kind == "code":  # the Burraco code cites its own articles only
            target, ok = _pointed(Target(doc.id, m.ref, None), m.point, corpus), corpus.has_unit(doc.id, m.ref)
        kind = "internal" if law_doc == doc.id else "cross"
        return Citation(source, m.raw, target, kind, ok)
    if m.kind == "relative":
        if doc.kind == "laws":
            cid = relative_law_id(m.ref, clause)
            if cid is None:
                return None
            target, ok = corpus.law_target(doc.id, cid)
            return Citation(source, m.raw, target, "relative", ok)
        return _point(m, doc, unit, source)
    if m.kind == "point":
        return None if doc.kind == "laws" else _point(m, doc, unit, source)
    if m.kind == "named":
        return Citation(source, m.raw, Target(doc.id, unit.id, m.ref), "relative", True)
    return None


def to_2017(concordance: Concordance, cid: str, corpus: Corpus) -> Target | None:
    """Where a 2007 clause stands in the 2017 Italian text (None: removed in 2017)."""
    found = concordance.row_for_2007(cid)
    if found is None:
        target, ok = corpus.law_target(corpus.laws_after, cid)
        return target if ok else None
    row, below = found
    if not row.it:
        return None
    it = carry(row, below, lambda cid: corpus.law_target(corpus.laws_after, cid)[1])
    return corpus.law_target(corpus.laws_after, it)[0]


def unit_names(doc: Document, unit: Unit) -> tuple[dict[str, str], dict[str, str]]:
    """Clause labels like "X2" and clause titles like "NOTE" that a unit's text may name."""
    if doc.kind == "laws":
        return {}, {}
    labels = {c.label: c.id for c in unit.clauses if re.fullmatch(r"[A-Z]\d{1,2}", c.label)}
    titles = {c.title.lower(): c.id for c in unit.clauses
              if c.title and re.fullmatch(r"[A-Za-zÀ-ú]{4,}", c.title)}
    return labels, titles


def _law_item(c: Citation, law: Citation, corpus: Corpus) -> Citation:
    cid = (law.target.clause or "") + c.extra.pop("item")
    target, ok = corpus.law_target(law.target.doc, cid)
    return Citation(c.source, c.raw, target, "relative", ok)


def cited_laws(doc: Document, corpus: Corpus) -> str:
    """Which Laws a document's bare article numbers mean (DESIGN §3 `cites`)."""
    if doc.kind == LAWS or doc.kind == OTHER_GAME:
        return doc.id
    return doc.meta.get("cites") or corpus.laws_in_force


def relative_law_id(ref: str, context: str) -> str | None:
    """`C2` in 12C1e → 12C2; `3` in 27B → 27B3; `2c` in 16D3 → 16D2c; `(a)` in 27B1b → 27B1a."""
    ctx = ClauseId.parse(context)
    if ctx is None:
        return None
    items = "".join(re.findall(r"[a-z]+", ref)) if ref.startswith("(") else ""
    if ref[0].isupper():
        return ctx.art + ref
    if ref[0].isdigit():
        return ctx.art + (ctx.sec or "") + ref if ctx.sec else None
    return ctx.art + (ctx.sec or "") + (ctx.num or "") + items


def _point(m: Mention, doc: Document, unit: Unit, source: tuple[str, str, str]) -> Citation:
    """A point of the same norm/article in its own numbering (`kb.points`)."""
    best = point_target(unit, PointRef(m.ref, m.direction, m.scope, m.written), source[2])
    key = m.ref.strip("()")
    if best is None and re.fullmatch(r"[a-z]", key):
        return Citation(source, m.raw, Target(doc.id, unit.id, None), "law-item", True, extra={"item": key})
    return Citation(source, m.raw, Target(doc.id, unit.id, best), "relative", True)


def _pointed(target: Target, point: str | None, corpus: Corpus) -> Target:
    """"Norme Int. Art. 4 punto 3", "Appendice 3.2", "art. 24 punto 2": the named point of the
    unit, when the unit has one numbered so."""
    unit = corpus.docs[target.doc].unit(target.unit or "") if point and target.doc in corpus.docs else None
    clause = point_target(unit, PointRef(point)) if unit is not None and point else None
    return Target(target.doc, target.unit, clause) if clause else target


def _definition(m: Mention, doc: Document, source: tuple[str, str, str], corpus: Corpus) -> Citation | None:
    if not m.ref:  # "vedi Definizioni": the definitions article of a code
        target = next((u.id for u in doc.units if (u.title or "").upper().startswith("DEFINIZIONI")), None)
        if target is None:
            return None
        return Citation(source, m.raw, Target(doc.id, target, None), "internal", True)
    uid = "def-" + slugify(m.ref)
    return Citation(source, m.raw, Target(doc.id, uid, uid), "internal", corpus.has_unit(doc.id, uid))


def entry_citation(doc: Document, unit: Unit, clause: str, ref: str, corpus: Corpus,
                   concordance: Concordance | None, correction: Correction | None = None) -> Citation:
    """A time-reference entry's leading reference, in the 2007 numbering.

    A reference the source gets wrong is kept as written (`raw`) and linked
    as its curated correction reads it, with the correction's note.
    """
    cid = correction.reads_2007 if correction else normalize_ref(ref)
    target, ok = corpus.law_target(cited_laws(doc, corpus), cid)
    c = Citation((doc.id, unit.id, clause), ref, target, "cross", ok, "ref")
    if correction:
        c.target_2017 = corpus.law_target(corpus.laws_after, correction.reads_2017)[0]
        c.extra.update(as_written=normalize_ref(ref), correction=correction.note)
    elif concordance is not None:
        c.target_2017 = to_2017(concordance, cid, corpus)
    return c


def normalize_ref(ref: str) -> str:
    """`47E2(a)` → `47E2a`: the compact form of a reference as written."""
    return re.sub(r"[()\s]", "", ref)
