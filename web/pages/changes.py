"""What changed from one edition of the Laws to the next (`Editions.changes`, which /api/changes
answers as JSON): /changes, the Laws that changed by chapter, each leading to its page of the
changes (`/changes/laws-17-40`: a run of whole chapters), where each Law folds its changes under
a line with its number, title and count, each change linked to both texts, its note in the
reader's language."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from kb.editions.chapters import Chapter
from kb.records.clauseid import article_of, readable
from kb.corpus.tables import note_in
from kb.editions.pairs import Change, ChangesPage, relation_counts
from kb.corpus.urls import changes_page_url, compare_url, law_changes_url, url_for

from ..site import Site
from .render import PageNotFound, locale_of, render

router = APIRouter(include_in_schema=False)


@router.get("/changes", response_class=HTMLResponse)
async def changes(request: Request) -> Response:
    site = request.app.state.site
    return render(request, "changes.html", data=changes_index(site))


@router.get("/changes/{page}", response_class=HTMLResponse)
async def changes_page(request: Request, page: str) -> Response:
    site = request.app.state.site
    pages = site.changes_pages
    at = next((i for i, p in enumerate(pages) if p.id == page), None)
    if at is None:
        raise PageNotFound(f"no page {page!r} of the changes; pages: {', '.join(p.id for p in pages)}")
    return render(request, "changes_page.html", data=changes_page_data(site, at, locale_of(request)))


def changes_index(site: Site) -> dict[str, Any]:
    """The summary of every change, and each page's chapters with the Laws that changed in them."""
    view = site.editions.changes()
    return {"pair": view.pair, "summary": view.summary,
            "pages": [_page_link(p) | {"chapters": [_chapter_laws(site, view.pair, p, c) for c in p.chapters]}
                      for p in site.changes_pages]}


def changes_page_data(site: Site, at: int, lang: str) -> dict[str, Any]:
    pages, pair = site.changes_pages, site.editions.changes().pair
    page = pages[at]
    return {"pair": pair, "laws": page.laws, "summary": relation_counts(c.relation for c in page.changes),
            "parts": [_page_link(p) | {"current": p == page} for p in pages],
            "previous": _page_link(pages[at - 1]) if at else None,
            "next": _page_link(pages[at + 1]) if at + 1 < len(pages) else None,
            "chapters": [{**_chapter(c), "laws": [_law_changes(site, pair, n, cs, lang) for n, cs in _by_law(page, c)]}
                         for c in page.chapters if _by_law(page, c)]}


def _page_link(p: ChangesPage) -> dict[str, Any]:
    return {"url": changes_page_url(p.id), "laws": p.laws, "count": len(p.changes)}


def _chapter(c: Chapter) -> dict[str, Any]:
    return {"id": c.id, "title": c.title, "lang": c.lang}


def _by_law(page: ChangesPage, chapter: Chapter) -> list[tuple[str, list[Change]]]:
    """The chapter's Laws that changed, each with its changes."""
    laws: dict[str, list[Change]] = {}
    for c in page.changes:
        if c.law in chapter.laws:
            laws.setdefault(c.law, []).append(c)
    return list(laws.items())


def _chapter_laws(site: Site, pair: Any, page: ChangesPage, chapter: Chapter) -> dict[str, Any]:
    """A chapter on the index: each of its Laws that changed, how many times, and where."""
    return {**_chapter(chapter), "laws": [{"n": n, "doc": _edition_of(site, pair, n), "title": _title(site, pair, n),
                                           "count": len(cs), "url": law_changes_url(page.id, n)}
                                          for n, cs in _by_law(page, chapter)]}


def _law_changes(site: Site, pair: Any, n: str, changes: list[Change], lang: str) -> dict[str, Any]:
    """A Law's fold: its number, title (the newer edition's, else the older's) and how many
    changes, its compare page, then each change."""
    return {"n": n, "doc": _edition_of(site, pair, n), "title": _title(site, pair, n), "count": len(changes),
            "compare": compare_url(site.library, pair, n), "changes": [_change(site, pair, c, lang) for c in changes]}


def _change(site: Site, pair: Any, c: Change, lang: str) -> dict[str, Any]:
    note_lang, note = note_in(c.notes, lang)
    return {"relation": c.relation, "note": note, "note_lang": note_lang,
            "older": _clause_link(site, pair.older, c.older), "newer": _clause_link(site, pair.newer, c.newer)}


def _edition_of(site: Site, pair: Any, n: str) -> str:
    """The edition a Law is named from: the newer, unless only the older has it."""
    return next(d for d in (pair.newer, pair.older) if n in site.store.units_of(d))


def _title(site: Site, pair: Any, n: str) -> str:
    return site.store.title(_edition_of(site, pair, n), n)


def _clause_link(site: Site, doc: str, clause: str) -> dict[str, str] | None:
    """A clause of one edition as the changes name it: its edition's mark and its number ("ES 16C")."""
    return {"mark": site.library.short(doc), "label": readable(clause),
            "url": url_for(doc, article_of(clause), clause)} if clause else None
