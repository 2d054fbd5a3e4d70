"""Typed records of the knowledge base: document → unit → clause.

Parsers produce these; the export, the checks, the CLI and (later) the
citations, graph, index and web read them. Records flow one way: nothing
downstream mutates what a parser produced.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .built import BuiltClause, BuiltNote, BuiltTable, read_only


@dataclass
class Table:
    """A table as rows of cells; `header` rows are kept apart from data rows."""

    rows: list[list[str]]
    header: list[list[str]] = field(default_factory=list)
    caption: str | None = None
    at: int | None = None  # paragraphs of the clause's text printed before the table

    def frozen(self) -> BuiltTable:
        return BuiltTable(tuple(map(tuple, self.rows)), tuple(map(tuple, self.header)), self.caption, self.at)

    def to_dict(self) -> dict[str, Any]:
        return self.frozen().to_dict()

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Table":
        return cls(d["rows"], d.get("header", []), d.get("caption"), d.get("at"))


@dataclass
class Note:
    """A note printed inside the body: an AEB national note, an editor's note."""

    kind: str  # "national-note", "editor-note", ...
    text: str
    at: int | None = None  # paragraphs of the clause's text printed before the note

    def frozen(self) -> BuiltNote:
        return BuiltNote(self.kind, self.text, self.at)

    def to_dict(self) -> dict[str, Any]:
        return self.frozen().to_dict()

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Note":
        return cls(d["kind"], d["text"], d.get("at"))


@dataclass
class Footnote:
    """Footnote text peeled off the body.

    `clauses` are all the clauses whose text carries its marker, in text order (a
    footnote can be marked on several: IT 70's `normale*` in 70C3, D1, D2, E1);
    `clause` is the first of them (or, when the marker is not found, where the
    footnote was printed). Both are exported; `clauses` always, so a reader
    iterates one list: where the marker was not found it holds `clause` alone
    (the footnote's place), and it is empty only for a footnote placed nowhere.
    """

    marker: str
    text: str
    clause: str | None = None
    clauses: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.clauses and self.clause is None:
            self.clause = self.clauses[0]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"marker": self.marker, "text": self.text}
        if self.clause:
            d["clause"] = self.clause
        d["clauses"] = self.clauses or ([self.clause] if self.clause else [])
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Footnote":
        return cls(d["marker"], d["text"], d.get("clause"), list(d.get("clauses", [])))


@dataclass
class Clause:
    """An addressable part of a unit. `id` is also the HTML anchor.

    `label` is the clause's own marker in readable form ("B", "1", "(a)",
    "(ii)"); `title` is a section heading when the text gives one. `extra`
    holds profile-specific fields (a time-reference entry's `subtopic` and
    `ref`, a definition sense's number, ...), exported as-is.
    """

    id: str
    parent: str | None
    label: str
    text: str
    title: str | None = None
    tables: list[Table] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def add_table(self, table: Table) -> None:
        """Attach a table where the text has reached, so text and tables keep their order."""
        table.at = len(self.text.split("\n")) if self.text else 0
        self.tables.append(table)

    def add_note(self, note: Note) -> None:
        """Attach a note where the text has reached (an AEB note inside 78A's first sentence
        is read before the items that follow it)."""
        note.at = len(self.text.split("\n")) if self.text else 0
        self.notes.append(note)

    def frozen(self) -> BuiltClause:
        """The clause as its readers get it (`kb.records.built`), whose JSON the export writes."""
        return BuiltClause(self.id, self.parent, self.label, self.text, self.title, tuple(t.frozen() for t in self.tables),
                           tuple(n.frozen() for n in self.notes), read_only(self.extra))

    def to_dict(self) -> dict[str, Any]:
        return self.frozen().to_dict()

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Clause":
        """A clause as the export gives it (`to_dict` read back)."""
        own = ("id", "parent", "label", "text", "title", "tables", "notes")
        return cls(d["id"], d["parent"], d["label"], d["text"], d.get("title"),
                   [Table.from_dict(t) for t in d.get("tables", [])], [Note.from_dict(n) for n in d.get("notes", [])],
                   {k: v for k, v in d.items() if k not in own})


@dataclass
class Unit:
    """What a page shows: an article, a definition, a norm, a topic ...

    `title` is None when the text gives none (Burraco ART. 20): never invented.
    `group` places the unit in its document's table of contents (a chapter, a
    Burraco section, "front" for front matter).
    """

    id: str
    kind: str
    title: str | None
    clauses: list[Clause] = field(default_factory=list)
    footnotes: list[Footnote] = field(default_factory=list)
    group: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """Plain text of the whole unit, noise removed, in reading order (`kb.records.reading`)."""
        from .reading import clause_blocks
        return "\n".join(b.text for c in self.clauses for b in clause_blocks(c.frozen()))

    def clause(self, clause_id: str) -> Clause | None:
        for c in self.clauses:
            if c.id == clause_id:
                return c
        return None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "kind": self.kind, "title": self.title}
        if self.group is not None:
            d["group"] = self.group
        d.update(self.extra)
        d["clauses"] = [c.to_dict() for c in self.clauses]
        d["footnotes"] = [f.to_dict() for f in self.footnotes]
        d["text"] = self.text
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Unit":
        """A unit as the export gives it (`to_dict` read back; `text` is computed again)."""
        own = ("id", "kind", "title", "group", "clauses", "footnotes", "text")
        return cls(d["id"], d["kind"], d["title"], [Clause.from_dict(c) for c in d["clauses"]],
                   [Footnote.from_dict(f) for f in d["footnotes"]], d.get("group"),
                   {k: v for k, v in d.items() if k not in own})


@dataclass
class Document:
    id: str
    title: str
    lang: str
    kind: str
    edition: str
    units: list[Unit] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    groups: list[dict[str, str]] = field(default_factory=list)

    def unit(self, unit_id: str) -> Unit | None:
        for u in self.units:
            if u.id == unit_id:
                return u
        return None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "lang": self.lang,
            "kind": self.kind,
            "edition": self.edition,
        }
        d.update(self.meta)
        if self.groups:
            d["groups"] = self.groups
        d["units"] = [u.to_dict() for u in self.units]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Document":
        """A document as the export gives it: what reads a build resolves with the records the
        build resolved with (`kb.citations.resolve.Lookups`)."""
        own = ("id", "title", "lang", "kind", "edition", "units", "groups")
        return cls(d["id"], d["title"], d["lang"], d["kind"], d["edition"], [Unit.from_dict(u) for u in d["units"]],
                   {k: v for k, v in d.items() if k not in own}, d.get("groups", []))


@dataclass
class Parsed:
    """What a parsing profile returns for one source text.

    `groups` orders the document's table of contents ({"id", "title"} each,
    referenced by `Unit.group`); `meta` carries facts read from the text
    itself (dates, editors) to add to the manifest's.
    """

    units: list[Unit]
    groups: list[dict[str, str]] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
