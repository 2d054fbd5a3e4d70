"""The JSON API (DESIGN §8): documents, units with their links, search."""
from __future__ import annotations

import threading
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from kb.citations.check import MAX_TEXT_CHARS, CiteError
from kb.corpus.languages import in_order
from kb.search.analysis import LANGS
from kb.search.engine import Result
from kb.search.query import QueryError
from kb.records.store import NotFound, Store

from ..site import Site
from .models import (ChangesView, CiteRequest, CiteResult, CompareView, DocumentSummary, SituationIndex,
                         UnitWithLinks, errors)

router = APIRouter(prefix="/api")


class ApiError(Exception):
    def __init__(self, status: int, message: str):
        self.status, self.message = status, message


def error_response(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "status": status}, status_code=status)


def openapi(app: Any) -> dict[str, Any]:
    """The OpenAPI description as the API behaves: a bad parameter is a 400 with our error body
    (documented per route), never FastAPI's 422, which this API does not return."""
    if app.openapi_schema is None:
        from fastapi.openapi.utils import get_openapi
        spec = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
        for path in spec["paths"].values():
            for operation in path.values():
                operation["responses"].pop("422", None)
        for name in ("HTTPValidationError", "ValidationError"):
            spec.get("components", {}).get("schemas", {}).pop(name, None)
        app.openapi_schema = spec
    return app.openapi_schema


def _site(request: Request) -> Any:
    return request.app.state.site


@router.get("/docs", summary="The documents with their metadata and unit counts",
            response_model=list[DocumentSummary], responses=errors(503))
async def docs(request: Request) -> JSONResponse:
    store: Store = _site(request).store
    return JSONResponse([d.meta() | {"units": len(d.units), "url": f"/{d.id}"} for d in store.documents.values()])


@router.get("/units/{doc}/{unit}", summary="A unit as exported, with its links, neighbours, defined terms and compare pages",
            response_model=UnitWithLinks, responses=errors(404, 503))
async def unit(request: Request, doc: str, unit: str) -> JSONResponse:
    try:
        return JSONResponse(_site(request).unit_view(doc, unit).to_dict())
    except NotFound as e:
        raise ApiError(404, str(e)) from e


@router.get("/compare/{n}", summary="Law n in two paired editions, row by row, as the compare page shows it",
            response_model=CompareView, responses=errors(404, 503))
async def compare(request: Request, n: str, older: str | None = None, newer: str | None = None) -> JSONResponse:
    try:
        return JSONResponse(_site(request).editions.compare(n, older, newer).to_dict())
    except NotFound as e:
        raise ApiError(404, str(e)) from e


@router.get("/changes", summary="What changed from the older edition of the Laws to the newer, Law by Law",
            response_model=ChangesView, responses=errors(400, 404, 503))
async def changes(request: Request, kind: str | None = Query(None, description="only this relation (changed, moved, "
                                                                                "split, merged, new-in-…, removed-in-…)"),
                  older: str | None = Query(None, description="the older edition of a pair the manifest pairs "
                                                              "(both or neither: the first pair)"),
                  newer: str | None = Query(None, description="the newer edition of that pair")) -> JSONResponse:
    try:
        view = _site(request).editions.changes(older, newer)
    except NotFound as e:
        raise ApiError(404, str(e)) from e
    if kind and kind not in view.summary:
        raise ApiError(400, f"unknown kind {kind!r}; kinds: {', '.join(view.summary)}")
    return JSONResponse(view.of_kind(kind).to_dict())


@router.get("/situations", summary="The situation index: what happens at the table and the clauses that rule it",
            response_model=SituationIndex, responses=errors(400, 503))
async def situations(request: Request, lang: str = Query("it", description="the language the situations are named in "
                                                                          "(it, es, en, or another interface language)")
                     ) -> JSONResponse:
    site = _site(request)
    named = in_order((*LANGS, *site.locales))  # the texts' languages and the interface's
    if lang not in named:
        raise ApiError(400, f"unknown language {lang!r}; languages: {', '.join(named)}")
    return JSONResponse(site.situation_index(lang).to_dict())


@router.get("/search", summary="Search clauses, grouped by unit", response_model=Result,
            responses=errors(400, 503))
async def search(request: Request,
           q: str = Query("", description="words, a clause number (27B1, art. 50, Artículo 64), typos welcome"),
           doc: str | None = None, lang: str | None = None, kind: str | None = None,
           ui: str | None = Query(None, description="the user's language (it, es): picks where a number jumps"),
           limit: int = Query(10, ge=1, le=100), page: int = Query(1, ge=1, le=1000)) -> JSONResponse:
    try:
        result = _site(request).engine.search(q, doc=doc, lang=lang, kind=kind, limit=limit, page=page,
                                              ui=ui if ui in LANGS else None)
    except QueryError as e:
        raise ApiError(400, str(e)) from e
    return JSONResponse(result.to_dict())  # plain data already: skip FastAPI's generic encoder


CITE_FORMATS = ("json", "html")
_CITE_TEXT = f"the text whose citations to check: a ruling, an appeal decision, an answer (at most {MAX_TEXT_CHARS} characters)"
_CITE_FORMAT = Query("json", description="json: the citations and the text as HTML; html: the text as HTML alone")
_CITE_HTML = {"content": {"text/html": {"schema": {"type": "string"}}},
              "description": "the citations and, with format=html, the text alone as HTML"}


_CITE_LANG = "the language the text is written in (it, es, en): its grammar's reading comes first where two differ; " \
             "it does not choose the edition (the one the text names, else the one in force)"
_CHECKING = threading.Lock()  # one check at a time per worker, off the event loop: searches go on meanwhile


async def _cited(request: Request, text: str, lang: str | None, format: str) -> Any:
    """The check, in a thread of the pool (a long text takes most of a second: the event loop
    answers other requests meanwhile), one at a time; the reply made there too."""
    if format not in CITE_FORMATS:
        raise ApiError(400, f"unknown format {format!r}; formats: {', '.join(CITE_FORMATS)}")
    site = _site(request)
    try:
        return await run_in_threadpool(_checked, site, text, lang, format)
    except CiteError as e:
        raise ApiError(400, str(e)) from e


def _checked(site: Site, text: str, lang: str | None, format: str) -> Response:
    with _CHECKING:
        result = site.cite(text, lang)
        return HTMLResponse(result.html) if format == "html" else JSONResponse(result.to_dict())


@router.get("/cite", summary="Every citation in a text, found, resolved and given a status", response_model=CiteResult,
            responses={200: _CITE_HTML} | errors(400, 414, 503))
async def cite(request: Request, text: str = Query("", description=_CITE_TEXT),
               lang: str | None = Query(None, description=_CITE_LANG), format: str = _CITE_FORMAT) -> Any:
    return await _cited(request, text, lang, format)


@router.post("/cite", summary="Every citation in a text sent as the body, found, resolved and given a status",
             response_model=CiteResult, responses={200: _CITE_HTML} | errors(400, 413, 503))
async def cite_sent(request: Request, body: CiteRequest, format: str = _CITE_FORMAT) -> Any:
    return await _cited(request, body.text, body.lang, format)


CITE_BODY = 'the body is a JSON object, {"text": "…", "lang": "it"}, sent with Content-Type: application/json'


def body_hint(request: Request, message: str) -> str:
    """A refused body at POST /api/cite, with what the route takes (a form or plain text is no JSON)."""
    if request.method == "POST" and request.url.path == "/api/cite" and message.startswith("bad parameter body"):
        return f"{message} ({CITE_BODY})"
    return message
