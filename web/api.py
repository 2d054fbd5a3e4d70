"""The JSON API (DESIGN §8): documents, units with their links, search."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from kb.search.analysis import LANGS
from kb.search.engine import Result, url_for
from kb.search.query import QueryError
from kb.library import NORMS, TIMEREF, Library
from kb.store import NotFound, Store, reached

from .api_models import CompareView, DocumentSummary, UnitWithLinks, errors

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
    return JSONResponse([{k: v for k, v in d.items() if k != "units"} | {"units": len(d["units"]), "url": f"/{d['id']}"}
                         for d in store.export["documents"]])


@router.get("/units/{doc}/{unit}", summary="A unit as exported, with its links",
            response_model=UnitWithLinks, responses=errors(404, 503))
async def unit(request: Request, doc: str, unit: str) -> JSONResponse:
    site = _site(request)
    try:
        data = site.store.unit(doc, unit)
    except NotFound as e:
        raise ApiError(404, str(e)) from e
    return JSONResponse(data | unit_links(site.store, site.library, site.parallels, doc, unit))


@router.get("/compare/{n}", summary="Law n in two paired editions, row by row, as the compare page shows it",
            response_model=CompareView, responses=errors(404, 503))
async def compare(request: Request, n: str, older: str | None = None, newer: str | None = None) -> JSONResponse:
    try:
        return JSONResponse(_site(request).editions.compare(n, older, newer).to_dict())
    except NotFound as e:
        raise ApiError(404, str(e)) from e


def unit_links(store: Store, library: Library, parallels: Any, doc: str,
               unit_id: str) -> dict[str, list[dict[str, Any]]]:
    """cites, cited_by, norms, timerefs, parallel: clause references with titles and URLs."""
    cites = [_ref(store, c["target"], c["raw"], c["kind"], c["source"]["clause"]) for c in store.outgoing(doc, unit_id)]
    cited_by, norms, timerefs = [], [], []
    for c in store.incoming(doc, unit_id):
        s = c["source"]
        ref = _ref(store, s, c["raw"], c["kind"], _reached_clause(c, doc, unit_id))
        source = library.get(s["doc"])
        if source and source.kind == NORMS and c["kind"] == "integrates":
            norms.append(ref)
        elif source and source.kind == TIMEREF:
            edition = source.cites_edition or library.edition(library.cites(s["doc"]) or "")
            timerefs.append(ref | {"ref": c["raw"], "edition": edition})
        else:
            cited_by.append(ref)
    return {"cites": cites, "cited_by": cited_by, "norms": norms, "timerefs": timerefs,
            "parallel": parallels(doc, unit_id)}


def _reached_clause(c: dict[str, Any], doc: str, unit_id: str) -> str | None:
    for t in reached(c):
        if t["doc"] == doc and t["unit"] == unit_id:
            return t.get("clause")
    return None


def _ref(store: Store, t: dict[str, Any], raw: str, kind: str, at: str | None) -> dict[str, Any]:
    if t["doc"] == "external":
        return {"doc": "external", "name": t["name"], "raw": raw, "kind": kind, "at": at}
    return {"doc": t["doc"], "unit": t["unit"], "clause": t.get("clause"), "title": store.title(t["doc"], t["unit"]),
            "url": url_for(t["doc"], t["unit"], t.get("clause")), "raw": raw, "kind": kind, "at": at}


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
