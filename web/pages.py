"""HTML pages (DESIGN §8): home, search, document, unit, compare; errors as pages."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

from kb.clauseid import article_of, readable
from kb.search.engine import url_for
from kb.search.query import QueryError
from kb.store import NotFound, clause_depths, clause_label

from .i18n import LOCALES, negotiate
from .views import clause_body, clause_paragraphs, marked, neighbours

router = APIRouter()
TEMPLATES = Environment(loader=FileSystemLoader(Path(__file__).resolve().parent / "templates"),
                        autoescape=select_autoescape(default=True, default_for_string=True))
PAGE_SIZE = 10
RELATIONS = ("same", "moved", "split", "merged", "changed", "new-in-2017", "removed-in-2017")


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
    alternates = [{"locale": loc, "href": f"{request.url.path}?{urlencode({**params, 'ui': loc})}"}
                  for loc in LOCALES]
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
    docs = request.app.state.site.store.export["documents"]
    return render(request, "home.html", documents=docs, autofocus=True)


@router.get("/search", response_class=HTMLResponse)
async def search(request: Request, q: str = "", doc: str | None = None, lang: str | None = None,
           page: int = 1) -> Response:
    site = request.app.state.site
    ui = locale_of(request)
    try:
        result = site.engine.search(q, doc=doc or None, lang=lang or None, limit=PAGE_SIZE,
                                    page=min(max(page, 1), 1000), ui=ui if ui in ("it", "es") else None)
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
    it, es = site.store.unit("it-laws", n), site.store.unit("es-laws", n)
    rows = compare_rows(site, n, it, es)
    labels = {r: r.replace("-", " ") for r in RELATIONS}
    return render(request, "compare.html", n=int(n), it_title=it["title"], es_title=es["title"], rows=rows,
                  relations=labels)


def compare_rows(site: Any, n: str, it: dict[str, Any], es: dict[str, Any]) -> list[dict[str, Any]]:
    """Italian 2017 clauses beside their Spanish 2007 counterparts, in Italian order; Spanish
    clauses the concordance sends elsewhere or drops get their own rows."""
    it_cits = site.store.outgoing("it-laws", n)
    es_cits = site.store.outgoing("es-laws", n)
    es_by_id = {c["id"]: c for c in es["clauses"]}
    rows, shown_es = [], set()
    for c in it["clauses"]:
        if c["id"] == n and not c["text"] and not (es_by_id.get(n) or {}).get("text"):
            continue  # an article with no preamble in either edition: its sections follow
        found = site.concordance.by_it.get(c["id"], [])
        row = {"it": _side("it-laws", n, c, it_cits, site), "es": None, "relation": "same", "note": ""}
        if found:
            r = found[0]
            row["relation"], row["note"] = r.relation, r.note
            other = es_by_id.get(r.es) if r.es and article_of(r.es) == n else None
            if other is None and r.es:
                row["note"] = f"{r.note} (ES {readable(r.es)})".strip()
            elif other is not None:
                row["es"] = _side("es-laws", n, other, es_cits, site)
                shown_es.add(other["id"])
        elif c["id"] in es_by_id:
            row["es"] = _side("es-laws", n, es_by_id[c["id"]], es_cits, site)
            shown_es.add(c["id"])
        rows.append(row)
    for c in es["clauses"]:
        if c["id"] not in shown_es and (c["text"] or c.get("title")):
            r = (site.concordance.by_es.get(c["id"]) or [None])[0]
            relation = r.relation if r else "same"
            note = (f"{r.note} → IT {readable(r.it)}" if r and r.it else (r.note if r else ""))
            rows.append({"it": None, "es": _side("es-laws", n, c, es_cits, site), "relation": relation,
                         "note": note})
    return rows


def _side(doc: str, n: str, c: dict[str, Any], cits: list[dict[str, Any]], site: Any) -> dict[str, Any]:
    mine = [x for x in cits if x["source"]["clause"] == c["id"] and x["where"] == "text"]
    return {"label": readable(c["id"]), "title": c.get("title"), "url": url_for(doc, n, c["id"]),
            "paragraphs": clause_paragraphs(c["text"], mine, site.store)}


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
    links = unit_links(site.store, site.parallels, d["id"], u["id"])
    out_cits = site.store.outgoing(d["id"], u["id"])
    levels = clause_depths(u)
    by_clause: dict[str, dict[str, list[Any]]] = {}
    for kind in ("norms", "timerefs", "parallel"):
        for link in links[kind]:
            at = link.get("at") or link.get("clause") or u["id"]
            by_clause.setdefault(at, {}).setdefault(kind, []).append(link)
    clauses = []
    for c in u["clauses"]:
        mine = [x for x in out_cits if x["source"]["clause"] == c["id"] and x["where"] == "text"]
        attached = by_clause.get(c["id"], {})
        clauses.append({
            "id": c["id"], "depth": levels[c["id"]], "label": clause_label(d, u, c), "title": c.get("title"),
            "body": clause_body(c, clause_paragraphs(c["text"], mine, site.store)),
            "paragraph": bool(c.get("paragraph")),
            "notes": c.get("notes", []), "norms": attached.get("norms", []),
            "timerefs": attached.get("timerefs", []),
            "parallel": [p | {"doc": p["doc"]} for p in attached.get("parallel", [])],
        })
    for f in u["footnotes"]:
        f["clause_label"] = readable(f["clause"]) if f.get("clause") else ""
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
