"""Study mode (issue 16): the drills' cards as JSON (`kb.study.cards`), and the /study page — drills,
bookmarks and notes, a reading plan of the Laws in force. Everything the reader does lives in
the browser (web/static/study.js); the server only sends the cards and the page."""
from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from kb.editions.chapters import anchors, chapters
from kb.study.cards import DECK_NAMES, DECKS, Card, cards

from ..site import Site
from ..i18n import marked_for_translation as _
from .decks import decks_url
from ..http.encoded import encoded_response, once_per_build
from ..pages.render import locale_of, render

router = APIRouter(include_in_schema=False)
STUDY, STUDY_CARDS = "/study", "/study/cards.json"

# The question a drill asks of each deck's cards (the decks' names are kb.study.cards').
PROMPTS = {"definitions": _("What does this term mean?"), "timerefs": _("Until when? What is the time limit?"),
           "titles": _("What is this Law's title?"), "situations": _("Which Law rules this situation?")}


def study_cards(site: Site) -> tuple[Card, ...]:
    """The build's cards, made once per loaded build (a generation does not change)."""
    made = site.__dict__.get("_study_cards")
    if made is None:
        made = site.__dict__["_study_cards"] = cards(site.study_sources)
    return made


def by_deck(site: Site) -> dict[str, list[dict[str, Any]]]:
    decks: dict[str, list[dict[str, Any]]] = {d: [] for d in DECKS}
    for c in study_cards(site):
        decks[c.deck].append(c.to_dict())
    return decks


@router.get(STUDY_CARDS)
async def cards_json(request: Request) -> Response:
    """Every card of every deck, for the drills (kept offline by the worker, like the search data)."""
    site = request.app.state.site
    body = once_per_build(site, "_cards_json", lambda: json.dumps({"build": site.gen.name, "decks": by_deck(site)},
                                                                    ensure_ascii=False, separators=(",", ":")).encode())
    return encoded_response(request, body, "application/json", {"cache-control": "no-cache"})


@router.get(STUDY, response_class=HTMLResponse)
async def study(request: Request) -> Response:
    site = request.app.state.site
    laws = site.library.laws_in_force
    counts = {d: len(cs) for d, cs in by_deck(site).items()}
    return render(request, "study.html", decks=[{"id": d, "name": DECK_NAMES[d], "prompt": PROMPTS[d],
                                                  "count": counts[d]} for d in DECKS],
                  plan=reading_plan(site), laws=laws, cards_url=STUDY_CARDS,
                  anki_url=decks_url(locale_of(request)))


def reading_plan(site: Site) -> list[dict[str, Any]]:
    """The Laws in force by chapter (`kb.editions.chapters`: an edition whose Laws carry no chapters, the
    Italian 2017 text, takes another edition's, in that edition's language), articles only."""
    doc = site.store.doc(site.library.laws_in_force)
    units = site.store.units_of(doc.id)
    found = chapters(site.store, site.library, doc.id)
    return [{"id": c.id, "anchor": a, "title": c.title, "lang": c.lang, "units": [units[n] for n in c.laws]}
            for c, a in zip(found, anchors(found))]
