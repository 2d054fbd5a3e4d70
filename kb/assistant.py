"""The knowledge base as an MCP server (`kb mcp`, DESIGN §9): what an assistant calls to answer
with verified clauses — search, a clause by id in any edition, the compare rows of a Law, the
situation index, the citation check — on standard input/output, with the official SDK (`mcp`).

It reads the build's current generation (`kb.open`), opened once and again when a newer build
lands; it never builds. Each tool answers structured content (the HTTP API's shapes, §8) and
the same said as text; a bad argument is a tool error whose message says what exists.
"""
from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Annotated, Any, Callable, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from . import __version__
from .catalogs import BUILD_DIR as CATALOGS, DEFAULT, translations
from .cite import CiteError, subtree_text
from .citations import normalize_ref
from .citestyle import citation
from .clauseid import article_of, readable
from .generations import BuildError
from .knowledge import KnowledgeBase
from .render import render_cite, render_result
from .search.analysis import fold
from .search.query import QueryError
from .store import NotFound
from .urls import url_for

Language = Literal["it", "es", "en"]

INSTRUCTIONS = (
    "The Laws of Duplicate Bridge (Italian 2017 edition, it-laws, in force; Spanish 2007 edition, es-laws), the "
    "Italian federation's integrative norms (it-norms), the referees' time references (it-timeref) and a Burraco "
    "code (it-burraco). Find clauses with `search`, read one with `clause` (text, citation, the other edition's "
    "clause), put a Law's two editions side by side with `compare`, look a table situation up in `situations`, "
    "and check every Law, norm or clause an answer cites with `cite` before giving it.")
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


class Current:
    """The build's current generation, opened and read into memory; opened again when another
    generation becomes current. `BuildError` (naming `kb build`) when there is no build."""

    def __init__(self, build_dir: Path | None = None):
        self.build_dir = build_dir
        self.kb = _opened(KnowledgeBase.open(build_dir))
        self._gettext: dict[str, Callable[[str], str]] = {}

    def get(self) -> KnowledgeBase:
        try:
            found = KnowledgeBase.open(self.build_dir)
        except BuildError:
            return self.kb  # the folder is being rebuilt or was emptied: what is held still answers
        if found.gen != self.kb.gen:
            self.kb, self._gettext = _opened(found), {}
        return self.kb

    def gettext(self, lang: str) -> Callable[[str], str]:
        if lang not in self._gettext:
            self._gettext[lang] = translations(self.kb.gen / CATALOGS, lang).gettext
        return self._gettext[lang]


def _opened(kb: KnowledgeBase) -> KnowledgeBase:
    """Everything the tools read, read now: a generation pruned later is no longer needed."""
    kb.engine.warm()
    kb.store, kb.editions, kb.checker, kb.situation_index(DEFAULT)  # noqa: B018 — opened now
    return kb


def answer(data: dict[str, Any], text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


# ---------------------------------------------------------------- the tools' answers

def search_answer(kb: KnowledgeBase, query: str, doc: str | None, lang: str | None, limit: int) -> CallToolResult:
    try:
        result = kb.search(query, doc=doc, lang=lang, limit=limit)
    except QueryError as e:
        raise ToolError(str(e)) from e
    hits = [{"doc": h.doc, "unit": h.unit, "clause": h.clause, "label": h.label, "title": h.title, "kind": h.kind,
             "lang": h.lang, "snippet": plain(h.snippet), "url": h.url} for h in result.hits]
    data = {"query": result.query, "total": result.total, "hits": hits, "suggestion": result.suggestion,
            "jump": result.jump}
    return answer(data, render_result(result))


def plain(snippet: str) -> str:
    """A search snippet as plain text: its `<mark>`s dropped, its entities read."""
    return html.unescape(re.sub(r"</?mark>", "", snippet))


def clause_answer(current: Current, doc: str, clause: str, lang: str) -> CallToolResult:
    kb = current.get()
    unit, cid = find_clause(kb, doc, clause)
    record = clause_record(kb, doc, unit, cid)
    record["citation"] = citation(current.gettext(lang), kb.library.label(doc, lang), kb.library.is_laws(doc), unit, cid)
    record["parallel"] = [parallel_record(kb, p.other, p.target, p.relation, p.note)
                          for p in kb.editions.of_clause(doc, cid)]
    return answer(record, clause_text(record))


def find_clause(kb: KnowledgeBase, doc: str, clause: str) -> tuple[dict[str, Any], str]:
    """The unit holding a clause id as a reader may write it ("27B1b", "27B1(b)", "sipari-5.8",
    a unit's own id); `ToolError` naming the document's units when there is none."""
    try:
        units = kb.store.units_of(doc)
    except NotFound as e:
        raise ToolError(str(e)) from e
    wanted = {clause.strip(), normalize_ref(clause)}
    for unit in units.values():
        found = next((c["id"] for c in unit["clauses"] if c["id"] in wanted), None)
        if found or unit["id"] in wanted:
            return unit, found or unit["id"]
    raise ToolError(f"no clause {clause!r} in {doc}: a Law clause is written 27B1b or 27B1(b), another clause "
                    f"by the id its page anchors it at (sipari-5.8), a unit by its id (40, def-licita)")


def clause_record(kb: KnowledgeBase, doc: str, unit: dict[str, Any], cid: str) -> dict[str, Any]:
    clause = next((c for c in unit["clauses"] if c["id"] == cid), {})
    laws = kb.library.is_laws(doc)
    return {"doc": doc, "edition": kb.library.edition(doc) or "", "unit": unit["id"], "id": cid,
            "label": readable(cid) if laws else cid, "marker": clause.get("label") or "",
            "title": unit.get("title") or "", "heading": clause.get("title") or "",
            "text": subtree_text(unit, cid), "url": url_for(doc, unit["id"], cid)}


def parallel_record(kb: KnowledgeBase, doc: str, cid: str, relation: str, note: str) -> dict[str, Any]:
    """The other edition's clause beside this one, with its text (when that edition has it)."""
    unit = kb.store.units_of(doc).get(article_of(cid))
    shown = clause_record(kb, doc, unit, cid) if unit else {"doc": doc, "id": cid, "label": readable(cid)}
    return shown | {"relation": relation, "note": note}


def clause_text(r: dict[str, Any]) -> str:
    lines = [f"{r['doc']} {r['label']} ({r['edition']})" + (f" — {r['title']}" if r["title"] else ""),
             r["text"], f"Cite as: {r['citation']}", f"Page: {r['url']}"]
    lines += [f"↔ {p['doc']} {p['label']} ({p.get('edition', '')}, {p['relation']})" + (f": {p['note']}" if p["note"] else "")
              for p in r["parallel"]]
    return "\n".join(lines)


def compare_answer(kb: KnowledgeBase, law: int, older: str | None, newer: str | None) -> CallToolResult:
    try:
        view = kb.editions.compare(str(law), older, newer)
    except NotFound as e:
        raise ToolError(str(e)) from e
    data = view.to_dict()
    lines = [f"Law {law}: {view.pair.newer} beside {view.pair.older} "
             + ", ".join(f"{n} {rel}" for rel, n in view.summary.items())]
    lines += [f"{r.new or '—'} ↔ {r.old or '—'}  {r.relation}" + (f": {r.note}" if r.note else "") for r in view.rows]
    return answer(data, "\n".join(lines))


def situations_answer(kb: KnowledgeBase, lang: str, query: str | None) -> CallToolResult:
    index = kb.situation_index(lang)
    if not query:
        listed = [{"id": e.id, "name": e.name, "period": e.period, "url": e.url} for e in index.entries]
        data = {"lang": lang, "total": len(listed), "situations": listed}
        return answer(data, "\n".join(f"{e['id']}: {e['name']} ({e['period']})" for e in listed))
    found = [e.to_dict() for e in index.entries if _matches(e, query)]
    text = "\n".join(f"{e['name']} ({e['period']}): " + "; ".join(f"{r['doc']} {r['label']}" for r in e["rules"])
                     for e in found) or f"no situation says {query!r}; call situations without a query for the list"
    return answer({"lang": lang, "query": query, "total": len(found), "situations": found}, text)


def _matches(entry: Any, query: str) -> bool:
    """A situation a lookup names: by its id, or by all the query's words in one of its names."""
    if query == entry.id:
        return True
    words = fold(query).split()
    return bool(words) and any(all(w in fold(name) for w in words) for name in (entry.name, *entry.also))


def cite_answer(kb: KnowledgeBase, text: str, lang: str | None) -> CallToolResult:
    try:
        result = kb.cite(text, lang)
    except CiteError as e:
        raise ToolError(str(e)) from e
    data = {k: v for k, v in result.to_dict().items() if k != "html"}  # an assistant reads text, not markup
    return answer(data, render_cite(result))


# ---------------------------------------------------------------- the server

DOCUMENTS = ("it-laws (the Laws 2017, Italian, in force), es-laws (the Laws 2007, Spanish), it-norms (the "
             "integrative norms), it-timeref (the time references), it-burraco (the Burraco code)")


def server(build_dir: Path | None = None) -> MCPServer:
    """The MCP server over a build folder's current generation (`BuildError` when it has none)."""
    current = Current(build_dir)
    mcp = MCPServer("bridge-laws-kb", title="Laws of Duplicate Bridge", version=__version__,
                    instructions=INSTRUCTIONS, log_level="WARNING")

    @mcp.tool(annotations=READ_ONLY)
    def search(query: Annotated[str, Field(description="words in Italian, Spanish or English, or a clause number "
                                                       "(27B1, art. 50, Artículo 64); typos are welcome")],
               doc: Annotated[str | None, Field(description=f"only this document: {DOCUMENTS}")] = None,
               lang: Annotated[Language | None, Field(description="only texts in this language")] = None,
               limit: Annotated[int, Field(ge=1, le=50, description="how many units at most")] = 10) -> CallToolResult:
        """Search the Laws, norms, time references and Burraco code: the units best first, each with its
        best clause's id, title, a plain-text snippet and its page; a clause number also gives `jump`."""
        return search_answer(current.get(), query, doc, lang, limit)

    @mcp.tool(annotations=READ_ONLY)
    def clause(doc: Annotated[str, Field(description=f"the document: {DOCUMENTS}")],
               id: Annotated[str, Field(description="the clause id: 27B1b or 27B1(b) for a Law, a norm's "
                                                    "paragraph (sipari-5.8), or a unit's id (40, def-licita)")],
               lang: Annotated[Language, Field(description="the reader's language, for the citation")] = DEFAULT
               ) -> CallToolResult:
        """A clause by id in any edition: its text (with its sub-clauses'), number and title, the citation in
        the reader's style, its page, and the other edition's clause beside it (the concordance)."""
        return clause_answer(current, doc, id, lang)

    @mcp.tool(annotations=READ_ONLY)
    def compare(law: Annotated[int, Field(ge=1, description="the Law's number (1-93)")],
                older: Annotated[str | None, Field(description="the older edition (default: es-laws)")] = None,
                newer: Annotated[str | None, Field(description="the newer edition (default: it-laws)")] = None
                ) -> CallToolResult:
        """Law n in its two editions, row by row: each 2017 clause beside its 2007 clause and their relation
        (same, moved, split, merged, changed, new, removed) with the concordance's note."""
        return compare_answer(current.get(), law, older, newer)

    @mcp.tool(annotations=READ_ONLY)
    def situations(lang: Annotated[Language, Field(description="the language the situations are named in")] = DEFAULT,
                   query: Annotated[str | None, Field(description="a situation's id or words of its name; none: "
                                                                  "the whole index")] = None) -> CallToolResult:
        """The situation index: what happens at the table, as people say it, and the clauses that rule it.
        Without a query, every situation (id, name, period of the board); with one, those it names, with rules."""
        return situations_answer(current.get(), lang, query)

    @mcp.tool(annotations=READ_ONLY)
    def cite(text: Annotated[str, Field(description="a ruling, an appeal decision or an answer that cites Laws, "
                                                    "norms or clauses (at most 20000 characters)")],
             lang: Annotated[Language | None, Field(description="the text's language, read first")] = None
             ) -> CallToolResult:
        """Check every citation in a text: each Law, norm or clause found, with its status (exists,
        not-in-edition, numbered-otherwise with the concordance's pair, no-such-clause, external), the clause's
        text and page. Without a stated edition a Law is checked in the edition in force, then in 2007."""
        return cite_answer(current.get(), text, lang)

    return mcp
