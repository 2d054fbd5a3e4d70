"""The site without a network: the web app's manifest, its service worker, the list of what it
keeps (every page a reader can open, the assets, the search model) and the search model itself.

The same list makes the static copy (`web.sitecopy`): a page the worker keeps is a page the
copy writes.
"""
from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from starlette.types import Receive, Scope, Send

from kb.urls import CHANGES, SEARCH_DATA, SITUATIONS, changes_page_url, compare_url, situations_page_url

from .decks import decks_url
from .exam import EXAM, EXAM_QUESTIONS
from .study import STUDY, STUDY_CARDS

router = APIRouter(include_in_schema=False)
STATIC = Path(__file__).resolve().parent / "static"
WORKER, STATE = "/sw.js", "/offline/manifest.json"
WEB_MANIFEST = "/manifest.webmanifest"
ASSETS = ("/static/style.css", "/static/app.js", "/static/stemmers.js", "/static/search.js", "/static/offline.js",
          "/static/fsrs.js", "/static/study.js", "/static/exam.js", "/static/icon.svg", "/static/icon-192.png",
          "/static/icon-512.png", WEB_MANIFEST, STUDY_CARDS, EXAM_QUESTIONS)  # the drills' cards, the exam's questions: the same in every language
SEARCH_PAGE = "/search"  # without a query: the page offline search answers in
SLICE = 64 * 1024  # an asyncio transport's high-water mark: one slice waits while the client reads another
TURN = 1e-4  # seconds between slices: a timer, its slice goes after the requests that came meanwhile (sleep(0)'s, before)


def offline_assets(locale: str) -> list[str]:
    """What a copy keeps beside its pages: the assets, and the reader's Anki package (so that
    /study hands it out offline too)."""
    return [*ASSETS, decks_url(locale)]


def site_paths(site: Any) -> list[str]:
    """Every page a reader can open (the search page without a query), in a stable order."""
    store, library = site.store, site.library
    paths = ["/", SEARCH_PAGE, "/clock", "/glossary", SITUATIONS,
             *(situations_page_url(p.id) for p in site.situation_pages),
             CHANGES, *(changes_page_url(p.id) for p in site.changes_pages), STUDY, EXAM]
    for d in store.export["documents"]:
        paths.append(f"/{d['id']}")
        for u in d["units"]:
            paths += [f"/{d['id']}/{u['id']}", f"/graph/{d['id']}/{u['id']}"]
    for pair in library.pairs:
        laws = {n for doc in (pair.older, pair.newer) for n, u in store.units_of(doc).items()
                if u["kind"] == "article" and n.isdigit()}
        paths += [compare_url(library, pair, n) for n in sorted(laws, key=int)]
    return list(dict.fromkeys(paths))


@router.get(WORKER)
async def worker() -> Response:
    """Served from the root so that it may keep every page of the site."""
    return FileResponse(STATIC / "sw.js", media_type="text/javascript",
                        headers={"cache-control": "no-cache", "service-worker-allowed": "/"})


@router.get(STATE)
async def state(request: Request) -> Response:
    """What a complete offline copy of this build holds, for the reader's language."""
    from .pages import locale_of
    site = request.app.state.site
    listed = {"build": site.gen.name, "pages": site_paths(site), "assets": offline_assets(locale_of(request)),
              "search": SEARCH_DATA}
    return JSONResponse(listed, headers={"cache-control": "no-cache", "vary": "Accept-Language, Cookie"})


@router.get(SEARCH_DATA)
async def search_data(request: Request) -> Response:
    """The build's search model (the one the server searches), sent gzipped to every client that
    takes gzip, as the build stored it both ways. Both are in memory once a build (the engine's
    own bytes, the gzipped copy read as the build loads): nothing is read, compressed or
    decompressed for a request, and no request holds a copy of its own."""
    site = request.app.state.site
    tag = f'"{site.gen.name}"'
    headers = {"etag": tag, "cache-control": "no-cache", "vary": "Accept-Encoding"}
    if tag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    if "gzip" in request.headers.get("accept-encoding", ""):
        body, headers = site.model_gz, {**headers, "content-encoding": "gzip"}
    else:
        body = site.engine.model.data
    return Sliced(body, media_type="application/octet-stream", headers=headers)


class Sliced(Response):
    """A body shared by every request, sent a slice at a time: each send waits while the client
    has not taken the slice before (uvicorn's flow control), so a client that stops reading
    holds a slice or two, and clients that all read at once take turns on the event loop."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
        body = self.body
        for start in range(0, len(body), SLICE):
            await send({"type": "http.response.body", "body": body[start:start + SLICE], "more_body": True})
            await asyncio.sleep(TURN)  # a client that takes each slice at once lets the others in between
        await send({"type": "http.response.body", "body": b"", "more_body": False})


@router.get(WEB_MANIFEST)
async def web_manifest(request: Request) -> Response:
    from .pages import locale_of
    site = request.app.state.site
    _ = site.translations[locale_of(request)].gettext
    return Response(json.dumps(manifest(_), ensure_ascii=False), media_type="application/manifest+json",
                    headers={"vary": "Accept-Language, Cookie"})  # its names are in the reader's language


def manifest(_: Any) -> dict[str, Any]:
    """The installable app: its name in the reader's language, its icons, its start page."""
    return {"name": _("Bridge Laws"), "short_name": _("Bridge Laws (home screen, 12 letters)"), "start_url": "/", "scope": "/",
            "display": "standalone", "background_color": "#ffffff", "theme_color": "#1d3557",
            "description": _("The Laws of Duplicate Bridge, the FIGB norms and the time references, offline."),
            "icons": [{"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"},
                      {"src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png"},
                      {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png"}]}


