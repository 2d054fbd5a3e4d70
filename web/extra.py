"""The reference pages beside the texts: the board's clock, the glossary, a unit's graph."""
from __future__ import annotations

import math
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from kb.clauseid import article_of, readable
from kb.concordance import note_in, notes_of
from kb.graph import neighbourhood
from kb.library import TIMEREF
from kb.urls import compare_url, url_for
from kb.store import NotFound

from .i18n import marked_for_translation as _
from .pages import PageNotFound, locale_of, render

router = APIRouter(include_in_schema=False)  # pages: the OpenAPI description is the JSON API


# The board's periods, in order (their topics and Laws are data: corpus/clock.tsv).
PERIODS = {
    "before-round": _("Before the round"),
    "shuffle-deal": _("Shuffle and deal"),
    "auction": _("Auction"),
    "clarification": _("End of the auction and clarification period"),
    "lead-play": _("Opening lead and play"),
    "claims": _("Claims and concessions"),
    "end-of-play": _("End of play"),
    "next-board": _("Next board and end of the round"),
    "correction": _("Correction period"),
}


@router.get("/clock", response_class=HTMLResponse)
async def clock(request: Request) -> Response:
    site = request.app.state.site
    store, timeref, laws_doc = site.store, site.library.first(TIMEREF), site.library.newer  # clock.tsv's ids
    periods = []
    for row in site.clock:
        topics = []
        for tid in (t.strip() for t in row["topics"].split(",")):
            unit = store.unit(timeref, tid)
            entries = [{"ref": c.get("ref") or "—", "situation": c.get("subtopic") or "",
                        "url": url_for(timeref, tid, c["id"])}
                       for c in unit["clauses"] if c.get("kind") == "entry"]
            topics.append({"title": unit["title"], "url": url_for(timeref, tid), "entries": entries})
        laws = []
        for cid in (x.strip() for x in row["laws"].split(",")):
            art = article_of(cid)
            laws.append({"label": readable(cid), "title": store.title(laws_doc, art), "url": url_for(laws_doc, art, cid)})
        note_lang, note = note_in(notes_of(row), locale_of(request))
        periods.append({"id": row["period"], "name": PERIODS[row["period"]], "note": note, "note_lang": note_lang,
                        "topics": topics, "laws": laws})
    return render(request, "clock.html", periods=periods, laws_doc=laws_doc, timeref_doc=timeref)


@router.get("/glossary", response_class=HTMLResponse)
async def glossary(request: Request) -> Response:
    site = request.app.state.site
    store = site.store
    lang = locale_of(request)
    pairs = [{"it": p.it, "es": p.es, "also": ", ".join(p.also), **dict(zip(("note_lang", "note"), note_in(p.notes, lang)))}
             for p in site.glossary.curated]
    laws_doc = site.library.laws_in_force
    definitions = [{"title": u["title"], "url": url_for(laws_doc, u["id"])}
                   for u in store.doc(laws_doc)["units"] if u["kind"] == "definition"]
    return render(request, "glossary.html", pairs=pairs, definitions=definitions, laws_doc=laws_doc,
                  it_doc=site.library.laws_in("it"), es_doc=site.library.laws_in("es"))  # the glossary's columns


@router.get("/situations", response_class=HTMLResponse)
async def situations(request: Request) -> Response:
    """The situation index in the reader's language: by period of the board, and A–Z."""
    site = request.app.state.site
    view = site.situation_index(locale_of(request))
    return render(request, "situations.html", view=view, names=PERIODS,
                  shorts={d: site.library.short(d) for d in site.store.documents})


@router.get("/changes", response_class=HTMLResponse)
async def changes(request: Request) -> Response:
    """What changed from 2007 to 2017, Law by Law (`Editions.changes`, which /api/changes answers
    as JSON), each change linked to both texts, its note in the reader's language."""
    site = request.app.state.site
    view, lang = site.editions.changes(), locale_of(request)
    laws: dict[str, list[dict[str, Any]]] = {}
    for c in view.changes:
        note_lang, note = note_in(c.notes, lang)
        laws.setdefault(c.law, []).append({
            "relation": c.relation, "note": note, "note_lang": note_lang,
            "older": _clause_link(view.pair.older, c.older), "newer": _clause_link(view.pair.newer, c.newer)})
    return render(request, "changes.html", view=view, laws=laws,
                  compare={n: compare_url(site.library, view.pair, n) for n in laws})


def _clause_link(doc: str, clause: str) -> dict[str, str] | None:
    return {"doc": doc, "label": readable(clause), "url": url_for(doc, article_of(clause), clause)} if clause else None


GRAPH_SIZE, RADIUS, MAX_NODES = 720, 290, 24
# The graph's kinds of link (kb.graph.neighbourhood's keys), as the page names them.
LINK_KINDS = {
    "cites": _("cites"), "cites_by": _("cited by"),
    "integrates": _("integrates"), "integrates_by": _("integrated by"),
    "annotates": _("gives the times of"), "annotates_by": _("timed by"),
    "parallel": _("other edition"), "parallel_by": _("other edition"),
}


@router.get("/graph/{doc}/{unit}", response_class=HTMLResponse)
async def graph(request: Request, doc: str, unit: str) -> Response:
    site = request.app.state.site
    try:
        u = site.store.unit(doc, unit)
    except NotFound as e:
        raise PageNotFound.of(e) from e
    g = site.graph
    groups = neighbourhood(g, doc, unit)
    nodes, seen = [], set()
    for kind, members in groups.items():
        if kind.startswith("defines"):
            continue  # the definitions a unit uses are listed on its page; here they would crowd the rest
        for m in members:
            if m not in seen and not m.startswith("external:"):
                seen.add(m)
                nodes.append((m, kind))
    nodes = nodes[:MAX_NODES]
    center = GRAPH_SIZE / 2
    placed = []
    for i, (node, kind) in enumerate(nodes):
        angle = 2 * math.pi * i / max(len(nodes), 1)
        d, uid = node.split(":", 1)
        placed.append({"x": round(center + RADIUS * math.cos(angle), 1), "y": round(center + RADIUS * math.sin(angle), 1),
                       "label": _short(site.library.short(d), uid, site.store.title(d, uid)), "title": site.store.title(d, uid), "unit": uid,
                       "url": url_for(d, uid), "kind": kind, "doc": d})
    groups = {k: v for k, v in groups.items() if not k.startswith("defines")}
    return render(request, "graph.html", doc=site.store.doc(doc), unit=u, nodes=placed, size=GRAPH_SIZE,
                  center=center, groups={k: len(v) for k, v in groups.items()}, link_kinds=LINK_KINDS,
                  center_label=_short(site.library.short(doc), unit, u.get("title") or ""))


def _short(mark: str, unit: str, title: str) -> str:
    """A node's label: "IT 27", "NI 40-2", "TR Licitaz…" (the manifest's `short` mark, then a
    numbered unit's number, else its title cut short)."""
    name = unit if unit[:1].isdigit() else title or unit
    return f"{mark} {name if len(name) <= 9 else name[:8] + '…'}"
