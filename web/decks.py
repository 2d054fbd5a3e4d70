"""The study decks for download: the build's Anki package (kb.anki), as `kb build` wrote it."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from kb.generations import DECKS_NAME

router = APIRouter(include_in_schema=False)
DECKS_URL = f"/study/{DECKS_NAME}"


@router.get(DECKS_URL)
async def decks(request: Request) -> Response:
    """The generation's file, tagged by the generation (a new build, a new file)."""
    gen = request.app.state.site.gen
    tag = f'"{gen.name}"'
    headers = {"etag": tag, "cache-control": "no-cache"}
    if tag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return FileResponse(gen / DECKS_NAME, media_type="application/apkg", filename=DECKS_NAME, headers=headers)
