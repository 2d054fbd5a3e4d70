"""HTML pages (DESIGN §8): home, search, document, unit, compare; errors as pages."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

from kb.citations.annotate import annotate, in_text_of
from kb.editions.chapters import anchors, chapters
from kb.citations.style import citation, place_name, unit_name
from kb.records.clauseid import article_of, readable
from kb.corpus.tables import note_in
from kb.corpus.languages import BY_CODE
from kb.search.analysis import LANGS
from kb.search.model import MODEL_NAME
from kb.search.query import QueryError
from kb.records.store import NotFound, clause_depths, clause_label
from kb.readmodel.unitview import Ref, UnitView
from kb.corpus.urls import compare_url, law_changes_url, situation_url, url_for

from .i18n import LOCALES, marked_for_translation as _, negotiate
from .security import plain_number
from .views import clause_body, emphasised, emphasised_line, marked

router = APIRouter(include_in_schema=False)  # pages: the OpenAPI description is the JSON API
TEMPLATES = Environment(loader=FileSystemLoader(Path(__file__).resolve().parent / "templates"),
                        autoescape=select_autoescape(default=True, default_for_string=True))
PAGE_SIZE = 10


class PageNotFound(Exception):
    """A page that does not exist; `missing` (the library's NotFound) says what was asked for,
    so that the page can say it in its reader's language."""

    def __init__(self, message: str, missing: NotFound | None = None):
        self.message, self.missing = message, missing

    @classmethod
    def of(cls, e: NotFound) -> "PageNotFound":
        return cls(str(e), e)


def locale_of(request: Request) -> str:
    return negotiate(request.query_params.get("ui"), request.cookies.get("ui"),
                     request.headers.get("accept-language"), locales_of(request))


def locales_of(request: Request) -> tuple[str, ...]:
    """The interface languages of the build a request is served from."""
    site = request.app.state.site
    return site.locales if site is not None else LOCALES


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    site = request.app.state.site
    locale = locale_of(request)
    translations = site.translations[locale]
    params = {k: v for k, v in request.query_params.items() if k != "ui"}
    here = "/" + request.url.path.lstrip("/")  # "//evil.example/x" would be another site's address
    alternates = [{"locale": loc, "href": f"{here}?{urlencode({**params, 'ui': loc})}"} for loc in site.locales]
    html = TEMPLATES.get_template(template).render(
        _=translations.gettext, locale=locale, alternates=alternates, doc_langs=doc_langs(site),
        docname=lambda doc: site.library.label(doc, locale),
        doc_labels={d: site.library.label(d, locale) for d in site.store.documents},
        unit_name=lambda doc, unit: unit_name(translations.gettext, site.store.unit(doc, unit)),
        place=lambda doc, unit, clause=None: place_name(translations.gettext, site.library.is_laws(doc),
                                                        site.store.unit(doc, unit), clause), **context)
    response = HTMLResponse(html, status_code=status)
    if request.query_params.get("ui") in site.locales:
        response.set_cookie("ui", locale, max_age=365 * 24 * 3600, samesite="lax")
    response.headers["Content-Language"] = locale
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


def doc_langs(site: Any) -> dict[str, str]:
    """The language of each document: law text carries its own `lang`, whatever the interface's."""
    return {d: doc["lang"] for d, doc in site.store.documents.items()}


# The calls a director gets most at the table, each the situation of the index (corpus/situations.tsv)
# that opens its Law: a tap lands among that Law's situations.
COMMON_CALLS = (("opening-lead-out-of-turn", _("Lead out of turn")), ("revoke-definition", _("Revoke")),
                ("insufficient-bid-accepted", _("Insufficient bid")), ("claim", _("Claim")),
                ("hesitation-partner-acts", _("Hesitation")),
                ("misinformation-change-call", _("Misinformation")), ("defender-exposes-card", _("Exposed card")),
                ("call-oot-accepted", _("Call out of rotation")), ("dummy-rights-absolute", _("Dummy's rights")),
                ("adjusted-score", _("Adjusted score")))
EXAMPLE_QUERY = _("dummy pointed at a card")  # what a reader may type: told as it happened, in their words


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> Response:
    site = request.app.state.site
    return render(request, "home.html", documents=site.store.export["documents"], autofocus=True,
                  laws=site.library.laws_in_force, data=home_data(site, site.translations[locale_of(request)].gettext))


def home_data(site: Any, gettext: Any) -> dict[str, Any]:
    """The common calls, each to its situation, and an example of a query, in the reader's language."""
    example = gettext(EXAMPLE_QUERY)
    return {"calls": [{"name": name, "url": situation_url(s, site.situation_page[s])} for s, name in COMMON_CALLS],
            "example": {"query": example, "url": "/search?" + urlencode({"q": example})}}


@router.get("/search", response_class=HTMLResponse)
async def search(request: Request, q: str = "", doc: str | None = None, lang: str | None = None,
           page: int = 1) -> Response:
    site = request.app.state.site
    ui = locale_of(request)
    if not q.strip():  # the bare search page: what the browser's own search answers in, offline
        return render(request, "search.html", query="", result=None, replaced_docs=replaced_docs(site),
                      in_force=site.library.laws_in_force)
    try:
        result = site.engine.search(q, doc=doc or None, lang=lang or None, limit=PAGE_SIZE,
                                    page=min(max(page, 1), 1000), ui=ui if ui in LANGS else None)
    except QueryError as e:
        return render(request, "search.html", status=400, query=q[:200], error=str(e), result=None)
    if result.jump and q.strip():
        return RedirectResponse(result.jump["url"], status_code=303)
    replaced = replaced_docs(site)
    hits = [h.to_dict() | {"segments": marked(h.snippet)} | in_force_first(site, replaced, h.doc, h.parallel)
            for h in result.hits]
    return render(request, "search.html", query=q, result=result, hits=hits, page=result.page, doc=doc,
                  pages=max(1, math.ceil(result.total / PAGE_SIZE)))


def replaced_docs(site: Any) -> list[str]:
    """The editions of the Laws a newer one replaces (a hit in one is badged, its clause in force first)."""
    return [d for d in site.store.documents if replaced_by(site, d)]


def in_force_first(site: Any, replaced: list[str], doc: str, parallel: list[dict[str, Any]]) -> dict[str, Any]:
    """A hit of a replaced edition: so badged, the same clause in the Laws in force first among its parallels."""
    if doc not in replaced:
        return {"replaced": False}
    in_force = site.library.laws_in_force
    marked_in_force = [p | {"in_force": p["doc"] == in_force} for p in parallel]
    return {"replaced": True, "in_force": any(p["in_force"] for p in marked_in_force),
            "parallel": sorted(marked_in_force, key=lambda p: not p["in_force"])}


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


def _edition_name(site: Any, doc: str) -> dict[str, str]:
    """What names an edition to a reader: its language (a catalogs msgid) and its year."""
    return {"language": BY_CODE[site.library.lang(doc)].name, "edition": site.library.edition(doc) or ""}


class _Side:
    """One edition's clauses of Law n, as compare-page cells. Its key (anchors, classes, data
    attributes) is the edition's language, or its year when both editions share one."""

    def __init__(self, doc: str, n: str, site: Any, pair: Any):
        self.doc, self.n, self.site = doc, n, site
        d, langs = site.store.doc(doc), {site.library.lang(pair.older), site.library.lang(pair.newer)}
        self.key, self.lang = (d["lang"] if len(langs) == 2 else d["edition"]), d["lang"]
        self.language, self.edition = _edition_name(site, doc).values()
        self.tag = f"{self.lang.upper()} {self.edition}".strip()  # names a cell's edition on a phone: "ES 2007"
        unit = site.store.units_of(doc).get(n) or {"title": "", "clauses": []}
        self.title, self.clauses = unit.get("title") or "", unit["clauses"]
        self.by_id = {c["id"]: c for c in self.clauses}
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
        return {"label": readable(cid), "title": emphasised_line(c["title"], marks) if c.get("title") else None,
                "url": url_for(self.doc, self.n, cid),
                "anchor": f"{self.key}-{cid}",
                "body": emphasised(clause_body(c, annotate(c["text"], mine, self.site.store)), marks)}

    def pointer(self, cid: str, arrow: str) -> dict[str, Any]:
        """A link to a clause of this edition shown elsewhere: `↑ ES 9A3`, `→ IT 72C`."""
        return {"pointer": True, "arrow": arrow, "edition": self.key.upper(), "label": readable(cid),
                "url": url_for(self.doc, article_of(cid), cid)}


@router.get("/{doc}", response_class=HTMLResponse)
async def document(request: Request, doc: str) -> Response:
    site = request.app.state.site
    try:
        d = site.store.doc(doc)
    except NotFound as e:
        raise PageNotFound.of(e) from e
    data = laws_contents(site, d) if site.library.is_laws(doc) else {"chapters": [], "groups": toc_groups(d)}
    return render(request, "document.html", doc=d, data=data, replaced=replaced_by(site, doc))


def laws_contents(site: Any, d: dict[str, Any]) -> dict[str, Any]:
    """A Laws document's contents: its Laws as a grid of numbers by chapter (`kb.editions.chapters`; whose
    chapters they are when the text prints none), then what else it holds, the definitions first."""
    titles = {u["id"]: u.get("title") or "" for u in d["units"]}
    found = chapters(site.store, site.library, d["id"])
    shown = [{"id": c.id, "anchor": a, "title": c.title, "lang": c.lang,
              "laws": [{"n": n, "title": titles[n]} for n in c.laws]} for c, a in zip(found, anchors(found))]
    rest = [g for g in toc_groups(d) if not any(u["label"] for u in g["units"])]
    kinds = {u["id"]: u["kind"] for u in d["units"]}
    return {"chapters": shown, "chapters_of": next((c.doc for c in found if c.id and c.doc != d["id"]), None),
            "groups": sorted(rest, key=lambda g: not any(kinds[u["id"]] == "definition" for u in g["units"]))}


def replaced_by(site: Any, doc: str, unit: str | None = None) -> dict[str, Any] | None:
    """For an edition of the Laws a newer one replaces: that edition, since when it is in force,
    and the same Law in it (the numbers of the Laws are kept from edition to edition)."""
    newest = site.library.laws_in_force
    if not site.library.is_laws(doc) or doc == newest or newest is None:
        return None
    d = site.store.doc(newest)
    same = unit is not None and any(u["id"] == unit for u in d["units"])
    return {"doc": newest, "edition": d.get("edition"), "since": d.get("effective"),
            "url": url_for(newest, unit) if same else f"/{newest}", "unit": unit if same else None}


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
        view = site.unit_view(doc, unit)
    except NotFound as e:
        raise PageNotFound.of(e) from e
    return render(request, "unit.html", **unit_context(site, view, locale_of(request)))


def unit_context(site: Any, view: UnitView, lang: str) -> dict[str, Any]:
    """The unit page: the view `/api/units/{doc}/{unit}` answers, its clauses cut into
    segments with their citation links and the links attached beside each; the situations
    it rules, named in the reader's language."""
    d, u = view.doc, view.unit
    out_cits = site.store.outgoing(d["id"], u["id"])
    depths, labels = clause_depths(u), {c["id"]: clause_label(d, u, c) for c in u["clauses"]}
    headings = heading_levels(u, {c["id"] for c in u["clauses"] if labels[c["id"]] or c.get("title")})
    attached = view.links.attached(u["id"])
    cite = cite_of(site, d["id"], u, lang)
    norms = [n | norm_text(site, n["ref"]) for n in placed(view.links.norms, labels, view)]
    clauses = [{"id": c["id"], "depth": depths[c["id"]], "heading": headings[c["id"]], "label": labels[c["id"]],
                "title": c.get("title"),
                "body": clause_body(c, annotate(c["text"], in_text_of(out_cits, c["id"]), site.store)),
                "paragraph": bool(c.get("paragraph")), "cite": cite(c["id"]), **{kind: attached.get(c["id"], {}).get(kind, [])
                                                          for kind in ("timerefs", "parallel")},
                "norms": [n for n in norms if n["anchor"] == c["id"]]}
               for c in u["clauses"]]
    footnotes = [f | {"at": [{"id": cid, "label": readable(cid)} for cid in
                             f.get("clauses") or ([f["clause"]] if f.get("clause") else [])]}
                 for f in u["footnotes"]]  # every clause holding the footnote's marker, linked
    situations = [{"url": situation_url(s.id, site.situation_page[s.id]), "name": s.name(lang)}
                  for s in site.situations_ruled_in(d["id"], u["id"])]
    whole = attached.get(u["id"], {})
    own = any(c["id"] == u["id"] for c in u["clauses"])  # a unit with text of its own before its clauses
    page_tools = {"id": u["id"], "href": f"#{u['id']}" if own else url_for(d["id"], u["id"]),
                  "cite": cite(u["id"]), "parallel": whole.get("parallel", []),
                  "compare": view.compare, "timerefs_here": whole.get("timerefs", [])}
    return {"view": view, "doc": d, "unit": u, "clauses": clauses, "page_tools": page_tools,
            "footnotes": footnotes, "situations": situations, "panels": side_panels(view, situations),
            "norms": norms, "timerefs": placed(view.links.timerefs, labels, view),
            "in_plan": d["id"] == site.library.laws_in_force and u["kind"] == "article",  # the reading plan's
            "replaced": replaced_by(site, d["id"], u["id"])}


def cite_of(site: Any, doc: str, unit: dict[str, Any], lang: str) -> Any:
    """A clause id's citation as this reader writes it ("Codice 2017, Art. 27B1(b)")."""
    gettext, label, laws = site.translations[lang].gettext, site.library.label(doc, lang), site.library.is_laws(doc)
    return lambda clause: citation(gettext, label, laws, unit, clause)


def placed(refs: tuple[Ref, ...], labels: dict[str, str], view: UnitView) -> list[dict[str, Any]]:
    """References with the clause of this unit they stand beside (its anchor and its label)."""
    at = [r.at or view.unit["id"] for r in refs]
    return [{"anchor": a, "label": labels.get(a) or view.label, "ref": r} for a, r in zip(at, refs)]


# The side material of a unit page, in the order it is shown (after the Law on a phone), as the
# menu at the top of the page names it (short: the menu fits a phone's width in three lines).
PANELS = {"norms": _("FIGB norms"), "timerefs": _("Time references"), "cited_by": _("Cited by"),
          "situations": _("Situations"), "terms": _("Defined terms"), "compare": _("Other edition")}


def side_panels(view: UnitView, situations: list[dict[str, str]]) -> list[dict[str, Any]]:
    """The menu at the top of a unit page: each side panel that has something, with how many,
    so a phone reaches the norms or the citing clauses without scrolling past the whole Law."""
    links = view.links
    counts = {"norms": len(links.norms), "timerefs": len(links.timerefs), "cited_by": len(links.cited_by),
              "situations": len(situations), "terms": len(view.terms), "compare": len(view.compare)}
    return [{"id": kind.replace("_", "-"), "name": PANELS[kind], "count": n if kind != "compare" else None}
            for kind, n in counts.items() if n]


LONG_NORM = 400  # characters: a longer norm paragraph is folded beside its clause, its opening words shown
SEARCH_DATA = f"/offline/{MODEL_NAME}"  # the search model as the browser's engine fetches it
TEMPLATES.globals["search_data"] = SEARCH_DATA  # every page's search box can search without the server
TEMPLATES.globals["long_norm"] = LONG_NORM  # the answer card folds a norm alike (offline.js reads it off the page)
OPENING = 90     # characters of a norm's opening words


def norm_text(site: Any, ref: Ref) -> dict[str, Any]:
    """A FIGB norm paragraph as shown beside the Law clause it integrates: its text with its own
    citation links, in its document's language; `long` ones are folded, so the Law reads on.
    A norm keyed to the whole Law (no clause) is shown by `whole_norm`."""
    unit = site.store.unit(ref.doc, ref.unit or "")
    if ref.clause is None:
        return whole_norm(site, ref.doc, unit)
    clause = next(c for c in unit["clauses"] if c["id"] == ref.clause)
    text = " ".join(clause["text"].split())
    return {"lang": site.store.doc(ref.doc)["lang"], "long": len(text) > LONG_NORM, "opening": opening(text),
            "body": own_body(site, ref.doc, unit, clause)}


def whole_norm(site: Any, doc: str, unit: dict[str, Any]) -> dict[str, Any]:
    """A norm at the top of the Law it integrates: its lead text, then its points, each a link
    into the norm (the whole of norm 8, tables and all, would push Law 8 off the screen)."""
    lead = next(c for c in unit["clauses"] if c["id"] == unit["id"])
    points = [c for c in unit["clauses"] if c["parent"] == unit["id"]]
    names = [point_name(c) for c in points]
    contents = [{"paragraph": [{"text": name, "href": url_for(doc, unit["id"], c["id"]), "title": name}]}
                for name, c in zip(names, points)]
    lead_text = " ".join(lead["text"].split())
    return {"lang": site.store.doc(doc)["lang"], "long": len(unit["text"]) > LONG_NORM,
            "opening": opening(lead_text or " · ".join(names)), "body": own_body(site, doc, unit, lead) + contents}


def point_name(clause: dict[str, Any]) -> str:
    """A point of a norm as its contents name it: its label and title ("1. Sostituti"), or its
    label and opening words when it has no title ("40A1(b) La FIGB ha definito…")."""
    words = clause.get("title") or opening(" ".join(clause["text"].split()), 60)
    return " ".join(part for part in (clause.get("label"), words) if part)


def own_body(site: Any, doc: str, unit: dict[str, Any], clause: dict[str, Any]) -> list[dict[str, Any]]:
    cits = in_text_of(site.store.outgoing(doc, unit["id"]), clause["id"])
    return clause_body(clause, annotate(clause["text"], cits, site.store))


def opening(text: str, length: int = OPENING) -> str:
    """A text's opening words, cut at a word before `length` characters."""
    return text if len(text) <= length else text[:length].rsplit(" ", 1)[0] + "…"


def heading_levels(unit: dict[str, Any], headed: set[str]) -> dict[str, int]:
    """The heading element (2 to 6) of each clause: h2 under the page's h1, one level deeper
    for each headed clause above it (27B h2, 27B1 h3, 27B1(a) h4), so the outline nests as the
    clauses do; a clause shown without a heading adds no level."""
    above: dict[str, int] = {}
    for c in unit["clauses"]:  # a parent is listed before its clauses
        parent = c["parent"]
        above[c["id"]] = above.get(parent, 0) + (parent in headed) if parent else 0
    return {cid: min(2 + n, 6) for cid, n in above.items()}
