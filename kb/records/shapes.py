"""The JSON the citation check and the MCP server answer, typed: the MCP tools' output schemas
(`kb.assistant`) and, for the citation check, the HTTP API's (web/api/models.py). The records
that make this JSON are elsewhere (their `to_dict`); a test holds every answer to its shape.
"""
from __future__ import annotations

from typing import Any, Literal, Optional

from typing_extensions import TypedDict  # pydantic reads typing's TypedDict only from Python 3.12

Status = Literal["exists", "not-in-edition", "numbered-otherwise", "no-such-clause", "external"]


class ClauseRef(TypedDict):
    """A clause a citation names: where it is and its page; its text is in `targets[key]`."""
    key: str         # "it-laws/27B1b": its entry in the check's `targets`
    doc: str
    edition: str
    unit: str
    id: str
    label: str
    title: str
    url: str


class ClauseText(ClauseRef):
    """A clause named by the citations, once: its text with its sub-clauses' (at most 2000
    characters, `truncated` past that: its page has the rest)."""
    text: str
    truncated: bool


class ConcordanceRow(TypedDict):
    """The concordance's row for the clause: the older edition's and the newer's (one of them
    absent for a clause removed or added), their relation and the note."""
    older: Optional[ClauseRef]
    newer: Optional[ClauseRef]
    relation: str
    note: str


class CheckedCitation(TypedDict):
    """A citation found in the text (`start`-`end`, as `written`), the document it was checked
    against (`checked`: the one the text names, `stated`, else the Laws in force), its status,
    the clause it leads to (`target`: in the edition that has it), the concordance's row for it
    (`pair`) and, when there is no such clause, the nearest clause there is (`nearest`)."""
    start: int
    end: int
    written: str
    kind: str
    status: Status
    checked: Optional[str]
    stated: bool
    id: str
    label: str
    target: Optional[ClauseRef]
    pair: Optional[ConcordanceRow]
    nearest: Optional[ClauseRef]


class CiteAnswer(TypedDict):
    """Every citation found in a text, in text order, and each clause they name, once (`targets`)."""
    length: int
    total: int
    summary: dict[str, int]  # how many citations of each status
    citations: list[CheckedCitation]
    targets: dict[str, ClauseText]


# ---------------------------------------------------------------- the other MCP tools

class SearchHit(TypedDict):
    doc: str
    unit: str
    clause: str
    label: str
    title: str
    kind: str
    lang: str
    snippet: str  # plain text
    url: str


class Jump(TypedDict):
    """The clause a number query names in one document (`exact`: that clause, not its nearest ancestor)."""
    doc: str
    unit: str
    clause: str
    label: str
    title: str
    url: str
    exact: bool


class SearchAnswer(TypedDict):
    query: str
    total: int
    hits: list[SearchHit]
    suggestion: Optional[str]
    jump: Optional[Jump]      # a number query's clause, when one document has it…
    choices: list[Jump]       # …or the documents that have it, to choose from


class Beside(TypedDict, total=False):
    """The other edition's clause beside this one (`id` None: the concordance says the clause
    was removed, or added, in the newer edition)."""
    doc: str
    edition: str
    unit: str
    id: Optional[str]
    label: Optional[str]
    marker: str
    title: str
    heading: str
    text: str
    url: str
    relation: str
    note: str


class ClauseAnswer(TypedDict):
    doc: str
    edition: str
    unit: str
    id: str
    label: str
    marker: str
    title: str
    heading: str
    text: str
    url: str
    citation: str
    parallel: list[Beside]


class CompareAnswer(TypedDict):
    law: int
    older: str
    newer: str
    summary: dict[str, int]
    rows: list[dict[str, Any]]  # newer, older, relation, note, notes, elsewhere (as /api/compare/{n})


class SituationsAnswer(TypedDict, total=False):
    lang: str
    query: str
    total: int
    situations: list[dict[str, Any]]  # id, name, period, url; with a query, also, rules and note
