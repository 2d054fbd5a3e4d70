"""The study decks for download: the build's Anki package (kb.anki), as `kb build` wrote it."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from kb.generations import DECKS_NAME

from .pages import PageNotFound

router = APIRouter(include_in_schema=False)
DECKS_URL = "/study/" + DECKS_NAME  # its {lang}: the interface language the decks are named in


def decks_url(lang: str) -> str:
    return DECKS_URL.format(lang=lang)


@router.get(DECKS_URL)
async def decks(request: Request, lang: str) -> Response:
    """The generation's file for that language, tagged by the generation (a new build, a new file)."""
    site = request.app.state.site
    if lang not in site.locales:
        raise PageNotFound(f"no decks in {lang!r}; languages: {', '.join(site.locales)}")
    gen = site.gen
    tag = f'"{gen.name}"'
    headers = {"etag": tag, "cache-control": "no-cache"}
    if tag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    name = DECKS_NAME.format(lang=lang)
    return FileResponse(gen / name, media_type="application/apkg", filename=name, headers=headers)
