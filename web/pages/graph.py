"""A unit's graph page: the units it cites and that cite it, integrate, time or parallel it, around it."""
from __future__ import annotations

import math

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from kb.pipeline.graph import neighbourhood
from kb.corpus.urls import url_for
from kb.records.store import NotFound

from ..i18n import marked_for_translation as _
from .render import PageNotFound, render

router = APIRouter(include_in_schema=False)  # pages: the OpenAPI description is the JSON API


GRAPH_SIZE, RADIUS, MAX_NODES = 720, 290, 24
# The graph's kinds of link (kb.pipeline.graph.neighbourhood's keys), as the page names them.
LINK_KINDS = {
    "cites": _("cites"), "cites_by": _("cited by"),
    "integrates": _("integrates"), "integrates_by": _("integrated by"),
    "annotates": _("gives the times of"), "annotates_by": _("timed by"),
    "parallel": _("other edition"), "parallel_by": _("other edition"),
}


@router.get("/graph/{doc}/{unit}", response_class=HTMLResponse)
async def graph(request: Request, doc: str, unit: str) -> Response:
    site = request.app.state.site
    try:
        u = site.store.unit(doc, unit)
    except NotFound as e:
        raise PageNotFound.of(e) from e
    g = site.graph
    groups = neighbourhood(g, doc, unit)
    nodes, seen = [], set()
    for kind, members in groups.items():
        if kind.startswith("defines"):
            continue  # the definitions a unit uses are listed on its page; here they would crowd the rest
        for m in members:
            if m not in seen and not m.startswith("external:"):
                seen.add(m)
                nodes.append((m, kind))
    nodes = nodes[:MAX_NODES]
    center = GRAPH_SIZE / 2
    placed = []
    for i, (node, kind) in enumerate(nodes):
        angle = 2 * math.pi * i / max(len(nodes), 1)
        d, uid = node.split(":", 1)
        placed.append({"x": round(center + RADIUS * math.cos(angle), 1), "y": round(center + RADIUS * math.sin(angle), 1),
                       "label": _short(site.library.short(d), uid, site.store.title(d, uid)), "title": site.store.title(d, uid), "unit": uid,
                       "url": url_for(d, uid), "kind": kind, "doc": d})
    groups = {k: v for k, v in groups.items() if not k.startswith("defines")}
    return render(request, "graph.html", doc=site.store.doc(doc), unit=u, nodes=placed, size=GRAPH_SIZE,
                  center=center, groups={k: len(v) for k, v in groups.items()}, link_kinds=LINK_KINDS,
                  center_label=_short(site.library.short(doc), unit, u.title or ""))


def _short(mark: str, unit: str, title: str) -> str:
    """A node's label: "IT 27", "NI 40-2", "TR Licitaz…" (the manifest's `short` mark, then a
    numbered unit's number, else its title cut short)."""
    name = unit if unit[:1].isdigit() else title or unit
    return f"{mark} {name if len(name) <= 9 else name[:8] + '…'}"
