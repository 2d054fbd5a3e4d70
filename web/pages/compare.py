"""The compare page (DESIGN §8): Law n in two editions side by side, row by row, and its Law picker."""
from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from kb.citations.annotate import annotate, in_text_of
from kb.corpus.languages import BY_CODE
from kb.corpus.tables import note_in
from kb.corpus.urls import compare_url, law_changes_url, url_for
from kb.records.clauseid import article_of, readable
from kb.records.store import NotFound

from ..site import Site
from ..http.security import plain_number
from .render import PageNotFound, locale_of, render
from .views import clause_body, emphasised, emphasised_line

router = APIRouter(include_in_schema=False)  # pages: the OpenAPI description is the JSON API


@router.get("/compare", response_class=HTMLResponse)
async def compare_picked(request: Request, n: str = "", older: str | None = None, newer: str | None = None) -> Response:
    """The compare page's Law picker, a GET form that needs no script: on to Law n's compare page
    (the same editions), or the compare page's own 404 for a number that is not a Law's."""
    site = request.app.state.site
    try:
        view = site.editions.compare(plain_number(n.strip()), older, newer)
    except NotFound as e:
        raise PageNotFound.of(e) from e
    return RedirectResponse(compare_url(site.library, view.pair, view.law), status_code=303)


@router.get("/compare/{n}", response_class=HTMLResponse)
async def compare(request: Request, n: str, older: str | None = None, newer: str | None = None) -> Response:
    """Law n in two editions the manifest pairs (`KnowledgeBase.compare`, which /api/compare
    answers as JSON): the concordance's pair unless `older` and `newer` name another."""
    site = request.app.state.site
    try:
        view = site.editions.compare(n, older, newer)
    except NotFound as e:
        raise PageNotFound.of(e) from e
    sides = {"new": _Side(view.pair.newer, n, site, view.pair), "old": _Side(view.pair.older, n, site, view.pair)}
    query = compare_url(site.library, view.pair, "")[len("/compare/"):]  # the pair of editions, unless the first
    changed = any(rel != "same" for rel in view.summary)
    return render(request, "compare.html", n=int(n), last=view.last, sides=sides, query=query, summary=view.summary,
                  changes_url=law_changes_url(site.changes_page[n], n) if changed and n in site.changes_page else None,
                  pair_fields=parse_qsl(query.lstrip("?")), rows=compare_rows(view.rows, sides, locale_of(request)))


def compare_rows(rows: Any, sides: dict[str, "_Side"], lang: str | None = None) -> list[dict[str, Any]]:
    """The compare rows of Law n (`kb.editions.compare`) formatted for the page: a clause shown in its
    row with its text, a clause shown in another row as a pointer to it, each governing
    concordance row's note once, and links to the other edition's clauses the row names
    (where an older clause went, where a newer one came from)."""
    at = {(s.key, getattr(r, side)): i for i, r in enumerate(rows) for side, s in sides.items()
          if getattr(r, side) and getattr(r, f"show_{side}")}
    noted: set[Any] = set()
    out = []
    for i, r in enumerate(rows):
        cells = {side: s.cell(getattr(r, side), getattr(r, f"show_{side}"), i, at, r.marks(side == "new"))
                 for side, s in sides.items()}
        other = "old" if r.new else "new"
        note_lang, note = note_in(r.notes, lang)
        out.append({"new_id": r.new or "", "old_id": r.old or "", "relation": r.relation, **cells,
                    "note": note if r.row not in noted else "", "note_lang": note_lang,
                    "links": [sides[other].pointer(cid, "→" if other == "new" else "←") for cid in r.elsewhere]})
        noted.add(r.row)
    return out


def _edition_name(site: Site, doc: str) -> dict[str, str]:
    """What names an edition to a reader: its language (a catalogs msgid) and its year."""
    return {"language": BY_CODE[site.library.lang(doc)].name, "edition": site.library.edition(doc) or ""}


class _Side:
    """One edition's clauses of Law n, as compare-page cells. Its key (anchors, classes, data
    attributes) is the edition's language, or its year when both editions share one."""

    def __init__(self, doc: str, n: str, site: Site, pair: Any):
        self.doc, self.n, self.site = doc, n, site
        d, langs = site.store.doc(doc), {site.library.lang(pair.older), site.library.lang(pair.newer)}
        self.key, self.lang = (d.lang if len(langs) == 2 else d.edition), d.lang
        self.language, self.edition = _edition_name(site, doc).values()
        self.tag = f"{self.lang.upper()} {self.edition}".strip()  # names a cell's edition on a phone: "ES 2007"
        unit = site.store.units_of(doc).get(n)
        self.title, self.clauses = (unit.title or "", unit.clauses) if unit else ("", ())
        self.by_id = {c.id: c for c in self.clauses}
        self.cits = site.store.outgoing(doc, n) if self.clauses else []
        self.url = f"/{doc}/{n}" if self.clauses else None
    def cell(self, cid: str | None, show: bool, row: int, at: dict[tuple[str, str], int],
             marks: tuple[str, ...] = ()) -> dict[str, Any] | None:
        """The clause with its text, or (shown in another row) a pointer to that row."""
        if cid is None:
            return None
        if not show:
            where = at.get((self.key, cid))
            if where is None:
                return self.pointer(cid, "")
            return self.pointer(cid, "↑" if where < row else "↓") | {"url": f"#{self.key}-{cid}"}
        c = self.by_id[cid]
        mine = in_text_of(self.cits, cid)
        return {"label": readable(cid), "title": emphasised_line(c.title, marks) if c.title else None,
                "url": url_for(self.doc, self.n, cid),
                "anchor": f"{self.key}-{cid}",
                "body": emphasised(clause_body(c, annotate(c.text, mine, self.site.store)), marks)}

    def pointer(self, cid: str, arrow: str) -> dict[str, Any]:
        """A link to a clause of this edition shown elsewhere: `↑ ES 9A3`, `→ IT 72C`."""
        return {"pointer": True, "arrow": arrow, "edition": self.key.upper(), "label": readable(cid),
                "url": url_for(self.doc, article_of(cid), cid)}
