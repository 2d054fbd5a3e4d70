"""The reference pages beside the texts: the board's clock, the glossary."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from kb.corpus.library import TIMEREF
from kb.corpus.tables import note_in
from kb.corpus.urls import situations_page_url, url_for
from kb.records.clauseid import article_of, readable

from .render import PERIODS, locale_of, render

router = APIRouter(include_in_schema=False)  # pages: the OpenAPI description is the JSON API


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
            entries = [{"ref": unit.number(c), "situation": c.subtopic or "", "url": url_for(timeref, tid, c.id)}
                       for c in unit.clauses if c.kind == "entry"]
            topics.append({"title": unit.title, "url": url_for(timeref, tid), "entries": entries})
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
    definitions = [{"title": u.title, "url": url_for(laws_doc, u.id)}
                   for u in store.doc(laws_doc).units if u.kind == "definition"]
    return render(request, "glossary.html", pairs=pairs, definitions=definitions, laws_doc=laws_doc,
                  it_doc=site.library.laws_in("it"), es_doc=site.library.laws_in("es"))  # the glossary's columns
