"""The reference pages beside the texts: the board's clock, the glossary, a unit's graph."""
from __future__ import annotations

import math
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from kb.records.clauseid import article_of, readable
from kb.corpus.tables import note_in
from kb.build.graph import neighbourhood
from kb.corpus.library import TIMEREF
from kb.readmodel.situationview import Entry, IndexView, LawRun, PageView
from kb.corpus.urls import situations_page_url, url_for
from kb.records.store import NotFound

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
    situated = {p.period: situations_page_url(p.period) for p in site.situation_pages}  # a period's first page
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
        note_lang, note = note_in(site.clock_notes.get(row["period"], ()), locale_of(request))
        periods.append({"id": row["period"], "name": PERIODS[row["period"]], "note": note, "note_lang": note_lang,
                        "topics": topics, "laws": laws, "situations": situated.get(row["period"])})
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
    """The situation index in the reader's language: its periods (each a page, or a few), and
    every situation A–Z, linked to the page that has it."""
    view = request.app.state.site.situation_index(locale_of(request))
    return render(request, "situations.html", data=situations_index(view))


@router.get("/situations/{page}", response_class=HTMLResponse)
async def situations_page(request: Request, page: str) -> Response:
    """A page of the index: a period of the board (or a run of its Laws), its situations under
    the Law that rules each first, each with its ruling clauses in every edition."""
    site = request.app.state.site
    view = site.situation_index(locale_of(request))
    try:
        shown = view.page(page)
    except NotFound as e:  # a page, not a document or a unit: the message names the pages
        raise PageNotFound(str(e)) from e
    return render(request, "situations_page.html", data=situations_page_data(site, view, shown))


def situations_index(view: IndexView) -> dict[str, Any]:
    """Each period with its pages (a period cut in runs of Laws names each run), and A–Z."""
    periods = []
    for period, entries in view.periods:
        pages = [_page_link(p) for p in view.of_period(period)]
        periods.append({"id": period, "name": PERIODS[period], "count": len(entries), "url": pages[0]["url"],
                        "parts": pages if len(pages) > 1 else []})
    letters = [{"letter": letter, "entries": [{"name": e.name, "url": e.url} for e in entries]}
               for letter, entries in view.letters]
    return {"periods": periods, "letters": letters}


def situations_page_data(site: Any, view: IndexView, page: PageView) -> dict[str, Any]:
    """A page's situations by Law, with the other pages of its period, and the pages before and after."""
    at, split = view.pages.index(page), page.parts > 1
    shorts = {d: site.library.short(d) for d in site.store.documents}
    return {"period": page.period, "name": PERIODS[page.period], "laws": page.laws if split else None,
            "parts": [_page_link(p) | {"current": p == page} for p in view.of_period(page.period)] if split else [],
            "previous": _page_link(view.pages[at - 1]) if at else None,
            "next": _page_link(view.pages[at + 1]) if at + 1 < len(view.pages) else None,
            "runs": [_law_run(run, shorts) for run in page.runs]}


def _page_link(p: PageView) -> dict[str, Any]:
    return {"url": p.url, "name": PERIODS[p.period], "laws": p.laws if p.parts > 1 else None, "count": len(p.entries)}


def _law_run(run: LawRun, shorts: dict[str, str]) -> dict[str, Any]:
    return {"law": run.law, "doc": run.doc, "url": run.url, "title": run.title,
            "entries": [_situation(e, shorts) for e in run.entries]}


def _situation(e: Entry, shorts: dict[str, str]) -> dict[str, Any]:
    return {"id": e.id, "name": e.name, "also": "; ".join(e.also[:2]),
            "rules": [{"badge": f"{shorts[doc]} {edition}", "links": [{"url": r.url, "label": r.label} for r in rules]}
                      for doc, edition, rules in e.by_document()]}


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
