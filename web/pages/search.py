"""The home and the search page (DESIGN §8): the common calls, a query's hits, a jump to what it names."""
from __future__ import annotations

import math
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from kb.corpus.urls import situation_url
from kb.search.analysis import LANGS
from kb.search.query import QueryError

from ..site import Site
from ..i18n import marked_for_translation as _
from .render import locale_of, render, replaced_by
from .views import marked

router = APIRouter(include_in_schema=False)  # pages: the OpenAPI description is the JSON API
PAGE_SIZE = 10


# The calls a director gets most at the table, each the situation of the index (corpus/situations.tsv)
# that opens its Law: a tap lands among that Law's situations.
COMMON_CALLS = (("opening-lead-out-of-turn", _("Lead out of turn")), ("revoke-definition", _("Revoke")),
                ("insufficient-bid-accepted", _("Insufficient bid")), ("claim", _("Claim")),
                ("hesitation-partner-acts", _("Hesitation")),
                ("misinformation-change-call", _("Misinformation")), ("defender-exposes-card", _("Exposed card")),
                ("call-oot-accepted", _("Call out of rotation")), ("dummy-rights-absolute", _("Dummy's rights")),
                ("adjusted-score", _("Adjusted score")))
EXAMPLE_QUERY = _("dummy pointed at a card")  # what a reader may type: told as it happened, in their words


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> Response:
    site = request.app.state.site
    return render(request, "home.html", documents=list(site.store.documents.values()), autofocus=True,
                  laws=site.library.laws_in_force, data=home_data(site, site.translations[locale_of(request)].gettext))


def home_data(site: Site, gettext: Any) -> dict[str, Any]:
    """The common calls, each to its situation, and an example of a query, in the reader's language."""
    example = gettext(EXAMPLE_QUERY)
    return {"calls": [{"name": name, "url": situation_url(s, site.situation_page[s])} for s, name in COMMON_CALLS],
            "example": {"query": example, "url": "/search?" + urlencode({"q": example})}}


@router.get("/search", response_class=HTMLResponse)
async def search(request: Request, q: str = "", doc: str | None = None, lang: str | None = None,
           page: int = 1) -> Response:
    site = request.app.state.site
    ui = locale_of(request)
    if not q.strip():  # the bare search page: what the browser's own search answers in, offline
        return render(request, "search.html", query="", result=None, replaced_docs=replaced_docs(site),
                      in_force=site.library.laws_in_force)
    try:
        result = site.engine.search(q, doc=doc or None, lang=lang or None, limit=PAGE_SIZE,
                                    page=min(max(page, 1), 1000), ui=ui if ui in LANGS else None)
    except QueryError as e:
        return render(request, "search.html", status=400, query=q[:200], error=str(e), result=None)
    if result.jump and q.strip():
        return RedirectResponse(result.jump["url"], status_code=303)
    replaced = replaced_docs(site)
    hits = [h.to_dict() | {"segments": marked(h.snippet)} | in_force_first(site, replaced, h.doc, h.parallel)
            for h in result.hits]
    return render(request, "search.html", query=q, result=result, hits=hits, page=result.page, doc=doc,
                  pages=max(1, math.ceil(result.total / PAGE_SIZE)))


def replaced_docs(site: Site) -> list[str]:
    """The editions of the Laws a newer one replaces (a hit in one is badged, its clause in force first)."""
    return [d for d in site.store.documents if replaced_by(site, d)]


def in_force_first(site: Site, replaced: list[str], doc: str, parallel: list[dict[str, Any]]) -> dict[str, Any]:
    """A hit of a replaced edition: so badged, the same clause in the Laws in force first among its parallels."""
    if doc not in replaced:
        return {"replaced": False}
    in_force = site.library.laws_in_force
    marked_in_force = [p | {"in_force": p["doc"] == in_force} for p in parallel]
    return {"replaced": True, "in_force": any(p["in_force"] for p in marked_in_force),
            "parallel": sorted(marked_in_force, key=lambda p: not p["in_force"])}
