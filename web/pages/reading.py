"""Reading a document (DESIGN §8): its contents (/{doc}) and a unit's page (/{doc}/{unit}) — the
clauses with their citation links, the norms, times and parallels beside them, the side panels.
These are the catch-all paths: the app includes them after every fixed one."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from kb.citations.annotate import annotate, in_text_of
from kb.citations.style import citation
from kb.corpus.urls import situation_url, url_for
from kb.editions.chapters import anchors, chapters
from kb.readmodel.unitview import Ref, UnitView
from kb.records.clauseid import readable
from kb.records.built import BuiltClause, BuiltDocument, BuiltUnit
from kb.records.store import NotFound

from ..site import Site
from ..i18n import marked_for_translation as _
from .render import LONG_NORM, PageNotFound, locale_of, render, replaced_by
from .views import clause_body

router = APIRouter(include_in_schema=False)  # pages: the OpenAPI description is the JSON API
OPENING = 90     # characters of a norm's opening words


@router.get("/{doc}", response_class=HTMLResponse)
async def document(request: Request, doc: str) -> Response:
    site = request.app.state.site
    try:
        d = site.store.doc(doc)
    except NotFound as e:
        raise PageNotFound.of(e) from e
    data = laws_contents(site, d) if site.library.is_laws(doc) else {"chapters": [], "groups": toc_groups(d)}
    return render(request, "document.html", doc=d, data=data, replaced=replaced_by(site, doc))


def laws_contents(site: Site, d: BuiltDocument) -> dict[str, Any]:
    """A Laws document's contents: its Laws as a grid of numbers by chapter (`kb.editions.chapters`; whose
    chapters they are when the text prints none), then what else it holds, the definitions first."""
    titles = {u.id: u.title or "" for u in d.units}
    found = chapters(site.store, site.library, d.id)
    shown = [{"id": c.id, "anchor": a, "title": c.title, "lang": c.lang,
              "laws": [{"n": n, "title": titles[n]} for n in c.laws]} for c, a in zip(found, anchors(found))]
    rest = [g for g in toc_groups(d) if not any(u["label"] for u in g["units"])]
    kinds = {u.id: u.kind for u in d.units}
    return {"chapters": shown, "chapters_of": next((c.doc for c in found if c.id and c.doc != d.id), None),
            "groups": sorted(rest, key=lambda g: not any(kinds[u["id"]] == "definition" for u in g["units"]))}


def toc_groups(d: BuiltDocument) -> list[dict[str, Any]]:
    titles = {g.id: g.title for g in d.groups}
    groups: list[dict[str, Any]] = []
    for u in d.units:
        gid = u.group or ""
        if not groups or groups[-1]["id"] != gid:
            groups.append({"id": gid, "anchor": gid or "units", "title": titles.get(gid, ""), "units": []})
        sections = [{"id": c.id, "label": u.number(c), "title": c.title}
                    for c in u.clauses if c.parent == u.id and u.numbered]
        groups[-1]["units"].append({"id": u.id, "title": u.title, "sections": sections, "label": u.label})
    return groups


@router.get("/{doc}/{unit}", response_class=HTMLResponse)
async def unit(request: Request, doc: str, unit: str) -> Response:
    site = request.app.state.site
    try:
        view = site.unit_view(doc, unit)
    except NotFound as e:
        raise PageNotFound.of(e) from e
    return render(request, "unit.html", **unit_context(site, view, locale_of(request)))


def unit_context(site: Site, view: UnitView, lang: str) -> dict[str, Any]:
    """The unit page: the view `/api/units/{doc}/{unit}` answers, its clauses cut into
    segments with their citation links and the links attached beside each; the situations
    it rules, named in the reader's language."""
    d, u = view.doc, view.unit
    out_cits = site.store.outgoing(d.id, u.id)
    depths, labels = u.depths(), {c.id: u.heading(c) for c in u.clauses}
    headings = heading_levels(u, {c.id for c in u.clauses if labels[c.id] or c.title})
    attached = view.links.attached(u.id)
    cite = cite_of(site, d.id, u, lang)
    norms = [n | norm_text(site, n["ref"]) for n in placed(view.links.norms, labels, view)]
    clauses = [{"id": c.id, "depth": depths[c.id], "heading": headings[c.id], "label": labels[c.id], "title": c.title,
                "body": clause_body(c, annotate(c.text, in_text_of(out_cits, c.id), site.store)),
                "paragraph": c.paragraph, "cite": cite(c.id),
                **{kind: attached.get(c.id, {}).get(kind, []) for kind in ("timerefs", "parallel")},
                "norms": [n for n in norms if n["anchor"] == c.id]}
               for c in u.clauses]
    footnotes = [{"marker": f.marker, "text": f.text, "at": [{"id": cid, "label": readable(cid)} for cid in
                                                             f.clauses or ((f.clause,) if f.clause else ())]}
                 for f in u.footnotes]  # every clause holding the footnote's marker, linked
    situations = [{"url": situation_url(s.id, site.situation_page[s.id]), "name": s.name(lang)}
                  for s in site.situations_ruled_in(d.id, u.id)]
    whole = attached.get(u.id, {})
    own = u.clause(u.id) is not None  # a unit with text of its own before its clauses
    page_tools = {"id": u.id, "href": f"#{u.id}" if own else url_for(d.id, u.id),
                  "cite": cite(u.id), "parallel": whole.get("parallel", []),
                  "compare": view.compare, "timerefs_here": whole.get("timerefs", [])}
    return {"view": view, "doc": d, "unit": u, "clauses": clauses, "page_tools": page_tools,
            "footnotes": footnotes, "situations": situations, "panels": side_panels(view, situations),
            "norms": norms, "timerefs": placed(view.links.timerefs, labels, view),
            "in_plan": d.id == site.library.laws_in_force and u.kind == "article",  # the reading plan's
            "replaced": replaced_by(site, d.id, u.id)}


def cite_of(site: Site, doc: str, unit: BuiltUnit, lang: str) -> Any:
    """A clause id's citation as this reader writes it ("Codice 2017, Art. 27B1(b)")."""
    gettext, label = site.translations[lang].gettext, site.library.label(doc, lang)
    return lambda clause: citation(gettext, label, unit, clause)


def placed(refs: tuple[Ref, ...], labels: dict[str, str], view: UnitView) -> list[dict[str, Any]]:
    """References with the clause of this unit they stand beside (its anchor and its label)."""
    at = [r.at or view.unit.id for r in refs]
    return [{"anchor": a, "label": labels.get(a) or view.label, "ref": r} for a, r in zip(at, refs)]


# The side material of a unit page, in the order it is shown (after the Law on a phone), as the
# menu at the top of the page names it (short: the menu fits a phone's width in three lines).
PANELS = {"norms": _("FIGB norms"), "timerefs": _("Time references"), "cited_by": _("Cited by"),
          "situations": _("Situations"), "terms": _("Defined terms"), "compare": _("Other edition")}


def side_panels(view: UnitView, situations: list[dict[str, str]]) -> list[dict[str, Any]]:
    """The menu at the top of a unit page: each side panel that has something, with how many,
    so a phone reaches the norms or the citing clauses without scrolling past the whole Law."""
    links = view.links
    counts = {"norms": len(links.norms), "timerefs": len(links.timerefs), "cited_by": len(links.cited_by),
              "situations": len(situations), "terms": len(view.terms), "compare": len(view.compare)}
    return [{"id": kind.replace("_", "-"), "name": PANELS[kind], "count": n if kind != "compare" else None}
            for kind, n in counts.items() if n]


def norm_text(site: Site, ref: Ref) -> dict[str, Any]:
    """A FIGB norm paragraph as shown beside the Law clause it integrates: its text with its own
    citation links, in its document's language; `long` ones are folded, so the Law reads on.
    A norm keyed to the whole Law (no clause) is shown by `whole_norm`."""
    unit = site.store.unit(ref.doc, ref.unit or "")
    if ref.clause is None:
        return whole_norm(site, ref.doc, unit)
    clause = next(c for c in unit.clauses if c.id == ref.clause)
    text = " ".join(clause.text.split())
    return {"lang": site.store.doc(ref.doc).lang, "long": len(text) > LONG_NORM, "opening": opening(text),
            "body": own_body(site, ref.doc, unit, clause)}


def whole_norm(site: Site, doc: str, unit: BuiltUnit) -> dict[str, Any]:
    """A norm at the top of the Law it integrates: its lead text, then its points, each a link
    into the norm (the whole of norm 8, tables and all, would push Law 8 off the screen)."""
    lead = next(c for c in unit.clauses if c.id == unit.id)
    points = [c for c in unit.clauses if c.parent == unit.id]
    names = [point_name(c) for c in points]
    contents = [{"paragraph": [{"text": name, "href": url_for(doc, unit.id, c.id), "title": name}]}
                for name, c in zip(names, points)]
    lead_text = " ".join(lead.text.split())
    return {"lang": site.store.doc(doc).lang, "long": len(unit.text) > LONG_NORM,
            "opening": opening(lead_text or " · ".join(names)), "body": own_body(site, doc, unit, lead) + contents}


def point_name(clause: BuiltClause) -> str:
    """A point of a norm as its contents name it: its label and title ("1. Sostituti"), or its
    label and opening words when it has no title ("40A1(b) La FIGB ha definito…")."""
    words = clause.title or opening(" ".join(clause.text.split()), 60)
    return " ".join(part for part in (clause.label, words) if part)


def own_body(site: Site, doc: str, unit: BuiltUnit, clause: BuiltClause) -> list[dict[str, Any]]:
    cits = in_text_of(site.store.outgoing(doc, unit.id), clause.id)
    return clause_body(clause, annotate(clause.text, cits, site.store))


def opening(text: str, length: int = OPENING) -> str:
    """A text's opening words, cut at a word before `length` characters."""
    return text if len(text) <= length else text[:length].rsplit(" ", 1)[0] + "…"


def heading_levels(unit: BuiltUnit, headed: set[str]) -> dict[str, int]:
    """The heading element (2 to 6) of each clause: h2 under the page's h1, one level deeper
    for each headed clause above it (27B h2, 27B1 h3, 27B1(a) h4), so the outline nests as the
    clauses do; a clause shown without a heading adds no level."""
    above: dict[str, int] = {}
    for c in unit.clauses:  # a parent is listed before its clauses
        parent = c.parent
        above[c.id] = above.get(parent, 0) + (parent in headed) if parent else 0
    return {cid: min(2 + n, 6) for cid, n in above.items()}
