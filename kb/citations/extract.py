"""Citations: find → resolve over the whole corpus (DESIGN §5).

`extract(documents, concordances)` walks every clause (text, title, notes),
every footnote and every time-reference entry; in each text it *finds*
mentions with `kb.citations.grammar`, then *resolves* them in order with
`kb.citations.resolve`, carrying the last Law clause cited as the text's one piece of
state. Each link becomes a frozen `Citation`: a source (doc, unit, clause),
the raw text and its span, a target (doc, unit, clause) or an external name,
a kind (internal, relative, cross, external, integrates) and whether the
target exists in the edition it is resolved against. A clause of a replaced edition of the Laws
cited from another document also names where it stands in the Laws in force, through each
concordance on the way (`target_in_force`), and, cited in the first concordance's older edition
(2007), where it stands in its newer one (`target_2017`, DESIGN §7): time-reference entries cite
the 2007 numbering, resolve in `es-laws` and reach `it-laws` so.
"""
from __future__ import annotations

import re
from typing import Iterator

from ..records.citation import Citation, Link, Site, Target
from .grammar import Mention, find
from ..editions.concordance import Concordances, Correction
from ..corpus.library import LAWS
from ..records.model import Document, Unit
from .resolve import Lookups, resolve

Corrections = dict[tuple[str, str], Correction]


def extract(documents: list[Document], concordances: Concordances | None = None,
            corrections: Corrections | None = None) -> list[Citation]:
    look = Lookups(documents, concordances)
    out: list[Citation] = []
    for doc in documents:
        for unit in doc.units:
            out += unit_citations(doc, unit, look, corrections or {})
    return out


def unit_citations(doc: Document, unit: Unit, look: Lookups, corrections: Corrections) -> Iterator[Citation]:
    def read(clause: str, text: str, where: str) -> Iterator[Citation]:
        return text_citations(Site(doc, unit, clause, where), text, look)

    if unit.kind == "definition" and unit.title:  # "Penalità (vedi anche "Rettifica")"
        yield from read(unit.id, unit.title, "unit-title")
    for clause in unit.clauses:
        for where, text in (("title", clause.title), ("text", clause.text)):
            if text:
                yield from read(clause.id, text, where)
        for note in clause.notes:
            yield from read(clause.id, note.text, "note")
        if "law_clause" in clause.extra:
            yield label_citation(Site(doc, unit, clause.id, "label"), clause.label, clause.extra["law_clause"], look)
        if clause.extra.get("ref"):
            correction = corrections.get((doc.id, clause.extra["ref"]))
            yield entry_citation(Site(doc, unit, clause.id, "ref"), clause.extra["ref"], look, correction)
    for fn in unit.footnotes:
        yield from read(fn.clause or unit.id, fn.text, "footnote")


def text_citations(site: Site, text: str, look: Lookups) -> Iterator[Citation]:
    """Find, then resolve in reading order: a lone letter after a Law clause is its item."""
    last_law: Target | None = None
    for m in mentions(site, text, look):
        for link in resolve(m, site, look, last_law):
            c = citation(site, m, link, look)
            if link.kind in ("internal", "cross") and look.library.is_laws(link.target.doc):
                last_law = link.target
            yield c


def mentions(site: Site, text: str, look: Lookups) -> list[Mention]:
    """The mentions a text makes, less a heading's own label ("Procedura incorretta (20G3)",
    which its `integrates` link carries)."""
    labels, titles = unit_names(site.doc, site.unit)
    found = find(text, site.doc.lang, labels, titles)
    clause = site.unit.clause(site.clause)
    own = clause.extra.get("law_clause") if clause else None
    return [m for m in found if not (site.where == "title" and m.kind == "law" and m.ref == own)]


def citation(site: Site, m: Mention, link: Link, look: Lookups) -> Citation:
    """A link read in a text; a clause of a replaced edition of the Laws cited from another
    document also names where it stands now (`Lookups.onward`)."""
    to_2017, in_force = look.onward(site.doc.id, link.target)
    return Citation(site.source, m.raw, link.target, link.kind, link.resolved, site.where,
                    (m.start, m.end), to_2017, target_in_force=in_force)


def label_citation(site: Site, label: str, law_clause: str, look: Lookups) -> Citation:
    """A norm paragraph labelled with the Law clause it integrates ("Procedura incorretta (20G3)")."""
    link = look.law_link(look.cited_laws(site.doc), law_clause, "integrates")
    return Citation(site.source, label or law_clause, link.target, link.kind, link.resolved, site.where)


def entry_citation(site: Site, ref: str, look: Lookups, correction: Correction | None = None) -> Citation:
    """A time-reference entry's leading reference, in the 2007 numbering.

    A reference the source gets wrong is kept as written (`raw`) and linked
    as its curated correction reads it, with the correction's note.
    """
    cid = correction.reads_2007 if correction else normalize_ref(ref)
    link = look.law_link(look.cited_laws(site.doc), cid, "cross")
    if correction:
        return Citation(site.source, ref, link.target, link.kind, link.resolved, site.where,
                        target_2017=look.law_target(look.laws_after, correction.reads_2017)[0],
                        as_written=normalize_ref(ref), correction=correction.note,
                        target_in_force=look.reach(look.laws_after, correction.reads_2017, look.laws_in_force))
    to_2017, in_force = look.onward(site.doc.id, link.target)
    return Citation(site.source, ref, link.target, link.kind, link.resolved, site.where, target_2017=to_2017,
                    target_in_force=in_force)


def unit_names(doc: Document, unit: Unit) -> tuple[dict[str, str], dict[str, str]]:
    """Clause labels like "X2" and clause titles like "NOTE" that a unit's text may name."""
    if doc.kind == LAWS:
        return {}, {}
    labels = {c.label: c.id for c in unit.clauses if re.fullmatch(r"[A-Z]\d{1,2}", c.label)}
    titles = {c.title.lower(): c.id for c in unit.clauses
              if c.title and re.fullmatch(r"[A-Za-zÀ-ú]{4,}", c.title)}
    return labels, titles


def normalize_ref(ref: str) -> str:
    """`47E2(a)` → `47E2a`: the compact form of a reference as written."""
    return re.sub(r"[()\s]", "", ref)
