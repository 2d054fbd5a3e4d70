"""The built knowledge base as its readers get it: documents, units, clauses and citations as
frozen records, read once from the export (`Store`), each giving back its JSON (`to_dict`, the
export's own shape, DESIGN §5).

Where the export carries a profile's own fields (a time-reference entry's `ref`, a norm's
`law`, a definition's `term`), a record keeps them in order in `extra` and names those its
readers use as properties. What a clause is called is decided here once (`BuiltUnit.number`,
`BuiltUnit.heading`): the pages, the search hits, the situation index, the study cards and the
release all ask the unit.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from .clauseid import readable

Json = dict[str, Any]
NO_EXTRA: Mapping[str, Any] = MappingProxyType({})  # a record's `extra` by default (a factory's: dataclasses refuse an unhashable default)


def read_only(d: Mapping[str, Any], own: tuple[str, ...] = ()) -> Mapping[str, Any]:
    """The fields of an export record that are not its own, in the export's order, read-only all
    the way down (lists as tuples, mappings as proxies): a reader cannot change the build."""
    rest = {k: _frozen(v) for k, v in d.items() if k not in own}
    return MappingProxyType(rest) if rest else NO_EXTRA


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    return tuple(map(_frozen, value)) if isinstance(value, (list, tuple)) else value


def _json(value: Any) -> Any:
    """An `extra` value as the export writes it."""
    if isinstance(value, Mapping):
        return {k: _json(v) for k, v in value.items()}
    return [_json(v) for v in value] if isinstance(value, tuple) else value


def _extra_json(extra: Mapping[str, Any]) -> Json:
    return {k: _json(v) for k, v in extra.items()}


@dataclass(frozen=True)
class BuiltTable:
    rows: tuple[tuple[str, ...], ...]
    header: tuple[tuple[str, ...], ...] = ()
    caption: str | None = None
    at: int | None = None  # paragraphs of the clause's text printed before the table

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "BuiltTable":
        return cls(tuple(map(tuple, d["rows"])), tuple(map(tuple, d.get("header", []))), d.get("caption"), d.get("at"))

    def to_dict(self) -> Json:
        d: Json = {"caption": self.caption} if self.caption else {}
        if self.at is not None:
            d["at"] = self.at
        return d | {"header": [list(r) for r in self.header], "rows": [list(r) for r in self.rows]}


@dataclass(frozen=True)
class BuiltNote:
    kind: str  # "national-note", "editor-note", ...
    text: str
    at: int | None = None

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "BuiltNote":
        return cls(d["kind"], d["text"], d.get("at"))

    def to_dict(self) -> Json:
        return {"kind": self.kind, "text": self.text} | ({"at": self.at} if self.at is not None else {})


@dataclass(frozen=True)
class BuiltFootnote:
    marker: str
    text: str
    clause: str | None = None
    clauses: tuple[str, ...] = ()  # every clause that carries the marker, in text order

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "BuiltFootnote":
        return cls(d["marker"], d["text"], d.get("clause"), tuple(d.get("clauses", ())))

    def to_dict(self) -> Json:
        return {"marker": self.marker, "text": self.text} | ({"clause": self.clause} if self.clause else {}) | {
            "clauses": list(self.clauses)}


CLAUSE_OWN = ("id", "parent", "label", "text", "title", "tables", "notes")


@dataclass(frozen=True)
class BuiltClause:
    """A clause as built. `label` is its own marker ("B", "(a)"); `extra` the profile's fields."""
    id: str
    parent: str | None
    label: str
    text: str
    title: str | None = None
    tables: tuple[BuiltTable, ...] = ()
    notes: tuple[BuiltNote, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=lambda: NO_EXTRA, hash=False)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "BuiltClause":
        return cls(d["id"], d["parent"], d["label"], d["text"], d.get("title"),
                   tuple(map(BuiltTable.from_dict, d.get("tables", ()))),
                   tuple(map(BuiltNote.from_dict, d.get("notes", ()))), read_only(d, CLAUSE_OWN))

    def to_dict(self) -> Json:
        d: Json = {"id": self.id, "parent": self.parent, "label": self.label}
        if self.title is not None:
            d["title"] = self.title
        d["text"] = self.text
        if self.tables:
            d["tables"] = [t.to_dict() for t in self.tables]
        if self.notes:
            d["notes"] = [n.to_dict() for n in self.notes]
        return d | _extra_json(self.extra)

    @property
    def kind(self) -> str | None:
        """What the profile calls it: a time-reference entry ("entry"), a topic, ..."""
        return self.extra.get("kind")

    @property
    def paragraph(self) -> bool:
        """Text that follows its owner's items (`69B-p2`), read at the owner's depth."""
        return bool(self.extra.get("paragraph"))

    @property
    def ref(self) -> str | None:
        """A time-reference entry's reference to the Laws, as written."""
        return self.extra.get("ref")

    @property
    def law_clause(self) -> str | None:
        """The Law clause a norm's paragraph is written on ("40B2a4")."""
        return self.extra.get("law_clause")

    @property
    def subtopic(self) -> str | None:
        return self.extra.get("subtopic")

    @property
    def subtopic_index(self) -> int | None:
        """A time-reference entry's situation, by its place in the topic (its entries share it)."""
        return self.extra.get("subtopic_index")

    @property
    def term(self) -> str | None:
        """The term a definition's clause defines."""
        return self.extra.get("term")


UNIT_OWN = ("id", "kind", "title", "group", "clauses", "footnotes", "text")


@dataclass(frozen=True)
class BuiltUnit:
    """A unit as built, knowing its document (`doc`) and whether that is an edition of the Laws
    (`laws`): what its clauses are called depends on it."""
    doc: str
    laws: bool
    id: str
    kind: str
    title: str | None
    clauses: tuple[BuiltClause, ...]
    footnotes: tuple[BuiltFootnote, ...]
    text: str
    group: str | None = None
    extra: Mapping[str, Any] = field(default_factory=lambda: NO_EXTRA, hash=False)

    @classmethod
    def from_dict(cls, doc: str, laws: bool, d: Mapping[str, Any]) -> "BuiltUnit":
        return cls(doc, laws, d["id"], d["kind"], d["title"], tuple(map(BuiltClause.from_dict, d["clauses"])),
                   tuple(map(BuiltFootnote.from_dict, d["footnotes"])), d["text"], d.get("group"), read_only(d, UNIT_OWN))

    def to_dict(self) -> Json:
        d: Json = {"id": self.id, "kind": self.kind, "title": self.title}
        if self.group is not None:
            d["group"] = self.group
        return d | _extra_json(self.extra) | {"clauses": [c.to_dict() for c in self.clauses],
                                        "footnotes": [f.to_dict() for f in self.footnotes], "text": self.text}

    def clause(self, clause_id: str | None) -> BuiltClause | None:
        return next((c for c in self.clauses if c.id == clause_id), None)

    @property
    def numbered(self) -> bool:
        """A Law article: its clauses are called by their ids' numbers ("27B1(a)")."""
        return self.laws and self.kind == "article"

    @property
    def law(self) -> tuple[str, ...]:
        """The Laws a norm integrates, by its heading's number (`ARTICOLO 92 – ARTICOLO 93`)."""
        return self.extra.get("law", ())

    @property
    def appendix(self) -> str | None:
        return self.extra.get("appendix")

    @property
    def term(self) -> str | None:
        return self.extra.get("term")

    @property
    def label(self) -> str:
        """The unit's own number where it has one (an article, a norm), else ""."""
        return self.id if self.kind in ("article", "norm") else ""

    def number(self, clause: BuiltClause) -> str:
        """What a clause is called inside its unit, the one rule: a Law clause by its number
        ("27B1(a)"), a time-reference entry by its reference as written ("—" for none), any
        other by its own label."""
        if self.numbered:
            return readable(clause.id)
        if clause.ref is not None or clause.kind == "entry":
            return clause.ref or "—"
        return clause.label or ""

    def heading(self, clause: BuiltClause) -> str:
        """What a clause is called where the unit is shown: its number, but "" for the unit's
        lead clause, a paragraph clause and a term clause ("Verde: …", shown by its title)."""
        if clause.id == self.id or clause.paragraph or clause.label == clause.title:
            return ""
        return self.number(clause)

    def depths(self) -> dict[str, int]:
        """How deep each clause sits under the unit (its own clause is 0); a paragraph clause
        that follows its owner's items (`69B-p2`) is read at its owner's depth."""
        out: dict[str, int] = {}
        for c in self.clauses:
            out[c.id] = out.get(c.parent, -1) + (0 if c.paragraph else 1) if c.parent else 0
        return out


@dataclass(frozen=True)
class BuiltGroup:
    """A part of a document's table of contents (a chapter, a Burraco section), by which
    `BuiltUnit.group` places a unit."""
    id: str
    title: str | None = None

    def to_dict(self) -> Json:
        return {"id": self.id, "title": self.title}


DOC_OWN = ("id", "title", "lang", "kind", "edition", "units", "groups")


@dataclass(frozen=True)
class BuiltDocument:
    """A document as built: what the manifest and its text say of it, and its units in order.
    `extra` is the rest of its metadata (issuer, dates, the text's own front matter)."""
    id: str
    title: str
    lang: str
    kind: str
    edition: str
    units: tuple[BuiltUnit, ...]
    groups: tuple[BuiltGroup, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=lambda: NO_EXTRA, hash=False)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "BuiltDocument":
        laws = d["kind"] == "laws"
        return cls(d["id"], d["title"], d["lang"], d["kind"], d["edition"],
                   tuple(BuiltUnit.from_dict(d["id"], laws, u) for u in d["units"]),
                   tuple(BuiltGroup(g["id"], g.get("title")) for g in d.get("groups", ())), read_only(d, DOC_OWN))

    def to_dict(self) -> Json:
        return self.meta() | {"units": [u.to_dict() for u in self.units]}

    def meta(self) -> Json:
        """The document without its units: what `/api/docs` lists."""
        d: Json = {"id": self.id, "title": self.title, "lang": self.lang, "kind": self.kind, "edition": self.edition}
        d |= _extra_json(self.extra)
        return d | ({"groups": [g.to_dict() for g in self.groups]} if self.groups else {})

    @property
    def issuer(self) -> str | None:
        return self.extra.get("issuer")

    @property
    def effective(self) -> str | None:
        """The day it came into force (ISO), and as the text prints it (`effective_text`)."""
        return self.extra.get("effective")

    @property
    def effective_text(self) -> str | None:
        return self.extra.get("effective_text")

    @property
    def adopted(self) -> str | None:
        return self.extra.get("adopted")

    @property
    def adopted_text(self) -> str | None:
        return self.extra.get("adopted_text")

    @property
    def source(self) -> str:
        """The source text's file in the corpus, and the file as received (`original`)."""
        return self.extra["source"]

    @property
    def original(self) -> str:
        return self.extra.get("original") or self.source

