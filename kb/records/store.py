"""The built knowledge base, read-only: look documents and units up by id."""
from __future__ import annotations

from typing import Any

from .built import BuiltDocument, BuiltUnit
from .citation import Citation


class NotFound(LookupError):
    """An unknown document, unit or Law; the message names what exists, the fields say what
    was asked for (a page says it in its reader's language)."""

    def __init__(self, message: str, doc: str | None = None, unit: str | None = None,
                 law: str | None = None, last: int | None = None, pairs: tuple[tuple[str, str], ...] = ()):
        super().__init__(message)
        self.doc, self.unit, self.law, self.last, self.pairs = doc, unit, law, last, pairs


def _names(ids: list[str], limit: int = 12) -> str:
    shown = ", ".join(ids[:limit])
    return shown + (f", … ({len(ids)} in all)" if len(ids) > limit else "")


class Store:
    """The export read once into frozen records (`kb.records.built`): documents, their units,
    and the citations, by where they are written and by what they reach. `export` is the export
    as written, for what is made from the whole (the library, the editions)."""

    def __init__(self, export: dict[str, Any]):
        self.export = export
        self.documents: dict[str, BuiltDocument] = {d["id"]: BuiltDocument.from_dict(d) for d in export["documents"]}
        self._units = {d.id: {u.id: u for u in d.units} for d in self.documents.values()}
        self.citations: tuple[Citation, ...] = tuple(map(Citation.from_dict, export.get("citations", ())))
        out: dict[tuple[str, str], list[Citation]] = {}
        into: dict[tuple[str, str], list[Citation]] = {}
        for c in self.citations:
            out.setdefault(c.source[:2], []).append(c)
            for t in c.reached():
                into.setdefault((t.doc, t.unit or ""), []).append(c)
        self._out = {k: tuple(v) for k, v in out.items()}
        self._in = {k: tuple(c for c in v if c.source[:2] != k) for k, v in into.items()}  # from other units

    def doc(self, doc_id: str) -> BuiltDocument:
        try:
            return self.documents[doc_id]
        except KeyError:
            raise NotFound(f"unknown document {doc_id!r}; documents: {_names(list(self.documents))}",
                           doc=doc_id) from None

    def unit(self, doc_id: str, unit_id: str) -> BuiltUnit:
        units = self._units[self.doc(doc_id).id]
        try:
            return units[unit_id]
        except KeyError:
            raise NotFound(f"unknown unit {unit_id!r} in {doc_id}; units: {_names(list(units))}",
                           doc=doc_id, unit=unit_id) from None

    def outgoing(self, doc_id: str, unit_id: str) -> tuple[Citation, ...]:
        """Citations written in a unit, in text order."""
        return self._out.get((doc_id, unit_id), ())

    def incoming(self, doc_id: str, unit_id: str) -> tuple[Citation, ...]:
        """Citations from other units that reach this unit (directly or, for 2007
        references, through the concordance)."""
        return self._in.get((doc_id, unit_id), ())

    def units_of(self, doc_id: str) -> dict[str, BuiltUnit]:
        return self._units[self.doc(doc_id).id]

    def title(self, doc_id: str, unit_id: str) -> str:
        unit = self._units.get(doc_id, {}).get(unit_id)
        return (unit.title or "") if unit else ""
