"""Resolve: a mention read at a site → the links it makes (DESIGN §5).

One resolver per mention kind (`RESOLVERS`), each a pure function of the
mention, its site, the corpus' ids (`Lookups`) and the one piece of state a
text carries from mention to mention: the last Law clause it cited
(`… l'Articolo 16D2 … al punto d)` names 16D2d). A resolver returns no link
when the mention names nothing here (a self-reference, a point the Laws do
not number).
"""
from __future__ import annotations

import re
from typing import Callable

from ..records.citation import EXTERNAL, Link, Site, Target
from .grammar import PRECEDING, Mention
from ..records.clauseid import ClauseId, unit_numbered
from ..editions.concordance import Concordances, carry
from ..corpus.library import LAWS, NORMS, OTHER_GAME, EditionPair, Library
from ..records.model import Document
from .points import PointRef, point_target, preceding_points
from ..common.text import slugify


class Lookups:
    """Id lookups across documents, for resolution."""

    def __init__(self, documents: list[Document], concordances: Concordances | None = None):
        """`concordances`: the tables that carry a clause of one edition to the next (none: a
        citation is read in the edition it names only)."""
        self.docs = {d.id: d for d in documents}
        self.library = Library.of(documents)
        self.concordances = concordances
        self.laws_in_force = self.library.laws_in_force or ""
        self.laws_before = self.library.older or ""  # the first concordance maps its clauses…
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

    def law_link(self, doc: str, cid: str, kind: str) -> Link:
        target, ok = self.law_target(doc, cid)
        return Link(target, kind, ok)

    def has_unit(self, doc: str, unit: str) -> bool:
        return unit in self.clauses.get(doc, {})

    def unit_numbered(self, doc: str, number: str) -> str | None:
        """The unit a number names in a document: numbered so, or a range covering it ("92-93")."""
        return unit_numbered(self.clauses.get(doc, {}), number)

    def cited_laws(self, doc: Document) -> str:
        """Which Laws a document's bare article numbers mean (DESIGN §3 `cites`)."""
        if doc.kind == LAWS or doc.kind == OTHER_GAME:
            return doc.id
        return doc.meta.get("cites") or self.laws_in_force

    def reach(self, doc: str, cid: str, to: str) -> Target | None:
        """Where a clause of one edition stands in another, newer one, carried through each
        concordance on the way (`Library.chain`); None when the way removes it or there is none."""
        chain = self.library.chain(doc, to) if self.concordances is not None else None
        for pair in chain or ():
            cid = self._carried(pair, cid) or ""
        return self.law_target(to, cid)[0] if chain is not None and cid else None

    def _carried(self, pair: EditionPair, cid: str) -> str | None:
        """The newer clause an older one stands at: its concordance's row says (none: removed,
        or a clause the table has no row for), or, for editions numbered alike, the same id."""
        exists = lambda newer: self.law_target(pair.newer, newer)[1]  # noqa: E731
        if not pair.by_table:
            return cid if exists(cid) else None
        table = (self.concordances or {}).get((pair.older, pair.newer))
        found = table.row_for(cid) if table else None
        return (carry(found[0], found[1], exists) or None) if found else None

    def to_2017(self, cid: str) -> Target | None:
        """Where a clause of the first concordance's older edition (2007) stands in its newer
        one (2017), the edition `target_2017` names (DESIGN §7)."""
        return self.reach(self.laws_before, cid, self.laws_after)

    def onward(self, site_doc: str, target: Target) -> tuple[Target | None, Target | None]:
        """(its 2017 reading, its reading in the Laws in force) of a clause of a replaced edition
        of the Laws cited from another document; (None, None) for any other target."""
        doc = target.doc
        if doc == site_doc or doc == self.laws_in_force or not self.library.is_laws(doc):
            return None, None
        cid = target.clause or ""  # a whole Law cited is read where it is printed
        return (self.to_2017(cid) if doc == self.laws_before else None), self.reach(doc, cid, self.laws_in_force)


Resolver = Callable[[Mention, Site, Lookups, "Target | None"], list[Link]]


def resolve(m: Mention, site: Site, look: Lookups, last_law: Target | None = None) -> list[Link]:
    """The links a mention read at `site` makes; `last_law` is the Law clause the text cited last."""
    resolver = RESOLVERS.get(m.kind)
    return resolver(m, site, look, last_law) if resolver else []


def _external(m: Mention, site: Site, look: Lookups, last_law: Target | None) -> list[Link]:
    return [Link(Target(EXTERNAL, name=m.ref), EXTERNAL)]


def _norm(m: Mention, site: Site, look: Lookups, last_law: Target | None) -> list[Link]:
    uid = look.unit_numbered(look.norms, m.ref)  # "all'Art. 93": the norm on Laws 92 and 93
    target = _pointed(Target(look.norms, uid or m.ref, None), m.point, look)
    return [Link(target, _within(site, look.norms), uid is not None)]


def _appendix(m: Mention, site: Site, look: Lookups, last_law: Target | None) -> list[Link]:
    uid = look.appendix_by_number.get(m.ref, m.ref)
    if site.doc.id == look.norms and uid == site.unit.id:
        return []  # "una normativa di alert" inside the alert appendix: itself, not a reference
    target = _pointed(Target(look.norms, uid, None), m.point, look)
    return [Link(target, _within(site, look.norms), look.has_unit(look.norms, uid))]


def _definition(m: Mention, site: Site, look: Lookups, last_law: Target | None) -> list[Link]:
    doc = site.doc
    if not m.ref:  # "vedi Definizioni": the definitions article of a code
        target = next((u.id for u in doc.units if (u.title or "").upper().startswith("DEFINIZIONI")), None)
        return [Link(Target(doc.id, target, None), "internal")] if target else []
    uid = "def-" + slugify(m.ref)
    return [Link(Target(doc.id, uid, uid), "internal", look.has_unit(doc.id, uid))]


def _law(m: Mention, site: Site, look: Lookups, last_law: Target | None) -> list[Link]:
    law_doc = look.cited_laws(site.doc)
    kind = _within(site, law_doc)
    if site.doc.kind == OTHER_GAME:  # the Burraco code cites its own articles only
        target = _pointed(Target(site.doc.id, m.ref, None), m.point, look)
        return [Link(target, kind, look.has_unit(site.doc.id, m.ref))]
    return [look.law_link(law_doc, m.ref, kind)]


def _relative(m: Mention, site: Site, look: Lookups, last_law: Target | None) -> list[Link]:
    if site.doc.kind != LAWS:
        return _point(m, site, look, last_law)
    cid = relative_law_id(m.ref, site.clause)
    return [look.law_link(site.doc.id, cid, "relative")] if cid else []


def _point(m: Mention, site: Site, look: Lookups, last_law: Target | None) -> list[Link]:
    """A point of the same norm/article in its own numbering (`kb.citations.points`); a lone letter that
    names no point of its own is an item of the Law clause the text just cited."""
    if m.kind == "point" and m.ref == PRECEDING:
        return [_here(site, cid) for cid in preceding_points(site.unit, site.clause)]
    if site.doc.kind == LAWS and m.kind == "point":
        return []
    best = point_target(site.unit, PointRef(m.ref, m.direction, m.scope, m.written), site.clause)
    key = m.ref.strip("()")
    if best is None and re.fullmatch(r"[a-z]", key):
        if last_law is None or not last_law.clause:
            return []
        return [look.law_link(last_law.doc, last_law.clause + key, "relative")]
    return [_here(site, best)]


def _named(m: Mention, site: Site, look: Lookups, last_law: Target | None) -> list[Link]:
    return [_here(site, m.ref)]


RESOLVERS: dict[str, Resolver] = {
    "external": _external,
    "norm": _norm,
    "appendix": _appendix,
    "definition": _definition,
    "law": _law,
    "relative": _relative,
    "point": _point,
    "named": _named,
}


def _here(site: Site, clause: str | None) -> Link:
    return Link(Target(site.doc.id, site.unit.id, clause), "relative")


def _within(site: Site, doc: str) -> str:
    return "internal" if site.doc.id == doc else "cross"


def _pointed(target: Target, point: str | None, look: Lookups) -> Target:
    """"Norme Int. Art. 4 punto 3", "Appendice 3.2", "art. 24 punto 2": the named point of the
    unit, when the unit has one numbered so."""
    unit = look.docs[target.doc].unit(target.unit or "") if point and target.doc in look.docs else None
    clause = point_target(unit, PointRef(point)) if unit is not None and point else None
    return Target(target.doc, target.unit, clause) if clause else target


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
