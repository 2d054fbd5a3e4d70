"""The knowledge base as an MCP server (`kb mcp`, DESIGN §9): what an assistant calls to answer
with verified clauses — search, a clause by id in any edition, the compare rows of a Law, the
situation index, the citation check — on standard input/output, with the official SDK (`mcp`).

It reads the build's current generation (`kb.open`), opened once and again when a newer build
lands; it never builds. Each tool answers structured content (the HTTP API's shapes, §8) and
the same said as text; a bad argument is a tool error whose message says what exists.
"""
from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Annotated, Any, Callable, Literal

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import (INVALID_PARAMS, PARSE_ERROR, CallToolResult, ErrorData, JSONRPCError, JSONRPCMessage,
                       JSONRPCResponse, TextContent, ToolAnnotations)
from pydantic import Field, ValidationError

from .common.version import __version__
from .corpus.catalogs import BUILD_DIR as CATALOGS, DEFAULT, translations
from .citations.check import CiteError, Reading, subtree_text, unencodable
from .citations.extract import normalize_ref
from .citations.style import clause_name
from .records.built import BuiltUnit
from .records.clauseid import article_of, readable, unit_numbered
from .pipeline.generations import BuildError
from .readmodel.knowledge import KnowledgeBase
from .search.analysis import fold
from .search.query import QueryError
from .records.shapes import CiteAnswer, ClauseAnswer, CompareAnswer, SearchAnswer, SituationsAnswer
from .records.store import NotFound
from .corpus.urls import url_for

Language = Literal["it", "es", "en"]  # the interface's languages: a reader's, for names and citations
TextLanguage = Literal["it", "es"]     # the languages the texts are written in (the manifest's `lang`s): search's filter

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


def answer(data: dict[str, Any]) -> CallToolResult:
    """Structured content, and the same serialised as JSON in a text block (as the MCP
    specification asks of a tool with an output schema, for clients that read text only)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def sound(**arguments: str | None) -> None:
    """ToolError for an argument that is not text (a lone surrogate): it could be neither read
    nor answered (a reply that holds it cannot be written, and the client would wait for ever)."""
    for name, value in arguments.items():
        try:
            unencodable(value or "", f"the argument {name!r}")
        except CiteError as e:
            raise ToolError(str(e)) from e


# ---------------------------------------------------------------- the tools' answers

def search_answer(kb: KnowledgeBase, query: str, doc: str | None, lang: str | None, ui: str | None,
                  limit: int) -> CallToolResult:
    try:
        result = kb.search(query, doc=doc, lang=lang, limit=limit, ui=ui)
    except QueryError as e:
        raise ToolError(str(e)) from e
    hits = [{"doc": h.doc, "unit": h.unit, "clause": h.clause, "label": h.label, "title": h.title, "kind": h.kind,
             "lang": h.lang, "snippet": plain(h.snippet), "url": h.url} for h in result.hits]
    data = {"query": result.query, "total": result.total, "hits": hits, "suggestion": result.suggestion,
            "jump": result.jump, "choices": result.choices}
    return answer(data)


def plain(snippet: str) -> str:
    """A search snippet as plain text: its `<mark>`s dropped, its entities read."""
    return html.unescape(re.sub(r"</?mark>", "", snippet))


def clause_answer(current: Current, doc: str, clause: str, lang: str) -> CallToolResult:
    kb = current.get()
    unit, cid = find_clause(kb, doc, clause)
    record = clause_record(kb, doc, unit, cid)
    # as the study cards cite it, by the paragraph's whole number ("Norma 4 §3b1", not its own "(1)")
    named = clause_name(current.gettext(lang), unit, cid)
    record["citation"] = f"{kb.library.label(doc, lang)}, {named}"
    record["parallel"] = [parallel_record(kb, p.other, p.target, p.relation, p.note)
                          for p in kb.editions.of_clause(doc, cid)] or alone(kb, doc, unit.id, cid)
    return answer(record)


def alone(kb: KnowledgeBase, doc: str, unit: str, cid: str) -> list[dict[str, Any]]:
    """A clause the other edition has nothing beside: the concordance's row saying it was removed
    (or added) in the newer edition, with its note."""
    row = kb.checker.alone(Reading(doc, unit, cid, True)) if kb.library.is_laws(doc) else None
    other = next(iter(kb.library.counterparts(doc)), None)
    if row is None or other is None:
        return []
    return [{"doc": other, "edition": kb.library.edition(other) or "", "id": None, "label": None,
             "relation": row.relation, "note": row.note}]


def find_clause(kb: KnowledgeBase, doc: str, clause: str) -> tuple[BuiltUnit, str]:
    """The unit holding a clause id as a reader may write it ("27B1b", "27B1(b)", "sipari-5.8",
    a unit's own id; a norm by either Law it is on, "92" for 92-93, its paragraph on a Law
    clause by that clause, "40B2(a)(v)"); `ToolError` naming the document's units when there is none."""
    try:
        units = kb.store.units_of(doc)
    except NotFound as e:
        raise ToolError(str(e)) from e
    wanted = {clause.strip(), normalize_ref(clause)}
    for unit in units.values():
        found = next((c.id for c in unit.clauses if c.id in wanted or c.law_clause in wanted), None)
        if found or unit.id in wanted:
            return unit, found or unit.id
    numbered = unit_numbered(units, clause.strip())
    if numbered:
        return units[numbered], numbered
    raise ToolError(f"no clause {clause!r} in {doc}: a Law clause is written 27B1b or 27B1(b), another clause "
                    f"by the id its page anchors it at (sipari-5.8), a unit by its id (40, def-licita)")


def clause_record(kb: KnowledgeBase, doc: str, unit: BuiltUnit, cid: str) -> dict[str, Any]:
    clause = unit.clause(cid)
    return {"doc": doc, "edition": kb.library.edition(doc) or "", "unit": unit.id, "id": cid,
            "label": readable(cid) if unit.laws else cid, "marker": (clause.label if clause else "") or "",
            "title": unit.title or "", "heading": (clause.title if clause else "") or "",
            "text": subtree_text(unit, cid), "url": url_for(doc, unit.id, cid)}


def parallel_record(kb: KnowledgeBase, doc: str, cid: str, relation: str, note: str) -> dict[str, Any]:
    """The other edition's clause beside this one, with its text (when that edition has it)."""
    unit = kb.store.units_of(doc).get(article_of(cid))
    shown = clause_record(kb, doc, unit, cid) if unit else {"doc": doc, "id": cid, "label": readable(cid)}
    return shown | {"relation": relation, "note": note}


def compare_answer(kb: KnowledgeBase, law: int, older: str | None, newer: str | None) -> CallToolResult:
    try:
        view = kb.editions.compare(str(law), older, newer)
    except NotFound as e:
        raise ToolError(str(e)) from e
    return answer(view.to_dict())


def situations_answer(kb: KnowledgeBase, lang: str, query: str | None) -> CallToolResult:
    index = kb.situation_index(lang)
    if not query:
        listed = [{"id": e.id, "name": e.name, "period": e.period, "url": e.url} for e in index.entries]
        return answer({"lang": lang, "total": len(listed), "situations": listed})
    found = [e.to_dict() for e in index.entries if _matches(e, query)]
    return answer({"lang": lang, "query": query, "total": len(found), "situations": found})


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
    return answer(result.to_dict(html=False))  # an assistant reads text, not markup


# ---------------------------------------------------------------- the server

DOCUMENTS = ("it-laws (the Laws 2017, Italian, in force), es-laws (the Laws 2007, Spanish), it-norms (the "
             "integrative norms), it-timeref (the time references), it-burraco (the Burraco code)")


class Server(MCPServer):
    """The SDK's server, whose argument errors say in a line what was wrong ("limit: Input should
    be greater than or equal to 1"), not pydantic's report with its links."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context | None = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as e:
            if isinstance(e.__cause__, ValidationError):
                raise ToolError(f"bad argument to {name}: {argument_errors(e.__cause__)}") from e.__cause__
            raise


    async def run_stdio_async(self) -> None:
        """The SDK's stdio transport, each request answered: a line its JSON reader refuses (a lone
        surrogate in a string, "\\ud800", which Python's JSON reads) used to get no answer at all."""
        async with stdio_server() as (read_stream, write_stream):
            await self._lowlevel_server.run(Answering(read_stream, write_stream), write_stream,
                                            self._lowlevel_server.create_initialization_options())


class Answering:
    """A transport's incoming messages, less those it could not read: each such request is
    answered at once, a tool's call by a tool error, any other by a JSON-RPC error."""

    def __init__(self, inner: Any, write: Any):
        self.inner, self.write = inner, write

    @property
    def last_context(self) -> Any:
        return getattr(self.inner, "last_context", None)

    async def receive(self) -> Any:
        while True:
            item = await self.inner.receive()
            if not isinstance(item, Exception):
                return item
            reply = unread_reply(item)
            if reply is not None:
                await self.write.send(SessionMessage(reply))

    def __aiter__(self) -> "Answering":
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self.inner.aclose()

    async def __aenter__(self) -> "Answering":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()


def unread_reply(e: Exception) -> JSONRPCMessage | None:
    """The answer to a line the transport could not read as a message: for a request Python's
    JSON reads (an id and a method), a tool error or JSON-RPC error saying why; for a line that
    is no JSON, a parse error; for anything else (a notification, a response), none."""
    line = next((err.get("input") for err in e.errors()), None) if isinstance(e, ValidationError) else None
    if not isinstance(line, str):
        return None
    try:
        message = json.loads(line)
    except ValueError:
        return JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=PARSE_ERROR, message="not JSON"))
    if not isinstance(message, dict) or "method" not in message or message.get("id") is None:
        return None
    why = not_text(message.get("params")) or "not a valid request"
    if message["method"] == "tools/call":
        result = CallToolResult(content=[TextContent(type="text", text=why)], is_error=True)
        return JSONRPCResponse(jsonrpc="2.0", id=message["id"], result=result.model_dump(by_alias=True, exclude_none=True))
    return JSONRPCError(jsonrpc="2.0", id=message["id"], error=ErrorData(code=INVALID_PARAMS, message=why))


def not_text(value: Any, name: str = "") -> str | None:
    """Why a request's parameters cannot be read ("the argument 'text' cannot be read: its character
    1 is a lone surrogate …"), for the first string that cannot (named by its key in `arguments`)."""
    if isinstance(value, dict):
        return next((why for k, v in value.items() if (why := not_text(v, k if name in ("", "arguments") else name))),
                    None)
    if isinstance(value, list):
        return next((why for v in value if (why := not_text(v, name))), None)
    if isinstance(value, str):
        try:
            unencodable(value, f"the argument {name!r}")
        except CiteError as e:
            return str(e)
    return None


def argument_errors(e: ValidationError) -> str:
    """Each argument pydantic refused, and why, in its own words: "lang: Input should be 'it' or 'es'"."""
    return "; ".join(f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg']}" for err in e.errors())


def server(build_dir: Path | None = None) -> MCPServer:
    """The MCP server over a build folder's current generation (`BuildError` when it has none)."""
    current = Current(build_dir)
    mcp = Server("bridge-laws-kb", title="Laws of Duplicate Bridge", version=__version__,
                 instructions=INSTRUCTIONS, log_level="WARNING")

    @mcp.tool(annotations=READ_ONLY)
    def search(query: Annotated[str, Field(description="words in Italian, Spanish or English, or a clause number "
                                                       "(27B1, art. 50, Artículo 64); typos are welcome")],
               doc: Annotated[str | None, Field(description=f"only this document: {DOCUMENTS}")] = None,
               lang: Annotated[TextLanguage | None, Field(description="only texts written in this language")] = None,
               ui: Annotated[Language | None, Field(description="the reader's language: when both editions have a "
                                                               "clause number, its edition is the one the jump goes to "
                                                               "(en: either, as choices)")] = None,
               limit: Annotated[int, Field(ge=1, le=50, description="how many units at most")] = 10
               ) -> Annotated[CallToolResult, SearchAnswer]:
        """Search the Laws, norms, time references and Burraco code: the units best first, each with its
        best clause's id, title, a plain-text snippet and its page; a clause number also gives `jump` (the
        clause, when one document has it) or `choices` (the documents that have it)."""
        sound(query=query, doc=doc)
        return search_answer(current.get(), query, doc, lang, ui, limit)

    @mcp.tool(annotations=READ_ONLY)
    def clause(doc: Annotated[str, Field(description=f"the document: {DOCUMENTS}")],
               id: Annotated[str, Field(description="the clause id: 27B1b or 27B1(b) for a Law, a norm's "
                                                    "paragraph (sipari-5.8, or 40B2(a)(v) on that Law clause), or a "
                                                    "unit's id (40, 92 for the norm on Laws 92-93, def-licita)")],
               lang: Annotated[Language, Field(description="the reader's language, for the citation")] = DEFAULT
               ) -> Annotated[CallToolResult, ClauseAnswer]:
        """A clause by id in any edition: its text (with its sub-clauses'), number and title, the citation in
        the reader's style, its page, and the other edition's clause beside it (the concordance), or the
        concordance's word that the newer edition removed it (or added it)."""
        sound(doc=doc, id=id)
        return clause_answer(current, doc, id, lang)

    @mcp.tool(annotations=READ_ONLY)
    def compare(law: Annotated[int, Field(ge=1, description="the Law's number (1-93)")],
                older: Annotated[str | None, Field(description="the older edition (default: es-laws)")] = None,
                newer: Annotated[str | None, Field(description="the newer edition (default: it-laws)")] = None
                ) -> Annotated[CallToolResult, CompareAnswer]:
        """Law n in its two editions, row by row: each 2017 clause beside its 2007 clause and their relation
        (same, moved, split, merged, changed, new, removed) with the concordance's note."""
        sound(older=older, newer=newer)
        return compare_answer(current.get(), law, older, newer)

    @mcp.tool(annotations=READ_ONLY)
    def situations(lang: Annotated[Language, Field(description="the language the situations are named in")] = DEFAULT,
                   query: Annotated[str | None, Field(description="a situation's id or words of its name; none: "
                                                                  "the whole index")] = None
                   ) -> Annotated[CallToolResult, SituationsAnswer]:
        """The situation index: what happens at the table, as people say it, and the clauses that rule it.
        Without a query, every situation (id, name, period of the board); with one, those it names, with rules."""
        sound(query=query)
        return situations_answer(current.get(), lang, query)

    @mcp.tool(annotations=READ_ONLY)
    def cite(text: Annotated[str, Field(description="a ruling, an appeal decision or an answer that cites Laws, "
                                                    "norms or clauses (at most 20000 characters)")],
             lang: Annotated[Language | None, Field(description="the language the text is written in: its grammar's "
                                                                "reading comes first where two differ (all three are "
                                                                "read); it does not choose the edition")] = None
             ) -> Annotated[CallToolResult, CiteAnswer]:
        """Check every citation in a text: each Law, norm or clause found, with its status (exists,
        not-in-edition, numbered-otherwise, no-such-clause with the nearest clause there is, external), the
        concordance's row for it, and each clause named once in `targets` (text and page). A Law is checked in
        the edition the text names ("Law 23 of the 2007 Laws", "Reglamento 2007, Art. 12C1(e)"), else in the
        edition in force, then in the other."""
        sound(text=text)
        return cite_answer(current.get(), text, lang)

    return mcp
