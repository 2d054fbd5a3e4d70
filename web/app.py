"""The FastAPI application: one Site (the build it reads) per app."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from kb import build as builder
from kb.clauseid import readable
from kb.concordance import Concordance
from kb.search.engine import SearchEngine, url_for
from kb.store import Store

from .api import ApiError, error_response, router


@dataclass
class Site:
    """Everything a request reads: the export, its search engine, the concordance."""

    store: Store
    engine: SearchEngine
    concordance: Concordance

    @classmethod
    def load(cls, build_dir: Path) -> "Site":
        store = Store(builder.load_export(build_dir / builder.EXPORT_NAME))
        return cls(store, SearchEngine.open(build_dir, store), Concordance.load())

    def parallels(self, doc: str, unit: str) -> list[dict[str, Any]]:
        """The concordance rows of a Law article, as links to the other edition."""
        if doc not in ("it-laws", "es-laws"):
            return []
        side, other = ("it", "es") if doc == "it-laws" else ("es", "it")
        other_doc = "es-laws" if doc == "it-laws" else "it-laws"
        out = []
        for r in self.concordance.rows:
            mine, theirs = getattr(r, side), getattr(r, other)
            if mine and theirs and _article(mine) == unit:
                out.append({"clause": mine, "doc": other_doc, "unit": _article(theirs), "target": theirs,
                            "label": readable(theirs), "relation": r.relation, "note": r.note,
                            "url": url_for(other_doc, _article(theirs), theirs)})
        return out


def _article(cid: str) -> str:
    digits = ""
    for ch in cid:
        if not ch.isdigit():
            break
        digits += ch
    return digits or cid


def create_app(build_dir: Path | None = None) -> FastAPI:
    build_dir = build_dir or builder.default_build_dir()
    app = FastAPI(title="Bridge laws knowledge base", version="0.1.0",
                  description="The Laws of Duplicate Bridge (IT 2017, ES 2007), FIGB norms, time references, Burraco.")
    app.state.site = Site.load(build_dir)
    app.include_router(router)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        return error_response(exc.status, exc.message)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "query")
        return error_response(400, f"bad parameter {where}: {first.get('msg', 'invalid')}")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        return error_response(exc.status_code, str(exc.detail))

    return app
