"""HTML pages (DESIGN §8): home, search, document, unit, compare; errors as pages."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

from kb.annotate import annotate, in_text_of
from kb.clauseid import article_of, readable
from kb.search.analysis import LANGS
from kb.search.engine import url_for
from kb.search.query import QueryError
from kb.store import NotFound, clause_depths, clause_label

from .i18n import LOCALES, negotiate
from .views import clause_body, marked, neighbours

router = APIRouter(include_in_schema=False)  # pages: the OpenAPI description is the JSON API
TEMPLATES = Environment(loader=FileSystemLoader(Path(__file__).resolve().parent / "templates"),
                        autoescape=select_autoescape(default=True, default_for_string=True))
PAGE_SIZE = 10


class PageNotFound(Exception):
    def __init__(self, message: str):
        self.message = message


def locale_of(request: Request) -> str:
    return negotiate(request.query_params.get("ui"), request.cookies.get("ui"),
                     request.headers.get("accept-language"))


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    site = request.app.state.site
    locale = locale_of(request)
    translations = site.translations[locale]
    params = {k: v for k, v in request.query_params.items() if k != "ui"}
    here = "/" + request.url.path.lstrip("/")  # "//evil.example/x" would be another site's address
    alternates = [{"locale": loc, "href": f"{here}?{urlencode({**params, 'ui': loc})}"} for loc in LOCALES]
    html = TEMPLATES.get_template(template).render(
        _=translations.gettext, locale=locale, alternates=alternates, **context)
    response = HTMLResponse(html, status_code=status)
    if request.query_params.get("ui") in LOCALES:
        response.set_cookie("ui", locale, max_age=365 * 24 * 3600, samesite="lax")
    response.headers["Content-Language"] = locale
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> Response:
    site = request.app.state.site
    return render(request, "home.html", documents=site.store.export["documents"], autofocus=True,
                  laws=site.library.laws_in_force)


@router.get("/search", response_class=HTMLResponse)
async def search(request: Request, q: str = "", doc: str | None = None, lang: str | None = None,
           page: int = 1) -> Response:
    site = request.app.state.site
    ui = locale_of(request)
    try:
        result = site.engine.search(q, doc=doc or None, lang=lang or None, limit=PAGE_SIZE,
                                    page=min(max(page, 1), 1000), ui=ui if ui in LANGS else None)
    except QueryError as e:
        return render(request, "search.html", status=400, query=q[:200], error=str(e), result=None)
    if result.jump and q.strip():
        return RedirectResponse(result.jump["url"], status_code=303)
    hits = [h.to_dict() | {"segments": marked(h.snippet)} for h in result.hits]
    return render(request, "search.html", query=q, result=result, hits=hits, page=result.page, doc=doc,
                  pages=max(1, math.ceil(result.total / PAGE_SIZE)))


@router.get("/compare/{n}", response_class=HTMLResponse)
async def compare(request: Request, n: str) -> Response:
    if not (n.isascii() and n.isdigit()) or n != str(int(n)) or not 1 <= int(n) <= 93:
        raise PageNotFound(f"No Law {n}: the Laws are numbered 1 to 93.")
    site = request.app.state.site
    new, old = site.library.newer, site.library.older
    it, es = site.store.unit(new, n), site.store.unit(old, n)
    return render(request, "compare.html", n=int(n), it_title=it["title"], es_title=es["title"], it_doc=new, es_doc=old,
                  rows=compare_rows(site, n, it, es))


def compare_rows(site: Any, n: str, it: dict[str, Any], es: dict[str, Any]) -> list[dict[str, Any]]:
    """The compare rows of Law n (`kb.compare`, the concordance alone) formatted for the page:
    a clause shown in its row with its text, a clause shown in another row as a pointer to
    it, each governing concordance row's note once, and links to the other edition's clauses
    the row names (where a Spanish clause went, where an Italian one came from)."""
    rows = site.pairing.law_rows(n, it["clauses"], es["clauses"])
    new, old = site.library.newer, site.library.older
    sides = {"it": _Side(new, n, it, site), "es": _Side(old, n, es, site)}  # the concordance's columns
    at = {(side, getattr(r, side)): i for i, r in enumerate(rows) for side in sides
          if getattr(r, side) and getattr(r, f"show_{side}")}
    noted: set[Any] = set()
    out = []
    for i, r in enumerate(rows):
        cells = {side: s.cell(getattr(r, side), getattr(r, f"show_{side}"), i, at) for side, s in sides.items()}
        other = "es" if r.it else "it"
        out.append({"it_id": r.it or "", "es_id": r.es or "", "relation": r.relation, **cells,
                    "note": r.note if r.row not in noted else "",
                    "links": [sides[other].pointer(cid, "→" if other == "it" else "←") for cid in r.elsewhere]})
        noted.add(r.row)
    return out


class _Side:
    """One edition's clauses of Law n, as compare-page cells."""

    def __init__(self, doc: str, n: str, unit: dict[str, Any], site: Any):
        self.doc, self.n, self.site = doc, n, site
        self.side = site.store.doc(doc)["lang"]
        self.by_id = {c["id"]: c for c in unit["clauses"]}
        self.cits = site.store.outgoing(doc, n)

    def cell(self, cid: str | None, show: bool, row: int, at: dict[tuple[str, str], int]) -> dict[str, Any] | None:
        """The clause with its text, or (shown in another row) a pointer to that row."""
        if cid is None:
            return None
        if not show:
            where = at.get((self.side, cid))
            if where is None:
                return self.pointer(cid, "")
            return self.pointer(cid, "↑" if where < row else "↓") | {"url": f"#{self.side}-{cid}"}
        c = self.by_id[cid]
        mine = in_text_of(self.cits, cid)
        return {"label": readable(cid), "title": c.get("title"), "url": url_for(self.doc, self.n, cid),
                "anchor": f"{self.side}-{cid}",
                "body": clause_body(c, annotate(c["text"], mine, self.site.store))}

    def pointer(self, cid: str, arrow: str) -> dict[str, Any]:
        """A link to a clause of this edition shown elsewhere: `↑ ES 9A3`, `→ IT 72C`."""
        return {"pointer": True, "arrow": arrow, "edition": self.side.upper(), "label": readable(cid),
                "url": url_for(self.doc, article_of(cid), cid)}


@router.get("/{doc}", response_class=HTMLResponse)
async def document(request: Request, doc: str) -> Response:
    store = request.app.state.site.store
    try:
        d = store.doc(doc)
    except NotFound as e:
        raise PageNotFound(str(e)) from e
    return render(request, "document.html", doc=d, groups=toc_groups(d))


def toc_groups(d: dict[str, Any]) -> list[dict[str, Any]]:
    titles = {g["id"]: g["title"] for g in d.get("groups", [])}
    groups: list[dict[str, Any]] = []
    for u in d["units"]:
        gid = u.get("group") or ""
        if not groups or groups[-1]["id"] != gid:
            groups.append({"id": gid, "anchor": gid or "units", "title": titles.get(gid, ""), "units": []})
        sections = [{"id": c["id"], "label": readable(c["id"]), "title": c.get("title")}
                    for c in u["clauses"] if c["parent"] == u["id"] and d["kind"] == "laws"
                    and u["kind"] == "article"]
        groups[-1]["units"].append({"id": u["id"], "title": u.get("title"), "sections": sections,
                                    "label": u["id"] if u["kind"] in ("article", "norm") else ""})
    return groups


@router.get("/{doc}/{unit}", response_class=HTMLResponse)
async def unit(request: Request, doc: str, unit: str) -> Response:
    site = request.app.state.site
    try:
        d, u = site.store.doc(doc), site.store.unit(doc, unit)
    except NotFound as e:
        raise PageNotFound(str(e)) from e
    return render(request, "unit.html", **unit_context(site, d, u))


def unit_context(site: Any, d: dict[str, Any], u: dict[str, Any]) -> dict[str, Any]:
    from .api import unit_links
    links = unit_links(site.store, site.library, site.parallels, d["id"], u["id"])
    out_cits = site.store.outgoing(d["id"], u["id"])
    levels = clause_depths(u)
    by_clause: dict[str, dict[str, list[Any]]] = {}
    for kind in ("norms", "timerefs", "parallel"):
        for link in links[kind]:
            at = link.get("at") or link.get("clause") or u["id"]
            by_clause.setdefault(at, {}).setdefault(kind, []).append(link)
    clauses = []
    for c in u["clauses"]:
        mine = in_text_of(out_cits, c["id"])
        attached = by_clause.get(c["id"], {})
        clauses.append({
            "id": c["id"], "depth": levels[c["id"]], "label": clause_label(d, u, c), "title": c.get("title"),
            "body": clause_body(c, annotate(c["text"], mine, site.store)),
            "paragraph": bool(c.get("paragraph")),
            "norms": attached.get("norms", []),
            "timerefs": attached.get("timerefs", []),
            "parallel": [p | {"doc": p["doc"]} for p in attached.get("parallel", [])],
        })
    # every clause holding a footnote's marker, linked; on a copy: the store's unit is also the API's
    u = u | {"footnotes": [f | {"at": [{"id": cid, "label": readable(cid)} for cid in
                                       f.get("clauses") or ([f["clause"]] if f.get("clause") else [])]}
                           for f in u["footnotes"]]}
    cited_by = [{"url": c["url"], "doc": c["doc"], "label": readable(c.get("clause") or c["unit"]),
                 "title": c["title"]} for c in links["cited_by"]]
    prev, nxt = neighbours(site.store, d["id"], u["id"])
    terms = defined_terms(site, d["id"], u)
    label = u["id"] if u["kind"] in ("article", "norm") else ""
    compare = f"/compare/{u['id']}" if d["kind"] == "laws" and u["kind"] == "article" else None
    return {"doc": d, "unit": u, "unit_label": label, "clauses": clauses, "cited_by": cited_by,
            "prev": prev, "next": nxt, "compare": compare, "terms": terms}


def defined_terms(site: Any, doc: str, u: dict[str, Any]) -> list[dict[str, str]]:
    """The defined terms this unit's text uses, each linking to its definition."""
    from kb.graph import clause_node
    found: dict[str, dict[str, str]] = {}
    for c in u["clauses"]:
        node = clause_node(doc, u["id"], c["id"])
        if node not in site.graph:
            continue
        for src, _, data in site.graph.in_edges(node, data=True):
            if data["type"] == "defines" and src not in found:
                meta = site.graph.nodes[src]
                found[src] = {"title": meta.get("title") or meta.get("clause", ""),
                              "url": url_for(meta["doc"], meta["unit"], meta.get("clause"))}
    return sorted(found.values(), key=lambda t: t["title"].lower())
