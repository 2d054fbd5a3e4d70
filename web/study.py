"""Study mode (issue 16): the drills' cards as JSON (`kb.study`), and the /study page — drills,
bookmarks and notes, a reading plan of the Laws in force. Everything the reader does lives in
the browser (web/static/study.js); the server only sends the cards and the page."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from kb.library import LAWS
from kb.study import DECK_NAMES, DECKS, Card, cards

from .i18n import marked_for_translation as _
from .decks import decks_url
from .pages import locale_of, render, toc_groups

router = APIRouter(include_in_schema=False)
STUDY, STUDY_CARDS = "/study", "/study/cards.json"

# The question a drill asks of each deck's cards (the decks' names are kb.study's).
PROMPTS = {"definitions": _("What does this term mean?"), "timerefs": _("Until when? What is the time limit?"),
           "titles": _("What is this Law's title?"), "situations": _("Which Law rules this situation?")}


def study_cards(site: Any) -> tuple[Card, ...]:
    """The build's cards, made once per loaded build (a generation does not change)."""
    made = site.__dict__.get("_study_cards")
    if made is None:
        made = site.__dict__["_study_cards"] = cards(site)
    return made


def by_deck(site: Any) -> dict[str, list[dict[str, Any]]]:
    decks: dict[str, list[dict[str, Any]]] = {d: [] for d in DECKS}
    for c in study_cards(site):
        decks[c.deck].append(c.to_dict())
    return decks


@router.get(STUDY_CARDS)
async def cards_json(request: Request) -> Response:
    """Every card of every deck, for the drills (kept offline by the worker, like the search data)."""
    site = request.app.state.site
    return JSONResponse({"build": site.gen.name, "decks": by_deck(site)}, headers={"cache-control": "no-cache"})


@router.get(STUDY, response_class=HTMLResponse)
async def study(request: Request) -> Response:
    site = request.app.state.site
    laws = site.library.laws_in_force
    counts = {d: len(cs) for d, cs in by_deck(site).items()}
    return render(request, "study.html", decks=[{"id": d, "name": DECK_NAMES[d], "prompt": PROMPTS[d],
                                                  "count": counts[d]} for d in DECKS],
                  plan=reading_plan(site), laws=laws, cards_url=STUDY_CARDS,
                  anki_url=decks_url(locale_of(request)))


def reading_plan(site: Any) -> list[dict[str, Any]]:
    """The Laws in force by chapter, as a contents page lists them (articles only). An edition
    whose Laws carry no chapters (the Italian 2017 text) takes them, by Law number, from another
    edition that has them: its chapter numbers and titles, in that edition's language."""
    doc = site.store.doc(site.library.laws_in_force)
    articles = [u for g in toc_groups(doc) for u in g["units"] if u["label"]]
    for source in [doc["id"], *(d for d in site.library.ids(LAWS) if d != doc["id"])]:
        chapters = {u["id"]: g for g in toc_groups(site.store.doc(source)) if g["title"] for u in g["units"]}
        if any(u["id"] in chapters for u in articles):
            return _by_chapter(articles, chapters, site.store.doc(source)["lang"])
    return [{"id": "", "anchor": "laws", "title": "", "lang": doc["lang"], "units": articles}]


def _by_chapter(articles: list[dict[str, Any]], chapters: dict[str, dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    groups: list[dict[str, Any]] = []
    for u in articles:
        g = chapters.get(u["id"], {"id": "", "title": ""})
        if not groups or groups[-1]["id"] != g["id"]:
            groups.append({"id": g["id"], "anchor": f"chapter-{g['id'] or 'other'}-{len(groups)}", "title": g["title"],
                           "lang": lang, "units": []})
        groups[-1]["units"].append(u)
    return groups
