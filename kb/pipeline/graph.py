"""The cross-reference graph (DESIGN §5), built from an export.

Nodes are units (`it-laws:27`) and clauses (`it-laws:27#27B1a`), plus one node
per external text (`external:Statuto Federale`). Each clause is joined to its
unit by a `part` edge. Typed edges:

- `cites`      a clause → the clause or unit its text cites (every citation kind
               but `integrates`);
- `integrates` a norm paragraph → the Law clause it is labelled with, and a
               norm → the Law(s) it is keyed to;
- `annotates`  a time-reference entry → the 2017 Law clause its 2007
               reference reaches through the concordance;
- `parallel`   an Italian 2017 clause ↔ a Spanish 2007 clause (concordance);
- `defines`    a definition → the clauses that use its term (inflections allowed).
"""
from __future__ import annotations

import json
from pathlib import Path
import re
from collections import Counter
from typing import Any, Iterable

import networkx as nx

from ..records.built import BuiltDocument
from ..records.citation import EXTERNAL, Citation, Target
from ..records.clauseid import article_of
from ..records.store import Store
from ..editions.pairs import Editions
from ..corpus.library import NORMS, TIMEREF, Library
from ..common.text import fold_accents

LINK_TYPES = ("cites", "integrates", "annotates", "parallel", "defines")


def unit_node(doc: str, unit: str) -> str:
    return f"{doc}:{unit}"


def clause_node(doc: str, unit: str, clause: str | None) -> str:
    return f"{doc}:{unit}#{clause}" if clause and clause != unit else unit_node(doc, unit)


def target_node(t: Target) -> str:
    if t.doc == EXTERNAL:
        return f"external:{t.name}"
    return clause_node(t.doc, t.unit or "", t.clause)


def build_graph(store: Store, editions: Editions | None = None) -> nx.MultiDiGraph:
    """The graph of a build's records; `editions` (the pairs of editions and their concordances)
    adds the `parallel` links."""
    g = nx.MultiDiGraph()
    library = Library.of(store.export["documents"])
    for d in store.documents.values():
        for u in d.units:
            un = unit_node(d.id, u.id)
            g.add_node(un, kind="unit", doc=d.id, unit=u.id, title=u.title or "")
            for c in u.clauses:
                cn = clause_node(d.id, u.id, c.id)
                if cn != un:
                    g.add_node(cn, kind="clause", doc=d.id, unit=u.id, clause=c.id)
                    g.add_edge(cn, un, key="part", type="part")
    for c in store.citations:
        _add_citation(g, c, library)
    for d in store.documents.values():
        if d.kind == NORMS:
            for u in d.units:
                for law in u.law:
                    _link(g, unit_node(d.id, u.id), unit_node(library.cites(d.id) or "", law), "integrates")
    if editions is not None:
        _add_parallels(g, editions)
    for doc in store.documents.values():
        _add_definitions(g, doc)
    return g


def _link(g: nx.MultiDiGraph, a: str, b: str, kind: str, **attrs: Any) -> None:
    if a in g and b in g:
        g.add_edge(a, b, type=kind, **attrs)


def _add_citation(g: nx.MultiDiGraph, c: Citation, library: Library) -> None:
    src = clause_node(*c.source)
    tgt = target_node(c.target)
    if c.target.doc == EXTERNAL:
        g.add_node(tgt, kind="external", title=c.target.name)
    if c.source[0] in library.ids(TIMEREF):  # even when 2007 lacks the sub-clause
        for t in c.onward():
            _link(g, src, target_node(t), "annotates", raw=c.raw)
    if c.resolved:
        kind = "integrates" if c.kind == "integrates" else "cites"
        _link(g, src, tgt, kind, raw=c.raw, citation=c.kind)


def _add_parallels(g: nx.MultiDiGraph, editions: Editions) -> None:
    for p in editions.links:
        mine, theirs = _law_node(g, p.doc, p.clause), _law_node(g, p.other, p.target)
        if mine and theirs:
            g.add_edge(mine, theirs, type="parallel", relation=p.relation, note=p.note)


def _law_node(g: nx.MultiDiGraph, doc: str, cid: str) -> str | None:
    node = clause_node(doc, article_of(cid), cid)
    return node if node in g else None


# ---------------------------------------------------------------- defines

def term_pattern(term: str) -> re.Pattern[str]:
    """A term with Italian inflection in mind: each word may change its last vowel(s).

    "Chiamata Artificiale" also matches "chiamate artificiali"; accents are folded.
    """
    words = re.findall(r"\w+", fold_accents(term).lower())
    parts = [re.escape(w[:-1]) + r"[aeiou]{1,2}" if len(w) > 4 and w[-1] in "aeiou" else re.escape(w)
             for w in words]
    return re.compile(r"\b" + r"[\s'-]+".join(parts) + r"\b")


def _definitions(doc: BuiltDocument) -> Iterable[tuple[str, str]]:
    """(definition node, term) pairs: the Laws' definition units, a code's definition clauses."""
    for u in doc.units:
        if u.kind == "definition":
            yield unit_node(doc.id, u.id), u.term or u.title or ""
        for c in u.clauses:
            if c.kind == "definition" and c.term:
                yield clause_node(doc.id, u.id, c.id), c.term


def _add_definitions(g: nx.MultiDiGraph, doc: BuiltDocument) -> None:
    defs = [(node, term_pattern(term)) for node, term in _definitions(doc) if len(term) >= 4]
    if not defs:
        return
    for u in doc.units:
        if u.kind == "definition":
            continue
        for c in u.clauses:
            text = fold_accents(" ".join(p for p in (c.title, c.text) if p)).lower()
            src = clause_node(doc.id, u.id, c.id)
            for node, pattern in defs:
                if node != src and pattern.search(text):
                    g.add_edge(node, src, type="defines")


# ---------------------------------------------------------------- queries

def links(g: nx.MultiDiGraph, node: str, types: Iterable[str] = LINK_TYPES, incoming: bool = False
          ) -> list[tuple[str, str]]:
    """(other node, link type) pairs from (or into) a node, in a stable order."""
    wanted = set(types)
    edges = g.in_edges(node, data=True) if incoming else g.out_edges(node, data=True)
    out = {(a if incoming else b, d["type"]) for a, b, d in edges if d["type"] in wanted}
    return sorted(out)


def cited_by(g: nx.MultiDiGraph, doc: str, unit: str) -> list[tuple[str, str]]:
    """Clauses that cite, integrate or annotate a unit or any of its clauses: (source, type)."""
    out: set[tuple[str, str]] = set()
    for node in _unit_and_clauses(g, doc, unit):
        out |= {(src, t) for src, t in links(g, node, ("cites", "integrates", "annotates"), incoming=True)
                if g.nodes[src].get("unit") != unit or g.nodes[src].get("doc") != doc}
    return sorted(out)


def _unit_and_clauses(g: nx.MultiDiGraph, doc: str, unit: str) -> list[str]:
    un = unit_node(doc, unit)
    return [un] + [a for a, _, d in g.in_edges(un, data=True) if d["type"] == "part"]


def neighbourhood(g: nx.MultiDiGraph, doc: str, unit: str) -> dict[str, list[str]]:
    """The units a unit is linked to, by link type and direction (`cites`, `cited_by`, …)."""
    out: dict[str, set[str]] = {}
    here = unit_node(doc, unit)
    for node in _unit_and_clauses(g, doc, unit):
        for other, t in links(g, node):
            out.setdefault(t, set()).add(_unit_of(g, other))
        for other, t in links(g, node, incoming=True):
            out.setdefault(f"{t}_by", set()).add(_unit_of(g, other))
    return {k: sorted(v - {here}) for k, v in sorted(out.items()) if v - {here}}


def _unit_of(g: nx.MultiDiGraph, node: str) -> str:
    data = g.nodes[node]
    return unit_node(data["doc"], data["unit"]) if "unit" in data else node


def most_cited(g: nx.MultiDiGraph, doc: str, n: int = 10) -> list[tuple[str, int]]:
    """Clauses of a document cited most often from other units."""
    counts: Counter[str] = Counter()
    for a, b, d in g.edges(data=True):
        if d["type"] == "cites" and g.nodes[b].get("doc") == doc and _unit_of(g, a) != _unit_of(g, b):
            counts[b] += 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def citation_path(g: nx.MultiDiGraph, doc: str, a: str, b: str) -> list[str] | None:
    """The shortest chain of citations leading from unit a to unit b, as unit nodes."""
    units = nx.DiGraph()
    for x, y, d in g.edges(data=True):
        if d["type"] in ("cites", "integrates"):
            ux, uy = _unit_of(g, x), _unit_of(g, y)
            if ux != uy:
                units.add_edge(ux, uy)
    try:
        return nx.shortest_path(units, unit_node(doc, a), unit_node(doc, b))
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return None


# ---------------------------------------------------------------- writing

def write_graph(g: nx.MultiDiGraph, path: str, fmt: str) -> None:
    if fmt == "graphml":
        plain = nx.MultiDiGraph()
        plain.add_nodes_from((n, {k: str(v) for k, v in d.items()}) for n, d in g.nodes(data=True))
        plain.add_edges_from((a, b, {k: str(v) for k, v in d.items()}) for a, b, d in g.edges(data=True))
        nx.write_graphml(plain, path)
    else:
        data = nx.node_link_data(g, edges="links")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, indent=1, sort_keys=True)
            f.write("\n")


def read_graph(path: Path) -> nx.MultiDiGraph:
    """The graph a build wrote with `write_graph(..., "json")`."""
    with open(path, encoding="utf-8") as f:
        return nx.node_link_graph(json.load(f), directed=True, multigraph=True, edges="links")
