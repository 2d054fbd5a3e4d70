"""The site without a network: the web app's manifest, its service worker, the list of what it
keeps (every page a reader can open, the assets, the search model), the search model itself,
and the pages of each interface language in one pack.

A pack is every page of one interface language (and its web manifest) in one gzipped file: a
line of JSON naming each entry, its type and its length, then their bodies one after the other.
The worker fetches it in one request and keeps each entry as the page it is; compressed whole, the
pages' common parts (the header, the footer, the panels' words) cost their bytes once, not once a
page. The server renders a pack through the app on its first request and keeps it as long as the
build serves; the static copy writes one per language beside its pages.

The same list makes the static copy (`web.offline.sitecopy`): a page the worker keeps is a page the
copy writes.
"""
from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from starlette.types import Receive, Scope, Send

from kb.corpus.catalogs import DEFAULT, LOCALES
from kb.corpus.urls import CHANGES, SITUATIONS, changes_page_url, compare_url, situations_page_url

from ..site import Site
from ..http import inprocess
from ..study.decks import decks_url
from ..http.encoded import accepted_codings
from ..study.exam import EXAM, EXAM_QUESTIONS
from ..pages.render import SEARCH_DATA, PageNotFound, locale_of
from ..http.security import HEADERS as SECURITY_HEADERS
from ..study.drills import STUDY, STUDY_CARDS

router = APIRouter(include_in_schema=False)
STATIC = Path(__file__).resolve().parents[1] / "static"
WORKER, STATE = "/sw.js", "/offline/manifest.json"
WEB_MANIFEST = "/manifest.webmanifest"
ASSETS = ("/static/style.css", "/static/app.js", "/static/stemmers.js", "/static/search.js", "/static/offline.js",
          "/static/fsrs.js", "/static/study.js", "/static/exam.js", "/static/icon.svg", "/static/icon-192.png",
          "/static/icon-512.png", WEB_MANIFEST, STUDY_CARDS, EXAM_QUESTIONS)  # the drills' cards, the exam's questions: the same in every language
SEARCH_PAGE = "/search"  # without a query: the page offline search answers in
PACK = "/offline/pages-{lang}.pack"  # every page of an interface language, in one gzipped file
PACK_TYPE = "application/gzip"  # as it is stored: the worker unpacks it, whatever the host's compression
ENDONYMS = {"it": "Italiano", "es": "Español", "en": "English"}  # each language by its own name
SLICE = 64 * 1024  # an asyncio transport's high-water mark: one slice waits while the client reads another
TURN = 1e-4  # seconds between slices: a timer, its slice goes after the requests that came meanwhile (sleep(0)'s, before)


def site_paths(site: Site) -> list[str]:
    """Every page a reader can open (the search page without a query), in a stable order."""
    store, library = site.store, site.library
    paths = ["/", SEARCH_PAGE, "/clock", "/glossary", SITUATIONS,
             *(situations_page_url(p.id) for p in site.situation_pages),
             CHANGES, *(changes_page_url(p.id) for p in site.changes_pages), STUDY, EXAM]
    for d in store.documents.values():
        paths.append(f"/{d.id}")
        for u in d.units:
            paths += [f"/{d.id}/{u.id}", f"/graph/{d.id}/{u.id}"]
    for pair in library.pairs:
        laws = {n for doc in (pair.older, pair.newer) for n, u in store.units_of(doc).items()
                if u.kind == "article" and n.isdigit()}
        paths += [compare_url(library, pair, n) for n in sorted(laws, key=int)]
    return list(dict.fromkeys(paths))


@router.get(WORKER)
async def worker() -> Response:
    """Served from the root so that it may keep every page of the site."""
    return FileResponse(STATIC / "sw.js", media_type="text/javascript",
                        headers={"cache-control": "no-cache", "service-worker-allowed": "/"})


def shared_assets() -> list[str]:
    """The assets every language shares (the web manifest's names are translated: it is in each pack)."""
    return [a for a in ASSETS if a != WEB_MANIFEST]


def pack_url(lang: str) -> str:
    return PACK.format(lang=lang)


def offline_state(site: Site, pages: list[str], assets: list[str], search: str, packs: dict[str, str]) -> dict[str, Any]:
    """What a complete offline copy of this build holds: its pages (in the language a pack holds
    them), the assets and the search data every language shares, and what the worker says, in
    each language, of a language it does not keep."""
    return {"build": site.gen.name, "pages": pages, "assets": assets, "search": search, "packs": packs,
            "default": DEFAULT, "unkept": {loc: unkept_words(site.translations[loc].gettext) for loc in LOCALES}}


def unkept_words(_: Any) -> dict[str, Any]:
    """The page the worker shows, offline, for a language it does not keep (in that language)."""
    return {"title": _("Not kept offline in this language"),
            "text": _("This device keeps the site offline in another language. Open this page with a network to keep it in this one."),
            "other": _("The same page in the language kept offline:"), "names": ENDONYMS}


@router.get(STATE)
async def state(request: Request) -> Response:
    """What a complete offline copy of this build holds."""
    site = request.app.state.site
    body = offline_state(site, site_paths(site), shared_assets(), SEARCH_DATA, {loc: pack_url(loc) for loc in LOCALES})
    body["own"] = {loc: [decks_url(loc)] for loc in LOCALES}  # the reader's Anki package: /study hands it out offline
    return JSONResponse(body, headers={"cache-control": "no-cache"})


@dataclass(frozen=True)
class Entry:
    name: str   # where the worker keeps it: a site path, or a file of the copy
    type: str   # its content type
    body: bytes


def pack(entries: list[Entry]) -> bytes:
    """The entries as one gzipped file (the same entries, the same bytes: its ETag is its content's),
    pages of a kind side by side (the graphs, then each document's…): gzip's window, 32 KB, then
    finds their common markup close by."""
    entries = sorted(entries, key=lambda e: (e.name.rsplit("/", 1)[0], e.name))
    head = json.dumps({"entries": [[e.name, e.type, len(e.body)] for e in entries], "headers": SECURITY_HEADERS})
    return gzip.compress(head.encode("utf-8") + b"\n" + b"".join(e.body for e in entries), 9, mtime=0)


class BuildChanged(Exception):
    """A page of the pack was answered by another build than the pack's."""


async def rendered_pages(app: Any, site: Site, locale: str) -> list[Entry]:
    """Every page the worker keeps and the web manifest, as the app answers them in `locale`."""
    entries = []
    for path in [*site_paths(site), WEB_MANIFEST]:
        answer = await inprocess.get(app, path, {"ui": locale})
        if answer.status != 200 or answer.headers.get("x-build") != site.gen.name:
            raise BuildChanged(f"{path} answered {answer.status} from {answer.headers.get('x-build')}")
        entries.append(Entry(path, answer.headers["content-type"], answer.body))
        await asyncio.sleep(0)  # each page is rendered at once: other requests go in between
    return entries


async def packed(app: Any, site: Site, locale: str) -> bytes:
    """The build's pack of `locale`: rendered once (requests meanwhile wait for the same one),
    then kept with the build."""
    if locale in site.packs:
        return site.packs[locale]
    pending = site.packs_pending.get(locale)
    if pending is None or pending.get_loop() is not asyncio.get_running_loop():
        pending = site.packs_pending[locale] = asyncio.ensure_future(_render_pack(app, site, locale))
    try:
        site.packs[locale] = await asyncio.shield(pending)
    finally:
        if pending.done():
            site.packs_pending.pop(locale, None)
    return site.packs[locale]


async def _render_pack(app: Any, site: Site, locale: str) -> bytes:
    return pack(await rendered_pages(app, site, locale))


@router.get(PACK)
async def pages_pack(request: Request, lang: str) -> Response:
    """Every page of an interface language in one file, tagged by its content (a build whose pages
    are the same answers 304 to a worker that holds them)."""
    if lang not in LOCALES:
        raise PageNotFound(f"no pages in {lang!r}; languages: {', '.join(LOCALES)}")
    site = request.app.state.site
    try:
        body = await packed(request.app, site, lang)
    except BuildChanged:  # a build landed meanwhile: the worker starts again from the new manifest
        return Response(status_code=503, headers={"retry-after": "1", "cache-control": "no-store"})
    tag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"etag": tag, "cache-control": "no-cache"}
    if tag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Sliced(body, media_type=PACK_TYPE, headers=headers)


@router.get(SEARCH_DATA)
async def search_data(request: Request) -> Response:
    """The build's search model (the one the server searches), sent in brotli to a client that
    takes it, else gzipped to one that takes gzip, as the build stored it each way. All are in
    memory once a build (the engine's own bytes, the compressed copies read as the build loads):
    nothing is read, compressed or decompressed for a request, and no request holds a copy of its own."""
    site = request.app.state.site
    tag = f'"{site.gen.name}"'
    headers = {"etag": tag, "cache-control": "no-cache", "vary": "Accept-Encoding"}
    if tag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    taken = accepted_codings(request.headers.get("accept-encoding", ""))
    if "br" in taken:
        body, headers = site.model_br, {**headers, "content-encoding": "br"}
    elif "gzip" in taken:
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


