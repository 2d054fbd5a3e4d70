"""The situation index (DESIGN §8): its periods, every situation A–Z, and each page of a period."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from kb.readmodel.situationview import Entry, IndexView, LawRun, PageView
from kb.records.store import NotFound

from ..site import Site
from .render import PERIODS, PageNotFound, locale_of, render

router = APIRouter(include_in_schema=False)  # pages: the OpenAPI description is the JSON API


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


def situations_page_data(site: Site, view: IndexView, page: PageView) -> dict[str, Any]:
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
