"""The page machinery every family shares (DESIGN §8): the templates, the reader's locale, a
page rendered in it, a page that does not exist; and what pages of several families say alike."""
from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

from kb.citations.style import place_name, unit_name
from kb.corpus.urls import url_for
from kb.records.store import NotFound
from kb.search.model import MODEL_NAME

from ..site import Site
from ..i18n import LOCALES, marked_for_translation as _, negotiate

WEB = Path(__file__).resolve().parents[1]  # web/: its templates/ and static/ lie beside the packages
TEMPLATES = Environment(loader=FileSystemLoader(WEB / "templates"),
                        autoescape=select_autoescape(default=True, default_for_string=True))
LONG_NORM = 400  # characters: a longer norm paragraph is folded beside its clause, its opening words shown
SEARCH_DATA = f"/offline/{MODEL_NAME}"  # the search model as the browser's engine fetches it
TEMPLATES.globals["search_data"] = SEARCH_DATA  # every page's search box can search without the server
TEMPLATES.globals["long_norm"] = LONG_NORM  # the answer card folds a norm alike (offline.js reads it off the page)


class PageNotFound(Exception):
    """A page that does not exist; `missing` (the library's NotFound) says what was asked for,
    so that the page can say it in its reader's language."""

    def __init__(self, message: str, missing: NotFound | None = None):
        self.message, self.missing = message, missing

    @classmethod
    def of(cls, e: NotFound) -> "PageNotFound":
        return cls(str(e), e)


def locale_of(request: Request) -> str:
    return negotiate(request.query_params.get("ui"), request.cookies.get("ui"),
                     request.headers.get("accept-language"), locales_of(request))


def locales_of(request: Request) -> tuple[str, ...]:
    """The interface languages of the build a request is served from."""
    site = request.app.state.site
    return site.locales if site is not None else LOCALES


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    site = request.app.state.site
    locale = locale_of(request)
    translations = site.translations[locale]
    params = {k: v for k, v in request.query_params.items() if k != "ui"}
    here = "/" + request.url.path.lstrip("/")  # "//evil.example/x" would be another site's address
    alternates = [{"locale": loc, "href": f"{here}?{urlencode({**params, 'ui': loc})}"} for loc in site.locales]
    html = TEMPLATES.get_template(template).render(
        _=translations.gettext, locale=locale, alternates=alternates, doc_langs=doc_langs(site),
        docname=lambda doc: site.library.label(doc, locale),
        doc_labels={d: site.library.label(d, locale) for d in site.store.documents},
        unit_name=lambda doc, unit: unit_name(translations.gettext, site.store.unit(doc, unit)),
        place=lambda doc, unit, clause=None: place_name(translations.gettext, site.store.unit(doc, unit), clause),
        **context)
    response = HTMLResponse(html, status_code=status)
    if request.query_params.get("ui") in site.locales:
        response.set_cookie("ui", locale, max_age=365 * 24 * 3600, samesite="lax")
    response.headers["Content-Language"] = locale
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


def doc_langs(site: Site) -> dict[str, str]:
    """The language of each document: law text carries its own `lang`, whatever the interface's."""
    return {d: doc.lang for d, doc in site.store.documents.items()}


def replaced_by(site: Site, doc: str, unit: str | None = None) -> dict[str, Any] | None:
    """For an edition of the Laws a newer one replaces: that edition, since when it is in force,
    and the same Law in it (the numbers of the Laws are kept from edition to edition)."""
    newest = site.library.laws_in_force
    if not site.library.is_laws(doc) or doc == newest or newest is None:
        return None
    d = site.store.doc(newest)
    same = unit is not None and unit in site.store.units_of(newest)
    return {"doc": newest, "edition": d.edition, "since": d.effective,
            "url": url_for(newest, unit) if same else f"/{newest}", "unit": unit if same else None}


# The board's periods, in order, as the clock, the situation index and the exam name them (their
# topics and Laws are data: corpus/clock.tsv).
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
