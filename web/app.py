"""The FastAPI application: one Site (the build it reads) per app."""
from __future__ import annotations

import gc
import html
import logging
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from kb.pipeline import generations
from kb.corpus.catalogs import BUILD_DIR as CATALOGS

from .api.routes import ApiError, body_hint, error_response, openapi as api_openapi, router
from .http.caching import ETagMiddleware
from .http.security import HEADERS as SECURITY_HEADERS, HeadAndSlashes, SecurityMiddleware
from .offline import worker as offline
from .pages import changes, compare, graph, reading, reference, search, situations
from .pages.render import PageNotFound, render
from .study import decks, drills, exam
from .site import Site



METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def allowed_methods(app: Any, scope: Any) -> list[str]:
    """The methods some route answers at this path, as the router matches them (HEAD wherever
    GET is: `HeadAndSlashes`), for a 405's `Allow`."""
    found = [m for m in METHODS if any(r.matches(dict(scope, method=m))[0] == Match.FULL for r in app.router.routes)]
    return found[:1] + ["HEAD"] + found[1:] if "GET" in found else found


def _plain_page(status: int, message: str, hint: str) -> str:
    """Served when the site itself cannot help (no build, an internal error): plain,
    self-contained, no template, the message escaped."""
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Unavailable</title></head>"
            f"<body><main><h1>{status}</h1><p role=\"alert\">{html.escape(message)}</p>"
            f"<p>{hint}</p></main></body></html>")


def _unavailable_page(message: str) -> str:
    return _plain_page(503, message, "Run <code>kb build</code>, then reload.")


def _error_page(request: Request, status: int, message: str, missing: Any = None):
    """`missing` (what a 404 did not find) is said in the reader's language; other messages are
    the API's own."""
    site = request.app.state.site
    heading = {404: "404", 400: "400"}.get(status, str(status))
    return render(request, "error.html", status=status, heading=heading, message=message, missing=missing,
                  documents=list(site.store.documents.values()))


log = logging.getLogger("kb.web")

RETRY_FIRST, RETRY_MAX = 1.0, 60.0  # seconds before a failed generation is tried again, doubling
LOOK_EVERY = 1.0                     # how often a site not on its current generation looks again
HOLD_REPLACED = 30.0                 # seconds a replaced generation stays leased: requests begun on it end


class Builds:
    """Follows the build folder's generations for a running app.

    Each request checks the `current` link (one readlink). When it names a generation
    other than the one serving, the best loadable one is looked for (at most once a
    second) among the complete generations, current first, then the others newest first:
    a broken current build falls back to the newest complete one. A new generation loads
    in the background while requests go on with the old one, then is swapped in by one
    assignment. A generation that fails to load is logged and tried again later, after
    1, 2, 4 … up to 60 seconds. With nothing loadable, requests get a 503 that says so
    (the details, paths included, go to the log only).

    The generation served, and the one loading, are leased (`generations.lease`): however
    many builds land while a load takes, pruning leaves them; a replaced one is let go
    HOLD_REPLACED seconds later.
    """

    def __init__(self, app: FastAPI, build_dir: Path):
        self.app, self.build_dir = app, build_dir
        self.serving: Path | None = None   # the generation of the site in use
        self.error = "there is no complete build yet"
        self.failed: dict[Path, tuple[float, float]] = {}  # generation → (retry at, next delay)
        self.next_look = 0.0
        self._said: str | None = None      # the last build-folder problem logged
        self._loading = threading.Lock()
        self.lease: generations.Lease | None = None
        self.replaced: deque[tuple[float, generations.Lease]] = deque()  # (let go at, lease)
        app.state.site = None
        self.check()

    def check(self) -> None:
        if self.replaced and self.replaced[0][0] <= time.monotonic():
            self.replaced.popleft()[1].release()
        current = self._current()
        if current is not None and current == self.serving:
            return
        if time.monotonic() < self.next_look or not self._loading.acquire(blocking=False):
            return
        if self.app.state.site is None:
            self._settle()  # nothing to serve meanwhile: load now
            return
        try:
            threading.Thread(target=self._settle, daemon=True).start()
        except RuntimeError:  # no thread to be had now: try again on a later request
            self._loading.release()

    def _current(self) -> Path | None:
        try:
            return generations.generation(self.build_dir)
        except (generations.BuildError, OSError):  # a disk error too: the site in memory goes on
            return None

    def _settle(self) -> None:
        """Serve the best generation that loads (runs holding `_loading`)."""
        try:
            self._say_once(self._link_problem())
            for gen in generations.readable_generations(self.build_dir):
                if gen == self.serving or (self._due(gen) and self._load(gen)):
                    break  # the best loadable generation serves
        except OSError as e:  # the build folder cannot be read now: keep what serves, look again later
            log.warning("cannot read the build folder %s: %s", self.build_dir, e)
        finally:
            self.next_look = time.monotonic() + LOOK_EVERY
            self._loading.release()

    def _link_problem(self) -> str | None:
        try:
            generations.current_link(self.build_dir)
        except (generations.BuildError, OSError) as e:
            return str(e)
        return None

    def _say_once(self, problem: str | None) -> None:
        if problem and problem != self._said:
            log.warning(problem)
        self._said = problem

    def _due(self, gen: Path) -> bool:
        return time.monotonic() >= self.failed.get(gen, (0.0, 0.0))[0]

    def _load(self, gen: Path) -> bool:
        held = generations.lease(gen)
        if held is None:  # pruned since it was listed: the next one is tried
            return False
        try:
            site = Site.load(gen)
        except Exception as e:  # a damaged generation: keep serving the last good one, retry later
            held.release()
            delay = self.failed.get(gen, (0.0, RETRY_FIRST))[1]
            self.failed[gen] = (time.monotonic() + delay, min(delay * 2, RETRY_MAX))
            log.warning("cannot load the build %s: %s: %s; trying again in %g s", gen, type(e).__name__, e, delay)
            if self.app.state.site is None:
                self.error = "no build could be loaded; the server log says why, and it tries again"
            return False
        if gen != self._current():
            log.warning("serving %s: the current build is not usable", gen.name)
        if self.lease is not None:
            self.replaced.append((time.monotonic() + HOLD_REPLACED, self.lease))
        self.app.state.site, self.serving, self.lease = site, gen, held
        self.failed.pop(gen, None)
        _settle()
        return True


def _settle() -> None:
    """A build, once served, is read-only and lives as long as it is served: keep it out of
    the cyclic collector's walks, or every full collection crosses the whole corpus in the
    middle of a request (the tail of search latency). The build served before is given back
    to the collector first."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


class FollowBuilds:
    """Pure ASGI: before each request, the current build (or a 503 naming why there is
    none); after, the generation that answered, in the `x-build` header, and the time the
    app took, in `Server-Timing` (what the benchmark reads as server time)."""

    def __init__(self, app: Any, builds: Builds):
        self.app, self.builds = app, builds

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        builds = self.builds
        builds.check()
        if builds.app.state.site is None:
            message = f"The knowledge base is not available: {builds.error}"
            response = (error_response(503, message) if scope["path"].startswith("/api/")
                        else HTMLResponse(_unavailable_page(message), status_code=503))
            return await response(scope, receive, send)
        name = (builds.serving.name if builds.serving else "").encode("latin-1")
        started = time.perf_counter()

        async def with_build(message: Any) -> None:
            if message["type"] == "http.response.start":
                took = f"app;dur={(time.perf_counter() - started) * 1000:.2f}".encode()
                message["headers"] = [*message.get("headers", ()), (b"x-build", name), (b"server-timing", took)]
            await send(message)

        await self.app(scope, receive, with_build)


def create_app(build_dir: Path | None = None) -> FastAPI:
    """The app over a build folder (`kb build` output); it follows new builds as they land."""
    build_dir = build_dir or generations.default_build_dir()
    # the OpenAPI description is served as JSON; its browser UI would load a CDN, so it is off
    app = FastAPI(title="Bridge laws knowledge base", version="0.1.0", docs_url=None, redoc_url=None,
                  openapi_url="/api/openapi.json",
                  description="The Laws of Duplicate Bridge (IT 2017, ES 2007), FIGB norms, time references, Burraco.")
    builds = Builds(app, build_dir)

    app.add_middleware(FollowBuilds, builds=builds)
    app.add_middleware(ETagMiddleware)
    # compresses what ETag validated; an offline pack is gzipped already
    app.add_middleware(GZipMiddleware, minimum_size=800, exclude_content_types=("text/event-stream", offline.PACK_TYPE))
    app.add_middleware(HeadAndSlashes)
    app.add_middleware(SecurityMiddleware)  # outermost: every response, errors included, gets the headers
    app.router.redirect_slashes = False  # HeadAndSlashes redirects, relatively
    app.include_router(router)
    app.openapi = lambda: api_openapi(app)  # type: ignore[method-assign]
    app.mount("/static", StaticFiles(directory=Path(__file__).resolve().parent / "static"), name="static")
    app.include_router(offline.router)  # /sw.js, /offline/…, the web manifest
    app.include_router(decks.router)  # /study/bridge-laws.apkg
    # Every fixed path first: the reading pages' /{doc} and /{doc}/{unit} match any one or two
    # segments, so a family included after them would be answered as a document or a unit.
    app.include_router(reference.router)  # /clock, /glossary
    app.include_router(situations.router)  # /situations and its pages
    app.include_router(graph.router)  # /graph/{doc}/{unit}
    app.include_router(changes.router)  # /changes and its pages
    app.include_router(drills.router)  # /study, /study/cards.json
    app.include_router(exam.router)  # /study/exam, /study/exam.json
    app.include_router(search.router)  # /, /search
    app.include_router(compare.router)  # /compare, /compare/{n}
    app.include_router(reading.router)  # last: /{doc}, /{doc}/{unit}

    @app.exception_handler(PageNotFound)
    async def page_not_found(request: Request, exc: PageNotFound):
        if request.url.path.startswith("/api/"):
            return error_response(404, "Not Found: see /api/openapi.json for the API")
        return _error_page(request, 404, exc.message, exc.missing)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        return error_response(exc.status, exc.message)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "query")
        message = f"bad parameter {where}: {first.get('msg', 'invalid')}"
        if request.url.path.startswith("/api/"):
            return error_response(400, body_hint(request, message))
        return _error_page(request, 400, message)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception):
        # answered by Starlette's outermost error layer, outside our middlewares: the
        # security headers are added here; the traceback goes to the server log only
        message = "Internal error: this request could not be answered. The error has been logged."
        response = (error_response(500, message) if request.url.path.startswith("/api/")
                    else HTMLResponse(_plain_page(500, message, '<a href="/">Home</a>'), status_code=500))
        response.headers.update(SECURITY_HEADERS)
        return response

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        if request.url.path.startswith("/api/"):
            response = error_response(exc.status_code, str(exc.detail))
        else:
            response = _error_page(request, exc.status_code, str(exc.detail))
        response.headers.update(exc.headers or {})
        if exc.status_code == 405:  # every method the path answers, not only its first route's
            response.headers["allow"] = ", ".join(allowed_methods(app, request.scope))
        return response

    return app
