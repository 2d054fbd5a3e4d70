"""The JSON API's shapes, for its OpenAPI description (DESIGN §8).

The routes return plain JSON (no validation on the way out: the export is already
checked at build time); these models say what that JSON is, and a test holds every
real response to them. A search answers the engine's own `Result` record. Fields a record may grow (document metadata, clause extras)
are allowed beyond those named.
"""
from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict

from kb.records.shapes import CiteAnswer  # the citation check's JSON, as kb cite --json and the MCP server answer it


class Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class ApiErrorBody(BaseModel):
    error: str
    status: int


class DocumentSummary(Open):
    id: str
    title: str
    lang: str
    kind: str
    edition: str
    units: int
    url: str


class Clause(Open):
    id: str
    text: str
    parent: Optional[str] = None
    label: Optional[str] = None
    title: Optional[str] = None


class Link(Open):
    """A reference to or from a clause: where it points (a unit and clause, with its title and
    page), as written (`raw`), its kind and the clause of this unit it sits at (`at`)."""
    doc: str
    unit: Optional[str] = None
    clause: Optional[str] = None
    title: Optional[str] = None
    url: Optional[str] = None
    name: Optional[str] = None  # an external text
    raw: str
    kind: str
    at: Optional[str] = None


class Parallel(Open):
    """The other edition's clause for one of this unit's clauses (the concordance)."""
    clause: str
    doc: str
    unit: str
    target: str
    label: str
    relation: str
    note: str
    url: str


class Neighbour(BaseModel):
    """The unit before or after, in its document."""
    unit: str
    title: str
    url: str


class Term(BaseModel):
    """A defined term the unit's text uses, and its definition's page."""
    title: str
    url: str


class CompareLink(BaseModel):
    """Law n beside another edition: that edition's language and year."""
    url: str
    language: str
    edition: str


class UnitWithLinks(Open):
    id: str
    kind: str
    title: str
    text: str
    clauses: list[Clause]
    footnotes: list[dict[str, Any]]
    cites: list[Link]
    cited_by: list[Link]
    norms: list[Link]
    timerefs: list[Link]
    parallel: list[Parallel]
    prev: Optional[Neighbour] = None
    next: Optional[Neighbour] = None
    terms: list[Term]
    compare: list[CompareLink]


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The `responses` of a route: the error statuses it really returns, with their body."""
    said = {400: "a bad parameter (the message names it)", 404: "no such document or unit",
            413: "a body too large, or sent without its length (the message gives the limit)",
            414: "a URL too long (the message says how to send a long text: by POST)",
            503: "no build is loaded yet"}
    return {status: {"model": ApiErrorBody, "description": said[status]} for status in statuses}


class CompareRow(BaseModel):
    """One row: the newer and the older edition's clause (either may be absent), their
    relation, the concordance's note, and the other edition's clauses the row points to."""
    newer: Optional[str] = None
    older: Optional[str] = None
    relation: str
    note: str
    notes: dict[str, str]   # the note in each language it is written in ("en", "it", "es")
    elsewhere: list[str]


class CompareView(BaseModel):
    law: int
    older: str
    newer: str
    summary: dict[str, int]  # how many rows of each relation
    rows: list[CompareRow]


class Change(BaseModel):
    """A clause changed, moved, split, merged, new or removed from the older edition to the newer."""
    law: int
    relation: str
    older: Optional[str] = None
    newer: Optional[str] = None
    note: str
    notes: dict[str, str]   # the note in each language it is written in


class ChangesView(BaseModel):
    older: str
    newer: str
    summary: dict[str, int]  # how many changes of each relation
    changes: list[Change]


class Rule(BaseModel):
    """A clause that rules a situation, in one edition or document."""
    doc: str
    unit: str
    clause: Optional[str] = None
    label: str
    title: str
    edition: str
    url: str


class Situation(BaseModel):
    id: str
    name: str
    also: list[str]
    period: str
    rules: list[Rule]
    note: str


class PeriodSituations(BaseModel):
    period: str
    situations: list[str]


class SituationIndex(BaseModel):
    """Every situation named in one language, A–Z, and their ids by period of the board."""
    lang: str
    situations: list[Situation]
    periods: list[PeriodSituations]



class CiteRequest(BaseModel):
    """A text to check, sent as the body of a POST (a text too long for a URL)."""
    text: str
    lang: Optional[Literal["it", "es", "en"]] = None  # the text's language, read first (default: all three alike)


class CiteResult(CiteAnswer):
    """Every citation found in a text, in text order, each clause they name once (`targets`), and
    the text as HTML with each citation a link classed by its status (`citation exists`, …)."""
    html: str
