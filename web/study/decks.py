"""The study decks for download: the reader's Anki package (kb.study.anki), its cards linking to this
server's own public address — the request's scheme and host, under the root path the server is
mounted at — made once per build and address and kept (the build's own file carries no links:
the build cannot know where it is served)."""
from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from kb.study.anki import check_base_url, decks_bytes, site_links
from kb.pipeline.generations import DECKS_NAME

from ..site import Site
from ..pages.render import PageNotFound

router = APIRouter(include_in_schema=False)
DECKS_URL = "/study/" + DECKS_NAME  # its {lang}: the interface language the decks are named in
KEPT = 12  # packages kept per build (some 0.6 MB each): 3 languages × the few addresses a server answers at


def decks_url(lang: str) -> str:
    return DECKS_URL.format(lang=lang)


def public_address(request: Request) -> str | None:
    """Where the reader reached this server: scheme, host and root path (None: no site address)."""
    try:
        return check_base_url(str(request.base_url))
    except ValueError:
        return None


class Packages:
    """A build's packages by (language, address), the most recently asked kept; one made at a
    time, so that readers at a new address cost one package, not one each."""

    def __init__(self, site: Site):
        self.site, self.kept, self.lock = site, OrderedDict[tuple[str, str | None], bytes](), threading.Lock()

    def get(self, lang: str, address: str | None) -> bytes:
        key = (lang, address)
        with self.lock:
            if key not in self.kept:
                self.kept[key] = decks_bytes(self.site.study_sources, lang, site_links(address) if address else None)
                while len(self.kept) > KEPT:
                    self.kept.popitem(last=False)
            self.kept.move_to_end(key)
            return self.kept[key]


def packages(site: Site) -> Packages:
    """The build's packages (kept on the build: a new build, new packages)."""
    found = site.__dict__.get("_packages")
    return found if found is not None else site.__dict__.setdefault("_packages", Packages(site))


@router.get(DECKS_URL)
async def decks(request: Request, lang: str) -> Response:
    """The reader's package, linking to this server as the reader reached it; tagged by the
    build and the address (a new build or another address, another file)."""
    site, address = request.app.state.site, public_address(request)
    if lang not in site.locales:
        raise PageNotFound(f"no decks in {lang!r}; languages: {', '.join(site.locales)}")
    digest = hashlib.sha256(f"{lang} {address}".encode()).hexdigest()[:16]
    name = DECKS_NAME.format(lang=lang)
    headers = {"etag": f'"{site.gen.name}-{digest}"', "cache-control": "no-cache",
               "content-disposition": f'attachment; filename="{name}"'}
    if headers["etag"] in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    body = await run_in_threadpool(packages(site).get, lang, address)
    return Response(body, media_type="application/apkg", headers=headers)
